#!/usr/bin/env python3
"""Run a language server over stdio, open the given files, and print every
textDocument/publishDiagnostics notification it sends as a JSON list.

usage: lspcapture.py "SERVER [ARGS]" PROJECT_DIR FILE...   (FILEs relative to PROJECT_DIR)"""
import json, subprocess, sys, threading, time, pathlib, urllib.parse

server, root, files = sys.argv[1].split(), pathlib.Path(sys.argv[2]).resolve(), sys.argv[3:]
p = subprocess.Popen(server, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
uri = lambda f: (root / f).as_uri()
LANGUAGES = {".go": "go", ".ts": "typescript", ".tsx": "typescriptreact", ".js": "javascript", ".rs": "rust", ".py": "python"}

def send(msg):
    b = json.dumps(msg).encode()
    p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(b) + b)
    p.stdin.flush()

captured = []
def reader():
    while True:
        n = 0
        while True:
            line = p.stdout.readline()
            if not line:
                return
            line = line.strip()
            if not line:
                break
            if line.lower().startswith(b"content-length:"):
                n = int(line.split(b":")[1])
        msg = json.loads(p.stdout.read(n))
        if msg.get("method") == "textDocument/publishDiagnostics":
            captured.append(msg)
        elif "id" in msg and "method" in msg:
            result = [None] * len(msg["params"].get("items", [])) if msg["method"] == "workspace/configuration" else None
            send({"jsonrpc": "2.0", "id": msg["id"], "result": result})
threading.Thread(target=reader, daemon=True).start()

send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "processId": None, "rootUri": root.as_uri(),
    "workspaceFolders": [{"uri": root.as_uri(), "name": root.name}],
    "capabilities": {"textDocument": {"publishDiagnostics": {"relatedInformation": True}}}}})
time.sleep(1)
send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
for f in files:
    send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": uri(f), "languageId": LANGUAGES.get(pathlib.Path(f).suffix, "plaintext"), "version": 1, "text": (root / f).read_text()}}})
time.sleep(8)
send({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
time.sleep(0.5)
send({"jsonrpc": "2.0", "method": "exit"})
p.wait(timeout=5)
json.dump(captured, sys.stdout, indent=1, ensure_ascii=False)
print()
