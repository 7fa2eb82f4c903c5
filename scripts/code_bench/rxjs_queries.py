#!/usr/bin/env python3
"""Build find_code benchmark queries for RxJS from its CHANGELOG.md (the
npm package's own, as `npm pack rxjs@7.8.1` ships it beside src/).

Usage: rxjs_queries.py CHANGELOG.md [--keep-names] > rxjs.tsv

Each entry "- **scope:** what it adds (#123) (abc1234)" of a Features
section whose scope is an identifier (an operator, a class, a function: "throttle",
"WebSocketSubject") gives one query: the entry's text without its issue and
commit links and backticks, with every word of the scope's name taken out, as
a person who does not know the name would describe it. The target is a
definition of that name under src/ (not a spec). Of a scope's entries, the
one with the most words find_code keeps is taken (the newest among equals);
entries saying "deprecated" or left with fewer than three such words are
dropped, and so are texts given for several scopes ("add higher order
lettable version of"), which describe none of them. The Bug Fixes sections
are left out: an entry there says what was wrong ("no longer emits more than
necessary in sync trailing case"), not what the definition does, as the Go
queries leave out the sentences about a change (go_queries.py).

Output: query, folder (src), name, the changelog section it came from.
"""
import re
import sys

from words import name_words, keep_words

ENTRY = re.compile(r"^\s*[-*] \*\*([A-Za-z_$][A-Za-z0-9_$]*):\*\* (.*)$")


def clean(text):
    text = re.sub(r"\(\[[^\]]*\]\([^)]*\)\)", " ", text)  # ([#123](url)) ([abc](url))
    text = re.sub(r",? ?closes? .*$", " ", text)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"https?://\S+", " ", text)
    return " ".join(text.replace("`", " ").replace("*", " ").split())


def main():
    keep_names = "--keep-names" in sys.argv[2:]
    section = ""
    best = {}
    order = []
    for line in open(sys.argv[1], encoding="utf-8"):
        if line.startswith("#"):
            section = "features" if "Feature" in line else "fixes" if "Fix" in line else "other"
            continue
        m = ENTRY.match(line)
        if not m or section != "features":
            continue
        scope, desc = m.group(1), clean(m.group(2))
        if "deprecat" in desc.lower() or scope.lower() in ("types", "typescript", "package", "docs", "build", "perf", "deps"):
            continue
        drop = name_words(scope)
        kept = [w for w in re.findall(r"[A-Za-z][A-Za-z0-9]*", desc) if not (name_words(w) & drop)]
        query = " ".join(kept)
        if len(keep_words(query)) < 3:
            continue
        rank = -len(keep_words(query))
        if scope not in best:
            order.append(scope)
        if scope not in best or rank < best[scope][0]:
            best[scope] = (rank, query, section, " ".join(re.findall(r"[A-Za-z][A-Za-z0-9]*", desc)))
    # A text given for several scopes ("add higher order lettable version")
    # describes none of them.
    count = {}
    for scope in order:
        key = " ".join(sorted(keep_words(best[scope][1])))
        count[key] = count.get(key, 0) + 1
    for scope in order:
        _, query, section, written = best[scope]
        if count[" ".join(sorted(keep_words(query)))] == 1:
            print(f"{written if keep_names else query}\tsrc/\t{scope}\t{section}")


if __name__ == "__main__":
    main()
