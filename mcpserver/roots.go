package mcpserver

import (
	"context"
	"fmt"
	"maps"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/zumba-dev/zumba/internal/project"
	"github.com/zumba-dev/zumba/search"
	"github.com/zumba-dev/zumba/search/findcode"
)

// Several project folders in one server (issue 31): each root is a Server
// of its own (its index, watcher, ignore rules and caches), named by a
// short name that prefixes its paths in answers ("api/src/x.go:12"). The
// server that joins them answers the protocol and routes each tool call:
// a path that starts with a root's name goes to that root, without the
// name; a call that names no root goes to every root, and their answers
// are put one after another, those that found nothing left out.

// NamedRoot is one of several project folders a server serves.
type NamedRoot struct {
	// Name prefixes the root's paths in answers and in tool arguments:
	// a name without "/" (the folder's base name, say).
	Name string
	Root *search.Root
}

// joinRoots makes the servers of cfg.Roots.
func joinRoots(cfg Config) []*Server {
	servers := make([]*Server, len(cfg.Roots))
	for i, r := range cfg.Roots {
		c := cfg
		c.Roots, c.Root, c.name, c.ClientRoots = nil, r.Root, r.Name, false
		servers[i] = New(c)
	}
	return servers
}

// view is a server answering for the one root named name of s, paths
// still after its name, as the HTTP endpoint /mcp/NAME serves it; nil
// when s has no such root. Its index is the root's.
func (s *Server) view(name string) *Server {
	s.viewsMu.Lock()
	defer s.viewsMu.Unlock()
	if v := s.views[name]; v != nil {
		return v
	}
	for _, r := range s.rootList(context.Background()) {
		if r.cfg.name == name {
			cfg := s.cfg
			cfg.Roots = nil
			cfg.ClientRoots = false
			v := New(cfg)
			v.roots, v.multi = []*Server{r}, true
			v.cfg.Root = r.cfg.Root
			if s.views == nil {
				s.views = map[string]*Server{}
			}
			s.views[name] = v
			return v
		}
	}
	return nil
}

// RootNames gives each folder of dirs a name for a server of several
// roots: its base name, with "-2", "-3"… after a name already taken.
func RootNames(dirs []string) []string {
	names := make([]string, len(dirs))
	taken := map[string]bool{}
	for i, d := range dirs {
		// The folder's own name, also for "." and "src/." (the current
		// folder's, its name in its parent).
		if abs, err := filepath.Abs(d); err == nil {
			d = abs
		}
		base := path.Base(strings.ReplaceAll(strings.TrimRight(d, "/\\"), "\\", "/"))
		if base == "." || base == "/" || base == "" {
			base = "root"
		}
		name := base
		for n := 2; taken[name]; n++ {
			name = fmt.Sprintf("%s-%d", base, n)
		}
		taken[name] = true
		names[i] = name
	}
	return names
}

// shown is the path p of s's root as answers show it: after the root's
// name when the server serves several.
func (s *Server) shown(p string) string {
	if s.cfg.name == "" || s.parent != nil && !s.parent.several() {
		return p
	}
	if p == "." || p == "" {
		return s.cfg.name
	}
	return s.cfg.name + "/" + p
}

// rootNamed finds the root a path argument names: the server of the root
// whose name is its first segment, and the path without it ("." for the
// name alone).
func rootNamed(roots []*Server, p string) (*Server, string, bool) {
	p = strings.TrimPrefix(strings.TrimSpace(strings.ReplaceAll(p, "\\", "/")), "./")
	first, rest, _ := strings.Cut(p, "/")
	for _, r := range roots {
		if r.cfg.name == first {
			if rest == "" {
				rest = "."
			}
			return r, rest, true
		}
	}
	return nil, "", false
}

