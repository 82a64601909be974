#!/usr/bin/env python3
"""The viewer's first frame: how long `rigview` (the demo) takes to show the model, in
interleaved rounds (every case once per round, so a drift of the machine's speed touches all
alike), from the line the viewer prints with RIGVIEW_TIMING=1 (app/start_timing.h):

  cold        no cache at all: neither rigview's (programs, prefiltered maps) nor Mesa's
  warm        both caches filled by an earlier start (the usual start)
  mesa only   Mesa's shader cache filled, rigview's program cache empty (what ours adds)
  hdr         warm, but the settings name a 512x256 .hdr never prefiltered before (made here)

For each: when the first frame with the model was swapped, when its environment lit it, the
longest frame until then (how long the window went without answering), and the CPU seconds
(user + system, /proc/PID/stat) the process had used at that line. Prints one Markdown table
of medians. Run under a display, e.g.
  xvfb-run -a -s "-screen 0 1280x800x24 -noreset" bench/first_frame.py --rounds 5

usage: bench/first_frame.py [--rigview build/rigview]... [--rounds 5]
(several --rigview: each build's cases in the same rounds, e.g. before and after a change)
"""
import argparse
import json
import math
import os
import re
import shutil
import statistics
import struct
import subprocess
import tempfile
import time

LINE = re.compile(r"first frame ([\d.]+) s, environment ([\d.]+) s, longest frame ([\d.]+) s; "
                  r"programs: (\d+) from the cache, (\d+) compiled")


def write_sky(path, w=512, h=256):
    """A sky with a sun: uncompressed RGBE scanlines."""
    rows = []
    for y in range(h):
        row = bytearray()
        for x in range(w):
            u, v = x / w, y / h
            sun = math.exp(-((u - 0.3) ** 2 + (v - 0.25) ** 2) * 400.0) * 40.0
            rgb = (0.4 + sun + 0.6 * (1 - v), 0.5 + sun + 0.4 * (1 - v), 0.7 + 0.9 * sun + 0.3 * (1 - v))
            m = max(rgb)
            e = math.frexp(m)[1]
            scale = 256.0 / (2.0 ** e)
            row += bytes([min(255, int(c * scale)) for c in rgb] + [e + 128])
        rows.append(bytes(row))
    with open(path, "wb") as f:
        f.write(b"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y %d +X %d\n" % (h, w))
        for r in rows:
            f.write(r)


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start(rigview, config, cache):
    env = dict(os.environ, XDG_CONFIG_HOME=config, XDG_CACHE_HOME=cache, RIGVIEW_TIMING="1")
    p = subprocess.Popen([rigview, "--no-watch"], env=env, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    result = None
    deadline = time.time() + 120
    seen = []
    for line in p.stderr:
        seen.append(line)
        m = LINE.search(line)
        if m:
            cpu = cpu_seconds(p.pid)
            result = [float(m.group(1)), float(m.group(2)), float(m.group(3)), cpu, int(m.group(4)), int(m.group(5))]
            break
        if time.time() > deadline:
            break
    p.kill()
    p.wait()
    if not result:
        raise SystemExit(f"{rigview} (cache {cache}, config {config}) printed no start line: {''.join(seen[-5:])}")
    return result


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rigview", action="append", help="a rigview binary (repeat to compare builds in the same rounds)")
    ap.add_argument("--rounds", type=int, default=5)
    a = ap.parse_args()
    binaries = a.rigview or ["build/rigview"]
    tmp = tempfile.mkdtemp(prefix="rigview-first-frame-")
    try:
        sky = os.path.join(tmp, "sky.hdr")
        write_sky(sky)
        plain, hdr_config = os.path.join(tmp, "config"), os.path.join(tmp, "config-hdr")
        os.makedirs(plain)
        os.makedirs(os.path.join(hdr_config, "rigview"))
        with open(os.path.join(hdr_config, "rigview", "settings.json"), "w") as f:
            json.dump({"version": 1, "view": {"environment": sky}}, f)
        warm, studio = {}, {}
        for n, rigview in enumerate(binaries):
            warm[rigview] = os.path.join(tmp, f"cache{n}")
            start(rigview, plain, warm[rigview])  # fills the caches
            studio[rigview] = set(os.listdir(os.path.join(warm[rigview], "rigview", "env")))  # the studio's levels
            start(rigview, hdr_config, warm[rigview])  # the programs the sky's pieces use
        names = ["cold", "warm", "mesa only", "hdr"]
        runs = {(r, case): [] for r in binaries for case in names}
        for _ in range(a.rounds):
            for rigview in binaries:
                env_dir = os.path.join(warm[rigview], "rigview", "env")
                for case in names:
                    config, cache = plain, warm[rigview]
                    if case == "cold":
                        cache = os.path.join(tmp, "cold")
                        shutil.rmtree(cache, ignore_errors=True)
                    elif case == "mesa only":
                        cache = os.path.join(tmp, "mesa-only")
                        shutil.rmtree(cache, ignore_errors=True)
                        shutil.copytree(warm[rigview], cache)
                        shutil.rmtree(os.path.join(cache, "rigview", "programs"), ignore_errors=True)
                    elif case == "hdr":
                        config = hdr_config
                        for entry in set(os.listdir(env_dir)) - studio[rigview]:  # the sky's levels go
                            os.remove(os.path.join(env_dir, entry))
                    runs[(rigview, case)].append(start(rigview, config, cache))
        print(f"| rigview | case ({a.rounds} rounds, medians) | first frame with the model | environment lit | longest frame | CPU s at that line | programs from the cache / compiled |")
        print("|---|---|---|---|---|---|---|")
        for (rigview, case), r in runs.items():
            med = [statistics.median(x[i] for x in r) for i in range(6)]
            print(f"| {rigview} | {case} | {med[0]:.2f} s | {med[1]:.2f} s | {med[2]:.2f} s | {med[3]:.2f} | {med[4]:.0f} / {med[5]:.0f} |")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
