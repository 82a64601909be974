#!/usr/bin/env python3
"""Mutation campaign against a rigview binary (issue 9's "Done when").

Takes valid rigged files of every format (glTF, GLB, FBX, COLLADA, .X, BVH, MD5, SMD, IQM,
ASF/AMC: assimp-testmodels, assets/ and tests/data, plus small files derived from them), makes
N mutants of each (byte flips, truncation, chunk duplication and deletion, hostile numbers in
text formats, JSON-aware mutations of glTF/GLB including names with invalid UTF-8 or terminal
escapes and buffer/image URIs outside the folder), and runs every command on each mutant:

  info --json, check --json, check --json-lines, pose -o X.json, render -o X.png --size 64x64,
  export -o X.bvh

each with --import-timeout T and a wall-clock limit of T + MARGIN. It counts:
  crashes        rigview itself died of a signal (a sanitizer report aborts: counted here)
  hangs          a command ran past T + MARGIN
  invalid JSON   stdout of info/check --json (each line of --json-lines) or the pose output
                 that a strict parser rejects (NaN, Infinity, invalid UTF-8 included)
  bad errors     exit 3 without exactly one stderr line "rigview: <file>: ...", or any other
                 failing exit with more than one line or a line not starting "rigview: "
  bad outputs    an output file present after a failure, or present but incomplete (JSON that
                 does not parse, a PNG without its IEND chunk, a BVH whose frame count differs)
  outside reads  (--strace) a file opened successfully outside the mutant's folder and the
                 system's folders; without strace, the sentinel rule: a mutant that points a
                 URI at the sentinel file beside the folder must not import with it quietly
and how many mutants imported fine (info exit 0). Mutants that break a rule are copied to
OUT/failures with the command lines. Exit 0 when every count of a problem is 0.

--hostile adds strategies about the file system and sizes (issue 28): every mutant's folder
also holds a FIFO, a symlink loop, a link to /dev/zero, an empty file, a folder and a hard
link to a good copy of the model's buffer outside the folder, and glTF/GLB mutants point
their buffers and images at them ("special"); whole-file mutants: an empty file ("zero"),
JSON nested 100,000 deep ("deepjson"), the largest numbers in binary headers ("counts"),
and model file names with control characters, a leading dash or 250 bytes ("oddname").
A mutant whose buffer is the hard link must not import (that is a read outside the folder).
--no-isolation runs every command with the import in process.

usage: tools/mutation_campaign.py --rigview build-asan/rigview [-n 50] [-j 2] [--seed 1]
       [--import-timeout 10] [--margin 30] [--out /tmp/campaign] [--strace] [--formats gltf,x]
"""
import argparse
import base64
import collections
import json
import math
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

MODELS = "/usr/share/assimp/models"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COMMANDS = ["info", "check-json", "check-json-lines", "pose", "render", "export"]
SYSTEM_PREFIXES = ("/usr/", "/lib/", "/lib64/", "/etc/ld.so", "/proc/", "/sys/", "/dev/", "/etc/localtime",
                   "/etc/nsswitch", "/etc/passwd", "/etc/group", "/run/", "/var/cache/fontconfig", "/etc/fonts",
                   "/etc/glvnd", "/etc/drirc", "/usr/share/glvnd", "/etc/egl",
                   os.path.expanduser("~/.cache/mesa_shader_cache/"),  # the GL driver's own cache (render)
                   os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "rigview", "env") + "/",
                   os.path.join(ROOT, "assets", "env") + "/")  # the environment map and its prefiltered levels (render)
HOSTILE_NUMBERS = ["2147483647", "-2147483648", "4294967295", "99999999999", "-1", "0", "1e38", "-1e38",
                   "1e309", "nan", "inf", "-0", "65536", "3.4028236e38", "1e-45"]
HOSTILE_NAMES = ["\x1b[31mred\x1b[0m", "a\nb", "\x9b2J", "\x07bell", "name\u202e", "\ud800".encode("utf-8", "surrogatepass").decode("latin-1")]


# ---------------------------------------------------------------- source files

def data_uri(b):
    return "data:application/octet-stream;base64," + base64.b64encode(b).decode()


def glb_from(gltf, binary):
    js = json.dumps(gltf, separators=(",", ":")).encode()
    js += b" " * (-len(js) % 4)
    binary += b"\0" * (-len(binary) % 4)
    body = struct.pack("<I4s", len(js), b"JSON") + js
    if binary:
        body += struct.pack("<I4s", len(binary), b"BIN\0") + binary
    return struct.pack("<4sII", b"glTF", 2, 12 + len(body)) + body


