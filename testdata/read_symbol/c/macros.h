#ifndef MACROS_H
#define MACROS_H

#define MAX_ITEMS 64
#define SQUARE(x) ((x) * (x))
#define LOG(fmt, ...)                                                \
	do {                                                         \
		fprintf(stderr, fmt, __VA_ARGS__); /* to stderr */   \
	} while (0)

#undef MAX_ITEMS

#endif
