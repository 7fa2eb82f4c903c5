"""Print the outline zumba should give for Python files, from the ast module.

Reads file paths, one per line, on stdin. For each file it prints
"F<TAB>path", then one "line<TAB>kind<TAB>name<TAB>parent" line per
definition, or "E<TAB>path<TAB>error" when ast cannot parse the file.

The rules are zumba's (SPEC.md, outline): classes, functions and methods
wherever they are, with the name of the nearest enclosing class or
function as parent; a function whose parent is a class is a method; a
name bound to a lambda at module level or in a class body is a function
(a method in a class); ALL_CAPS names assigned at module level (inside
module-level if/try/with/for/while/match bodies too, since those do not
open a scope) are constants. Tuple and list targets give one constant per
plain name; starred and nested targets are not constants.
"""

import ast
import re
import sys
import warnings

CAPS = re.compile(r"^_*[A-Z][A-Z0-9_]*$")
DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def target_names(target):
    if isinstance(target, ast.Name):
        return [target]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [e for e in target.elts if isinstance(e, ast.Name)]
    return []


def sub_bodies(stmt):
    """The statement lists directly under a compound statement."""
    for field in ("body", "orelse", "finalbody"):
        body = getattr(stmt, field, None)
        if isinstance(body, list):
            yield body
    for handler in getattr(stmt, "handlers", None) or []:
        yield handler.body
    for case in getattr(stmt, "cases", None) or []:
        yield case.body


def walk(body, out, parent, parent_kind, module_level):
    for stmt in body:
        if isinstance(stmt, DEFS):
            if isinstance(stmt, ast.ClassDef):
                kind = "class"
            elif parent_kind == "class":
                kind = "method"
            else:
                kind = "function"
            out.append((stmt.lineno, kind, stmt.name, parent))
            walk(stmt.body, out, stmt.name,
                 "class" if kind == "class" else "function", False)
            continue
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            if (isinstance(stmt.value, ast.Lambda) and len(targets) == 1
                    and isinstance(targets[0], ast.Name)
                    and (module_level or parent_kind == "class")):
                kind = "method" if parent_kind == "class" else "function"
                out.append((targets[0].lineno, kind, targets[0].id, parent))
                continue
            if module_level:
                for t in targets:
                    for name in target_names(t):
                        if CAPS.match(name.id):
                            out.append((name.lineno, "const", name.id, ""))
            continue
        for sub in sub_bodies(stmt):
            walk(sub, out, parent, parent_kind, module_level)


def main():
    warnings.simplefilter("ignore")  # invalid escapes in old test files
    for path in sys.stdin.read().splitlines():
        if not path:
            continue
        try:
            with open(path, "rb") as f:
                tree = ast.parse(f.read(), path)
        except (SyntaxError, ValueError) as e:
            print("E\t%s\t%s" % (path, str(e).replace("\n", " ")))
            continue
        out = []
        walk(tree.body, out, "", "", True)
        print("F\t%s" % path)
        for line, kind, name, parent in out:
            print("%d\t%s\t%s\t%s" % (line, kind, name, parent))


if __name__ == "__main__":
    main()