def embedded_gltf(path):
    """A .gltf and its external buffers as one buffer (data URI kept out), for GLB packing."""
    with open(path) as f:
        g = json.load(f)
    folder = os.path.dirname(path)
    blobs = []
    for b in g.get("buffers", []):
        uri = b.get("uri", "")
        if uri.startswith("data:"):
            blobs.append(base64.b64decode(uri.split(",", 1)[1]))
        else:
            with open(os.path.join(folder, uri), "rb") as f:
                blobs.append(f.read())
    # One buffer: the views of buffer k move by the offsets of the buffers before it.
    offsets, binary = [], b""
    for blob in blobs:
        binary += b"\0" * (-len(binary) % 8)
        offsets.append(len(binary))
        binary += blob
    for v in g.get("bufferViews", []):
        v["byteOffset"] = v.get("byteOffset", 0) + offsets[v.get("buffer", 0)]
        v["buffer"] = 0
    g["buffers"] = [{"byteLength": len(binary)}]
    for key in ("images", "textures"):
        g.pop(key, None)
    for m in g.get("materials", []):
        m.get("pbrMetallicRoughness", {}).pop("baseColorTexture", None)
    return g, binary


def small_bvh(path, frames):
    with open(path, "rb") as f:
        text = f.read().decode("latin-1")
    head, motion = text.split("MOTION", 1)
    rows = [l for l in motion.strip().splitlines() if l and l[0] in "-0123456789"][:frames]
    return (head + "MOTION\nFrames: %d\nFrame Time: 0.0333333\n" % len(rows) + "\n".join(rows) + "\n").encode("latin-1")


ASF = """:version 1.10
:name VICON
:units
  mass 1.0
  length 0.45
  angle deg
:documentation
  campaign skeleton
:root
   order TX TY TZ RX RY RZ
   axis XYZ
   position 0 0 0
   orientation 0 0 0
:bonedata
  begin
     id 1
     name lhipjoint
     direction 0.6 -0.7 0.3
     length 2.4
     axis 0 0 -20 XYZ
  end
  begin
     id 2
     name lfemur
     direction 0.34 -0.94 0
     length 7.1
     axis 0 0 20 XYZ
    dof rx ry rz
    limits (-160.0 20.0)
           (-70.0 70.0)
           (-60.0 70.0)
  end
  begin
     id 3
     name ltibia
     direction 0.34 -0.94 0
     length 7.4
     axis 0 0 20 XYZ
    dof rx
    limits (-10.0 170.0)
  end
:hierarchy
  begin
    root lhipjoint
    lhipjoint lfemur
    lfemur ltibia
  end
"""


def amc(frames):
    lines = [":FULLY-SPECIFIED", ":DEGREES"]
    for i in range(1, frames + 1):
        lines += [str(i), "root %g 17 %g 0 %g 0" % (i * 0.1, -i * 0.2, i * 2.0),
                  "lfemur %g 3 -2" % (10 * math.sin(i / 5)), "ltibia %g" % (20 + 10 * math.cos(i / 5))]
    return "\n".join(lines) + "\n"


class Source:
    """One valid file to mutate: its bytes, its extension, its companion files."""

    def __init__(self, name, fmt, ext, data, companions=None, anim=None):
        self.name, self.fmt, self.ext, self.data = name, fmt, ext, data
        self.companions = companions or {}  # file name -> bytes, written beside the mutant
        self.anim = anim  # (name, bytes) of an --anim file (ASF/AMC), or None


def sources():
    out = []

    def add_file(fmt, rel, companions=(), base=MODELS):
        path = os.path.join(base, rel)
        if not os.path.exists(path):
            return
        with open(path, "rb") as f:
            data = f.read()
        comp = {}
        for c in companions:
            with open(os.path.join(os.path.dirname(path), c), "rb") as f:
                comp[c] = f.read()
        out.append(Source(os.path.basename(rel), fmt, os.path.splitext(rel)[1], data, comp))

    add_file("gltf", "glTF2/simple_skin/simple_skin.gltf")
    add_file("gltf", "assets/demo/rigview_demo.gltf", ["rigview_demo.bin"], base=ROOT)
    add_file("gltf", "tests/data/morph/morph_skin.gltf", base=ROOT)
    for rel in ["glTF2/simple_skin/simple_skin.gltf", "assets/demo/rigview_demo.gltf"]:
        path = os.path.join(ROOT if rel.startswith("assets") else MODELS, rel)
        if os.path.exists(path):
            g, binary = embedded_gltf(path)
            stem = os.path.splitext(os.path.basename(rel))[0]
            out.append(Source(stem + ".glb", "glb", ".glb", glb_from(g, binary)))
            if stem == "rigview_demo":
                g["buffers"] = [{"byteLength": len(binary), "uri": data_uri(binary)}]
                out.append(Source(stem + "_embedded.gltf", "gltf", ".gltf", json.dumps(g).encode()))
    add_file("fbx", "FBX/spider.fbx")
    add_file("fbx", "FBX/animation_with_skeleton.fbx")
    add_file("fbx", "tests/data/morph/blender_shape_keys.fbx", base=ROOT)
    add_file("dae", "Collada/box_nested_animation.dae")
    add_file("dae", "Collada/library_animation_clips.dae")
    add_file("x", "X/Testwuson.X")
    add_file("x", "X/anim_test.x")
    add_file("x", "X/BCN_Epileptic.X")
    for rel, frames in [("BVH/01_01.bvh", 60), ("BVH/Boxing_Toes.bvh", 40)]:
        if os.path.exists(os.path.join(MODELS, rel)):
            out.append(Source(os.path.basename(rel), "bvh", ".bvh", small_bvh(os.path.join(MODELS, rel), frames)))
    add_file("md5", "MD5/SimpleCube.md5mesh")
    add_file("smd", "SMD/WusonSMD.smd")
    add_file("smd", "SMD/triangle.smd")
    add_file("iqm", "IQM/mrfixit.iqm")
    out.append(Source("campaign.asf", "asf", ".asf", ASF.encode(), anim=("campaign.amc", amc(30).encode())))
    out.append(Source("campaign_motion.amc", "amc", ".asf", ASF.encode(), anim=("campaign.amc", amc(30).encode())))
    return out


