// Package mcpserver serves zumba's tools over MCP: JSON-RPC 2.0, one message
// per line on stdio. Protocol faults (bad JSON, unknown methods, bad params,
// internal panics) are JSON-RPC errors; a tool that cannot answer returns a
// result with isError set and one line saying why, so the model can correct
// itself. Each tool lives in its own file with its arguments, schema,
// description and handler; tools.go holds the registry.
package mcpserver
