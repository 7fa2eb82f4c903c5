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
// Prompts as a strict client asks for them: every argument bound to "$1",
// "$2", …, then once with a real value, then with a required one missing.
out.prompts = [];
for (const p of (await client.listPrompts()).prompts) {
  const args = Object.fromEntries((p.arguments ?? []).map((a, i) => [a.name, `$${i + 1}`]));
  const res = await client.getPrompt({ name: p.name, arguments: args });
  out.prompts.push({ name: p.name, args, text: res.messages[0].content.text });
}
out.explain = (await client.getPrompt({ name: "explain", arguments: { name: "Server.Serve" } })).messages[0].content.text;
try {
  await client.getPrompt({ name: "explain", arguments: {} });
  out.missingError = null;
} catch (e) {
  out.missingError = e.code;
}
await transport.terminateSession();
await client.close();
console.log(JSON.stringify(out));