// pathArgs are the arguments of each tool that name a file or folder
// (one path) or globs (a comma-separated list).
var pathArgs = map[string]struct {
	arg   string
	globs bool
}{
	"outline":         {"path", false},
	"diagnostics":     {"path", false},
	"find_references": {"path", true},
	"find_code":       {"path", true},
	"changes":         {"path", true},
}

// callRoots answers a tool call of a server of several roots.
func (s *Server) callRoots(ctx context.Context, t *Tool, args Args) (string, bool) {
	roots := s.rootList(ctx)
	var calls []rootCall
	pa, hasPath := pathArgs[t.Name]
	switch {
	case hasPath && pa.globs && strings.TrimSpace(args[pa.arg]) != "":
		for _, r := range roots {
			if g, ok := r.ownGlobs(args[pa.arg], roots); ok {
				calls = append(calls, rootCall{r, withArg(args, pa.arg, g)})
			}
		}
		if len(calls) == 0 {
			return fmt.Sprintf("%s: no root matches path %s; the roots are %s", t.Name, project.Echo(args[pa.arg]), rootNames(roots)), true
		}
	case hasPath && strings.TrimSpace(args[pa.arg]) != "":
		if r, rest, ok := rootNamed(roots, args[pa.arg]); ok {
			text, isError := r.run(ctx, t, withArg(args, pa.arg, rest))
			if isError {
				text = rootError(text, r.cfg.name, rest)
			}
			return text, isError
		}
	case t.Name == "read_symbol":
		if r, a, ok := readSymbolRoot(roots, args); ok {
			text, isError := r.run(ctx, t, a)
			if isError {
				loc, _, _ := strings.Cut(strings.TrimSpace(a["name"]+listSep+a["names"]), listSep)
				if m := locationRE.FindStringSubmatch(strings.TrimSpace(loc)); m != nil {
					text = rootError(text, r.cfg.name, m[1])
				}
			}
			return text, isError
		}
	}
	if t.Name == "outline" && isWhole(args["path"]) {
		return rootsMap(ctx, roots, t, args)
	}
	if calls == nil {
		for _, r := range roots {
			calls = append(calls, rootCall{r, args})
		}
	}
	answers := runAll(ctx, t, calls)
	var found, partial []string
	for i, a := range answers {
		switch {
		case a.isError:
		case !foundNothing(a.text):
			found = append(found, a.text)
		case incomplete(a.text):
			// Nothing in the part of this root searched so far: said,
			// with its root's name, never dropped for another root's
			// answer.
			partial = append(partial, calls[i].s.cfg.name+": "+a.text)
		}
	}
	found = append(found, partial...)
	if len(found) == 0 {
		// Nothing anywhere: the first root's answer says why (the
		// same words in every root), or its error.
		for _, a := range answers {
			if !a.isError {
				return a.text, false
			}
		}
		if hasPath && !pa.globs {
			// A path no root has: it names none of them.
			return fmt.Sprintf("%s (a path starts with a root's name: %s)", answers[0].text, rootNames(roots)), true
		}
		return answers[0].text, true
	}
	return joinAnswers(found, maxOutlineAnswer), false
}

// rootError is the error text of a tool called with the path rest inside
// the root name, naming the path as the agent gave it: the root's own
// message names it inside the root.
func rootError(text, name, rest string) string {
	inside := project.Echo(rest)
	if i := strings.Index(text, inside); i >= 0 && rest != "." {
		return text[:i] + project.Echo(name+"/"+rest) + text[i+len(inside):]
	}
	return text + " (in root " + name + ")"
}

// joinAnswers puts the roots' answers one after another, as many whole
// ones as fit in max bytes (the first always), and a last line saying
// how many were left out: each root's answer is bounded, their sum must be
// too.
func joinAnswers(found []string, max int) string {
	var sb strings.Builder
	for i, f := range found {
		if i > 0 && sb.Len()+2+len(f) > max {
			fmt.Fprintf(&sb, "\n\n… %d more %s left out; name a root in the path (ROOT/…) to see its",
				len(found)-i, plural(len(found)-i, "root's answer", "roots' answers"))
			break
		}
		if i > 0 {
			sb.WriteString("\n\n")
		}
		sb.WriteString(f)
	}
	return sb.String()
}

