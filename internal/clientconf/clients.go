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
	"path/filepath"
	"slices"
	"strings"
)

// Client is one MCP client whose configuration zumba can edit.
type Client struct {
	Name  string // what --client takes: claude, codex, cursor, vscode, gemini, windsurf
	Title string // Claude Code
	// Path is the user's configuration file; Home, a file or folder whose
	// presence says the client is installed for this user.
	Path, Home string
	toml       bool   // Codex's config.toml; else JSON (with comments where allowed)
	key        string // the top-level object of servers: mcpServers, servers
	stdioType  bool   // the entry names its transport: "type": "stdio"
	// workspace is the argument that names the project the client has
	// open ("." when the client starts its servers there, a variable the
	// client expands), "" when the client gives a server no project.
	workspace string
}

// Clients are the clients zumba knows, their files under the user's home
// folder and configuration folder (os.UserConfigDir's).
func Clients(home, configDir string) []Client {
	return []Client{
		{Name: "claude", Title: "Claude Code", Path: filepath.Join(home, ".claude.json"), Home: filepath.Join(home, ".claude.json"),
			key: "mcpServers", stdioType: true, workspace: "."},
		{Name: "codex", Title: "Codex", Path: filepath.Join(home, ".codex", "config.toml"), Home: filepath.Join(home, ".codex"),
			toml: true, workspace: "."},
		{Name: "cursor", Title: "Cursor", Path: filepath.Join(home, ".cursor", "mcp.json"), Home: filepath.Join(home, ".cursor"),
			key: "mcpServers", workspace: "${workspaceFolder}"},
		{Name: "vscode", Title: "VS Code", Path: filepath.Join(configDir, "Code", "User", "mcp.json"), Home: filepath.Join(configDir, "Code", "User"),
			key: "servers", stdioType: true, workspace: "${workspaceFolder}"},
		{Name: "gemini", Title: "Gemini CLI", Path: filepath.Join(home, ".gemini", "settings.json"), Home: filepath.Join(home, ".gemini"),
			key: "mcpServers", workspace: "."},
		{Name: "windsurf", Title: "Windsurf", Path: filepath.Join(home, ".codeium", "windsurf", "mcp_config.json"), Home: filepath.Join(home, ".codeium", "windsurf"),
			key: "mcpServers"},
	}
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
// configuration file or folder exists.
func (c Client) Installed() bool {
	_, err := os.Stat(c.Home)
	return err == nil
}

// Edit is what setting up one client changes.
type Edit struct {
	Client  Client
	Old     []byte // the file as it is (nil when it does not exist)
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

// Plan computes the zumba entry for c: the server is server (zumba's
// absolute path, or a launcher and its arguments) with "mcp" and project
// (an absolute folder), or the client's own way of naming its workspace
// when project is "". A client that names no workspace needs a project.
func Plan(c Client, server []string, project string) (Edit, error) {
	e := Edit{Client: c}
	dir := project
	if dir == "" {
		if c.workspace == "" {
			return e, &NeedsProject{c}
		}
		dir = c.workspace
	}
	command := server[0]
	e.Args = append(append([]string{}, server[1:]...), "mcp", dir)
	old, err := os.ReadFile(c.Path)
	switch {
	case err == nil:
		e.Old = old
	case os.IsNotExist(err):
	default:
		return e, err
	}
	if c.toml {
		e.New, e.Changed, err = editTOML(e.Old, "zumba", command, e.Args)
	} else {
		var fields []field
		if c.stdioType {
			fields = append(fields, field{"type", "stdio"})
		}
		fields = append(fields, field{"command", command}, field{"args", e.Args})
		e.New, e.Changed, err = editJSON(e.Old, c.key, "zumba", fields)
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
