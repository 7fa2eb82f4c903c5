/* Old-style definitions, attributes and pointers: the name's line counts. */

int
old_style(a, b)
	int a;
	char *b;
{
	return a;
}

static inline __attribute__((always_inline)) int
fast_path(int x)
{
	return x;
}

__attribute__((noreturn)) void die(const char *msg);

const char **
names(void)
{
	return 0;
}

int (isdigit)(int c);