// rootCall is a tool call for one root, with its arguments.
type rootCall struct {
	s    *Server
	args Args
}

// rootAnswer is one root's answer.
type rootAnswer struct {
	text    string
	isError bool
}

// runAll runs t for every call at once and returns their answers, in
// the calls' order.
func runAll(ctx context.Context, t *Tool, calls []rootCall) []rootAnswer {
	answers := make([]rootAnswer, len(calls))
	var wg sync.WaitGroup
	for i, c := range calls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			answers[i].text, answers[i].isError = c.s.run(ctx, t, c.args)
		}()
	}
	wg.Wait()
	return answers
}

// foundNothing reports whether a tool's answer says it found nothing: by
// the tools' convention, a first line that starts with "No ", and after
// it only notes ("… ") if anything.
func foundNothing(text string) bool {
	if !strings.HasPrefix(text, "No ") {
		return false
	}
	for _, l := range strings.Split(text, "\n")[1:] {
		if !strings.HasPrefix(l, "… ") {
			return false
		}
	}
	return true
}

// Every answer that may have missed something (a search stopped at its
// time limit, an index still being built) says so in words holding one of
// these, so that a server of several roots never drops it (incomplete).
const (
	markTimeLimit = "time limit"
	markBuilding  = "still being built"
)

// incomplete reports whether an answer says it covered only part of its
// root.
func incomplete(text string) bool {
	return strings.Contains(text, markTimeLimit) || strings.Contains(text, markBuilding)
}

// isWhole reports whether an outline path names the whole project.
func isWhole(p string) bool {
	p = strings.TrimSpace(p)
	return p == "." || p == "./" || p == "/"
}

// rootsMap answers outline "." over several roots: each root's map, one
// after another, with an equal share of the budget.
func rootsMap(ctx context.Context, roots []*Server, t *Tool, args Args) (string, bool) {
	budget := mapDefaultBudget
	if b, err := strconv.Atoi(args["budget"]); err == nil {
		budget = b
	}
	share := strconv.Itoa(max(mapMinBudget, budget/len(roots)))
	calls := make([]rootCall, len(roots))
	for i, r := range roots {
		calls[i] = rootCall{r, withArg(withArg(args, "path", "."), "budget", share)}
	}
	texts := make([]string, len(roots))
	for i, a := range runAll(ctx, t, calls) {
		texts[i] = a.text
	}
	return strings.Join(texts, "\n\n"), false
}

// rootNames lists the roots' names for a message.
func rootNames(roots []*Server) string {
	names := make([]string, len(roots))
	for i, r := range roots {
		names[i] = r.cfg.name + "/"
	}
	return strings.Join(names, ", ")
}

// ownGlobs are the globs of arg that apply in s's root, and whether any
// does: a glob that starts with the root's name, without it; one that
// starts with another root's name, none; one that names no root, as it
// is. A root none of whose include globs apply is not searched.
func (s *Server) ownGlobs(arg string, roots []*Server) (string, bool) {
	var out []string
	includes, own := 0, 0
	for _, g := range project.SplitGlobs(arg) {
		g = strings.TrimSpace(g)
		if g == "" {
			continue
		}
		body, exclude := strings.CutPrefix(g, "!")
		body = strings.TrimPrefix(strings.TrimLeft(strings.TrimSpace(body), "/"), "./")
		if !exclude {
			includes++
		}
		first, rest, _ := strings.Cut(body, "/")
		named := ""
		for _, r := range roots {
			if r.cfg.name == first {
				named = first
			}
		}
		switch {
		case named == "":
		case named != s.cfg.name:
			continue
		default:
			body = rest
			if body == "" {
				body = "."
			}
		}
		if !exclude {
			own++
		}
		if exclude {
			body = "!" + body
		}
		out = append(out, body)
	}
	if includes > 0 && own == 0 {
		return "", false
	}
	return strings.Join(out, ", "), true
}

