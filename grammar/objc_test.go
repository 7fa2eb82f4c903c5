package grammar

import (
	"bytes"
	"testing"
)

func TestObjCName(t *testing.T) {
	for _, tc := range []struct {
		kind       Kind
		head, want string
	}{
		{Method, "draw;", "draw"},
		{Method, "draw NS_SWIFT_NAME(render());", "draw"},
		{Method, "drawInRect:(CGRect)rect withColor:(id)color {", "drawInRect:withColor:"},
		{Method, "initWithName:(NSString *)name\n     sides:(NSInteger)sides NS_DESIGNATED_INITIALIZER;", "initWithName:sides:"},
		{Method, "log:(NSString *)format, ... {", "log:"},
		{Method, "pair:(int)a :(int)b {", "pair::"},
		{Method, "load:(void (^)(NSError *))done /* a block */ with:(id)x;", "load:with:"},
		{Method, "run:(id)x __attribute__((objc_method_family(none)));", "run:"},
		{Method, "set:(id) __unused value forKey:(id)k;", "set:forKey:"},
		{Extension, "UIView (WebCache)\n- (void)x;", "UIView(WebCache)"},
		{Extension, "Shape ()\n@property int x;", "Shape()"},
		{Class, "Shape : NSObject", ""},
	} {
		if got := objcName(tc.kind, []byte(tc.head)); got != tc.want {
			t.Errorf("objcName(%v, %q) = %q; want %q", tc.kind, tc.head, got, tc.want)
		}
	}
}

func TestPrepareObjC(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"typedef NS_ENUM(NSInteger, Direction) {\n", "typedef enum               Direction  {\n"},
		{"NS_ASSUME_NONNULL_BEGIN\n@interface A\n", "                       \n@interface A\n"},
		{"GS_EXPORT_CLASS\n@interface A : NSObject\n", "               \n@interface A : NSObject\n"},
		{"NS_SWIFT_NAME(Cache) @interface A\n", "                     @interface A\n"},
		{"@interface GS_GENERIC_CLASS(NSArray,\n  ElementT) : NSObject\n", "@interface                  NSArray \n            : NSObject\n"},
		{"- (NSURL *) URL API_AVAILABLE(macos(10.15));\n", "- (NSURL *) URL                            ;\n"},
		{"@protocol P\n#if HAVE_OPTIONAL\n@optional\n#else\n@end\n@interface NSObject (P)\n#endif\n- (void)x;\n@end\n",
			"@protocol P\n#if HAVE_OPTIONAL\n@optional\n#else\n    \n                       \n#endif\n- (void)x;\n@end\n"},
	} {
		src := []byte(tc.src)
		keep := bytes.Clone(src)
		got := prepareObjC(src)
		if string(got) != tc.want {
			t.Errorf("prepareObjC(%q) = %q; want %q", tc.src, got, tc.want)
		}
		if !bytes.Equal(src, keep) {
			t.Errorf("prepareObjC(%q) changed its input", tc.src)
		}
	}
}
