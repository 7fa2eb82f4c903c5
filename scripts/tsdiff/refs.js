// refs.js is the oracle of zumba's TypeScript resolver differential
// (search/resolve/tsjs/tsserver_diff_test.go): the TypeScript language
// service's findReferences, the function tsserver's "references" command
// answers with, over the .ts files under a folder, loaded as one program.
//
//   node refs.js defs ROOT        one JSON line per definition that may be
//                                 sampled: {path, line, col, name, kind, container}
//   node refs.js refs ROOT < DEFS for each line of DEFS (a JSON definition
//                                 as above), one JSON line: the references
//                                 to it, as ["path:line:col", ...]
//
// Lines and columns are 1-based; columns count bytes of UTF-8, as zumba
// does. Paths are relative to ROOT with "/". Only references inside ROOT
// are listed (not the standard library's declaration files).
"use strict";

const fs = require("fs");
const path = require("path");
const ts = require("typescript");

const [mode, rootArg] = process.argv.slice(2);
const root = path.resolve(rootArg);

function walk(dir, out) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== "node_modules" && !e.name.startsWith(".")) walk(p, out);
    } else if (/\.(ts|tsx|mts|cts)$/.test(e.name)) {
      out.push(p);
    }
  }
  return out;
}

const files = walk(root, []).sort();
const texts = new Map();
function text(f) {
  if (!texts.has(f)) texts.set(f, fs.readFileSync(f, "utf8"));
  return texts.get(f);
}

const options = {
  target: ts.ScriptTarget.ES2020,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Node10,
  lib: ["lib.es2020.d.ts", "lib.dom.d.ts"],
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  jsx: ts.JsxEmit.Preserve,
  baseUrl: root,
};

const host = {
  getScriptFileNames: () => files,
  getScriptVersion: () => "1",
  getScriptSnapshot: (f) => {
    if (!fs.existsSync(f)) return undefined;
    return ts.ScriptSnapshot.fromString(texts.has(f) || f.startsWith(root) ? text(f) : fs.readFileSync(f, "utf8"));
  },
  getCurrentDirectory: () => root,
  getCompilationSettings: () => options,
  getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
  fileExists: ts.sys.fileExists,
  readFile: ts.sys.readFile,
  readDirectory: ts.sys.readDirectory,
  directoryExists: ts.sys.directoryExists,
  getDirectories: ts.sys.getDirectories,
};
const service = ts.createLanguageService(host, ts.createDocumentRegistry());

function rel(f) {
  return path.relative(root, f).split(path.sep).join("/");
}

// position gives a character offset of file f as [line, byte column].
function position(f, pos) {
  const sf = service.getProgram().getSourceFile(f);
  const lc = sf.getLineAndCharacterOfPosition(pos);
  const lineStart = sf.getPositionOfLineAndCharacter(lc.line, 0);
  const col = Buffer.byteLength(sf.text.slice(lineStart, pos), "utf8") + 1;
  return [lc.line + 1, col];
}

function listDefs() {
  const program = service.getProgram();
  for (const f of files) {
    const sf = program.getSourceFile(f);
    const emit = (nameNode, kind, container) => {
      if (!nameNode || !ts.isIdentifier(nameNode)) return;
      const [line, col] = position(f, nameNode.getStart(sf));
      process.stdout.write(JSON.stringify({ path: rel(f), line, col, name: nameNode.text, kind, container }) + "\n");
    };
    const visit = (node, container) => {
      if (ts.isFunctionDeclaration(node) && node.name && node.body) {
        emit(node.name, "function", "");
      } else if (ts.isClassDeclaration(node) && node.name) {
        for (const m of node.members) {
          if (ts.isMethodDeclaration(m) && m.body) emit(m.name, "method", node.name.text);
        }
      } else if (ts.isInterfaceDeclaration(node)) {
        for (const m of node.members) {
          if (ts.isMethodSignature(m)) emit(m.name, "interface method", node.name.text);
        }
      }
      ts.forEachChild(node, (c) => visit(c, container));
    };
    visit(sf, "");
  }
}

function refs() {
  const lines = fs.readFileSync(0, "utf8").split("\n").filter((l) => l.trim() !== "");
  for (const l of lines) {
    const d = JSON.parse(l);
    const f = path.join(root, d.path);
    const sf = service.getProgram().getSourceFile(f);
    const lineStart = sf.getPositionOfLineAndCharacter(d.line - 1, 0);
    // The byte column back to a character offset.
    const lineText = Buffer.from(sf.text.slice(lineStart, lineStart + 4 * d.col + 4096), "utf8");
    const pos = lineStart + lineText.subarray(0, d.col - 1).toString("utf8").length;
    const found = service.findReferences(f, pos) || [];
    const out = new Set();
    for (const sym of found) {
      for (const r of sym.references) {
        if (!r.fileName.startsWith(root + path.sep)) continue;
        const [line, col] = position(r.fileName, r.textSpan.start);
        out.add(rel(r.fileName) + ":" + line + ":" + col);
      }
    }
    process.stdout.write(JSON.stringify([...out].sort()) + "\n");
  }
}

if (mode === "defs") listDefs();
else if (mode === "refs") refs();
else {
  process.stderr.write("usage: node refs.js defs|refs ROOT\n");
  process.exit(2);
}
