"""The word rules the benchmark's query builders share: find_code's (see
search/code_words.go), so that "the target's name words" and "the words
find_code keeps" mean what they mean to find_code."""
import re

STOP = set("""a an the of to in on at by for from with into onto as and or but is are was were be been being it its
this that these those there here which who whom whose what when where how why do does did has have had will would
can could should may might must shall so than then such some any each every all both either neither not no nor only
also just very we you he she they them their our your his her my me us i one about after before over under between
through during without within upon via if else while until unless because whether like etc eg ie func function fn
def return returns var let const nil null none undefined true false self this new import package export default case
switch break continue goto elif try catch except finally throw throws raise pass public private protected static
void err ok range go defer chan select struct interface class extends implements async await yield lambda typeof
instanceof""".split())


def stem(w):
    n = len(w)

    def ends(s):
        return n > len(s) and w.endswith(s)

    if n >= 5 and ends("ies"):
        return w[:-3] + "y"
    if ends("sses"):
        return w[:-2]
    if ends("ss") or ends("us") or ends("is"):
        return w
    if n >= 4 and ends("s"):
        w = w[:-1]
    elif n > 6 and ends("ing"):
        w = undouble(w[:-3])
    elif n >= 5 and ends("ed"):
        w = undouble(w[:-2])
    if len(w) > 3 and w.endswith("e"):
        w = w[:-1]
    return w


def undouble(w):
    if len(w) >= 3 and w[-1] == w[-2] and w[-1] not in "aeioulsz":
        return w[:-1]
    return w


STOP_STEMS = {stem(w) for w in STOP}


def split_ident(ident):
    parts = []
    for chunk in re.split(r"[^A-Za-z0-9]+", ident):
        parts += re.findall(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+[0-9]*|[A-Z]+[0-9]*|[0-9]+", chunk)
    return [p.lower() for p in parts if len(p) >= 2 and not p[0].isdigit()]


def name_words(ident):
    """The stems of an identifier's words (Writer.AddFS: writ, add, fs)."""
    return {stem(p) for p in split_ident(ident)}


def keep_words(text):
    """The stems find_code searches for in a query."""
    out = []
    for w in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text):
        for p in split_ident(w):
            s = stem(p)
            if s not in STOP_STEMS and s not in out:
                out.append(s)
    return out
