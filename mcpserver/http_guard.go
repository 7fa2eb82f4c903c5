package mcpserver

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/zumba-dev/zumba/internal/project"
)

// The checks of the HTTP transport before a request is served: who may
// call (Origin, Host, token), what it accepts, and whether the 2026-07-28
// headers agree with the body.

// refuseOrigin says why r must be refused, or "". A browser names the
// page that sent a request in Origin; on a loopback server only pages of
// this machine may call, and beyond loopback only pages of the server's
// own host (the Host the request names, port included). On a loopback
// server the Host header must also be a loopback name: a DNS rebinding
// attack reaches 127.0.0.1 under the attacker's name.
func (h *HTTPHandler) refuseOrigin(r *http.Request) string {
	if h.loopback && !LoopbackHost(hostname(r.Host)) {
		return fmt.Sprintf("forbidden: host %s is not a loopback name", project.Quote(r.Host))
	}
	origin := r.Header.Get("Origin")
	if origin == "" {
		return ""
	}
	u, err := url.Parse(origin)
	if err == nil && u.Host != "" {
		if h.loopback && LoopbackHost(u.Hostname()) {
			return ""
		}
		// The same host and port, written alike or with the scheme's
		// default port (https://h and Host h: a TLS proxy in front).
		if !h.loopback && (strings.EqualFold(u.Host, r.Host) || strings.EqualFold(withPort(u.Host, u.Scheme), withPort(r.Host, "http"))) {
			return ""
		}
	}
	return fmt.Sprintf("forbidden: origin %s may not call this server", project.Quote(origin))
}

// withPort is host with its port, the scheme's default when it has none.
func withPort(host, scheme string) string {
	if _, _, err := net.SplitHostPort(host); err == nil {
		return host
	}
	port := "80"
	if scheme == "https" {
		port = "443"
	}
	return net.JoinHostPort(strings.TrimSuffix(strings.TrimPrefix(host, "["), "]"), port)
}

// hostname is host without its port.
func hostname(host string) string {
	if h, _, err := net.SplitHostPort(host); err == nil {
		return h
	}
	return strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
}

// LoopbackHost reports whether host names this machine only: localhost
// itself (in any case) or a loopback IP, without brackets or port. It is
// the one rule for the address zumba listens on and for the Host and
// Origin a loopback server accepts. Names under localhost
// (evil.localhost) are refused: not every resolver keeps them on this
// machine.
func LoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// authorized checks the bearer token. Both sides are hashed first, so the
// comparison takes the same time whatever the token sent: its length and
// its first differing byte are not revealed.
func (h *HTTPHandler) authorized(r *http.Request) bool {
	if !h.hasToken {
		return true
	}
	auth := r.Header.Get("Authorization")
	scheme, token, _ := strings.Cut(auth, " ")
	sum := sha256.Sum256([]byte(strings.TrimSpace(token)))
	ok := subtle.ConstantTimeCompare(sum[:], h.token[:]) == 1
	return ok && strings.EqualFold(scheme, "Bearer")
}

// acceptsJSON reports whether an Accept header allows application/json.
// No Accept header accepts anything.
func acceptsJSON(values []string) bool {
	if len(values) == 0 {
		return true
	}
	for _, v := range values {
		for _, part := range strings.Split(v, ",") {
			mt, _, err := mime.ParseMediaType(strings.TrimSpace(part))
			if err == nil && (mt == "application/json" || mt == "application/*" || mt == "*/*") {
				return true
			}
		}
	}
	return false
}

// headerMismatch says how the 2026-07-28 headers disagree with req's body,
// or "".
func headerMismatch(hd http.Header, req *request) string {
	v, present := req.version, req.hasVersion
	got := hd.Get(headerVersion)
	switch {
	case present && got == "":
		return headerVersion + " is missing"
	case present && got != v:
		return fmt.Sprintf("%s %s differs from the body's %s", headerVersion, project.Quote(got), project.Quote(v))
	case !present && got != "" && !knownVersion(got):
		// server/discover without _meta: the header is the version.
		return fmt.Sprintf("%s %s is no version zumba speaks", headerVersion, project.Quote(got))
	}
	if m := hd.Get(headerMethod); m != req.method {
		if m == "" {
			return headerMethod + " is missing"
		}
		return fmt.Sprintf("%s %s differs from the body's method %s", headerMethod, project.Quote(m), project.Quote(req.method))
	}
	if req.method == "tools/call" || req.method == "prompts/get" {
		var p struct {
			Name *string `json:"name"`
		}
		if json.Unmarshal(req.params, &p) == nil && p.Name != nil {
			raw := hd.Get(headerName)
			name, ok := decodeHeaderValue(raw)
			switch {
			case raw == "":
				return headerName + " is missing"
			case !ok:
				return fmt.Sprintf("%s %s is not valid", headerName, project.Quote(raw))
			case name != *p.Name:
				return fmt.Sprintf("%s %s differs from the body's name %s", headerName, project.Quote(name), project.Quote(*p.Name))
			}
		}
	}
	return ""
}

// decodeHeaderValue undoes the revision's Base64 form of a header value,
// =?base64?...?=, used for values that are not plain ASCII.
func decodeHeaderValue(v string) (string, bool) {
	if !strings.HasPrefix(v, base64Sentinel) || !strings.HasSuffix(v, "?=") || len(v) < len(base64Sentinel)+2 {
		return v, true
	}
	b, err := base64.StdEncoding.DecodeString(v[len(base64Sentinel) : len(v)-2])
	if err != nil {
		return "", false
	}
	return string(b), true
}
