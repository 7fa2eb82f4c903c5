// outline.js lists the declarations of TypeScript and JavaScript files the
// way zumba's outline should, using the TypeScript compiler's parser, so
// that tsdiff_test.go can compare the two. It reads file paths, one a line,
// on stdin and writes one JSON line per file:
//
//   {"file": PATH, "entries": [[LINE, KIND, NAME, PARENT], ...]}
//
// With --extents, each entry is [LINE, KIND, NAME, PARENT, FIRST, LAST, BODY]
// (see add below); read_symbol's differential and scripts/read_bench.sh use
// them.
//
// LINE is the 1-based line of the name, PARENT the name of the innermost
// enclosing entry ("" at top level). The rules are SPEC.md § outline as
// zumba's README states them for TypeScript and JavaScript; this file
// states them a second time, from the compiler's syntax tree, on purpose.
"use strict";

const fs = require("fs");
const path = require("path");
const ts = require("typescript");

const extents = process.argv.includes("--extents");

function scriptKind(file) {
  const ext = path.extname(file).toLowerCase();
  switch (ext) {
    case ".tsx":
      return ts.ScriptKind.TSX;
    case ".jsx":
      return ts.ScriptKind.JSX;
    case ".js":
    case ".mjs":
    case ".cjs":
      return ts.ScriptKind.JS;
    default:
      return ts.ScriptKind.TS;
  }
}

function isFunctionValue(node) {
  return node !== undefined && (ts.isArrowFunction(node) || ts.isFunctionExpression(node));
}

// isRequire matches require("x") and require("x").y: imports, not constants.
function isRequire(node) {
  if (node !== undefined && ts.isPropertyAccessExpression(node)) node = node.expression;
  return (
    node !== undefined &&
    ts.isCallExpression(node) &&
    ts.isIdentifier(node.expression) &&
    node.expression.text === "require" &&
    node.arguments.length === 1 &&
    ts.isStringLiteral(node.arguments[0])
  );
}

function hasModifier(node, kind) {
  const mods = ts.canHaveModifiers(node) ? ts.getModifiers(node) : undefined;
  return mods !== undefined && mods.some((m) => m.kind === kind);
}

