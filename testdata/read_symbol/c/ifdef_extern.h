#ifndef API_H
#define API_H

#ifdef __cplusplus
extern "C" {
#endif

#ifdef _WIN32
int api_open_windows(const wchar_t *path);
#else
int api_open(const char *path);
#endif

#if defined(API_EXTRA)
struct api_extra {
	int flags;
};
#elif API_LEVEL > 2
typedef long api_handle;
#endif

void api_close(int handle);

#ifdef __cplusplus
}
#endif

#endif
