#!/usr/bin/env python3
"""Checks that src/ includes only downward: each folder may include itself and the layers
below it (docs/architecture.md lists them). The Python module's sources (python/, beside
src/) stand above app/: they may include every layer, and nothing in src/ includes them.
Prints every upward include, one a line, and exits 1 when there is one."""
import pathlib
import re
import sys

# Each layer and the layers it may include (besides itself).
ALLOWED = {
    "util": set(),
    "anim/runtime": {"util"},
    "anim/control": {"anim/runtime", "util"},
    "anim/offline": {"anim/runtime", "util"},
}
# Above anim/, the layers stand in a line (SPEC.md): each may include every one below it.
_LINE = ["import", "check", "platform", "render", "ui", "app"]
for _i, _name in enumerate(_LINE):
    ALLOWED[_name] = {"anim/runtime", "anim/control", "anim/offline", "util", *_LINE[:_i]}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def layer_of(rel):
    for name in sorted(ALLOWED, key=len, reverse=True):
        if rel == name or rel.startswith(name + "/"):
            return name
    return None


def main():
    src = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).parent.parent / "src")
    bad = 0
    for path in sorted(src.rglob("*")):
        if path.suffix not in (".h", ".cpp"):
            continue
        mine = layer_of(path.relative_to(src).as_posix())
        if mine is None:
            print(f"{path}: in no layer")
            bad += 1
            continue
        for n, line in enumerate(path.read_text().splitlines(), 1):
            m = INCLUDE.match(line)
            if not m or "/" not in m.group(1):
                continue
            theirs = layer_of(m.group(1))
            if theirs is None or theirs == mine or theirs in ALLOWED[mine]:
                continue
            print(f"{path}:{n}: {mine} includes {m.group(1)} ({theirs})")
            bad += 1
    # python/: the bindings, above every layer of src/ (they include "bindings.h" and src/'s headers).
    python = src.parent / "python"
    for path in sorted(python.glob("*")) if python.is_dir() else []:
        if path.suffix not in (".h", ".cpp"):
            continue
        for n, line in enumerate(path.read_text().splitlines(), 1):
            m = INCLUDE.match(line)
            if m and "/" in m.group(1) and layer_of(m.group(1)) is None:
                print(f"{path}:{n}: python/ includes {m.group(1)} (in no layer)")
                bad += 1
    print(f"layers: {bad} upward include(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
