package diagfile

import (
	"net/url"
	"strings"
)

// LocalPath is the entry's location as a path on this machine: absolute,
// or relative to the project. It is "" when the location is not a local
// file at all (an untitled buffer, a git: or other non-file URI, a file://
// URI of another host). A file:// URI and a relative URI reference are
// percent-decoded; a plain path is taken as written.
func (e Entry) LocalPath() string {
	p := e.Loc
	if strings.HasPrefix(p, "file:") {
		p = strings.TrimPrefix(p, "file:")
		if rest, ok := strings.CutPrefix(p, "//"); ok {
			// file://host/path: only the local host is this machine.
			host, path, _ := strings.Cut(rest, "/")
			if host != "" && !strings.EqualFold(host, "localhost") {
				return ""
			}
			p = "/" + path
		}
		p = unescape(p)
	} else if hasScheme(p) {
		return ""
	} else if e.URIRef {
		p = unescape(p)
	}
	return p
}

// unescape percent-decodes a URI path, or returns it as it is when it is
// not validly encoded (a tool that wrote a raw "%" in a path).
func unescape(p string) string {
	if u, err := url.PathUnescape(p); err == nil {
		return u
	}
	return p
}
