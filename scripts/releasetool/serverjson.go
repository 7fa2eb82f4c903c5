package main

import "encoding/json"

// Names the MCP registry and npm know zumba by. The registry checks that
// the npm package's mcpName is serverName.
const (
	serverName     = "io.github.zumba-dev/zumba"
	npmMain        = "zumba-mcp"
	serverSchema   = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json"
	npmDescription = "Code navigation for coding agents over MCP: outlines, symbols, references (prebuilt zumba binary)"
	// metaPublisher is the key of _meta under which the registry keeps
	// what the publisher adds to server.json.
	metaPublisher = "io.modelcontextprotocol.registry/publisher-provided"
)

// serverJSON is the MCP registry's description of the release: the npm
// package, run over stdio as `zumba-mcp mcp PROJECT_DIR`.
func (r release) serverJSON() ([]byte, error) {
	type arg struct {
		Type        string `json:"type"`
		Value       string `json:"value,omitempty"`
		ValueHint   string `json:"valueHint,omitempty"`
		Description string `json:"description,omitempty"`
		Default     string `json:"default,omitempty"`
		IsRequired  bool   `json:"isRequired,omitempty"`
		Format      string `json:"format,omitempty"`
	}
	type pkg struct {
		RegistryType    string            `json:"registryType"`
		RegistryBaseURL string            `json:"registryBaseUrl"`
		Identifier      string            `json:"identifier"`
		Version         string            `json:"version"`
		RuntimeHint     string            `json:"runtimeHint"`
		Transport       map[string]string `json:"transport"`
		PackageArgs     []arg             `json:"packageArguments"`
	}
	doc := struct {
		Schema      string            `json:"$schema"`
		Name        string            `json:"name"`
		Title       string            `json:"title"`
		Description string            `json:"description"`
		Version     string            `json:"version"`
		WebsiteURL  string            `json:"websiteUrl"`
		Repository  map[string]string `json:"repository"`
		Packages    []pkg             `json:"packages"`
		Meta        map[string]any    `json:"_meta"`
	}{
		Schema:      serverSchema,
		Name:        serverName,
		Title:       "zumba",
		Description: "Code navigation for coding agents: outlines, definitions, references, diagnostics",
		Version:     r.version,
		WebsiteURL:  repoURL,
		Repository:  map[string]string{"url": repoURL, "source": "github"},
		Packages: []pkg{{
			RegistryType:    "npm",
			RegistryBaseURL: "https://registry.npmjs.org",
			Identifier:      npmMain,
			Version:         r.version,
			RuntimeHint:     "npx",
			Transport:       map[string]string{"type": "stdio"},
			PackageArgs: []arg{
				{Type: "positional", Value: "mcp"},
				{Type: "positional", ValueHint: "project_dir", Description: "The project folder to serve", Default: ".", IsRequired: true, Format: "filepath"},
			},
		}},
		// The schema has no licence field: the registry keeps what a
		// publisher adds under this key of _meta.
		Meta: map[string]any{metaPublisher: map[string]string{
			"license":       licenseID,
			"licenseUrl":    repoURL + "/blob/v" + r.version + "/" + licenseFile,
			"thirdPartyUrl": repoURL + "/blob/v" + r.version + "/" + noticesFile,
		}},
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}
