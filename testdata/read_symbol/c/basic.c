#include <stdlib.h>

struct point {
	int x;
	int y;
};

union value {
	int i;
	double d;
};

enum color { RED, GREEN, BLUE };

typedef struct node {
	struct node *next;
} node_t, *node_p;

typedef struct {
	int w, h;
} size_t2;

typedef int (*compare_fn)(const void *, const void *);
typedef char name_buf[64];

int add(int a, int b);
char *dup_string(const char *s);

int add(int a, int b)
{
	return a + b;
}

static struct point origin(void)
{
	struct point p = {0, 0};
	int helper(void);
	return p;
}

int (*pick(int which))(int)
{
	return 0;
}

int (*callback)(int);