# ---------------------------------------------------------------- mutations

def flip_bytes(rng, data):
    b = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        if not b:
            break
        i = rng.randrange(len(b))
        b[i] = rng.randrange(256) if rng.random() < 0.5 else b[i] ^ (1 << rng.randrange(8))
    return bytes(b)


def truncate(rng, data):
    return data[: rng.randrange(max(1, len(data)))]


def duplicate_chunk(rng, data):
    if len(data) < 2:
        return data + data
    a = rng.randrange(len(data))
    n = rng.randint(1, min(4096, len(data) - a))
    at = rng.randrange(len(data))
    return data[:at] + data[a:a + n] * rng.choice([1, 2, 16]) + data[at:]


def delete_chunk(rng, data):
    if len(data) < 2:
        return data
    a = rng.randrange(len(data))
    n = rng.randint(1, min(4096, len(data) - a))
    return data[:a] + data[a + n:]


NUMBER = re.compile(rb"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")


def mutate_numbers(rng, data):
    found = list(NUMBER.finditer(data[:2_000_000]))
    if not found:
        return flip_bytes(rng, data)
    picks = sorted(rng.sample(found, min(len(found), rng.randint(1, 4))), key=lambda m: m.start(), reverse=True)
    b = data
    for m in picks:
        b = b[:m.start()] + rng.choice(HOSTILE_NUMBERS).encode() + b[m.end():]
    return b


QUOTED = re.compile(rb'"([A-Za-z_][A-Za-z0-9_ .:-]{0,40})"')


def mutate_names(rng, data):
    """Quoted names (MD5, SMD, COLLADA ids, JSON) or bare words get escapes and invalid UTF-8."""
    found = list(QUOTED.finditer(data[:2_000_000]))
    if not found:
        return mutate_numbers(rng, data)
    m = rng.choice(found)
    evil = rng.choice(HOSTILE_NAMES).encode("latin-1", "replace") + rng.choice([b"\xff\xfe", b"\xc3", b"\xed\xa0\x80", b""])
    return data[:m.start(1)] + evil + data[m.start(1):]


