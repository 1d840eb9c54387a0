#!/usr/bin/env python3
"""Import circles between the modules of each crate of the workspace.

Reads every `crate::…` and `super::…` path (in `use` items and in code) and resolves it to
the module it names. An edge between a module and its own ancestor or descendant is left
out (a parent declares its children); any other edge is lifted to the two siblings below the
modules' nearest common ancestor, so that `player::uci -> error` and `error -> player` make
the circle `error <-> player`. Prints each crate's edges with --edges, and every circle;
exits 1 if there is one.

    python3 scripts/module_cycles.py [--edges] [workspace root]
"""

import re
import sys
from pathlib import Path

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
MOD_DECL = re.compile(rf"^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+({IDENT})\s*(;|\{{)")
PATH = re.compile(rf"\b(crate|super)((?:::{IDENT})+)")
USE = re.compile(r"\buse\s+(crate|super)::([^;]*);", re.S)


def crate_roots(root):
    """(crate name, its root file) for every crate of the workspace."""
    for manifest in sorted(root.glob("*/Cargo.toml")) + [root / "Cargo.toml"]:
        src = manifest.parent / "src"
        for name in ("lib.rs", "main.rs"):
            if (src / name).exists():
                yield manifest.parent.name if manifest.parent != root else "hoplite (bin)", src / name


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r'"(?:\\.|[^"\\])*"', '""', text)
    return re.sub(r"//[^\n]*", "", text)


def expand(tree):
    """The paths of a `use` tree: `a::{b, c::{d, e}}` gives a::b, a::c::d, a::c::e."""
    tree = re.sub(r"\s+", "", tree)
    if "{" not in tree:
        return [tree.split(" as ")[0]]
    head, rest = tree.split("{", 1)
    inner = rest[: rest.rfind("}")]
    parts, depth, start = [], 0, 0
    for i, c in enumerate(inner):
        depth += c == "{"
        depth -= c == "}"
        if c == "," and depth == 0:
            parts.append(inner[start:i])
            start = i + 1
    parts.append(inner[start:])
    return [head + p for part in parts if part for p in expand(part)]


def modules(root_file):
    """Module path (a tuple) -> (file, text of that module alone, with inline modules cut out)."""
    out = {}

    def read(path, file, text):
        own, lines, depth_stack, depth = [], text.split("\n"), [], 0
        children = []  # (name, lines) of inline modules
        current = None
        for line in lines:
            if current is None:
                m = MOD_DECL.match(line)
                if m and m.group(2) == "{":
                    current, depth = (m.group(1), []), line.count("{") - line.count("}")
                    if depth == 0:
                        children.append(current)
                        current = None
                    continue
                if m:
                    name = m.group(1)
                    base = file.parent if file.name in ("lib.rs", "main.rs", "mod.rs") else file.with_suffix("")
                    for candidate in (base / f"{name}.rs", base / name / "mod.rs"):
                        if candidate.exists():
                            read(path + (name,), candidate, strip_comments(candidate.read_text()))
                            break
                own.append(line)
            else:
                depth += line.count("{") - line.count("}")
                if depth <= 0:
                    children.append(current)
                    current = None
                else:
                    current[1].append(line)
        out[path] = (file, "\n".join(own))
        for name, body in children:
            read(path + (name,), file, "\n".join(body))

    read((), root_file, strip_comments(root_file.read_text()))
    return out


def resolve(mods, here, kind, rest):
    """The module a path names: the longest module prefix of it."""
    base = list(here)
    parts = [p for p in rest.split("::") if p]
    if kind == "super":
        base = base[:-1]
        while parts and parts[0] == "super":
            base, parts = base[:-1], parts[1:]
    else:
        base = []
    target = tuple(base)
    for p in parts:
        if target + (p,) in mods:
            target = target + (p,)
        else:
            break
    return target


def lift(a, b):
    """The two siblings below a and b's nearest common ancestor, or None for kin."""
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    if n == len(a) or n == len(b):
        return None
    return a[: n + 1], b[: n + 1]


def cycles(edges):
    """Strongly connected components of more than one module (Tarjan)."""
    graph = {}
    for a, b in edges:
        graph.setdefault(a, set()).add(b)
        graph.setdefault(b, set())
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def main():
    args = sys.argv[1:]
    show = "--edges" in args
    args = [a for a in args if a != "--edges"]
    root = Path(args[0] if args else Path(__file__).resolve().parent.parent)
    found = 0
    for crate, root_file in crate_roots(root):
        mods = modules(root_file)
        edges = set()
        for here, (_, text) in mods.items():
            refs = [(k, "::" + p) for k, tree in USE.findall(text) for p in expand(tree)]
            refs += PATH.findall(USE.sub("", text))
            for kind, rest in refs:
                lifted = lift(here, resolve(mods, here, kind, rest))
                if lifted:
                    edges.add(lifted)
        name = lambda m: "::".join(m)
        if show:
            for a, b in sorted(edges):
                print(f"{crate}: {name(a)} -> {name(b)}")
        circles = cycles(edges)
        for comp in circles:
            print(f"{crate}: circle: {' <-> '.join(name(m) for m in comp)}")
        if not circles:
            print(f"{crate}: no circles ({len(mods)} modules, {len(edges)} edges)")
        found += len(circles)
    sys.exit(1 if found else 0)


if __name__ == "__main__":
    main()
