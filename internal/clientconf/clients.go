// Package clientconf registers zumba with the MCP clients installed for a
// user: it finds each client's documented configuration file and sets a
// zumba server entry in it, leaving every other byte as it was, and keeps
// a block of guidance for agents in a project's AGENTS.md. It only
// computes the new contents; writing them (with a backup, through a
// temporary file and a rename) is Write's.
package clientconf

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// Client is one MCP client whose configuration zumba can set.
type Client struct {
	Name  string // what --client takes: claude, codex, cursor, ...
	Title string // Claude Code
	// Path is the user's configuration file; Home, a file or folder whose
	// presence says the client is installed for this user.
	Path, Home string
	// Program is the client's own command that registers a server (zuno
	// mcp add), for a client whose files zumba does not edit; the client
	// is installed when it is on the PATH. Path is then "".
	Program string
	toml    bool     // Codex's config.toml; else JSON (with comments where allowed)
	key     []string // where the servers are: mcpServers, servers, mcp
	// inner is a member of the servers object some files keep their
	// servers in instead (OpenCode's mcp.servers); "" when none.
	inner string
	// entry is the server entry's settings, for a command line.
	entry func(command string, args []string) []field
	// expands is what the client replaces in its file's strings (${VAR}):
	// the text of s it would replace, "" when none.
	expands func(s string) string
	// empty is the text a new file starts from ("" for "{}").
	empty string
	// workspace is the argument that names the project the client has
	// open ("." when the client starts its servers there, a variable the
	// client expands), "" when the client gives a server no project.
	workspace string
}

// The entries' shapes: {command, args}, with "type": "stdio" before them
// where the client reads one, and OpenCode's {type: local, command: [the
// whole command line], enabled}.
func commandArgs(command string, args []string) []field {
	return []field{{"command", command}, {"args", args}}
}

func stdioCommandArgs(command string, args []string) []field {
	return append([]field{{"type", "stdio"}}, commandArgs(command, args)...)
}

func localCommand(command string, args []string) []field {
	return []field{{"type", "local"}, {"command", append([]string{command}, args...)}, {"enabled", true}}
}

// What the clients replace in their files' strings when they start a
// server. VS Code and Cursor resolve ${workspaceFolder}, ${env:NAME} and
// the like in a server's command and arguments; Claude Code and Windsurf
// expand ${NAME}; Gemini CLI $NAME and ${NAME}; OpenCode {env:NAME} and
// {file:PATH}, in the whole file before it reads it.
var (
	dollarBrace = regexp.MustCompile(`\$\{`)
	dollarName  = regexp.MustCompile(`\$(\{|[A-Za-z_])`)
	openCodeVar = regexp.MustCompile(`\{(env|file):`)
)

func finder(re *regexp.Regexp) func(string) string {
	return func(s string) string { return re.FindString(s) }
}

// Clients are the clients zumba knows, their files under the user's home
// folder, configuration folder (os.UserConfigDir's) and XDG
// configuration folder ($XDG_CONFIG_HOME, else ~/.config, which OpenCode
// uses on every system).
func Clients(home, configDir, xdgConfig string) []Client {
	opencode := filepath.Join(xdgConfig, "opencode")
	return []Client{
		{Name: "claude", Title: "Claude Code", Path: filepath.Join(home, ".claude.json"), Home: filepath.Join(home, ".claude.json"),
			key: []string{"mcpServers"}, entry: stdioCommandArgs, expands: finder(dollarBrace), workspace: "."},
		{Name: "codex", Title: "Codex", Path: filepath.Join(home, ".codex", "config.toml"), Home: filepath.Join(home, ".codex"),
			toml: true, workspace: "."},
		{Name: "cursor", Title: "Cursor", Path: filepath.Join(home, ".cursor", "mcp.json"), Home: filepath.Join(home, ".cursor"),
			key: []string{"mcpServers"}, entry: commandArgs, expands: finder(dollarBrace), workspace: "${workspaceFolder}"},
		{Name: "vscode", Title: "VS Code", Path: filepath.Join(configDir, "Code", "User", "mcp.json"), Home: filepath.Join(configDir, "Code", "User"),
			key: []string{"servers"}, entry: stdioCommandArgs, expands: finder(dollarBrace), workspace: "${workspaceFolder}"},
		{Name: "gemini", Title: "Gemini CLI", Path: filepath.Join(home, ".gemini", "settings.json"), Home: filepath.Join(home, ".gemini"),
			key: []string{"mcpServers"}, entry: commandArgs, expands: finder(dollarName), workspace: "."},
		{Name: "windsurf", Title: "Windsurf", Path: filepath.Join(home, ".codeium", "windsurf", "mcp_config.json"), Home: filepath.Join(home, ".codeium", "windsurf"),
			key: []string{"mcpServers"}, entry: commandArgs, expands: finder(dollarBrace)},
		{Name: "opencode", Title: "OpenCode", Path: openCodeFile(opencode), Home: opencode,
			key: []string{"mcp"}, inner: "servers", entry: localCommand, expands: finder(openCodeVar), workspace: ".",
			empty: "{\n  \"$schema\": \"https://opencode.ai/config.json\"\n}\n"},
		{Name: "zuno", Title: "Zuno", Program: "zuno", workspace: "."},
	}
}

