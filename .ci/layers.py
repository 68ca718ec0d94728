"""The crate's layering, checked from the sources (GUIDE.md "Architecture", issue 18 item 8).

Reads every module of the library (from `src/lib.rs`, following `mod` declarations and
`#[path]`), collects the paths each file names that start with `crate::`, `super::` or
`self::` (in `use` declarations and in code; comments and string literals are skipped) and
resolves each to the file that defines the module it names. Then it reports:

1. import circles between files: every group of files that reach each other through such
   references (a strongly connected component of more than one file);
2. imports that run up out of the file layer (`src/fileio/`, where bytes reach the disk): a
   file there may name only the file layer itself and the base below the call context
   (`error`, `interrupt`, `text` and `workspace` other than `workspace/context.rs`), never
   the call context `Ctx` (`workspace/context.rs`) nor a higher layer (tools, faces, exec,
   web, lsp, hooks, media, sandbox, ...).

A module naming its own descendants (`record::Journal` under a `mod record;`, or
`self::fetch::Clock`) is the module tree, not an import: such references are left out, as are
paths that start with a bare name (an external crate, or a child or item in scope).

Exit status 0 when there is nothing to report, 1 otherwise (each finding on stdout).

  python3 .ci/layers.py
"""

import os
import re
import sys

SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")
SRC = os.path.normpath(SRC)

# The file layer and what it may name besides itself (top-level modules; `workspace` minus the
# call context).
FILE_LAYER = "fileio"
FILE_LAYER_MAY_USE = {"error", "interrupt", "text", "workspace"}
CALL_CONTEXT = ("crate", "workspace", "context")

IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def tokens(text):
    """Identifiers, `::` and single punctuation characters, with comments, strings and char
    literals left out."""
    i, n = 0, len(text)
    out = []
    while i < n:
        c = text[i]
        if c.isspace():
            i += 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    i += 1
        elif c == '"':
            i = skip_string(text, i + 1)
        elif c == "'":
            if i + 1 < n and text[i + 1] == "\\":
                j = text.find("'", i + 2)
                i = n if j < 0 else j + 1
            elif i + 2 < n and text[i + 2] == "'":
                i += 3
            else:  # a lifetime or label
                m = IDENT.match(text, i + 1)
                i = m.end() if m else i + 1
        elif c.isalpha() or c == "_":
            m = IDENT.match(text, i)
            word = m.group()
            j = m.end()
            if word in ("r", "br", "cr") and j < n and text[j] in '#"':
                k = j
                while k < n and text[k] == "#":
                    k += 1
                if k < n and text[k] == '"':
                    close = '"' + "#" * (k - j)
                    e = text.find(close, k + 1)
                    i = n if e < 0 else e + len(close)
                    continue
            if word in ("b", "c") and j < n and text[j] == '"':
                i = skip_string(text, j + 1)
                continue
            if word == "b" and j < n and text[j] == "'":
                e = j + 1
                while e < n and text[e] != "'":
                    e += 2 if text[e] == "\\" else 1
                i = e + 1
                continue
            out.append(word)
            i = j
        elif text.startswith("::", i):
            out.append("::")
            i += 2
        else:
            out.append(c)
            i += 1
    return out


def skip_string(text, i):
    n = len(text)
    while i < n and text[i] != '"':
        i += 2 if text[i] == "\\" else 1
    return i + 1


def use_tree(toks, i, prefix, found):
    """Parses one use tree at toks[i]; appends each full path to `found`; returns the index
    after it."""
    path = list(prefix)
    while i < len(toks):
        t = toks[i]
        if t == "{":
            i += 1
            while i < len(toks) and toks[i] != "}":
                i = use_tree(toks, i, path, found)
                if i < len(toks) and toks[i] == ",":
                    i += 1
            return i + 1
        if t == "*":
            found.append(path)
            return i + 1
        if IDENT.fullmatch(t):
            if t == "self" and path:
                found.append(path)
                i += 1
            else:
                path = path + [t]
                i += 1
            if i < len(toks) and toks[i] == "::":
                i += 1
                continue
            if i < len(toks) and toks[i] == "as":
                i += 2
            if path != list(prefix):
                found.append(path)
            return i
        return i + 1
    return i