function outline(file, text) {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, scriptKind(file));
  const isJS = /\.(js|mjs|cjs|jsx)$/i.test(file);
  const entries = [];
  const lineOf = (pos) => sf.getLineAndCharacterOfPosition(pos).line + 1;
  const nameOf = (name) => {
    if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name)) return name.text;
    if (ts.isStringLiteral(name) || ts.isNoSubstitutionTemplateLiteral(name)) return name.text;
    if (ts.isNumericLiteral(name)) return name.getText(sf);
    // [Symbol.iterator]: the source text with whitespace folded.
    return name.getText(sf).split(/\s+/).filter(Boolean).join(" ");
  };
  // With --extents each entry also has the definition's first line (its
  // comments directly above included: the comment lines that end on the
  // line before it, or before the next of them, with no blank line
  // between; decorators and modifiers are part of the node), its last
  // line, and whether it has a body.
  const add = (line, kind, name, parent, node, body) => {
    if (name === "") return;
    if (extents) {
      entries.push([line, kind, name, parent, firstLine(node), lineOf(node.end), body]);
    } else {
      entries.push([line, kind, name, parent]);
    }
  };
  const firstLine = (node) => {
    let first = lineOf(node.getStart(sf));
    const comments = ts.getLeadingCommentRanges(text, node.pos) || [];
    for (let i = comments.length - 1; i >= 0; i--) {
      const c = comments[i];
      if (lineOf(c.end) < first - 1) break;
      first = Math.min(first, lineOf(c.pos));
    }
    return first;
  };
  // A variable statement of one declaration is the definition as a whole
  // (export const f = () => …;); of several, each declaration alone.
  const declNode = (st, d) => (st.declarationList.declarations.length === 1 ? st : d);
  // The "default" keyword of `export default function () {}`.
  const defaultLine = (node) => {
    const m = ts.getModifiers(node).find((m) => m.kind === ts.SyntaxKind.DefaultKeyword);
    return lineOf(m.getStart(sf));
  };

  // statements lists the top-level statements of a file or namespace body:
  // const and function-bound variables count there and nowhere else.
  function topLevel(statements, parent) {
    for (const st of statements) {
      if (ts.isVariableStatement(st)) {
        const isConst = (st.declarationList.flags & ts.NodeFlags.BlockScoped) === ts.NodeFlags.Const;
        for (const d of st.declarationList.declarations) {
          if (!ts.isIdentifier(d.name)) {
            visit(d, parent);
            continue;
          }
          if (isFunctionValue(d.initializer)) {
            add(lineOf(d.name.getStart(sf)), "function", d.name.text, parent, declNode(st, d), true);
            visit(d.initializer, d.name.text);
          } else if (isConst && !isRequire(d.initializer)) {
            add(lineOf(d.name.getStart(sf)), "const", d.name.text, parent, declNode(st, d), false);
            if (d.initializer) visit(d.initializer, d.name.text);
          } else if (d.initializer) {
            visit(d.initializer, parent);
          }
        }
        continue;
      }
      if (isJS && parent === "" && ts.isExpressionStatement(st)) {
        const a = assigned(st.expression);
        if (a !== undefined) {
          add(lineOf(st.expression.left.name.getStart(sf)), a.kind, a.name, parent, st, true);
          visit(st.expression.right, a.name);
          continue;
        }
      }
      visit(st, parent);
    }
  }

  // assigned names a function assigned to a property in a JavaScript
  // file: exports.x = function … and module.exports.x = () => … are
  // CommonJS exports named x; Server.prototype.listen = function … is a
  // method named Server.listen; res.send = function … is a function named
  // res.send. module.exports = function … is a default export: left out.
  function assigned(e) {
    if (!ts.isBinaryExpression(e) || e.operatorToken.kind !== ts.SyntaxKind.EqualsToken) return undefined;
    if (!isFunctionValue(e.right) || !ts.isPropertyAccessExpression(e.left)) return undefined;
    if (!ts.isIdentifier(e.left.name)) return undefined;
    const name = e.left.name.text;
    const obj = e.left.expression;
    if (ts.isIdentifier(obj)) {
      if (obj.text === "exports") return { kind: "function", name };
      if (obj.text === "module") return undefined;
      return { kind: "function", name: obj.text + "." + name };
    }
    if (ts.isPropertyAccessExpression(obj) && ts.isIdentifier(obj.expression) && ts.isIdentifier(obj.name)) {
      if (obj.expression.text === "module" && obj.name.text === "exports") return { kind: "function", name };
      if (obj.name.text === "prototype") return { kind: "method", name: obj.expression.text + "." + name };
    }
    return undefined;
  }

  function classMembers(node, parent) {
    for (const m of node.members) {
      if (ts.isConstructorDeclaration(m)) {
        const kw = m.getChildren(sf).find((c) => c.kind === ts.SyntaxKind.ConstructorKeyword);
        const line = kw ? lineOf(kw.getStart(sf)) : lineOf(m.getStart(sf));
        add(line, "method", "constructor", parent, m, m.body !== undefined);
        visit(m, "constructor");
      } else if (
        ts.isMethodDeclaration(m) ||
        ts.isGetAccessorDeclaration(m) ||
        ts.isSetAccessorDeclaration(m) ||
        (ts.isPropertyDeclaration(m) && isFunctionValue(m.initializer))
      ) {
        const name = nameOf(m.name);
        add(lineOf(m.name.getStart(sf)), "method", name, parent, m, !ts.isPropertyDeclaration(m) ? m.body !== undefined : true);
        visit(m, name);
      } else {
        visit(m, parent);
      }
    }
  }

  function visit(node, parent) {
    if (node === undefined) return;
    if (ts.isSourceFile(node)) {
      topLevel(node.statements, parent);
      return;
    }
    if (ts.isFunctionDeclaration(node)) {
      let name = "";
      let line = 0;
      if (node.name) {
        name = node.name.text;
        line = lineOf(node.name.getStart(sf));
      } else if (hasModifier(node, ts.SyntaxKind.DefaultKeyword)) {
        name = "default";
        line = defaultLine(node);
      }
      if (name !== "") {
        add(line, "function", name, parent, node, node.body !== undefined);
        ts.forEachChild(node, (c) => visit(c, name));
        return;
      }
    } else if (ts.isClassDeclaration(node)) {
      let name = "";
      let line = 0;
      if (node.name) {
        name = node.name.text;
        line = lineOf(node.name.getStart(sf));
      } else if (hasModifier(node, ts.SyntaxKind.DefaultKeyword)) {
        name = "default";
        line = defaultLine(node);
      }
      if (name !== "") {
        add(line, "class", name, parent, node, true);
        classMembers(node, name);
        return;
      }
      classMembers(node, parent);
      return;
    } else if (ts.isClassExpression(node)) {
      classMembers(node, parent);
      return;
    } else if (ts.isInterfaceDeclaration(node)) {
      const name = node.name.text;
      add(lineOf(node.name.getStart(sf)), "interface", name, parent, node, true);
      for (const m of node.members) {
        // get size(): number; in an interface is an accessor, listed like
        // one in a class.
        if (ts.isMethodSignature(m) || ts.isGetAccessorDeclaration(m) || ts.isSetAccessorDeclaration(m)) {
          add(lineOf(m.name.getStart(sf)), "method", nameOf(m.name), name, m, false);
        }
      }
      return;
    } else if (ts.isTypeAliasDeclaration(node)) {
      add(lineOf(node.name.getStart(sf)), "type", node.name.text, parent, node, false);
      return;
    } else if (ts.isEnumDeclaration(node)) {
      add(lineOf(node.name.getStart(sf)), "enum", node.name.text, parent, node, true);
      return;
    } else if (ts.isModuleDeclaration(node)) {
      let kind = "namespace";
      let name = nameOf(node.name);
      if (ts.isStringLiteral(node.name) || node.flags & ts.NodeFlags.GlobalAugmentation) {
        kind = "module";
      }
      // namespace A.B.C {} is three nested declarations in the compiler's
      // tree and one entry in zumba's.
      let body = node.body;
      while (body && ts.isModuleDeclaration(body)) {
        name += "." + nameOf(body.name);
        body = body.body;
      }
      add(lineOf(node.name.getStart(sf)), kind, name, parent, node, true);
      if (body && ts.isModuleBlock(body)) topLevel(body.statements, name);
      return;
    } else if (ts.isObjectLiteralExpression(node)) {
      // Object literal members are not entries; what is inside them may be.
    }
    ts.forEachChild(node, (c) => visit(c, parent));
  }

  visit(sf, "");
  return entries;
}

function main() {
  const files = fs.readFileSync(0, "utf8").split("\n").filter(Boolean);
  const out = [];
  for (const file of files) {
    const text = fs.readFileSync(file, "utf8");
    out.push(JSON.stringify({ file, entries: outline(file, text) }));
  }
  process.stdout.write(out.join("\n") + "\n");
}

main();
