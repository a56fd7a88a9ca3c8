#!/usr/bin/env python3
"""Checks that every source folder includes only the folders scripts/layers.txt allows, and
that Z3's and clang's headers are included only where they may be. Exit 0 when the tree
keeps the layering, 1 with one line per violation (file:line: what it includes)."""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def read_layers(path):
    allowed, exclusive = {}, {}
    for raw in path.read_text().splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        name, _, rest = line.partition(":")
        if name.startswith("!"):
            exclusive[name[1:]] = set(rest.split())
        else:
            allowed[name] = set(rest.split()) | {name}
    return allowed, exclusive


def folder_of(rel, folders):
    best = None
    for f in folders:
        if rel == f or rel.startswith(f + "/"):
            if best is None or len(f) > len(best):
                best = f
    return best


def main():
    allowed, exclusive = read_layers(ROOT / "scripts" / "layers.txt")
    folders = sorted(allowed)
    include = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]')
    errors, checked = [], 0
    for src in sorted(ROOT.rglob("*")):
        if src.suffix not in (".cpp", ".h") or not src.is_file():
            continue
        rel = src.relative_to(ROOT).as_posix()
        if rel.startswith(("build", "tests/", "bench/", "examples/", "specs/", "proofs/")):
            continue
        home = folder_of(rel, folders)
        if home is None:
            if "/prelude/" not in rel:
                errors.append(f"{rel}: in no folder of scripts/layers.txt")
            continue
        checked += 1
        for n, text in enumerate(src.read_text(errors="replace").splitlines(), 1):
            m = include.match(text)
            if not m:
                continue
            inc = m.group(1)
            for prefix, owners in exclusive.items():
                if inc.startswith(prefix) and home not in owners:
                    errors.append(f"{rel}:{n}: includes <{inc}>, which only {', '.join(sorted(owners))} may")
            target = folder_of(inc.rsplit("/", 1)[0], folders) if "/" in inc else None
            if target is not None and (ROOT / inc).exists() and target not in allowed[home]:
                errors.append(f"{rel}:{n}: {home}/ includes {inc} ({target}/ is not among what {home}/ may use)")
    for e in errors:
        print(e)
    print(f"check-layering: {checked} files, {len(errors)} violation(s)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
