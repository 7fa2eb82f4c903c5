package prompts

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/zumba-dev/zumba/internal/project"
)

// prompt is one MCP prompt.
type prompt struct {
	Name        string
	Title       string
	Description string
	Args        []promptArg
	// Text is the prompt's text; an optional argument left out is "".
	Text func(args map[string]string) string
}

// promptArg is one argument of a prompt; its value is a string.
type promptArg struct {
	Name        string
	Description string
	Required    bool
}

// Bounds on the prompts' texts, which every client reads whole.
const (
	maxPromptText = 1200 // bytes of one prompt's text, arguments aside
	maxPromptList = 2048 // bytes of prompts/list's prompts
)

// prompts is the registry, in the order prompts/list shows them.
var prompts = []*prompt{explainPrompt, impactPrompt, findPrompt, orientPrompt}

var explainPrompt = &prompt{
	Name:        "explain",
	Title:       "Explain a definition",
	Description: "Read a definition and its users, then explain what it does and who relies on it.",
	Args:        []promptArg{{Name: "name", Description: "A name, Type.method or path:line.", Required: true}},
	Text: func(a map[string]string) string {
		n := a["name"]
		return "Explain " + n + ": what it does and who relies on it. Use zumba's tools, not whole-file reads.\n" +
			"1. read_symbol with name " + n + " for its source. If several definitions answer, choose the one meant and read it by its path:line.\n" +
			"2. find_references with name " + n + ", group definition and code true: the definitions that use it (qualify it as Type.method when the bare name is common). Add depth 2 for callers of callers.\n" +
			"3. read_symbol (names) the two or three most telling users, by their path:line.\n" +
			"Then explain what it does (inputs, results, effects, errors), how its users rely on it, and what would break if it changed. Cite path:line for each point."
	},
}

var impactPrompt = &prompt{
	Name:        "impact",
	Title:       "Impact of the current change",
	Description: "What the current change touches, who uses it, and what to re-test.",
	Args:        []promptArg{{Name: "base", Description: "Compare the branch with this commit or branch (e.g. main); default: the uncommitted edits."}},
	Text: func(a map[string]string) string {
		what, call := "the uncommitted edits", "changes"
		if b := a["base"]; b != "" {
			what, call = "the branch since its merge base with "+b, "changes with base "+b
		}
		return "Assess the impact of " + what + ". Use zumba's tools, not git diff and grep.\n" +
			"1. " + call + " for the definitions added, modified or removed, each with its users.\n" +
			"2. For each modified or removed definition used outside the change: find_references with its name (Type.method for a method), group definition, code true and depth 2, for callers of callers.\n" +
			"3. read_symbol the changed definitions whose behaviour changed, and diagnostics for the changed files.\n" +
			"Then report what changed, who depends on it, what could break, and which tests to re-run: the test functions among the users, or else the tests beside the changed files."
	},
}

var findPrompt = &prompt{
	Name:        "find",
	Title:       "Find code by what it does",
	Description: "Locate the code that does something, then read the best candidates.",
	Args:        []promptArg{{Name: "description", Description: "What the code does, in a few words.", Required: true}},
	Text: func(a map[string]string) string {
		d := a["description"]
		return "Find the code that does this: " + d + "\n" +
			"Use zumba's tools, not grep for guessed names.\n" +
			"1. find_code with that description as its query (a path glob narrows it). If nothing fits, ask again in the project's own words (names from the first answer, the domain's terms).\n" +
			"2. read_symbol (names) the two or three best candidates, by their path:line.\n" +
			"3. If the real work happens in a function one of them calls or is called by, follow it: find_references with its name, group definition and code true.\n" +
			"Answer with the definitions that do it, at path:line, and one sentence each on how."
	},
}

var orientPrompt = &prompt{
	Name:        "orient",
	Title:       "Orient in a folder",
	Description: "A map of a folder or the project, then the few definitions to read first.",
	Args:        []promptArg{{Name: "path", Description: "A folder relative to the project; default: the whole project."}},
	Text: func(a map[string]string) string {
		where, p := "this project", "."
		if a["path"] != "" {
			where, p = "the folder "+a["path"], a["path"]
		}
		return "Get oriented in " + where + ". Use zumba's tools, not ls and whole-file reads.\n" +
			"1. outline with path " + p + " for a map of its most used definitions under their files (budget 4000 for a larger one).\n" +
			"2. outline the two or three files at its centre, to see how each is laid out.\n" +
			"3. read_symbol (names) the definitions most of the code uses and the entry points (main, handlers, the exported API).\n" +
			"Then summarize what the code is for, its main parts and how they connect, and the five definitions to read first, at path:line."
	},
}

