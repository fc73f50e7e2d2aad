#!/usr/bin/env python3
"""Every #include points down the layers of docs/architecture.md (CTest: layering).

    tests/layering.py [SOURCE_ROOT]

Reads the layer table and the allowed crossings between engine folders from
docs/architecture.md, then every #include "..." of src/, parsers/ and rules/.
Prints each include that points up (or across engine folders) as
"file:line: #include "x": reason", then "N files, M includes, K offending";
exits 1 when any include offends, 2 when the page cannot be read.
"""
import os
import re
import sys

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
DOC = os.path.join(ROOT, "docs", "architecture.md")
ENGINE_LAYERS = ("parsers", "rules")  # layers cut in per-engine folders


def block(text, name):
    m = re.search(r"<!-- %s:begin -->\s*```\n(.*?)```\s*<!-- %s:end -->" % (name, name), text, re.S)
    if not m:
        sys.exit(f"layering: {DOC}: no '{name}' block")
    return [line for line in m.group(1).splitlines() if line.strip()]


def read_layers(text):
    """[(layer, [paths])] lowest first. A path is a folder or a file."""
    layers = []
    for line in block(text, "layers"):
        words = line.split()
        paths = []
        for w in words[1:]:
            if not (w.startswith(("src", "parsers", "rules"))):
                break
            paths.append(w)
        layers.append((words[0], paths))
    return layers


def read_crossings(text):
    return {tuple(line.split()[:2]) for line in block(text, "crossings")}


def layer_of(path, layers):
    """Index of the layer that holds `path` (relative to ROOT), or None."""
    best, best_len = None, -1
    for i, (_, paths) in enumerate(layers):
        for p in paths:
            if (path == p or path.startswith(p + "/")) and len(p) > best_len:
                best, best_len = i, len(p)
    return best


def engine_folder(path):
    """'parsers/postgresql' for parsers/postgresql/x.h; None for top-level files."""
    parts = path.split("/")
    if parts[0] in ENGINE_LAYERS and len(parts) > 2:
        return "/".join(parts[:2])
    return None


def resolve(include):
    """The include as a path relative to ROOT ("app/x.h" is src/app/x.h)."""
    if include.startswith(("parsers/", "rules/")):
        return include
    return "src/" + include


def main():
    try:
        text = open(DOC, encoding="utf-8").read()
    except OSError as e:
        print(f"layering: cannot read {DOC}: {e}", file=sys.stderr)
        return 2
    layers = read_layers(text)
    crossings = read_crossings(text)
    names = [n for n, _ in layers]
    files = includes = 0
    bad = []
    for top in ("src", "parsers", "rules"):
        for dirpath, _, filenames in os.walk(os.path.join(ROOT, top)):
            for fn in sorted(filenames):
                if not fn.endswith((".h", ".cc")):
                    continue
                rel = os.path.relpath(os.path.join(dirpath, fn), ROOT)
                own = layer_of(rel, layers)
                if own is None:
                    bad.append(f"{rel}:1: in no layer of docs/architecture.md")
                    continue
                files += 1
                with open(os.path.join(ROOT, rel), encoding="utf-8", errors="replace") as f:
                    for no, line in enumerate(f, 1):
                        m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
                        if not m:
                            continue
                        includes += 1
                        target = resolve(m.group(1))
                        theirs = layer_of(target, layers)
                        where = f'{rel}:{no}: #include "{m.group(1)}"'
                        if theirs is None:
                            bad.append(f"{where}: in no layer of docs/architecture.md")
                        elif theirs > own:
                            bad.append(f"{where}: points up: {names[own]} may not include {names[theirs]}")
                        elif theirs == own:
                            a, b = engine_folder(rel), engine_folder(target)
                            if a and b and a != b and (a, b) not in crossings:
                                bad.append(f"{where}: crosses engine folders: {a} may not include {b}")
    for b in bad:
        print(b)
    print(f"{files} files, {includes} includes, {len(bad)} offending")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
