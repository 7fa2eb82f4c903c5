// sol-outline.js SOLC_DIR FILE...: what solc's parser finds in each
// Solidity file (its compact JSON AST after parsing, without resolving
// imports or checking versions), one per line:
// FILE<TAB>LINE<TAB>KIND<TAB>NAME<TAB>CONTAINER (its version pragma
// ignored), KIND in zumba's words:
// class (contract), interface, module (library), function (functions,
// constructor, fallback, receive and modifiers), type (events, errors,
// user-defined value types), struct, enum, const (constant and immutable
// state variables and file-level constants); LINE is the name's (for
// constructor, fallback and receive, the keyword's). SOLC_DIR holds the
// solc npm package. Read by outline/solidity_diff_test.go
// (scripts/solidity-diff).
const fs = require('fs');
const path = require('path');
const solc = require(path.resolve(process.argv[2], 'solc'));

const kinds = {contract: 'class', interface: 'interface', library: 'module'};

for (const file of process.argv.slice(3)) {
  const text = fs.readFileSync(file, 'utf8');
  const buf = Buffer.from(text, 'utf8');
  const lineOf = (offset) => {
    let line = 1;
    for (let i = 0; i < offset && i < buf.length; i++) if (buf[i] === 10) line++;
    return line;
  };
  const input = {
    language: 'Solidity',
    // The version pragma is blanked (same length, same lines): the parser
    // of this solc reads older files too (Uniswap v3's =0.7.6).
    sources: {[file]: {content: text.replace(/pragma\s+solidity[^;]*;/g, (m) => m.replace(/[^\n]/g, ' '))}},
    settings: {stopAfter: 'parsing', outputSelection: {'*': {'': ['ast']}}},
  };
  const out = JSON.parse(solc.compile(JSON.stringify(input)));
  const errs = (out.errors || []).filter((e) => e.severity === 'error');
  if (errs.length > 0 || !out.sources || !out.sources[file]) {
    process.stderr.write(file + ': ' + (errs[0] ? errs[0].message : 'no AST') + '\n');
    continue;
  }
  const emit = (node, kind, name, container) => {
    const loc = node.nameLocation && !node.nameLocation.startsWith('-1') ? node.nameLocation : node.src;
    const line = lineOf(parseInt(loc.split(':')[0], 10));
    process.stdout.write([file, line, kind, name, container].join('\t') + '\n');
  };
  const walk = (node, container) => {
    if (!node || typeof node !== 'object') return;
    switch (node.nodeType) {
      case 'ContractDefinition':
        emit(node, kinds[node.contractKind] || 'class', node.name, container);
        for (const n of node.nodes || []) walk(n, node.name);
        return;
      case 'FunctionDefinition':
        emit(node, 'function', node.name || node.kind, container);
        return;
      case 'ModifierDefinition':
        emit(node, 'function', node.name, container);
        return;
      case 'EventDefinition':
      case 'ErrorDefinition':
      case 'UserDefinedValueTypeDefinition':
        emit(node, 'type', node.name, container);
        return;
      case 'StructDefinition':
        emit(node, 'struct', node.name, container);
        return;
      case 'EnumDefinition':
        emit(node, 'enum', node.name, container);
        return;
      case 'VariableDeclaration':
        if (node.constant || node.mutability === 'immutable' || node.mutability === 'constant') {
          emit(node, 'const', node.name, container);
        }
        return;
    }
    for (const n of node.nodes || []) walk(n, container);
  };
  walk(out.sources[file].ast, '');
}