// List is the prompts as prompts/list lists them.
func List() []any {
	list := make([]any, 0, len(prompts))
	for _, p := range prompts {
		args := make([]any, 0, len(p.Args))
		for _, a := range p.Args {
			args = append(args, map[string]any{"name": a.Name, "description": a.Description, "required": a.Required})
		}
		list = append(list, map[string]any{
			"name":        p.Name,
			"title":       p.Title,
			"description": p.Description,
			"arguments":   args,
		})
	}
	return list
}

// Get answers prompts/get: the prompt's description and its text with
// the arguments of params bound. Every fault of the request (no name, an
// unknown prompt, a required argument missing, an argument that is not a
// string or that the prompt does not take) is an error naming it, which
// the server answers as -32602.
func Get(params json.RawMessage) (description, text string, err error) {
	var p struct {
		Name      *string                    `json:"name"`
		Arguments map[string]json.RawMessage `json:"arguments"`
	}
	if len(params) == 0 || params[0] != '{' || json.Unmarshal(params, &p) != nil {
		return "", "", errors.New("prompts/get takes an object with name and arguments")
	}
	if p.Name == nil {
		return "", "", errors.New("prompts/get: name is missing")
	}
	i := slices.IndexFunc(prompts, func(q *prompt) bool { return q.Name == *p.Name })
	if i < 0 {
		return "", "", fmt.Errorf("unknown prompt %s; zumba's prompts are %s", project.Echo(*p.Name), promptNames())
	}
	pr := prompts[i]
	args := map[string]string{}
	for name, raw := range p.Arguments {
		j := slices.IndexFunc(pr.Args, func(a promptArg) bool { return a.Name == name })
		if j < 0 {
			return "", "", fmt.Errorf("prompt %s takes no argument %s (it takes %s)", pr.Name, project.Echo(name), pr.argNames())
		}
		var v string
		if json.Unmarshal(raw, &v) != nil {
			return "", "", fmt.Errorf("prompt %s: argument %s must be a string", pr.Name, name)
		}
		args[name] = v
	}
	for _, a := range pr.Args {
		if a.Required && args[a.Name] == "" {
			return "", "", fmt.Errorf("prompt %s: argument %s is required", pr.Name, a.Name)
		}
	}
	return pr.Description, pr.Text(args), nil
}

func promptNames() string {
	names := make([]string, len(prompts))
	for i, p := range prompts {
		names[i] = p.Name
	}
	return strings.Join(names, ", ")
}

func (p *prompt) argNames() string {
	if len(p.Args) == 0 {
		return "none"
	}
	names := make([]string, len(p.Args))
	for i, a := range p.Args {
		names[i] = a.Name
	}
	return strings.Join(names, ", ")
}

// Text is the text prompts/get gives for the prompt name, with args
// bound in the order the prompt declares its arguments (zumba prompt's
// twin of prompts/get).
func Text(name string, args []string) (string, error) {
	i := slices.IndexFunc(prompts, func(q *prompt) bool { return q.Name == name })
	if i < 0 {
		return "", fmt.Errorf("unknown prompt %s; zumba's prompts are %s", project.Quote(name), promptNames())
	}
	pr := prompts[i]
	if len(args) > len(pr.Args) {
		return "", fmt.Errorf("prompt %s takes at most %d arguments (%s)", pr.Name, len(pr.Args), pr.argNames())
	}
	named := map[string]string{}
	for j, v := range args {
		named[pr.Args[j].Name] = v
	}
	for _, a := range pr.Args {
		if a.Required && named[a.Name] == "" {
			return "", fmt.Errorf("prompt %s: argument %s is required", pr.Name, a.Name)
		}
	}
	return pr.Text(named), nil
}

// Help lists the prompts, one line each: the name, its arguments
// (optional ones in brackets) and what it does.
func Help() string {
	var sb strings.Builder
	for _, p := range prompts {
		sb.WriteString(p.Name)
		for _, a := range p.Args {
			if a.Required {
				fmt.Fprintf(&sb, " %s", strings.ToUpper(a.Name))
			} else {
				fmt.Fprintf(&sb, " [%s]", strings.ToUpper(a.Name))
			}
		}
		fmt.Fprintf(&sb, ": %s\n", p.Description)
	}
	return sb.String()
}
