package grammar

import (
	"bytes"
	"strings"
	"testing"
)

// TestPreparedReuse checks that a prepared text made in a buffer Release
// handed back is the same as one made in fresh memory, whatever the
// buffer held, and that Release keeps a text Prepare returned unchanged.
func TestPreparedReuse(t *testing.T) {
	texts := []string{
		"#if 0\nint old(;\n#endif\nclass V8_EXPORT Isolate {\n};\n" + strings.Repeat("int f(void) __THROW;\n", 50),
		"struct uv_req_s { UV_REQ_FIELDS };\n",
		"int ZEXPORT deflate OF((z_streamp strm, int f));\n",
		"A() : a(0),\n#ifdef DEBUG\n  d(1),\n#endif\n  b(2) {}\n",
		"int plain(void);\n",
	}
	want := map[string][]byte{}
	for _, s := range texts {
		want[s] = bytes.Clone(prepareCpp([]byte(s)))
	}
	for round := 0; round < 3; round++ {
		for _, s := range texts {
			src := []byte(s)
			got := prepareCpp(src)
			if !bytes.Equal(got, want[s]) {
				t.Fatalf("round %d: prepared %q\n got %q\nwant %q", round, s, got, want[s])
			}
			Release(got, src)
			if string(src) != s {
				t.Fatalf("Release changed the source %q", s)
			}
		}
	}
}
