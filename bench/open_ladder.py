#!/usr/bin/env python3
"""Opening production-size characters: rigview against its peers on the same files.

Makes the size ladder once with Blender (skinned, animated humanoids of 10k, 100k and 1M
vertices with 60 bones, and 100k with 250 bones; glTF binary and FBX from Blender's own
exporters: ../shared/perfref/ladder/make_models.py), then times, in interleaved rounds (every
command on every file once per round, so a drift of the machine's speed touches all alike):

  rigview info FILE            the import in its isolated worker, the model handed back
  rigview render FILE -o PNG   the same, then a frame drawn headless (EGL) and written
  three.js                     GLTFLoader.parse in node (.glb only; ../shared/perfref/ladder/three_parse.mjs)
  Assimp alone                 Importer::ReadFile and nothing else (bench/assimp_read)
  F3D 1.3                      f3d --output PNG FILE (Debian's f3d, on one Xvfb display started for the run)

and prints one Markdown table (medians of the rounds, the ratios the targets are stated in,
the growth from 100k to 1M vertices, and the peak memory of worker and parent together
against the model's mesh data, from `rigview info --json`).

usage: bench/open_ladder.py [--build build] [--ladder DIR] [--rounds 5] [--models m10k_b60,...]
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SHARED = os.path.normpath(os.path.join(ROOT, "..", "shared", "perfref", "ladder"))
MODELS = ["m10k_b60", "m100k_b60", "m1m_b60", "m100k_b250"]


def make_ladder(ladder, models, generator):
    missing = [m for m in models if not all(os.path.exists(os.path.join(ladder, m + e)) for e in (".glb", ".fbx"))]
    if not missing:
        return
    if not shutil.which("blender"):
        sys.exit("open_ladder: the ladder needs Blender (apt-get install blender) to be made")
    os.makedirs(ladder, exist_ok=True)
    print(f"making {', '.join(missing)} with Blender (the 1M model takes a few minutes, once)", file=sys.stderr)
    subprocess.run(["blender", "-b", "--factory-startup", "--python", generator, "--", ladder, *missing],
                   check=True, stdout=subprocess.DEVNULL)


def timed(cmd, env=None, cwd=None):
    t0 = time.perf_counter()
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=cwd)
    t = time.perf_counter() - t0
    if r.returncode != 0:
        sys.exit(f"open_ladder: {' '.join(cmd)} failed ({r.returncode}): {r.stderr.decode(errors='replace')[-400:]}")
    return t


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"), help="the build folder (rigview, bench/assimp_read)")
    ap.add_argument("--ladder", default=None, help="where the models are made and kept (default: BUILD/ladder)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--models", default=",".join(MODELS))
    ap.add_argument("--generator", default=os.path.join(SHARED, "make_models.py"))
    ap.add_argument("--three-parse", default=os.path.join(SHARED, "three_parse.mjs"))
    ap.add_argument("--no-f3d", action="store_true", help="leave F3D out")
    a = ap.parse_args()
    models = [m for m in a.models.split(",") if m]
    ladder = a.ladder or os.path.join(a.build, "ladder")
    rigview = os.path.join(a.build, "rigview")
    assimp_read = os.path.join(a.build, "bench", "assimp_read")
    for exe in (rigview, assimp_read):
        if not os.access(exe, os.X_OK):
            sys.exit(f"open_ladder: {exe} is not built (cmake --build {a.build} --target rigview assimp_read)")
    make_ladder(ladder, models, a.generator)

    tmp = tempfile.mkdtemp(prefix="rigview-ladder-")
    # three.js from the tests' npm packages (tools/three_refs), beside a copy of the parse script.
    three = shutil.copy(a.three_parse, os.path.join(tmp, "three_parse.mjs"))
    os.symlink(os.path.join(ROOT, "tools", "three_refs", "node_modules"), os.path.join(tmp, "node_modules"))
    png = os.path.join(tmp, "out.png")
    xvfb = None
    env = dict(os.environ)
    use_f3d = not a.no_f3d and shutil.which("f3d") and shutil.which("Xvfb")
    if use_f3d:
        xvfb = subprocess.Popen(["Xvfb", ":97", "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(1.0)
        env["DISPLAY"] = ":97"

    commands = {}  # (model, ext) -> {name: argv}
    for m in models:
        for ext in (".glb", ".fbx"):
            f = os.path.join(ladder, m + ext)
            c = {"info": [rigview, "info", f], "render": [rigview, "render", f, "-o", png],
                 "assimp": [assimp_read, f]}
            if ext == ".glb":
                c["three"] = ["node", three, f]
            if use_f3d:
                c["f3d"] = ["f3d", "--output", png, f]
            commands[(m, ext)] = c
    times = {k: {n: [] for n in c} for k, c in commands.items()}
    try:
        for k, c in commands.items():  # one warm-up of each (page cache, shader caches)
            for n, argv in c.items():
                timed(argv, env)
        for r in range(a.rounds):
            for k, c in commands.items():
                for n, argv in c.items():
                    times[k][n].append(timed(argv, env))
            print(f"round {r + 1} of {a.rounds} done", file=sys.stderr)
    finally:
        if xvfb:
            xvfb.terminate()
    memory = {}
    for k in commands:
        out = subprocess.run([rigview, "info", "--json", os.path.join(ladder, k[0] + k[1])], capture_output=True, check=True)
        doc = json.loads(out.stdout)
        imp = doc["import"]
        vertices = sum(mesh["vertices"] for mesh in doc["meshes"])
        memory[k] = (vertices, doc["mesh_data_mib"], imp["worker_peak_mib"] + imp["process_peak_mib"])
    shutil.rmtree(tmp, ignore_errors=True)

    med = {k: {n: statistics.median(v) for n, v in t.items()} for k, t in times.items()}

    def cell(k, n):
        return f"{med[k][n]:.2f}" if n in med[k] else ""

    print(f"\n{a.rounds} interleaved rounds, medians in seconds (whole processes); machine: {os.cpu_count()} cores\n")
    print("| file | vertices | `rigview info` | three.js parse | Assimp alone | info ÷ peer | `rigview render` | F3D 1.3 | render ÷ F3D | peak memory ÷ mesh data |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for k in commands:
        peer = "three" if k[1] == ".glb" else "assimp"
        ratio = med[k]["info"] / med[k][peer]
        rf = f"{med[k]['render'] / med[k]['f3d']:.2f}" if "f3d" in med[k] else ""
        v, mesh, peak = memory[k]
        print(f"| {k[0]}{k[1]} | {v:,} | {cell(k, 'info')} | {cell(k, 'three')} | {cell(k, 'assimp')} | "
              f"{ratio:.2f} ({'three.js' if peer == 'three' else 'Assimp'}) | {cell(k, 'render')} | {cell(k, 'f3d')} | {rf} | "
              f"{peak:.0f} MiB ÷ {mesh:.1f} MiB = {peak / mesh:.1f}x |")
    if "m100k_b60" in models and "m1m_b60" in models:
        print("\nGrowth from 100k to 1M vertices (time at 1M ÷ time at 100k):\n")
        for ext in (".glb", ".fbx"):
            small, big = med[("m100k_b60", ext)], med[("m1m_b60", ext)]
            parts = [f"{n} {big[n] / small[n]:.1f}x" for n in small]
            print(f"- {ext}: " + ", ".join(parts))


if __name__ == "__main__":
    main()
