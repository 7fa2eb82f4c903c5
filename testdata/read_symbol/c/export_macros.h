/* Macros a parser cannot expand: export markers, trailing attributes and
 * field-list macros. */
#define UV_EXTERN extern
#define FIELDS                                          \
	/* public */                                    \
	void *data;                                     \
	int type;

UV_EXTERN int uv_run(uv_loop_t *loop, int mode);

extern void fatal(const char *msg) __THROW __attribute__((__noreturn__));
extern size_t length(const char *s) __THROW __nonnull((1)) __wur;

PyAPI_FUNC(PyObject *) PyList_New(Py_ssize_t size);

struct uv_req_s {
	FIELDS
};

typedef struct {
	PyObject_HEAD
	int count;
} CounterObject;

PyAPI_FUNC(int)
Py_Main(int argc, wchar_t **argv);

PyAPI_FUNC(void) SHA256_Init(SHA256_CTX *ctx);
PyAPI_FUNC(void) RAND_POLL(void);