def modules():
    """Module path (tuple) -> file, from `src/lib.rs` down its `mod` declarations."""
    found = {}

    def walk(path, file, is_dir_owner):
        found[path] = file
        with open(file, encoding="utf-8") as f:
            toks = tokens(f.read())
        base = os.path.dirname(file)
        child_dir = base if is_dir_owner else os.path.join(
            base, os.path.splitext(os.path.basename(file))[0])
        with open(file, encoding="utf-8") as f:
            raw = f.read()
        paths = dict(re.findall(r'#\[path\s*=\s*"([^"]+)"\]\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)',
                                raw))
        paths = {name: p for p, name in paths.items()}
        for k in range(len(toks) - 2):
            if toks[k] == "mod" and IDENT.fullmatch(toks[k + 1]) and toks[k + 2] == ";":
                name = toks[k + 1]
                if name in paths:
                    child, owner = os.path.join(base, paths[name]), False
                    owner = os.path.basename(child) == "mod.rs"
                else:
                    flat = os.path.join(child_dir, name + ".rs")
                    nested = os.path.join(child_dir, name, "mod.rs")
                    child, owner = (flat, False) if os.path.exists(flat) else (nested, True)
                if os.path.exists(child):
                    walk(path + (name,), os.path.normpath(child), owner)

    walk(("crate",), os.path.join(SRC, "lib.rs"), True)
    return found


def references(file, here):
    """(line-free) list of absolute module paths `file` names; `here` is its module path."""
    with open(file, encoding="utf-8") as f:
        toks = tokens(f.read())
    found = []
    inline = []  # (name, depth at which its block closes)
    depth = 0
    i = 0
    while i < len(toks):
        t = toks[i]
        cur = here + tuple(name for name, _ in inline)
        if t == "{":
            depth += 1
        elif t == "}":
            depth -= 1
            while inline and inline[-1][1] > depth:
                inline.pop()
        elif t == "mod" and i + 2 < len(toks) and toks[i + 2] == "{":
            inline.append((toks[i + 1], depth + 1))
            depth += 1
            i += 3
            continue
        elif t == "use":
            paths = []
            j = use_tree(toks, i + 1, [], paths)
            for p in paths:
                found.append(absolute(p, cur))
            i = j
            continue
        elif t in ("crate", "super", "self") and i + 1 < len(toks) and toks[i + 1] == "::" \
                and not (i > 0 and toks[i - 1] in ("in", "::")):
            p = [t]
            j = i + 1
            while j + 1 < len(toks) and toks[j] == "::" and IDENT.fullmatch(toks[j + 1]):
                p.append(toks[j + 1])
                j += 2
            found.append(absolute(p, cur))
            i = j
            continue
        i += 1
    return [p for p in found if p]


def absolute(p, cur):
    if not p:
        return None
    if p[0] == "crate":
        return tuple(p)
    if p[0] in ("super", "self"):
        base = list(cur)
        k = 0
        while k < len(p) and p[k] in ("super", "self"):
            if p[k] == "super":
                base.pop()
            k += 1
        return tuple(base + p[k:])
    return None  # an external crate or a bare (child or local) name: not followed


def owner(path, mods):
    for k in range(len(path), 0, -1):
        if path[:k] in mods:
            return path[:k]
    return None


def rel(file):
    return os.path.relpath(file, os.path.dirname(SRC))


def circles(graph):
    """Strongly connected components with more than one node (Tarjan, iterative)."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            node, it = work[-1]
            advanced = False
            for nxt in it:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter[0]
                    counter[0] += 1
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                    advanced = True
                    break
                if nxt in on:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == node:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def main():
    mods = modules()
    files = sorted(set(mods.values()))
    graph = {f: set() for f in files}
    why = {}
    upward = []
    for here, file in sorted(mods.items()):
        for ref in references(file, here):
            target = owner(ref, mods)
            if target is None:
                continue
            tfile = mods[target]
            if target[:len(here)] == here:  # itself or a descendant: the module tree
                tfile = file
            if tfile != file:
                graph[file].add(tfile)
                why.setdefault((file, tfile), "::".join(ref))
            if here[:2] == ("crate", FILE_LAYER):
                top = ref[1] if len(ref) > 1 else None
                if top is None or top == FILE_LAYER:
                    continue
                if top not in FILE_LAYER_MAY_USE or ref[:3] == CALL_CONTEXT:
                    upward.append(f"{rel(file)} names {'::'.join(ref)} "
                                  f"({rel(tfile)}): above the file layer")
    found = 0
    if ("crate", FILE_LAYER) not in mods:
        print(f"src/{FILE_LAYER}/ (the file layer) does not exist")
        found += 1
    for comp in circles(graph):
        found += 1
        print("import circle: " + " <-> ".join(rel(f) for f in comp))
        for a in comp:
            for b in comp:
                if b in graph[a]:
                    print(f"    {rel(a)} -> {why[(a, b)]}")
    for line in sorted(set(upward)):
        found += 1
        print(line)
    if found:
        print(f"{found} layering problem(s) found ({len(files)} files read)")
        return 1
    print(f"layers: no import circles, nothing above the file layer imported "
          f"({len(files)} files read)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
