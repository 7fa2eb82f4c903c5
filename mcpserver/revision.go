package mcpserver

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/zumba-dev/zumba/internal/project"
)

// The 2026-07-28 revision ("modern") has no initialize handshake: each
// request names its protocol version in params._meta, server/discover
// tells a client what the server speaks, and every result says what it is
// (resultType). zumba is dual-era: a request that carries the modern _meta
// version is answered the modern way, anything else exactly as before, on
// stdio and HTTP alike.

// modernVersion is the stateless revision zumba speaks.
const modernVersion = "2026-07-28"

// Keys of _meta that the 2026-07-28 revision reserves.
const (
	metaProtocolVersion = "io.modelcontextprotocol/protocolVersion"
	metaServerInfo      = "io.modelcontextprotocol/serverInfo"
)

// listTTL is how long a client may cache tools/list, prompts/list and
// server/discover: all are fixed for the life of the binary, and an hour
// bounds how long a client keeps a list after zumba is upgraded.
const listTTL = time.Hour

// supportedVersions are the versions server/discover and -32022 list,
// newest first.
func supportedVersions() []string {
	return append([]string{modernVersion}, protocolVersions...)
}

// knownVersion reports whether v is a version zumba speaks.
func knownVersion(v string) bool {
	for _, k := range supportedVersions() {
		if k == v {
			return true
		}
	}
	return false
}

// metaVersion reads params._meta's protocol version. present is false when
// the key is absent; a value that is not a string is returned as "", which
// is no version (and is not echoed).
func metaVersion(params json.RawMessage) (v string, present bool) {
	if len(params) == 0 || params[0] != '{' {
		return "", false
	}
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if json.Unmarshal(params, &p) != nil {
		return "", false
	}
	raw, ok := p.Meta[metaProtocolVersion]
	if !ok {
		return "", false
	}
	if json.Unmarshal(raw, &v) != nil {
		return "", true
	}
	return v, true
}

// requestEra tells whether req is served the 2026-07-28 way, or refuses
// it for a version zumba does not speak. initialize always selects the
// earlier revisions, whatever its _meta says; server/discover is always
// answered the modern way, since only that revision has it. A _meta
// version of an earlier revision keeps today's behaviour. parse calls it
// once per message, after reading the _meta version.
func requestEra(req *request) (modern bool, rerr *rpcError) {
	if req.method == "initialize" {
		return false, nil
	}
	if !req.hasVersion {
		return req.method == "server/discover", nil
	}
	if !knownVersion(req.version) {
		return false, unsupportedVersion(req.version)
	}
	return req.version == modernVersion || req.method == "server/discover", nil
}

// unsupportedVersion is the error for a request in version v ("" when
// _meta's version is empty or not a string). The version is echoed cut and
// escaped, in the message and in data.requested, as every echo is.
func unsupportedVersion(v string) *rpcError {
	supported := supportedVersions()
	list := strings.Join(supported, ", ")
	if v == "" {
		return &rpcError{
			Code:    CodeUnsupportedProtocolVersion,
			Message: fmt.Sprintf("unsupported protocol version: %s is not a version string (such as %q); zumba speaks %s", metaProtocolVersion, modernVersion, list),
			Data:    map[string]any{"supported": supported},
		}
	}
	return &rpcError{
		Code:    CodeUnsupportedProtocolVersion,
		Message: fmt.Sprintf("unsupported protocol version %s; zumba speaks %s", project.Quote(v), list),
		Data:    map[string]any{"supported": supported, "requested": project.Echo(v)},
	}
}

func serverInfo() map[string]any {
	return map[string]any{"name": "zumba", "title": "zumba code navigation", "version": Version}
}

func capabilities() map[string]any {
	return map[string]any{
		"tools":   map[string]any{"listChanged": false},
		"prompts": map[string]any{"listChanged": false},
	}
}

// discover answers server/discover. serverInfo is given both where the
// revision's page shows it and in _meta, where the official SDKs read it.
func discover() map[string]any {
	return map[string]any{
		"resultType":        "complete",
		"supportedVersions": supportedVersions(),
		"capabilities":      capabilities(),
		"serverInfo":        serverInfo(),
		"instructions":      instructions,
		"ttlMs":             listTTL.Milliseconds(),
		"cacheScope":        "public",
		"_meta":             map[string]any{metaServerInfo: serverInfo()},
	}
}
