package diagfile

import (
	"strconv"
	"strings"
)

// fromSARIF reads a SARIF 2.1.0 log: each run's results, and those
// notifications of its invocations that point into a file (ESLint's SARIF
// formatter reports parse errors there, not as results).
func fromSARIF(log map[string]any) ([]Entry, error) {
	if log["runs"] == nil {
		return nil, nil
	}
	runs, ok := log["runs"].([]any)
	if !ok {
		return nil, shapeErrorf("SARIF runs is a JSON %s; expected a list", jsonKind(log["runs"]))
	}
	var out []Entry
	for i, rv := range runs {
		run, ok := rv.(map[string]any)
		if !ok {
			return nil, shapeErrorf("SARIF run %d is a JSON %s; expected an object", i+1, jsonKind(rv))
		}
		r := newSarifRun(run)
		results, _ := run["results"].([]any)
		for _, v := range results {
			if res, ok := v.(map[string]any); ok {
				if e, ok := r.result(res); ok {
					out = append(out, e)
				}
			}
		}
		invocations, _ := run["invocations"].([]any)
		for _, v := range invocations {
			inv, _ := v.(map[string]any)
			for _, key := range []string{"toolExecutionNotifications", "toolConfigurationNotifications"} {
				notes, _ := inv[key].([]any)
				for _, n := range notes {
					if note, ok := n.(map[string]any); ok {
						if e, ok := r.notification(note); ok {
							out = append(out, e)
						}
					}
				}
			}
		}
	}
	return out, nil
}

// sarifRun holds what a run's results refer to by id or index.
type sarifRun struct {
	bases     map[string]any // originalUriBaseIds
	artifacts []any
	rules     []any
}

func newSarifRun(run map[string]any) *sarifRun {
	r := &sarifRun{}
	r.bases, _ = run["originalUriBaseIds"].(map[string]any)
	r.artifacts, _ = run["artifacts"].([]any)
	tool, _ := run["tool"].(map[string]any)
	driver, _ := tool["driver"].(map[string]any)
	r.rules, _ = driver["rules"].([]any)
	return r
}

// result reads one result; ok is false for one that is not a problem
// (kind pass or notApplicable), is suppressed, or has no file location.
func (r *sarifRun) result(res map[string]any) (Entry, bool) {
	kind, _ := res["kind"].(string)
	if kind == "pass" || kind == "notApplicable" || suppressed(res) {
		return Entry{}, false
	}
	e, ok := r.location(res["locations"])
	if !ok {
		return e, false
	}
	rule := r.rule(res)
	level, _ := res["level"].(string)
	if level == "" {
		conf, _ := rule["defaultConfiguration"].(map[string]any)
		level, _ = conf["level"].(string)
	}
	if level == "" {
		// SARIF §3.27.10: without a level, a failure is a warning and any
		// other kind is "none".
		level = "warning"
		if kind != "" && kind != "fail" {
			level = "none"
		}
	}
	e.Severity = sarifLevel(level)
	e.Message = sarifMessage(res["message"], rule)
	if e.Message == "" {
		e.Message, _ = res["ruleId"].(string)
	}
	return e, true
}

// notification reads an invocation's notification that has a file location.
func (r *sarifRun) notification(n map[string]any) (Entry, bool) {
	e, ok := r.location(n["locations"])
	if !ok {
		return e, false
	}
	level, _ := n["level"].(string)
	if level == "" {
		level = "warning"
	}
	e.Severity = sarifLevel(level)
	e.Message = sarifMessage(n["message"], nil)
	if e.Message == "" {
		desc, _ := n["descriptor"].(map[string]any)
		e.Message, _ = desc["id"].(string)
	}
	return e, true
}

// suppressed reports whether a result carries a suppression in force: one
// whose status is absent or "accepted" (not "underReview" or "rejected").
func suppressed(res map[string]any) bool {
	list, _ := res["suppressions"].([]any)
	for _, v := range list {
		s, _ := v.(map[string]any)
		if status, _ := s["status"].(string); s != nil && (status == "" || status == "accepted") {
			return true
		}
	}
	return false
}

// sarifLevel maps a SARIF level to a diagnostics severity.
func sarifLevel(level string) string {
	switch level {
	case "error":
		return "error"
	case "note", "none":
		return "info"
	}
	return "warning"
}

