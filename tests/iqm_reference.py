#!/usr/bin/env python3
"""Reference numbers for tests/iqm_test.cpp, worked out from an IQM file's raw bytes with
nothing of rigview's (plain Python, struct and math only), from the format as iqm.txt
describes it: joints and poses relative to their parent, local = T * R * S, quaternions
x y z w, pose channel value = offset + (mask bit ? frame value * scale : 0).

All numbers are in the file's own (Z-up) space; rigview's root node turns (x, y, z) into
(x, z, -y). Usage: tests/iqm_reference.py /usr/share/assimp/models/IQM/mrfixit.iqm
"""
import math
import struct
import sys

from affine34 import apply, inverse, matrix, mul

data = open(sys.argv[1], "rb").read()
fields = ("version filesize flags num_text ofs_text num_meshes ofs_meshes num_vertexarrays num_vertexes "
          "ofs_vertexarrays num_triangles ofs_triangles ofs_adjacency num_joints ofs_joints num_poses ofs_poses "
          "num_anims ofs_anims num_frames num_framechannels ofs_frames ofs_bounds").split()
h = dict(zip(fields, struct.unpack_from("<23I", data, 16)))


def text(ofs):
    start = h["ofs_text"] + ofs
    return data[start:data.index(b"\0", start)].decode()


joints = []
for j in range(h["num_joints"]):
    name, parent, *ch = struct.unpack_from("<Ii10f", data, h["ofs_joints"] + 48 * j)
    joints.append((text(name), parent, ch))
base = []
for name, parent, ch in joints:
    local = matrix(ch[0:3], ch[3:7], ch[7:10])
    base.append(local if parent < 0 else mul(base[parent], local))

poses = []
for p in range(h["num_poses"]):
    parent, mask, *rest = struct.unpack_from("<iI20f", data, h["ofs_poses"] + 88 * p)
    poses.append((parent, mask, rest[:10], rest[10:]))


def frame_world(f):
    values = struct.unpack_from("<%dH" % h["num_framechannels"], data, h["ofs_frames"] + 2 * h["num_framechannels"] * f)
    k = 0
    world = []
    for parent, mask, offset, scale in poses:
        ch = []
        for c in range(10):
            v = offset[c]
            if mask & (1 << c):
                v += values[k] * scale[c]
                k += 1
            ch.append(v)
        local = matrix(ch[0:3], ch[3:7], ch[7:10])
        world.append(local if parent < 0 else mul(world[parent], local))
    return world


def vertex_array(kind):
    for a in range(h["num_vertexarrays"]):
        t, flags, fmt, size, ofs = struct.unpack_from("<5I", data, h["ofs_vertexarrays"] + 20 * a)
        if t == kind:
            return fmt, size, ofs


def vertex(v):
    _, _, pos = vertex_array(0)
    _, _, bi = vertex_array(4)
    _, _, bw = vertex_array(5)
    return (list(struct.unpack_from("<3f", data, pos + 12 * v)), struct.unpack_from("<4B", data, bi + 4 * v),
            [w / 255.0 for w in struct.unpack_from("<4B", data, bw + 4 * v)])


def skinned(v, world):
    p, idx, w = vertex(v)
    total = sum(w)
    out = [0.0, 0.0, 0.0]
    for j, wj in zip(idx, w):
        if wj == 0:
            continue
        q = apply(mul(world[j], inverse(base[j])), p)
        out = [o + wj / total * c for o, c in zip(out, q)]
    return out


names = [j[0] for j in joints]
print("joints", h["num_joints"], "vertexes", h["num_vertexes"], "triangles", h["num_triangles"])
for a in range(h["num_anims"]):
    name, first, count, rate, flags = struct.unpack_from("<3IfI", data, h["ofs_anims"] + 20 * a)
    print("anim", text(name), "first", first, "frames", count, "fps", rate, "flags", flags)
hand = names.index(sys.argv[2] if len(sys.argv) > 2 else "Hand.L")
print("joint", names[hand], "index", hand)
print("  base world translation", ["%.6f" % x for x in [r[3] for r in base[hand]]])
for f in (0, 50):
    world = frame_world(f)
    print("  frame", f, "world translation", ["%.6f" % x for x in [r[3] for r in world[hand]]])
for v in (0, 1000):
    p, idx, w = vertex(v)
    print("vertex", v, "position", ["%.6f" % x for x in p], "joints", idx, "weights", w)
    for f in (0, 50):
        print("  frame", f, "skinned", ["%.6f" % x for x in skinned(v, frame_world(f))])
for f in (0, 50):
    print("bounds frame", f, ["%.6f" % x for x in struct.unpack_from("<8f", data, h["ofs_bounds"] + 32 * f)])