def json_paths(node, path=()):
    yield path, node
    if isinstance(node, dict):
        for k, v in node.items():
            yield from json_paths(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from json_paths(v, path + (i,))


def set_at(root, path, value):
    node = root
    for p in path[:-1]:
        node = node[p]
    node[path[-1]] = value


def mutate_gltf_json(rng, g, sentinel):
    """One structured change to a glTF document (a dict), returned as bytes of JSON (non-standard
    tokens such as NaN allowed: the reader must survive them)."""
    paths = [p for p, _ in json_paths(g) if p]
    kind = rng.choice(["number", "number", "name", "uri", "drop", "deep", "type", "array"])
    if kind == "uri" and g.get("buffers"):
        target = rng.choice(["buffers", "images"])
        uri = rng.choice(["../../../../etc/passwd", "/etc/passwd", sentinel, "../" + os.path.basename(sentinel),
                          "file://" + sentinel, "sub/../../" + os.path.basename(sentinel), "%2e%2e/%2e%2e/etc/passwd"])
        if target == "images":
            g.setdefault("images", []).append({"uri": uri})
            g.setdefault("textures", []).append({"source": len(g["images"]) - 1})
            mats = g.setdefault("materials", [{}])
            mats[0].setdefault("pbrMetallicRoughness", {})["baseColorTexture"] = {"index": len(g["textures"]) - 1}
        else:
            b = rng.choice(g["buffers"])
            b["uri"] = uri
    elif kind == "name":
        named = [p for p, v in json_paths(g) if p and p[-1] == "name" and isinstance(v, str)]
        if named:
            set_at(g, rng.choice(named), rng.choice(HOSTILE_NAMES) + "\udcff")
    elif kind == "number":
        nums = [p for p, v in json_paths(g) if p and isinstance(v, (int, float)) and not isinstance(v, bool)]
        if nums:
            set_at(g, rng.choice(nums), rng.choice([2 ** 31 - 1, -1, 2 ** 32, -(2 ** 31), 10 ** 12, float("nan"),
                                                  float("inf"), 0, 1e38, -7]))
    elif kind == "drop" and paths:
        p = rng.choice(paths)
        node = g
        for q in p[:-1]:
            node = node[q]
        del node[p[-1]]
    elif kind == "deep":
        nodes = g.get("nodes") or []
        if nodes:
            start = len(nodes)
            depth = rng.choice([100, 5000, 50000])
            nodes.extend({"children": [start + i + 1]} for i in range(depth - 1))
            nodes.append({"name": "tail", "translation": [float("nan"), 0, float("inf")]})
            nodes[0].setdefault("children", []).append(start)
    elif kind == "type" and paths:
        set_at(g, rng.choice(paths), rng.choice(["", "x", [], {}, None, True, [1e999]]))
    elif kind == "array":
        arrays = [p for p, v in json_paths(g) if p and isinstance(v, list) and v]
        if arrays:
            p = rng.choice(arrays)
            node = g
            for q in p:
                node = node[q]
            node.extend(node[:1] * rng.choice([1, 100, 3000]))
    text = json.dumps(g, separators=(",", ":"), ensure_ascii=False)
    return text.encode("utf-8", "surrogateescape")


SPECIAL_FILES = ["fifo.bin", "loop.bin", "zero.bin", "empty.bin", "dir.bin", "hard.bin"]
ODD_NAMES = ["-model", "a\nb", "\x1b[2Jx", "--help", "x" * 240, " space ", "caf\u00e9\u202e"]


def first_buffer(src):
    """The bytes of a glTF/GLB source's first buffer (for the hard link's good target)."""
    if src.fmt == "glb":
        jlen = struct.unpack_from("<I", src.data, 12)[0]
        rest = src.data[20 + jlen:]
        return rest[8:] if rest else b""
    g = json.loads(src.data)
    uri = (g.get("buffers") or [{}])[0].get("uri", "")
    if uri.startswith("data:"):
        return base64.b64decode(uri.split(",", 1)[1])
    return src.companions.get(uri, b"")


def special_gltf(rng, src):
    """A glTF/GLB whose first buffer (or a new image) names one of SPECIAL_FILES."""
    name = rng.choice(SPECIAL_FILES)
    if src.fmt == "glb":
        jlen = struct.unpack_from("<I", src.data, 12)[0]
        g = json.loads(src.data[20:20 + jlen])
        binary = first_buffer(src)
    else:
        g, binary = json.loads(src.data), None
    if rng.random() < 0.3 or not g.get("buffers"):
        g.setdefault("images", []).append({"uri": name})
        g.setdefault("textures", []).append({"source": len(g["images"]) - 1})
        mats = g.setdefault("materials", [{}])
        mats[0].setdefault("pbrMetallicRoughness", {})["baseColorTexture"] = {"index": len(g["textures"]) - 1}
        kind = "special-image:"
    else:
        g["buffers"][0]["uri"] = name
        kind = "special:"
    if src.fmt == "glb":
        # The BIN chunk dropped: buffer 0 now comes from the named file.
        js = json.dumps(g, separators=(",", ":")).encode()
        js += b" " * (-len(js) % 4)
        body = struct.pack("<I4s", len(js), b"JSON") + js
        return struct.pack("<4sII", b"glTF", 2, 12 + len(body)) + body, kind + name
    return json.dumps(g).encode(), kind + name


def deep_json(rng, src):
    depth = rng.choice([10000, 100000])
    if src.fmt in ("gltf", "glb"):
        g = json.loads(src.data) if src.fmt == "gltf" else json.loads(src.data[20:20 + struct.unpack_from("<I", src.data, 12)[0]])
        text = json.dumps(g)
        return (text[:-1] + ',"extras":' + "[" * depth + "]" * depth + "}").encode()
    return b"[" * depth + src.data


def huge_counts(rng, data):
    """The largest numbers written over 32-bit words of a binary header (its counts, offsets
    and sizes): each an allocation or a loop bound for a reader that trusts it."""
    b = bytearray(data)
    words = max(1, min(len(b), 128) // 4)
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(words) * 4
        b[i:i + 4] = struct.pack("<I", rng.choice([0xFFFFFFFF, 0x7FFFFFFF, 0x80000000, 0x40000000, 0xFFFFFFF0]))
    return bytes(b)


def mutant(rng, src, sentinel, hostile=False):
    """(bytes, anim bytes or None, the mutation's name)."""
    data, anim = src.data, src.anim[1] if src.anim else None
    text_like = src.fmt in ("gltf", "dae", "x", "bvh", "md5", "smd", "asf", "amc") and b"\0" not in data[:4096]
    choices = ["flip", "truncate", "duplicate", "delete"]
    if text_like:
        choices += ["numbers", "numbers", "names"]
    if src.fmt in ("gltf", "glb"):
        choices += ["json", "json", "json"]
    if hostile:
        choices += ["zero", "deepjson", "counts", "oddname"]
        if src.fmt in ("gltf", "glb"):
            choices += ["special"] * 6
    kind = rng.choice(choices)
    if kind == "special":
        victim, kind = special_gltf(rng, src)
        return victim, anim, kind
    if kind == "zero":
        return (data, b"", kind) if src.fmt == "amc" else (b"", anim, kind)
    if kind == "deepjson":
        return deep_json(rng, src), anim, kind
    if kind == "counts":
        return huge_counts(rng, data), anim, kind
    if kind == "oddname":
        return data, anim, "oddname:" + rng.choice(ODD_NAMES)
    target_anim = src.fmt == "amc"
    victim = anim if target_anim else data
    if kind == "json":
        if src.fmt == "gltf":
            victim = mutate_gltf_json(rng, json.loads(data), sentinel)
        else:
            jlen = struct.unpack_from("<I", data, 12)[0]
            g = json.loads(data[20:20 + jlen])
            rest = data[20 + jlen:]
            binary = rest[8:] if rest else b""
            js = mutate_gltf_json(rng, g, sentinel)
            js += b" " * (-len(js) % 4)
            body = struct.pack("<I4s", len(js), b"JSON") + js + (struct.pack("<I4s", len(binary), b"BIN\0") + binary if binary else b"")
            victim = struct.pack("<4sII", b"glTF", 2, 12 + len(body)) + body
    elif kind == "flip":
        victim = flip_bytes(rng, victim)
    elif kind == "truncate":
        victim = truncate(rng, victim)
    elif kind == "duplicate":
        victim = duplicate_chunk(rng, victim)
    elif kind == "delete":
        victim = delete_chunk(rng, victim)
    elif kind == "numbers":
        victim = mutate_numbers(rng, victim)
    elif kind == "names":
        victim = mutate_names(rng, victim)
    if target_anim:
        return data, victim, kind
    return victim, anim, kind


# ---------------------------------------------------------------- running

def strict_json(text):
    def bad_constant(name):
        raise ValueError("non-standard JSON token " + name)
    json.loads(text, parse_constant=bad_constant)


def json_ok(raw):
    try:
        strict_json(raw.decode("utf-8"))
        return True
    except (ValueError, UnicodeDecodeError):
        return False


def png_complete(raw):
    return raw.startswith(b"\x89PNG\r\n\x1a\n") and raw[-12:-8] == b"\0\0\0\0" and raw[-8:-4] == b"IEND"


def bvh_complete(raw):
    try:
        text = raw.decode("latin-1")
        m = re.search(r"MOTION\s*\nFrames:\s*(\d+)\s*\nFrame Time:[^\n]*\n", text)
        if not text.startswith("HIERARCHY") or not m:
            return False
        rows = [l for l in text[m.end():].split("\n") if l.strip()]
        return len(rows) == int(m.group(1))
    except ValueError:
        return False


class Tally:
    def __init__(self):
        self.lock = threading.Lock()
        self.exit_codes = collections.defaultdict(collections.Counter)
        self.problems = collections.defaultdict(collections.Counter)  # kind -> command -> n
        self.examples = collections.defaultdict(list)
        self.mutants = 0
        self.imported = 0
        self.by_format = collections.Counter()
        self.by_kind = collections.Counter()
        self.importer_crashed = 0
        self.importer_timeout = 0

    def problem(self, kind, command, detail):
        with self.lock:
            self.problems[kind][command] += 1
            if len(self.examples[kind]) < 20:
                self.examples[kind].append(detail)


def make_specials(folder, src, workdir, index):
    """SPECIAL_FILES in `folder`; hard.bin a hard link to a good copy of the buffer outside."""
    os.mkfifo(os.path.join(folder, "fifo.bin"))
    os.symlink("loop2.bin", os.path.join(folder, "loop.bin"))
    os.symlink("loop.bin", os.path.join(folder, "loop2.bin"))
    os.symlink("/dev/zero", os.path.join(folder, "zero.bin"))
    open(os.path.join(folder, "empty.bin"), "wb").close()
    os.mkdir(os.path.join(folder, "dir.bin"))
    outside = os.path.join(workdir, "outside%05d.bin" % index)
    with open(outside, "wb") as f:
        f.write(first_buffer(src) if src.fmt in ("gltf", "glb") else b"")
    os.link(outside, os.path.join(folder, "hard.bin"))
    return outside


def term(text):
    """What rigview prints for `text` (text::forTerminal): C0 controls and DEL as \\xHH."""
    return "".join("\\x%02X" % ord(c) if ord(c) < 0x20 or ord(c) == 0x7F else c for c in text)


def run_one(args, tally, failures_dir, index, src, data, anim, kind, workdir):
    folder = os.path.join(workdir, "m%05d" % index)
    os.makedirs(folder, exist_ok=True)
    stem = kind.split(":", 1)[1] if kind.startswith("oddname:") else "model"
    model = os.path.join(folder, stem + src.ext)
    outside = make_specials(folder, src, workdir, index) if args.hostile else None
    with open(model, "wb") as f:
        f.write(data)
    for name, blob in src.companions.items():
        with open(os.path.join(folder, name), "wb") as f:
            f.write(blob)
    extra = []
    if anim is not None:
        amc_path = os.path.join(folder, src.anim[0])
        with open(amc_path, "wb") as f:
            f.write(anim)
        extra = ["--anim", amc_path]
    outdir = os.path.join(workdir, "out%05d" % index)
    os.makedirs(outdir, exist_ok=True)
    base = [args.rigview, "--import-timeout", str(args.import_timeout)] + (["--no-isolation"] if args.no_isolation else [])
    outputs = {"pose": os.path.join(outdir, "pose.json"), "render": os.path.join(outdir, "render.png"),
               "export": os.path.join(outdir, "export.bvh")}
    cmds = {
        "info": base + ["info", model, "--json"] + extra,
        "check-json": base + ["check", model, "--json", "--jobs", "1"] + extra,
        "check-json-lines": base + ["check", model, "--json-lines", "--jobs", "1"] + extra,
        "pose": base + ["pose", model, "-o", outputs["pose"]] + extra,
        "render": base + ["render", model, "-o", outputs["render"], "--size", "64x64", "--msaa", "0"] + extra,
        "export": base + ["export", model, "-o", outputs["export"]] + extra,
    }
    env = dict(os.environ)
    env["ASAN_OPTIONS"] = "detect_leaks=0:abort_on_error=1:handle_abort=0"
    env["UBSAN_OPTIONS"] = "halt_on_error=1:abort_on_error=1:print_stacktrace=1"
    bad = False
    for name in args.commands:
        argv = cmds[name]
        trace = os.path.join(outdir, name + ".strace")
        if args.strace:
            argv = ["strace", "-f", "-qq", "-e", "trace=open,openat,openat2", "-e", "status=successful", "-o", trace] + argv
        detail = "%s [%s of %s]: %s" % (folder, kind, src.name, " ".join(cmds[name]))
        start = time.monotonic()
        try:
            r = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                               timeout=args.import_timeout + args.margin)
        except subprocess.TimeoutExpired:
            tally.problem("hangs", name, detail + " (killed after %.0f s)" % (time.monotonic() - start))
            bad = True
            continue
        code = r.returncode
        with tally.lock:
            tally.exit_codes[name][code] += 1
        err = r.stderr.decode("utf-8", "replace")
        lines = [l for l in err.split("\n") if l]
        if code < 0 or "AddressSanitizer" in err or "runtime error:" in err or "LeakSanitizer" in err:
            tally.problem("crashes", name, detail + " (%s)\n%s" % (
                "signal %d" % -code if code < 0 else "sanitizer report", err[-3000:]))
            bad = True
            continue
        if name == "info" and code == 0:
            with tally.lock:
                tally.imported += 1
        if name == "check-json-lines" and code in (0, 1, 3):
            with tally.lock:
                tally.importer_crashed += b'"importer-crashed"' in r.stdout
                tally.importer_timeout += b'"importer-timeout"' in r.stdout
        # stdout JSON
        if name in ("info", "check-json") and (r.stdout or code == 0) and not (name == "info" and code != 0 and not r.stdout):
            if not json_ok(r.stdout):
                tally.problem("invalid_json", name, detail + "\n" + r.stdout[:400].decode("latin-1"))
                bad = True
        if name == "check-json-lines":
            out_lines = [l for l in r.stdout.split(b"\n") if l]
            if not out_lines or not all(json_ok(l) for l in out_lines):
                tally.problem("invalid_json", name, detail + "\n" + r.stdout[:400].decode("latin-1"))
                bad = True
        # error lines
        failing = code != 0 and not (name.startswith("check") and code == 1)
        if failing:
            if code == 3:
                # "rigview: FILE: what" or "rigview: FILE:LINE: what"; FILE the model or its --anim file
                named = [term(f) for f in [model] + extra[1:]]
                ok = len(lines) == 1 and any(re.match(re.escape("rigview: " + f) + r"(:\d+)?: ", lines[0]) for f in named)
            else:
                ok = len(lines) == 1 and lines[0].startswith("rigview: ")
            if not ok:
                tally.problem("bad_error_lines", name, detail + " (exit %d)\n%s" % (code, err[-1500:]))
                bad = True
        # output files
        out = outputs.get(name)
        if out:
            exists = os.path.exists(out)
            if failing and exists:
                tally.problem("bad_outputs", name, detail + " (exit %d but the output exists)" % code)
                bad = True
            elif exists:
                with open(out, "rb") as f:
                    raw = f.read()
                complete = {"pose": json_ok, "render": png_complete, "export": bvh_complete}[name](raw)
                if not complete:
                    kind_name = "invalid_json" if name == "pose" else "bad_outputs"
                    tally.problem(kind_name, name, detail + " (incomplete output)")
                    bad = True
            elif code == 0:
                tally.problem("bad_outputs", name, detail + " (exit 0 but no output)")
                bad = True
            if exists:
                os.remove(out)
        # reads outside the folder
        if args.strace and os.path.exists(trace):
            outside = outside_reads(trace, folder, args.rigview, outdir)
            if outside:
                tally.problem("outside_reads", name, detail + "\n" + "\n".join(sorted(outside)[:10]))
                bad = True
        if r.returncode == 0 and name == "info" and kind == "special:hard.bin" and b"hard.bin" not in r.stderr:
            # A good buffer through a hard link from outside: importing quietly means it was read.
            # (An image may be left unread by a command without anything to say.)
            tally.problem("outside_reads", name, detail + " (imported through the hard link hard.bin)")
            bad = True
        if not args.strace and r.returncode == 0 and name == "info" and args.sentinel_marker in r.stdout:
            tally.problem("outside_reads", name, detail + " (the sentinel's contents reached the output)")
            bad = True
    if bad and failures_dir:
        dest = os.path.join(failures_dir, "m%05d" % index)
        # Links copied as links, the FIFO left out (copying would open it and wait).
        shutil.copytree(folder, dest, dirs_exist_ok=True, symlinks=True,
                        ignore=lambda d, names: [n for n in names if n == "fifo.bin"])
    shutil.rmtree(folder, ignore_errors=True)
    shutil.rmtree(outdir, ignore_errors=True)
    if outside:
        os.remove(outside)


OPEN_LINE = re.compile(r'open(?:at2?)?\((?:[^,]*, )?"((?:[^"\\]|\\.)*)"[^)]*\)\s*=\s*(\d+)')


def outside_reads(trace, folder, exe, outdir):
    allowed = (folder + "/", os.path.dirname(os.path.abspath(exe)) + "/", outdir + "/")
    found = set()
    with open(trace, errors="replace") as f:
        for line in f:
            m = OPEN_LINE.search(line)
            if not m or "O_PATH" in line or "O_DIRECTORY" in line:  # no data read (Landlock rules, folder walks)
                continue
            path = os.path.normpath(os.path.join(os.getcwd(), m.group(1).encode().decode("unicode_escape")))
            if path == folder or path.startswith(allowed) or path.startswith(SYSTEM_PREFIXES):
                continue
            if path in ("/", "/usr", "/lib", "/lib64", "/etc/ld.so.cache", "/etc", "/tmp", os.path.dirname(folder)):
                continue
            found.add(path)
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rigview", default=os.path.join(ROOT, "build-asan/rigview"))
    ap.add_argument("-n", "--mutants-per-file", type=int, default=50)
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--import-timeout", type=float, default=10.0)
    ap.add_argument("--margin", type=float, default=30.0)
    ap.add_argument("--out", default=None, help="folder for the report and the failing mutants")
    ap.add_argument("--strace", action="store_true", help="trace opens: report files read outside the folder")
    ap.add_argument("--formats", default="", help="comma-separated subset: gltf,glb,fbx,dae,x,bvh,md5,smd,iqm,asf,amc")
    ap.add_argument("--commands", default=",".join(COMMANDS))
    ap.add_argument("--limit", type=int, default=0, help="stop after this many mutants in all")
    ap.add_argument("--hostile", action="store_true", help="also the file-system and size strategies (see above)")
    ap.add_argument("--no-isolation", action="store_true", help="run every command with --no-isolation")
    args = ap.parse_args()
    args.rigview = os.path.abspath(args.rigview)
    args.commands = [c for c in args.commands.split(",") if c]
    for c in args.commands:
        if c not in COMMANDS:
            sys.exit("unknown command %s (one of %s)" % (c, ", ".join(COMMANDS)))
    if not os.access(args.rigview, os.X_OK):
        sys.exit("no rigview binary at %s" % args.rigview)
    if args.strace and not shutil.which("strace"):
        sys.exit("--strace: strace is not installed")
    srcs = sources()
    if args.formats:
        keep = set(args.formats.split(","))
        srcs = [s for s in srcs if s.fmt in keep]
    workroot = tempfile.mkdtemp(prefix="rigview_campaign_")
    workdir = os.path.join(workroot, "models")
    os.makedirs(workdir)
    # The sentinel sits beside the mutants' folders: a mutant whose URI reaches it reads outside.
    sentinel = os.path.join(workroot, "sentinel_outside.bin")
    args.sentinel_marker = b"RIGVIEW-SENTINEL-OUTSIDE"
    with open(sentinel, "wb") as f:
        f.write(args.sentinel_marker * 64)
    out = args.out or os.path.join(workroot, "report")
    failures = os.path.join(out, "failures")
    os.makedirs(failures, exist_ok=True)
    rng = random.Random(args.seed)
    jobs = []
    for src in srcs:
        for _ in range(args.mutants_per_file):
            data, anim, kind = mutant(rng, src, sentinel, args.hostile)
            jobs.append((src, data, anim, kind))
    if args.limit:
        rng.shuffle(jobs)
        jobs = jobs[:args.limit]
    tally = Tally()
    for src, _, _, kind in jobs:
        tally.by_format[src.fmt] += 1
        tally.by_kind[kind] += 1
    tally.mutants = len(jobs)
    print("rigview mutation campaign: %d sources, %d mutants, commands %s, %s, -j%d, import timeout %g s + %g s"
          % (len(srcs), len(jobs), ",".join(args.commands), args.rigview, args.jobs, args.import_timeout, args.margin),
          flush=True)
    start = time.monotonic()
    done = [0]

    def work(i):
        src, data, anim, kind = jobs[i]
        run_one(args, tally, failures, i, src, data, anim, kind, workdir)
        with tally.lock:
            done[0] += 1
            if done[0] % 50 == 0:
                print("  %d/%d mutants, %.0f s" % (done[0], len(jobs), time.monotonic() - start), flush=True)

    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        list(pool.map(work, range(len(jobs))))
    wall = time.monotonic() - start
    kinds = ["crashes", "hangs", "invalid_json", "bad_error_lines", "bad_outputs", "outside_reads"]
    report = {
        "rigview": args.rigview, "seed": args.seed, "mutants": tally.mutants, "sources": len(srcs),
        "mutants_by_format": dict(tally.by_format), "mutants_by_mutation": dict(tally.by_kind),
        "commands": args.commands, "import_timeout_s": args.import_timeout, "margin_s": args.margin,
        "strace": args.strace, "hostile": args.hostile, "no_isolation": args.no_isolation, "wall_s": round(wall, 1), "imported_fine": tally.imported,
        "importer_crashed_findings": tally.importer_crashed, "importer_timeout_findings": tally.importer_timeout,
        "exit_codes": {c: {str(k): v for k, v in sorted(tally.exit_codes[c].items())} for c in args.commands},
        "problems": {k: dict(tally.problems[k]) for k in kinds},
        "totals": {k: sum(tally.problems[k].values()) for k in kinds},
        "examples": {k: tally.examples[k] for k in kinds if tally.examples[k]},
    }
    with open(os.path.join(out, "report.json"), "w") as f:
        json.dump(report, f, indent=2)
    print("\nmutants: %d (%s)" % (tally.mutants, ", ".join("%s %d" % kv for kv in sorted(tally.by_format.items()))))
    print("imported fine (info exit 0): %d; check findings importer-crashed %d, importer-timeout %d"
          % (tally.imported, tally.importer_crashed, tally.importer_timeout))
    for c in args.commands:
        print("  %-17s exit codes %s" % (c, dict(sorted(tally.exit_codes[c].items()))))
    for k in kinds:
        print("%-16s %d %s" % (k + ":", report["totals"][k], dict(tally.problems[k]) if tally.problems[k] else ""))
    print("wall time: %.1f s; report: %s" % (wall, os.path.join(out, "report.json")))
    for k in kinds:
        for e in tally.examples[k][:3]:
            print("\n[%s] %s" % (k, e[:2000]))
    shutil.rmtree(workdir, ignore_errors=True)
    sys.exit(1 if any(report["totals"].values()) else 0)


if __name__ == "__main__":
    main()
