package tsjs

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/zumba-dev/zumba/search/resolve"
)

// project is a small TypeScript project: a base class and an interface,
// a subclass overriding a method, a barrel re-exporting them, imports
// by name, alias, namespace and default, callbacks typed by the
// parameters they are passed to, object literal shorthand and a JSX
// component.
var project = map[string]string{
	"lib/base.ts": `export interface Closer {
  close(): void;
}
export class Base implements Closer {
  close(): void {}
  open(): Base { return this; }
}
export default function make(): Base { return new Base(); }
`,
	"lib/sub.ts": `import { Base } from './base';
export class Sub extends Base {
  close(): void { super.close(); }
  run(): void { this.close(); }
}
export class Other {
  close(): void {}
}
`,
	"lib/index.ts": `export * from './base';
export { Sub as Child } from './sub';
`,
	"app.ts": `import { Base, Closer } from './lib';
import * as lib from './lib/index';
import make from './lib/base';
import { Other } from './lib/sub';
import { Child as Kid } from './lib';
function each(f: (b: Base) => void) {}
function use(c: Closer, o: Other, x: any) {
  c.close();
  o.close();
  x.close();
  make().close();
  new lib.Base().open().close();
  each((b) => b.close());
  new Kid().close();
  const m = { make };
  return m;
}
`,
	"lists.ts": `import { Base } from './lib/base';
export function all(list: Base[], more: Array<Base>, m: Map<string, Base>) {
  for (const b of list) b.close();
  more.forEach((b) => b.close());
  list.filter((b) => b.close()).find((b) => true)!.close();
  list[0].close();
  m.get('x')!.close();
}
`,
	"view.tsx": `import { Base } from './lib/base';
export function Widget() { return <Base />; }
`,
}

func uses(t *testing.T, r *Resolver, p string, line int32, name string) []string {
	t.Helper()
	target, ok := r.TargetAt(p, line, name)
	if !ok {
		t.Fatalf("no target at %s:%d %s", p, line, name)
	}
	var out []string
	var paths []string
	for q := range project {
		paths = append(paths, q)
	}
	slices.Sort(paths)
	for _, q := range paths {
		us, ok := r.FileUses(q, name, []resolve.Target{target}, nil)
		if !ok {
			t.Fatalf("no facts of %s", q)
		}
		for _, u := range us {
			s := fmt.Sprintf("%s:%d:%d %s", q, u.Line, u.Col, map[resolve.Class]string{resolve.Match: "use", resolve.Through: "through", resolve.Unresolved: "unresolved"}[u.Class])
			if u.Via != "" {
				s += " (" + u.Via + ")"
			}
			out = append(out, s)
		}
	}
	return out
}

func newProject() *Resolver {
	var paths []string
	for p := range project {
		paths = append(paths, p)
	}
	return NewResolver(NewFiles(paths, func(p string) ([]byte, error) { return []byte(project[p]), nil }))
}

func TestResolveMembers(t *testing.T) {
	r := newProject()
	got := uses(t, r, "lib/base.ts", 5, "close")
	want := []string{
		"app.ts:8:5 through (interface Closer)",
		"app.ts:10:5 unresolved",
		"app.ts:11:10 use",
		"app.ts:12:25 use",
		"app.ts:13:17 use",
		"app.ts:14:13 through (class Sub, which overrides it)",
		"lib/base.ts:2:3 through (interface Closer)",
		"lib/base.ts:5:3 use",
		"lib/sub.ts:3:3 through (class Sub, which overrides it)",
		"lib/sub.ts:3:25 use",
		"lib/sub.ts:4:22 through (class Sub, which overrides it)",
		"lists.ts:3:27 use",
		"lists.ts:4:25 use",
		"lists.ts:5:24 use",
		"lists.ts:5:52 use",
		"lists.ts:6:11 use",
		"lists.ts:7:15 unresolved",
	}
	if !slices.Equal(got, want) {
		t.Errorf("uses of Base.close:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestResolveModuleNames(t *testing.T) {
	r := newProject()
	got := uses(t, r, "lib/base.ts", 8, "make")
	want := []string{"app.ts:3:8 use", "app.ts:11:3 use", "app.ts:15:15 use", "lib/base.ts:8:25 use"}
	if !slices.Equal(got, want) {
		t.Errorf("uses of make:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	got = uses(t, r, "lib/base.ts", 4, "Base")
	for _, w := range []string{"app.ts:1:10 use", "app.ts:6:22 use", "app.ts:12:11 use", "view.tsx:2:36 use", "lib/sub.ts:2:26 use"} {
		if !slices.Contains(got, w) {
			t.Errorf("uses of Base: no %s in\n%s", w, strings.Join(got, "\n"))
		}
	}
	got = uses(t, r, "lib/sub.ts", 2, "Sub")
	want = []string{"lib/index.ts:2:10 use", "lib/sub.ts:2:14 use"}
	if !slices.Equal(got, want) {
		t.Errorf("uses of Sub:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestEncodeRoundTrip(t *testing.T) {
	for p, src := range project {
		f := Parse(p, []byte(src))
		g, err := Decode(Encode(f))
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if fmt.Sprint(f) != fmt.Sprint(g) {
			t.Errorf("%s: decoded facts differ:\n%v\n%v", p, f, g)
		}
		if _, err := Decode(Encode(f)[:len(Encode(f))/2]); err == nil && len(f.Sites) > 0 {
			t.Errorf("%s: half the record decoded without an error", p)
		}
	}
}

// TestResolveCommonJS: require('./x') and its destructured members are
// imports, module.exports and exports.name exports.
func TestResolveCommonJS(t *testing.T) {
	files := map[string]string{
		"lib/util.js": `function helper() {}
function other() {}
module.exports = { helper, alias: other };
`,
		"lib/two.js": "function helper() {}\nexports.helper = helper;\n",
		"app.js": `const { helper } = require('./lib/util');
const util = require('./lib/util');
function run() {
  const { helper: h } = require('./lib/util');
  helper();
  util.helper();
  h();
  require('./lib/two').helper();
}
`,
	}
	var paths []string
	for p := range files {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	r := NewResolver(NewFiles(paths, func(p string) ([]byte, error) { return []byte(files[p]), nil }))
	target, ok := r.TargetAt("lib/util.js", 1, "helper")
	if !ok {
		t.Fatal("no target at lib/util.js:1 helper")
	}
	var got []string
	for _, p := range paths {
		us, _ := r.FileUses(p, "helper", []resolve.Target{target}, nil)
		for _, u := range us {
			got = append(got, fmt.Sprintf("%s:%d:%d", p, u.Line, u.Col))
		}
	}
	want := []string{"app.js:1:9", "app.js:4:11", "app.js:5:3", "app.js:6:8", "lib/util.js:1:10", "lib/util.js:3:20"}
	if !slices.Equal(got, want) {
		t.Errorf("uses of util.js's helper: %v; want %v", got, want)
	}
}
