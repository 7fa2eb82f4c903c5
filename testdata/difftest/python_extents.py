"""Print the extent read_symbol should give for each Python definition, from
the ast module.

Reads file paths, one per line, on stdin. For each file it prints
"F<TAB>path", then one "line<TAB>first<TAB>last<TAB>name" line per class,
function and method (at any depth), or "E<TAB>path<TAB>error" when ast
cannot parse the file.

line is the line of the name (ast's lineno: the def or class line). last
is ast's end_lineno. first is the first decorator's line, or the def line;
then, as for a Go doc comment, it moves up over the comment lines directly
above (lines whose first non-blank character is "#", with no blank line
between), which is how zumba's definition record counts comments. The
tokenize module tells comment lines from "#" inside strings.
"""

import ast
import io
import sys
import tokenize
import warnings

DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def comment_lines(source):
    """The lines that hold only a comment (and indentation)."""
    lines = set()
    code = set()
    try:
        for tok in tokenize.tokenize(io.BytesIO(source).readline):
            if tok.type == tokenize.COMMENT:
                lines.add(tok.start[0])
            elif tok.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.INDENT,
                                  tokenize.DEDENT, tokenize.ENCODING, tokenize.ENDMARKER):
                for l in range(tok.start[0], tok.end[0] + 1):
                    code.add(l)
    except (tokenize.TokenError, SyntaxError):
        pass
    return lines - code


def main():
    warnings.simplefilter("ignore")
    for path in sys.stdin.read().splitlines():
        if not path:
            continue
        try:
            with open(path, "rb") as f:
                source = f.read()
            tree = ast.parse(source, path)
        except (SyntaxError, ValueError) as e:
            print("E\t%s\t%s" % (path, str(e).replace("\n", " ")))
            continue
        comments = comment_lines(source)
        print("F\t%s" % path)
        for node in ast.walk(tree):
            if not isinstance(node, DEFS):
                continue
            first = node.lineno
            for d in node.decorator_list:
                first = min(first, d.lineno)
            while first - 1 in comments:
                first -= 1
            print("%d\t%d\t%d\t%s" % (node.lineno, first, node.end_lineno, node.name))


if __name__ == "__main__":
    main()
