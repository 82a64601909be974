#!/usr/bin/python3
"""Committed test data made by a Blender script (tools/blender/*.py) is what the script makes,
byte for byte: runs the script into a temporary folder and compares every file with the
committed folder (the same names, the same bytes). Blender 3.4's glTF exporter and PNG writer
give the same bytes on every run.

  /usr/bin/python3 tests/blender_data.py tools/blender/make_textured_character.py \
      tests/data/character textured_character.gltf

Exit 0 when they agree, 1 with the files that differ, 77 (CTest's skip) when there is no
`blender` (tools/setup.sh does not install it: the data is committed so CI needs none).
"""
import filecmp
import os
import shutil
import subprocess
import sys
import tempfile


def main():
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    script, committed, name = sys.argv[1:]
    blender = shutil.which("blender")
    if blender is None:
        print("blender_data: no blender on PATH: skipped")
        return 77
    with tempfile.TemporaryDirectory(prefix="rigview-blender-") as tmp:
        run = subprocess.run([blender, "-b", "--factory-startup", "--python", script, "--", os.path.join(tmp, name)],
                             capture_output=True, text=True, timeout=600)
        if run.returncode != 0 or not os.path.exists(os.path.join(tmp, name)):
            print(f"blender_data: {script} failed (exit {run.returncode}):\n{run.stdout[-2000:]}{run.stderr[-2000:]}")
            return 1
        made, kept = sorted(os.listdir(tmp)), sorted(os.listdir(committed))
        bad = [] if made == kept else [f"files: the script makes {made}, {committed} holds {kept}"]
        bad += [f"{f} differs" for f in made if f in kept and not filecmp.cmp(os.path.join(tmp, f), os.path.join(committed, f), shallow=False)]
        for line in bad:
            print(f"blender_data: {committed}: {line}")
        if not bad:
            print(f"blender_data: {committed}: {len(made)} files, the same bytes as {script} makes")
        return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
