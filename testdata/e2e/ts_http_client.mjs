// Drives zumba over Streamable HTTP with the official TypeScript SDK client
// and prints what it saw as one JSON object.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [url, token] = process.argv.slice(2);
const transport = new StreamableHTTPClientTransport(new URL(url), {
  requestInit: { headers: { Authorization: `Bearer ${token}` } },
});
const client = new Client({ name: "zumba-e2e-ts", version: "1.0.0" });
await client.connect(transport);
const out = {
  protocolVersion: transport.protocolVersion,
  sessionId: transport.sessionId,
  server: client.getServerVersion(),
  tools: (await client.listTools()).tools.map((t) => t.name),
  calls: [],
};
for (const [name, args] of [
  ["outline", { path: "main.go" }],
  ["find_symbol", { name: "Server.Serve" }],
  ["find_references", { name: "main", path: "*.rs" }],
  ["diagnostics", {}],
]) {
  const res = await client.callTool({ name, arguments: args });
  out.calls.push({ name, isError: res.isError, text: res.content[0].text });
}
await transport.terminateSession();
await client.close();
console.log(JSON.stringify(out));
