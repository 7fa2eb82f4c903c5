#!/usr/bin/env python3
"""Build find_code benchmark queries for RxJS from its operator decision
tree: the rxjs.dev page that leads a user to an operator by what they want
to do ("I have one existing Observable, and / I want to ignore values /
until another Observable emits a value" -> skipUntil). The tree is not in
the npm package; it is apps/rxjs.dev/content/operator-decision-tree.yml of
ReactiveX/rxjs (last changed at 6cd81137), and rxjs_tree.tsv, committed, is
this script's output for it.

Usage: rxjs_tree_queries.py operator-decision-tree.yml [--keep-names] > rxjs_tree.tsv

Each leaf (an operator, a function or a constant, or "Observable" with a
method) gives one query: the labels on the way to it, joined, with every
word of the target's own name taken out (words.py, find_code's rules), so
a query never names what it looks for. A leaf reached by two ways gives
two queries. The target is its definition under src/ (not a spec).

Output: query, folder (src/), name, the tree's first label.
"""
import re
import sys

from words import name_words

ITEM = re.compile(r"^(\s*)- label: (.*)$")
METHOD = re.compile(r"^(\s*)method: (.*)$")


def unquote(s):
    s = s.strip()
    if len(s) >= 2 and s[0] == s[-1] and s[0] in "'\"":
        s = s[1:-1]
    return s


def leaves(lines):
    """(path of labels, leaf label, method or None) for each leaf."""
    stack = []  # (indent, label)
    items = []  # (path, label, indent)
    for line in lines:
        m = ITEM.match(line)
        if m:
            indent, label = len(m.group(1)), unquote(m.group(2))
            while stack and stack[-1][0] >= indent:
                stack.pop()
            items.append([[l for _, l in stack], label, indent, None])
            stack.append((indent, label))
            continue
        m = METHOD.match(line)
        if m and items:
            items[-1][3] = unquote(m.group(2))
    out = []
    for i, (path, label, indent, method) in enumerate(items):
        nxt = items[i + 1][2] if i + 1 < len(items) else -1
        if nxt <= indent:  # no children
            out.append((path, label, method))
    return out


def main():
    keep_names = "--keep-names" in sys.argv[2:]
    for path, label, method in leaves(open(sys.argv[1], encoding="utf-8")):
        name = f"{label}.{method}" if method else label
        drop = name_words(name)
        text = " ".join(path)
        kept = [w for w in re.findall(r"[A-Za-z][A-Za-z0-9]*", text) if keep_names or not (name_words(w) & drop)]
        print(f"{' '.join(kept)}\tsrc/\t{name}\t{path[0].rstrip(', and')}")


if __name__ == "__main__":
    main()
