// Package diagfile reads an editor's diagnostics file: an LSP-shaped
// document (PublishDiagnosticsParams, alone or in a list, or a map from
// path or URI to LSP diagnostics), a flat list of {path, line, column,
// severity, message}, or SARIF 2.1.0 (see Parse). File keeps the last
// version it parsed and reads the file again only when its stat, or its
// bytes, say it changed; a file caught half-written is read once more
// after a pause. It returns entries as the file states them; placing them
// in the project and printing them is the diagnostics tool's work.
package diagfile
