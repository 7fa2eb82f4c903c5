/* A struct defined in a declaration's type is the declared function's
   sibling, not its member. */
struct point { int x, y; } origin(void);

struct pair { int a, b; }
make_pair(int a, int b)
{
	struct pair p = { a, b };
	return p;
}