// rule finds the reporting descriptor of a result, by index or by id.
func (r *sarifRun) rule(res map[string]any) map[string]any {
	ref, _ := res["rule"].(map[string]any)
	idx, ok := toInt(res["ruleIndex"])
	if !ok {
		idx, ok = toInt(ref["index"])
	}
	if ok && idx >= 0 && idx < len(r.rules) {
		m, _ := r.rules[idx].(map[string]any)
		return m
	}
	id, _ := res["ruleId"].(string)
	if id == "" {
		id, _ = ref["id"].(string)
	}
	if id == "" {
		return nil
	}
	for _, v := range r.rules {
		if m, _ := v.(map[string]any); m != nil && m["id"] == id {
			return m
		}
	}
	return nil
}

// sarifMessage reads a message object: its text, else its markdown, else
// the rule's message string it names by id, with {0}, {1}… filled in from
// its arguments.
func sarifMessage(v any, rule map[string]any) string {
	msg, _ := v.(map[string]any)
	if msg == nil {
		s, _ := v.(string)
		return s
	}
	s, _ := msg["text"].(string)
	if s == "" {
		s, _ = msg["markdown"].(string)
	}
	if id, _ := msg["id"].(string); s == "" && id != "" {
		strs, _ := rule["messageStrings"].(map[string]any)
		s = text(strs[id])
	}
	args, _ := msg["arguments"].([]any)
	for i, a := range args {
		if as, ok := a.(string); ok {
			s = strings.ReplaceAll(s, "{"+strconv.Itoa(i)+"}", as)
		}
	}
	return s
}

// location reads the first location of a list that points into a file.
func (r *sarifRun) location(v any) (Entry, bool) {
	list, _ := v.([]any)
	for _, lv := range list {
		loc, _ := lv.(map[string]any)
		phys, _ := loc["physicalLocation"].(map[string]any)
		art, _ := phys["artifactLocation"].(map[string]any)
		if art == nil {
			continue
		}
		uri := r.artifactURI(art)
		if uri == "" {
			continue
		}
		e := Entry{Loc: uri, URIRef: true}
		region, _ := phys["region"].(map[string]any)
		e.Line, _ = toInt(region["startLine"])
		e.Col, _ = toInt(region["startColumn"])
		e.Line, e.Col = max(e.Line, 1), max(e.Col, 1)
		return e, true
	}
	return Entry{}, false
}

// artifactURI resolves an artifactLocation to a URI: through the run's
// artifacts when it gives only an index, and against its uriBaseId when
// the run defines that base. A base the run leaves undefined (as
// Staticcheck's %SRCROOT%), or bases that refer to each other in a loop,
// leave the URI relative, which is then read as relative to the project.
func (r *sarifRun) artifactURI(art map[string]any) string {
	if uri, ok := r.resolveURI(art, 0); ok {
		return uri
	}
	uri, _ := art["uri"].(string)
	return uri
}

// resolveURI is artifactURI's work; ok is false when the references go
// round in a loop.
func (r *sarifRun) resolveURI(art map[string]any, depth int) (uri string, ok bool) {
	if depth > 8 {
		return "", false
	}
	uri, _ = art["uri"].(string)
	if uri == "" {
		idx, ok := toInt(art["index"])
		if !ok || idx < 0 || idx >= len(r.artifacts) {
			return "", true
		}
		a, _ := r.artifacts[idx].(map[string]any)
		loc, _ := a["location"].(map[string]any)
		if loc == nil {
			return "", true
		}
		return r.resolveURI(loc, depth+1)
	}
	baseID, _ := art["uriBaseId"].(string)
	if baseID == "" || hasScheme(uri) || strings.HasPrefix(uri, "/") {
		return uri, true
	}
	base, _ := r.bases[baseID].(map[string]any)
	if base == nil {
		return uri, true
	}
	prefix, ok := r.resolveURI(base, depth+1)
	if !ok {
		return "", false
	}
	if prefix == "" {
		return uri, true
	}
	return strings.TrimSuffix(prefix, "/") + "/" + strings.TrimPrefix(uri, "./"), true
}

// hasScheme reports whether s starts with a URI scheme ("file:",
// "untitled:"). A single letter before the colon is a Windows drive, not a
// scheme.
func hasScheme(s string) bool {
	i := strings.IndexByte(s, ':')
	if i < 2 {
		return false
	}
	for j, c := range s[:i] {
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !letter && (j == 0 || !(c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return false
		}
	}
	return true
}
