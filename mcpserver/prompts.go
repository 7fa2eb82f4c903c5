package mcpserver

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/zumba-dev/zumba/internal/project"
)

// Prompts are workflows over zumba's tools that clients turn into
// commands (Claude Code's and OpenCode's slash commands, the strict
// client's commands). A strict client asks for a prompt with every
// argument bound to the literal "$1", "$2", … and fills those in later,
// so an argument is put into the text exactly as given: never quoted,
// escaped, checked against the project or resolved. The texts name the
// tools and arguments in the order an expert would call them, and stay
// short: every byte of them is read by the model.

// Prompt is one MCP prompt.
type Prompt struct {
	Name        string
	Title       string
	Description string
	Args        []PromptArg
	// Text is the prompt's text; an optional argument left out is "".
	Text func(args map[string]string) string
}

// PromptArg is one argument of a prompt; its value is a string.
type PromptArg struct {
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
var prompts = []*Prompt{explainPrompt, impactPrompt, findPrompt, orientPrompt}

var explainPrompt = &Prompt{
	Name:        "explain",
	Title:       "Explain a definition",
	Description: "Read a definition and its users, then explain what it does and who relies on it.",
	Args:        []PromptArg{{Name: "name", Description: "A name, Type.method or path:line.", Required: true}},
	Text: func(a map[string]string) string {
		n := a["name"]
		return "Explain " + n + ": what it does and who relies on it. Use zumba's tools, not whole-file reads.\n" +
			"1. read_symbol with name " + n + " for its source. If several definitions answer, choose the one meant and read it by its path:line.\n" +
			"2. find_references with name " + n + ", group definition and code true: the definitions that use it (qualify it as Type.method when the bare name is common). Add depth 2 for callers of callers.\n" +
			"3. read_symbol (names) the two or three most telling users, by their path:line.\n" +
			"Then explain what it does (inputs, results, effects, errors), how its users rely on it, and what would break if it changed. Cite path:line for each point."
	},
}

var impactPrompt = &Prompt{
	Name:        "impact",
	Title:       "Impact of the current change",
	Description: "What the current change touches, who uses it, and what to re-test.",
	Args:        []PromptArg{{Name: "base", Description: "Compare the branch with this commit or branch (e.g. main); default: the uncommitted edits."}},
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

var findPrompt = &Prompt{
	Name:        "find",
	Title:       "Find code by what it does",
	Description: "Locate the code that does something, then read the best candidates.",
	Args:        []PromptArg{{Name: "description", Description: "What the code does, in a few words.", Required: true}},
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

var orientPrompt = &Prompt{
	Name:        "orient",
	Title:       "Orient in a folder",
	Description: "A map of a folder or the project, then the few definitions to read first.",
	Args:        []PromptArg{{Name: "path", Description: "A folder relative to the project; default: the whole project."}},
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

func promptList() []any {
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

// promptResult is the result of prompts/get.
type promptResult struct {
	Description string          `json:"description"`
	Messages    []promptMessage `json:"messages"`
	// ResultType is "complete" for a 2026-07-28 request, absent otherwise.
	ResultType string `json:"resultType,omitempty"`
}

type promptMessage struct {
	Role    string      `json:"role"`
	Content textContent `json:"content"`
}

// getPrompt answers prompts/get. Every fault of the request (no name, an
// unknown prompt, a required argument missing, an argument that is not a
// string or that the prompt does not take) is -32602 naming it.
func getPrompt(params json.RawMessage) (*promptResult, *rpcError) {
	var p struct {
		Name      *string                    `json:"name"`
		Arguments map[string]json.RawMessage `json:"arguments"`
	}
	if len(params) == 0 || params[0] != '{' || json.Unmarshal(params, &p) != nil {
		return nil, invalidParams("prompts/get takes an object with name and arguments")
	}
	if p.Name == nil {
		return nil, invalidParams("prompts/get: name is missing")
	}
	i := slices.IndexFunc(prompts, func(q *Prompt) bool { return q.Name == *p.Name })
	if i < 0 {
		return nil, invalidParams(fmt.Sprintf("unknown prompt %s; zumba's prompts are %s", project.Echo(*p.Name), promptNames()))
	}
	pr := prompts[i]
	args := map[string]string{}
	for name, raw := range p.Arguments {
		j := slices.IndexFunc(pr.Args, func(a PromptArg) bool { return a.Name == name })
		if j < 0 {
			return nil, invalidParams(fmt.Sprintf("prompt %s takes no argument %s (it takes %s)", pr.Name, project.Echo(name), pr.argNames()))
		}
		var v string
		if json.Unmarshal(raw, &v) != nil {
			return nil, invalidParams(fmt.Sprintf("prompt %s: argument %s must be a string", pr.Name, name))
		}
		args[name] = v
	}
	for _, a := range pr.Args {
		if a.Required && args[a.Name] == "" {
			return nil, invalidParams(fmt.Sprintf("prompt %s: argument %s is required", pr.Name, a.Name))
		}
	}
	return &promptResult{
		Description: pr.Description,
		Messages:    []promptMessage{{Role: "user", Content: textContent{Type: "text", Text: pr.Text(args)}}},
	}, nil
}

func invalidParams(msg string) *rpcError {
	return &rpcError{Code: CodeInvalidParams, Message: "invalid params: " + msg}
}

func promptNames() string {
	names := make([]string, len(prompts))
	for i, p := range prompts {
		names[i] = p.Name
	}
	return strings.Join(names, ", ")
}

func (p *Prompt) argNames() string {
	if len(p.Args) == 0 {
		return "none"
	}
	names := make([]string, len(p.Args))
	for i, a := range p.Args {
		names[i] = a.Name
	}
	return strings.Join(names, ", ")
}

// PromptText is the text prompts/get gives for the prompt name, with args
// bound in the order the prompt declares its arguments (zumba prompt's
// twin of prompts/get).
func PromptText(name string, args []string) (string, error) {
	i := slices.IndexFunc(prompts, func(q *Prompt) bool { return q.Name == name })
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

// PromptHelp lists the prompts, one line each: the name, its arguments
// (optional ones in brackets) and what it does.
func PromptHelp() string {
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