// readSymbolRoot routes read_symbol: when every name it reads is a
// location in one root (api/src/x.go:12), to that root without the name.
func readSymbolRoot(roots []*Server, args Args) (*Server, Args, bool) {
	var to *Server
	out := maps.Clone(args)
	for _, k := range []string{"name", "names"} {
		v := args[k]
		if strings.TrimSpace(v) == "" {
			continue
		}
		parts := strings.Split(v, listSep)
		for i, it := range parts {
			if !locationRE.MatchString(strings.TrimSpace(it)) {
				return nil, nil, false
			}
			r, rest, ok := rootNamed(roots, it)
			if !ok || to != nil && r != to {
				return nil, nil, false
			}
			to, parts[i] = r, rest
		}
		out[k] = strings.Join(parts, listSep)
	}
	return to, out, to != nil
}

// withArg is args with k set to v.
func withArg(args Args, k, v string) Args {
	out := maps.Clone(args)
	out[k] = v
	return out
}

// prefixed is a root's searcher whose answers' paths are shown after the
// root's name, for the tools that only print what they find.
type prefixed struct {
	search.Searcher
	s *Server
}

func (p prefixed) Symbols(ctx context.Context, q search.SymbolQuery) (*search.SymbolResult, error) {
	res, err := p.Searcher.Symbols(ctx, q)
	if err != nil || res == nil {
		return res, err
	}
	out := *res
	out.Defs = shownPaths(p.s, res.Defs, func(d *search.Def) *string { return &d.Path })
	return &out, nil
}

func (p prefixed) References(ctx context.Context, name string, filter *project.PathFilter) (*search.RefResult, error) {
	res, err := p.Searcher.References(ctx, name, filter)
	if err != nil || res == nil {
		return res, err
	}
	out := *res
	out.Refs = shownPaths(p.s, res.Refs, func(r *search.Ref) *string { return &r.Path })
	return &out, nil
}

func (p prefixed) Sites(ctx context.Context, name string, filter *project.PathFilter, opts search.RefOptions, cache *search.ParseCache) (*search.Sites, error) {
	res, err := p.Searcher.Sites(ctx, name, filter, opts, cache)
	if err != nil || res == nil {
		return res, err
	}
	out := *res
	out.Sites = shownPaths(p.s, res.Sites, func(s *search.Site) *string { return &s.Path })
	return &out, nil
}

func (p prefixed) Code(ctx context.Context, query string, filter *project.PathFilter) (*findcode.Result, error) {
	res, err := p.Searcher.Code(ctx, query, filter)
	if err != nil || res == nil {
		return res, err
	}
	out := *res
	out.Defs = shownPaths(p.s, res.Defs, func(d *findcode.Def) *string { return &d.Path })
	return &out, nil
}

// shownPaths is a copy of items with each one's path (where path says it
// is) as s shows it.
func shownPaths[T any](s *Server, items []T, path func(*T) *string) []T {
	out := slices.Clone(items)
	for i := range out {
		p := path(&out[i])
		*p = s.shown(*p)
	}
	return out
}

func (p prefixed) Resolved(ctx context.Context, q search.ResolveQuery, cache *search.ParseCache) (*search.Resolved, error) {
	res, err := p.Searcher.Resolved(ctx, q, cache)
	if err != nil || res == nil {
		return res, err
	}
	out := *res
	out.Sites = shownPaths(p.s, res.Sites, func(s *search.ResolvedSite) *string { return &s.Path })
	out.Targets = shownPaths(p.s, res.Targets, func(d *search.Def) *string { return &d.Path })
	out.Others = shownPaths(p.s, res.Others, func(d *search.Def) *string { return &d.Path })
	return &out, nil
}