// openCodeFile is OpenCode's global file in dir: opencode.jsonc when it
// exists (OpenCode reads it after opencode.json, so its entries win),
// else opencode.json.
func openCodeFile(dir string) string {
	jsonc := filepath.Join(dir, "opencode.jsonc")
	if _, err := os.Lstat(jsonc); err == nil {
		return jsonc
	}
	return filepath.Join(dir, "opencode.json")
}

// Names are the names --client takes.
func Names(clients []Client) []string {
	var out []string
	for _, c := range clients {
		out = append(out, c.Name)
	}
	return out
}

// Installed reports whether the client is set up for this user: its
// configuration file or folder exists, or its program is on the PATH.
func (c Client) Installed() bool {
	if c.Program != "" {
		_, err := exec.LookPath(c.Program)
		return err == nil
	}
	_, err := os.Stat(c.Home)
	return err == nil
}

// Edit is what setting up one client changes.
type Edit struct {
	Client  Client
	File    File   // the file as it is
	New     []byte // the file as it will be
	Changed bool
	Args    []string // the arguments of the entry's command
}

// NeedsProject is Plan's error for a client that gives its servers no
// project folder when none was given: nothing to do for it.
type NeedsProject struct{ Client Client }

func (e *NeedsProject) Error() string {
	return fmt.Sprintf("skipped: it starts servers without a project folder; give one (zumba setup --client %s DIR)", e.Client.Name)
}

// Command is the command line of c's zumba entry: the server (zumba's
// absolute path, or a launcher and its arguments) with "mcp" and project
// (an absolute folder), or the client's own way of naming its workspace
// when project is "". A client that names no workspace needs a project
// (*NeedsProject). Every argument must reach the client as it is: one
// that is not UTF-8 (JSON and TOML hold only Unicode text), or that
// holds text the client would replace (${…}), is refused.
func Command(c Client, server []string, project string) ([]string, error) {
	dir := project
	if dir == "" {
		if c.workspace == "" {
			return nil, &NeedsProject{c}
		}
		dir = c.workspace
	}
	line := append(append([]string{}, server...), "mcp", dir)
	for i, a := range line {
		what := "the argument"
		switch {
		case i == 0:
			what = "zumba's path"
		case a == project:
			what = "the project path"
		}
		if !utf8.ValidString(a) {
			return nil, fmt.Errorf("%s %q is not UTF-8, which a configuration file cannot hold; give a folder whose path is", what, a)
		}
		if c.expands == nil || a == c.workspace {
			continue
		}
		if v := c.expands(a); v != "" {
			return nil, fmt.Errorf("%s %s holds %q, which %s would replace when it starts the server; give a path without it", what, a, v, c.Title)
		}
	}
	return line, nil
}

// Plan computes the zumba entry for c (see Command) and the file with it.
func Plan(c Client, server []string, project string) (Edit, error) {
	e := Edit{Client: c}
	if c.Program != "" {
		return e, fmt.Errorf("%s sets its servers with its own command (%s), not a file zumba edits", c.Title, c.Program)
	}
	line, err := Command(c, server, project)
	if err != nil {
		return e, err
	}
	command := line[0]
	e.Args = line[1:]
	if e.File, err = ReadConfig(c.Path); err != nil {
		return e, err
	}
	if c.toml {
		e.New, e.Changed, err = editTOML(e.File.Data, "zumba", command, e.Args)
	} else {
		data := e.File.Data
		if !e.File.Exists() && c.empty != "" {
			data = []byte(c.empty)
		}
		e.New, e.Changed, err = editJSON(data, c.key, c.inner, "zumba", c.entry(command, e.Args))
	}
	if err != nil {
		return e, fmt.Errorf("%s cannot be read: %v; it is left as it is", c.Path, err)
	}
	return e, nil
}

// Select is the clients named (all installed ones when names is empty);
// an unknown name is an error listing the known ones.
func Select(clients []Client, names []string) ([]Client, error) {
	if len(names) == 0 {
		var out []Client
		for _, c := range clients {
			if c.Installed() {
				out = append(out, c)
			}
		}
		return out, nil
	}
	var out []Client
	for _, n := range names {
		i := slices.IndexFunc(clients, func(c Client) bool { return c.Name == strings.ToLower(n) })
		if i < 0 {
			return nil, fmt.Errorf("unknown client %q; known: %s", n, strings.Join(Names(clients), ", "))
		}
		if !slices.ContainsFunc(out, func(c Client) bool { return c.Name == clients[i].Name }) {
			out = append(out, clients[i])
		}
	}
	return out, nil
}
