#!/usr/bin/env python3
"""Build find_code benchmark queries for the Go standard library from Go's
release notes.

Usage: go_queries.py NOTES.md... > go.tsv

The notes are golang/website's _content/doc/go1.NN.md (the release notes of
Go 1.NN, as go.dev/doc/go1.NN shows them). Every sentence whose subject is a
link to a standard-library symbol ("The new [`Writer.AddFS`](/pkg/archive/tar#
Writer.AddFS) method adds all of the files from an fs.FS to the archive.")
gives one query: the rest of the sentence after the link and its kind word
(function, method, type, ...), the links reduced to their text, and with every
word of the symbol's own name taken out ("Writer", "Add", "FS"), as a person who
does not know the name would describe it. The target is the symbol in the
package's folder. Sentences about a change rather than what the symbol does (the rest starting
with "now", "is", "has", "will", "no longer", ..., or saying "deprecated") are
dropped (for a sentence about a member, "The [`Package`] field [`IgnoredGoFiles`]
will ...", the member is the symbol), and so are sentences about a part of the symbol ("[`Reader`]'s ReadForm
method ..."), sentences left with fewer than three words that find_code keeps
(not stop words, not numbers), and symbols the notes name twice (the first
sentence is kept).

Output: one line per query, tab-separated: query, package folder (under
GOROOT/src), symbol (Type.Method or Name), the notes file it came from.

With --keep-names, the same sentences and targets, with the name's words
left in the query as the notes write them (the link to the symbol itself,
the sentence's subject, still left out): a description in the words an
agent who half knows the API would use, for find_code's figures beside the
benchmark's (go_kept.tsv).
"""
import re
import sys

from words import name_words, keep_words

LINK = re.compile(r"\[`?([^\]`]+)`?\]\(/pkg/([a-z0-9_/.]+?)/?#([A-Za-z_][A-Za-z0-9_.]*)\)")
LIST = re.compile(r"\s*(,\s*and|,|and|or)\s*" + LINK.pattern)
ANYLINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
# Sentences about a change rather than what the symbol does.
BAD_START = {"and", "or", "now", "has", "have", "had", "is", "are", "was", "were", "will", "would", "may", "can",
             "could", "no", "no longer", "should", "must", "also", "still", "previously", "has been", "is now",
             "are now", "been", "of", "in", "on", "to", "with", "for", "from", "as", "that", "which", "by"}
KIND = re.compile(r"^\s*(generic\s+)?(function|functions|method|methods|type|types|constant|constants|field|fields|variable|variables|interface|struct|helper method|option)\b\s*", re.I)


def sentences(text):
    # Paragraphs, then sentences (a period followed by a space and a capital).
    for para in re.split(r"\n\s*\n", text):
        para = re.sub(r"<!--.*?-->", " ", para, flags=re.S)
        para = re.sub(r"^\s*:\s+", "", para)
        para = " ".join(para.split())
        for s in re.split(r"(?<=[.!?])\s+(?=[A-Z\[`])", para):
            yield s


def plain(s):
    s = ANYLINK.sub(lambda m: m.group(1), s)
    return s.replace("`", "").replace("*", "").replace("_", " ").strip()


def main():
    seen = set()
    keep_names = "--keep-names" in sys.argv[1:]
    for path in [a for a in sys.argv[1:] if a != "--keep-names"]:
        text = open(path, encoding="utf-8").read()
        src = path.rsplit("/", 1)[-1]
        for s in sentences(text):
            m = LINK.search(s)
            if not m:
                continue
            lead = s[: m.start()].strip()
            if lead not in ("", "The", "The new", "A new", "New", "The new generic", "The new top-level"):
                continue
            pkg, sym = m.group(2), m.group(3)
            if pkg.startswith("cmd/") or (pkg, sym) in seen:
                continue
            # "[A] and [B] functions provide ...": past the list of links.
            rest = s[m.end():]
            # "[Reader]'s ReadForm method no longer ...": the sentence is
            # about a part of the symbol (a method, a field, its result),
            # not the symbol itself.
            if re.match(r"['’]s\b", rest):
                continue
            while True:
                more = LIST.match(rest)
                if not more:
                    break
                rest = rest[more.end():]
            rest = KIND.sub("", rest)
            # "The [Package] field [IgnoredGoFiles](#Package.IgnoredGoFiles)
            # will ...": the sentence is about the member the second link
            # names.
            # (Of a list of members, "The new [Map] methods [Swap],
            # [CompareAndSwap] and ...", the symbol stays the type.)
            member = LINK.match(rest)
            if member and member.group(3).startswith(sym + ".") and not LIST.match(rest[member.end():]):
                sym, rest = member.group(3), KIND.sub("", rest[member.end():])
                if (pkg, sym) in seen:
                    continue
            first = rest.split()[:2]
            if not first or first[0].lower() in BAD_START or " ".join(first).lower() in BAD_START or "deprecated" in rest:
                continue
            desc = plain(rest)
            drop = name_words(sym)
            words = [w for w in re.findall(r"[A-Za-z][A-Za-z0-9]*", desc)]
            kept = [w for w in words if not (name_words(w) & drop)]
            query = " ".join(kept)
            if len(keep_words(query)) < 3:
                continue
            seen.add((pkg, sym))
            if keep_names:
                query = " ".join(words)
            print(f"{query}\t{pkg}\t{sym}\t{src}")


if __name__ == "__main__":
    main()
