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

function fold(s) {
  return s.split(/\s+/).filter(Boolean).join(" ");
}

function outline(file, text) {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, scriptKind(file));
  const isJS = /\.(js|mjs|cjs|jsx)$/i.test(file);
  const entries = [];
  // listed holds the object literals returned by functions that are
  // entries: visit lists their members.
  const listed = new Set();
  const lineOf = (pos) => sf.getLineAndCharacterOfPosition(pos).line + 1;
  const nameOf = (name) => {
    if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name)) return name.text;
    // zumba folds whitespace in every name: ' ' () {} is not listed.
    if (ts.isStringLiteral(name) || ts.isNoSubstitutionTemplateLiteral(name)) return fold(name.text);
    if (ts.isNumericLiteral(name)) return name.getText(sf);
    // [Symbol.iterator]: the source text with whitespace folded.
    return fold(name.getText(sf));
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
  const declNode = (d) => {
    const list = d.parent;
    const st = list && list.parent;
    return st && ts.isVariableStatement(st) && list.declarations.length === 1 ? st : d;
  };
  // The "default" keyword of `export default function () {}`.
  const defaultLine = (node) => {
    const m = ts.getModifiers(node).find((m) => m.kind === ts.SyntaxKind.DefaultKeyword);
    return lineOf(m.getStart(sf));
  };

  // topLevel visits the statements of a file or namespace body: constants
  // count there and nowhere else.
  function topLevel(statements, parent) {
    for (const st of statements) {
      if (ts.isVariableStatement(st)) {
        const isConst = (st.declarationList.flags & ts.NodeFlags.BlockScoped) === ts.NodeFlags.Const;
        for (const d of st.declarationList.declarations) binding(d, parent, isConst);
        continue;
      }
      if (isJS && parent === "" && ts.isExpressionStatement(st)) {
        const a = assigned(st.expression);
        if (a !== undefined) {
          add(lineOf(st.expression.left.name.getStart(sf)), a.kind, a.name, parent, st, true);
          visit(st.expression.right, a.name);
          continue;
        }
        // module.exports = { parse() {} }: a module named module.exports
        // holding the literal's methods.
        const e = st.expression;
        if (
          ts.isBinaryExpression(e) &&
          e.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
          ts.isPropertyAccessExpression(e.left) &&
          ts.isIdentifier(e.left.expression) &&
          e.left.expression.text === "module" &&
          e.left.name.text === "exports" &&
          ts.isObjectLiteralExpression(e.right) &&
          hasMethods(e.right)
        ) {
          add(lineOf(e.left.getStart(sf)), "module", "module.exports", parent, st, true);
          members(e.right, "module.exports");
          continue;
        }
      }
      visit(st, parent);
    }
  }

  // binding lists a variable declaration: a name bound to a function is a
  // function and to a class a class, at any depth; a name bound to an
  // object literal with methods is a const holding them, at any depth;
  // other const bindings are constants at top level only.
  function binding(d, parent, topConst) {
    if (!ts.isIdentifier(d.name)) {
      ts.forEachChild(d, (c) => visit(c, parent));
      return;
    }
    const name = d.name.text;
    const line = lineOf(d.name.getStart(sf));
    const init = d.initializer;
    if (isFunctionValue(init)) {
      add(line, "function", name, parent, declNode(d), true);
      fn(init, name);
      return;
    }
    if (init !== undefined && ts.isClassExpression(init)) {
      add(line, "class", name, parent, declNode(d), true);
      classMembers(init, name);
      return;
    }
    const obj = literal(init);
    if (obj !== undefined && hasMethods(obj)) {
      add(line, "const", name, parent, declNode(d), true);
      members(obj, name);
      return;
    }
    if (topConst && !isRequire(init)) {
      add(line, "const", name, parent, declNode(d), false);
      if (init) visit(init, name);
      return;
    }
    if (init) visit(init, parent);
  }

  // literal unwraps an object literal from `satisfies T`, `as T` and
  // `as const satisfies T`, as zumba's query does.
  function literal(e) {
    if (e === undefined) return undefined;
    if (ts.isObjectLiteralExpression(e)) return e;
    if (ts.isSatisfiesExpression(e)) {
      const x = e.expression;
      if (ts.isObjectLiteralExpression(x)) return x;
      if (ts.isAsExpression(x) && ts.isObjectLiteralExpression(x.expression)) return x.expression;
      return undefined;
    }
    if (ts.isAsExpression(e) && ts.isObjectLiteralExpression(e.expression)) return e.expression;
    return undefined;
  }

  function isMethodMember(p) {
    return (
      ts.isMethodDeclaration(p) ||
      ts.isGetAccessorDeclaration(p) ||
      ts.isSetAccessorDeclaration(p) ||
      (ts.isPropertyAssignment(p) && isFunctionValue(p.initializer))
    );
  }

  function hasMethods(obj) {
    return obj.properties.some(isMethodMember);
  }

  // members lists the methods, accessors and function-valued properties of
  // an object literal bound to a name or returned by a function, under
  // parent; data properties are not entries, what is inside them may be.
  function members(obj, parent) {
    for (const p of obj.properties) {
      if (isMethodMember(p)) {
        const name = nameOf(p.name);
        add(lineOf(p.name.getStart(sf)), "method", name, parent, p, true);
        visit(p, name);
      } else {
        visit(p, parent);
      }
    }
  }

  // fn visits a function that is an entry named name: the object literal
  // it returns from its body (not from a nested block) lists its members
  // under it.
  function fn(node, name) {
    const body = node.body;
    if (body !== undefined && ts.isBlock(body)) {
      for (const st of body.statements) {
        if (ts.isReturnStatement(st)) {
          const obj = literal(st.expression);
          if (obj !== undefined) listed.add(obj);
        }
      }
    } else if (body !== undefined) {
      // const create = () => ({ push() {} }), also with satisfies or as
      // after the parentheses
      let e = body;
      if ((ts.isAsExpression(e) || ts.isSatisfiesExpression(e)) && ts.isParenthesizedExpression(e.expression)) {
        e = e.expression;
      }
      if (ts.isParenthesizedExpression(e)) {
        const obj = literal(e.expression);
        if (obj !== undefined) listed.add(obj);
      }
    }
    ts.forEachChild(node, (c) => visit(c, name));
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
        fn(m, "constructor");
      } else if (
        ts.isMethodDeclaration(m) ||
        ts.isGetAccessorDeclaration(m) ||
        ts.isSetAccessorDeclaration(m) ||
        (ts.isPropertyDeclaration(m) && isFunctionValue(m.initializer))
      ) {
        const name = nameOf(m.name);
        add(lineOf(m.name.getStart(sf)), "method", name, parent, m, ts.isPropertyDeclaration(m) || m.body !== undefined);
        if (ts.isPropertyDeclaration(m)) {
          ts.forEachChild(m, (c) => (c === m.initializer ? fn(c, name) : visit(c, name)));
        } else {
          fn(m, name);
        }
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
        fn(node, name);
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
      // A class expression bound to a name is listed by binding; one with
      // a name of its own is a class of that name; an anonymous one lists
      // its members where it is.
      if (node.name) {
        add(lineOf(node.name.getStart(sf)), "class", node.name.text, parent, node, true);
        classMembers(node, node.name.text);
        return;
      }
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
    } else if (ts.isVariableDeclaration(node)) {
      binding(node, parent, false);
      return;
    } else if (ts.isObjectLiteralExpression(node) && listed.has(node)) {
      members(node, parent);
      return;
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
