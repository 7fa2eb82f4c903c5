/* Conditional code inside a body, with branches that each open a brace. */
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

struct reader {
	FILE *fp;
#ifdef _WIN32
	void *handle;
#endif
};

static int reader_open(struct reader *r, const char *path)
{
#ifdef _WIN32
	if (_wfopen_s(&r->fp, path, L"rb") == 0) {
#else
	if ((r->fp = fopen(path, "rb")) != NULL) {
#endif
		return 0;
	}
	return -1;
}

#if 0
static int reader_old(struct reader *r) {
#endif

int reader_close(struct reader *r)
{
	return fclose(r->fp);
}

#ifdef __cplusplus
}
#endif
