#!/usr/bin/env python3
"""A character as games ship it in IQM: one mesh file and one file per action, written byte by
byte from the format document (iqm.txt of https://github.com/lsalzman/iqm) with nothing of
rigview's, plus the poses those files give, worked out here (plain Python: struct and math).

Usage: tests/iqm_actions.py OUTDIR           (tests/data/iqm/actions holds its output)
       tests/iqm_actions.py --check OUTDIR   (exit 1 unless OUTDIR holds exactly what it writes)

Files written (all Z-up, as IQM is):
  character.iqm   mesh + 5 joints (listed child before parent: "arm" first), skin, no anims
  walk.iqm        animation-only (num_joints 0, poses with parents by index, as the IQM
                  compiler writes animation files given without a mesh): "walk", looped
  wave.iqm        animation-only, two anims sharing the frame array: "wave", "nod"
  jump.iqm        joints with names (as `iqm -j` / Blender with Meshes off), listed in another
                  order than the model's, base pose = its first frame: "jump" (bound by name)
  short.iqm       animation-only with 4 poses (the model has 5 joints)
  reparented.iqm  animation-only whose pose 3 has parent 1 (joint 3's parent is 2)
  reference.json  per clip, at every frame time (and the loop's end): each joint's world
                  translation and each vertex skinned, in the file's Z-up space

Poses: joints and poses are relative to their parent, local = T * R * S, quaternions x y z w;
a pose channel's value is offset + (mask bit ? frame value * scale : 0). Quantized as the IQM
compiler does: offset = the channel's minimum over the file's frames, scale = range / 65535,
the channel left out of the mask when its range is under 1e-5. The reference poses use the
values as stored (decoded from the quantized numbers, float32 offsets and scales). A clip bound
by name keeps rigview's retargeting rule (docs/import.md): translation t - file base t + model
base t, rotation and scale as they are.
"""
import json
import math
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from affine34 import apply, inverse, matrix, mul  # noqa: E402

# ---------------------------------------------------------------------------------------------
# The character: joints in file order (name, parent index, base translation, rotation, scale).


def quat(axis, degrees):
    a = math.radians(degrees) / 2
    n = math.sqrt(sum(c * c for c in axis))
    return [axis[0] / n * math.sin(a), axis[1] / n * math.sin(a), axis[2] / n * math.sin(a), math.cos(a)]


JOINTS = [
    ("arm", 2, [0.3, 0.0, 0.35], quat([0, 1, 0], 80), [1, 1, 1]),
    ("hips", -1, [0.0, 0.0, 1.0], quat([0, 0, 1], 10), [1, 1, 1]),
    ("spine", 1, [0.0, 0.05, 0.4], quat([1, 0, 0], -5), [1, 1, 1]),
    ("head", 2, [0.0, 0.0, 0.5], [0, 0, 0, 1], [1, 1, 1]),
    ("tail", 1, [0.0, -0.2, -0.1], quat([1, 0, 0], 120), [1, 1, 1]),
]

# Vertices (file space, base pose) with (joint, byte weight) influences.
VERTICES = [
    ([0.1, 0.0, 1.0], [(1, 255)]),
    ([-0.1, 0.0, 1.0], [(1, 255)]),
    ([0.1, 0.05, 1.4], [(2, 128), (1, 127)]),
    ([-0.1, 0.05, 1.4], [(2, 200), (1, 55)]),
    ([0.0, 0.05, 1.9], [(3, 255)]),
    ([0.3, 0.05, 1.75], [(0, 255)]),
    ([0.6, 0.05, 1.75], [(0, 180), (2, 75)]),
    ([0.0, -0.2, 0.9], [(4, 255)]),
    ([0.0, -0.4, 0.85], [(4, 100), (1, 100), (2, 55)]),
]
TRIANGLES = [(0, 1, 2), (1, 3, 2), (2, 3, 4), (2, 5, 6), (0, 7, 8)]


def frames_of(kind, count):
    """Per frame, per joint (model order): translation, rotation, scale."""
    out = []
    for f in range(count):
        s = f / max(count - 1, 1)
        poses = [[list(t), list(q), list(sc)] for _, _, t, q, sc in JOINTS]
        if kind == "walk":
            poses[1][0] = [0.3 * s, 0.02 * math.sin(6 * s), 1.0 + 0.05 * math.cos(6 * s)]
            poses[2][1] = quat([0, 1, 0.2], 25 * math.sin(6.28 * s))
            poses[0][1] = quat([1, 0.3, 0], -40 + 80 * s)
            poses[4][2] = [1.0, 1.0 + 0.5 * s, 1.0]
        elif kind == "wave":
            poses[0][1] = quat([0, 0.2, 1], 150 * math.sin(3.14 * s))
            poses[0][0] = [0.3, 0.0, 0.35 + 0.1 * s]
        elif kind == "nod":
            poses[3][1] = quat([1, 0, 0], -35 * s)
            poses[2][2] = [1.0 + 0.2 * s, 1.0, 1.0 - 0.1 * s]
        elif kind == "jump":
            poses[1][0] = [0.0, 0.0, 1.0 + 0.8 * math.sin(3.14 * s)]
            poses[1][1] = quat([0, 0, 1], 10 + 90 * s)
            poses[3][1] = quat([0, 1, 0], 30 * s)
        out.append(poses)
    return out


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def world_of(locals_):
    """World matrices of the model's joints from their locals (parents may come later)."""
    world = [None] * len(JOINTS)

    def get(j):
        if world[j] is None:
            parent = JOINTS[j][1]
            world[j] = locals_[j] if parent < 0 else mul(get(parent), locals_[j])
        return world[j]

    return [get(j) for j in range(len(JOINTS))]


BASE_WORLD = world_of([matrix([f32(c) for c in t], [f32(c) for c in q], s) for _, _, t, q, s in JOINTS])


def skin(world):
    out = []
    for p, influences in VERTICES:
        total = sum(w for _, w in influences)
        acc = [0.0, 0.0, 0.0]
        for j, w in influences:
            q = apply(mul(world[j], inverse(BASE_WORLD[j])), [f32(c) for c in p])
            acc = [a + w / total * c for a, c in zip(acc, q)]
        out.append(acc)
    return out


# ---------------------------------------------------------------------------------------------
# The IQM writer.


class Text:
    def __init__(self):
        self.data = b"\0"

    def add(self, s):
        ofs = len(self.data)
        self.data += s.encode() + b"\0"
        return ofs


def quantize(frames_per_joint):
    """frames_per_joint[j][f] = 10 channel values: per joint, (mask, offset[10], scale[10]) and
    the frame data; also the decoded (stored) values per frame and joint."""
    poses, decoded = [], []
    nframes = len(frames_per_joint[0])
    for chans in frames_per_joint:
        mask, offset, scale = 0, [], []
        for c in range(10):
            lo = min(fr[c] for fr in chans)
            hi = max(fr[c] for fr in chans)
            offset.append(lo)
            if hi - lo >= 1e-5:
                mask |= 1 << c
                scale.append((hi - lo) / 65535.0)
            else:
                scale.append(0.0)
        poses.append((mask, [f32(x) for x in offset], [f32(x) for x in scale]))
    data = []
    for f in range(nframes):
        row = []
        for j, chans in enumerate(frames_per_joint):
            mask, offset, scale = poses[j]
            values = []
            for c in range(10):
                v = offset[c]
                if mask & (1 << c):
                    q = max(0, min(65535, int(round((chans[f][c] - offset[c]) / scale[c]))))
                    data.append(q)
                    v = offset[c] + q * scale[c]
                values.append(v)
            row.append(values)
        decoded.append(row)
    return poses, data, decoded


def write_iqm(path, text, meshes=(), vertices=(), triangles=(), joints=(), poses=(), anims=(), frames=(),
              framechannels=0):
    """Sections in the order the IQM compiler writes them, each 4-byte aligned."""
    out = bytearray(124)
    hdr = [0] * 27
    hdr[0] = 2

    def section(blob):
        while len(out) % 4:
            out.append(0)
        ofs = len(out)
        out.extend(blob)
        return ofs

    hdr[3] = len(text.data)
    hdr[4] = section(text.data)
    if meshes:
        hdr[5] = len(meshes)
        hdr[6] = section(b"".join(struct.pack("<6I", *m) for m in meshes))
    if vertices:
        n = len(vertices)
        pos = b"".join(struct.pack("<3f", *p) for p, _ in vertices)
        idx = b"".join(bytes([j for j, _ in inf] + [0] * (4 - len(inf))) for _, inf in vertices)
        wts = b"".join(bytes([w for _, w in inf] + [0] * (4 - len(inf))) for _, inf in vertices)
        hdr[7], hdr[8] = 3, n
        arrays_at = section(bytes(3 * 20))
        hdr[9] = arrays_at
        ofs = [section(pos), section(idx), section(wts)]
        struct.pack_into("<5I", out, arrays_at, 0, 0, 7, 3, ofs[0])  # position, float x3
        struct.pack_into("<5I", out, arrays_at + 20, 4, 0, 1, 4, ofs[1])  # blend indexes, ubyte x4
        struct.pack_into("<5I", out, arrays_at + 40, 5, 0, 1, 4, ofs[2])  # blend weights, ubyte x4
    if triangles:
        hdr[10] = len(triangles)
        hdr[11] = section(b"".join(struct.pack("<3I", *t) for t in triangles))
    if joints:
        hdr[13] = len(joints)
        hdr[14] = section(b"".join(struct.pack("<Ii10f", name, parent, *t, *q, *s) for name, parent, t, q, s in joints))
    if poses:
        hdr[15] = len(poses)
        hdr[16] = section(b"".join(struct.pack("<iI20f", parent, mask, *offset, *scale)
                                   for parent, mask, offset, scale in poses))
    if anims:
        hdr[17] = len(anims)
        hdr[18] = section(b"".join(struct.pack("<3IfI", *a) for a in anims))
        hdr[19] = len(frames) // framechannels if framechannels else 0
        hdr[20] = framechannels
        hdr[21] = section(struct.pack("<%dH" % len(frames), *frames))
    while len(out) % 4:
        out.append(0)
    hdr[1] = len(out)
    out[0:16] = b"INTERQUAKEMODEL\0"
    struct.pack_into("<27I", out, 16, *hdr)
    with open(path, "wb") as f:
        f.write(out)


def channels(t, q, s):
    return list(t) + list(q) + list(s)


def write_character(outdir):
    text = Text()
    mesh_name, material = text.add("body"), text.add("body.png")
    joints = [(text.add(name), parent, [f32(c) for c in t], [f32(c) for c in q], s) for name, parent, t, q, s in JOINTS]
    write_iqm(os.path.join(outdir, "character.iqm"), text, meshes=[(mesh_name, material, 0, len(VERTICES), 0,
                                                                    len(TRIANGLES))],
              vertices=VERTICES, triangles=TRIANGLES, joints=joints)


def write_actions(outdir, filename, actions, order=None, with_joints=False, parents=None, keep=None):
    """actions: [(name, kind, frames, fps, loop)]; order: file position -> model joint (default
    the model's order); keep: how many poses to write; parents: the poses' parents (file indices)."""
    order = order or list(range(len(JOINTS)))
    inverse_order = {m: i for i, m in enumerate(order)}
    text = Text()
    names = [text.add(name) for name, *_ in actions]
    all_frames, anims = [], []
    for (name, kind, count, fps, loop), name_ofs in zip(actions, names):
        anims.append((name_ofs, len(all_frames), count, fps, 1 if loop else 0))
        all_frames += frames_of(kind, count)
    per_joint = [[channels(*fr[m]) for fr in all_frames] for m in order]
    if keep is not None:
        per_joint = per_joint[:keep]
    quant, data, decoded = quantize(per_joint)
    file_parents = parents or [inverse_order[JOINTS[m][1]] if JOINTS[m][1] >= 0 else -1 for m in order]
    poses = [(file_parents[i], mask, offset, scale) for i, (mask, offset, scale) in enumerate(quant)]
    joints = []
    if with_joints:  # the IQM compiler's -j: joint base pose = the first frame
        joints = [(text.add(JOINTS[m][0]), file_parents[i], decoded[0][i][0:3], decoded[0][i][3:7], decoded[0][i][7:10])
                  for i, m in enumerate(order[:len(per_joint)])]
    framechannels = sum(bin(mask).count("1") for mask, _, _ in quant)
    write_iqm(os.path.join(outdir, filename), text, joints=joints, poses=poses, anims=anims, frames=data,
              framechannels=framechannels)
    # Reference poses of each action from the stored values (model joint order).
    refs = {}
    if keep is not None or parents is not None:
        return refs  # refused files
    for (name, kind, count, fps, loop), (_, first, _, _, _) in zip(actions, anims):
        samples = []
        for k in range(count + (1 if loop else 0)):
            row = decoded[first + (k % count)]
            locals_ = [None] * len(JOINTS)
            for i, m in enumerate(order[:len(per_joint)]):
                t, q, s = row[i][0:3], row[i][3:7], row[i][7:10]
                if with_joints:  # bound by name: keep the offset from the file's base translation
                    t = [a - b + f32(c) for a, b, c in zip(t, decoded[0][i][0:3], JOINTS[m][2])]
                locals_[m] = matrix(t, q, s)
            world = world_of(locals_)
            samples.append({"time": k / fps, "frame": k % count,
                            "joints": {JOINTS[j][0]: [round(r[3], 7) for r in world[j]] for j in range(len(JOINTS))},
                            "vertices": [[round(c, 7) for c in v] for v in skin(world)]})
        refs[name] = {"fps": fps, "frames": count, "loop": loop, "file": filename, "samples": samples}
    return refs


def main():
    if sys.argv[1] == "--check":
        import filecmp
        import tempfile
        with tempfile.TemporaryDirectory() as fresh:
            write_all(fresh)
            names = sorted(os.listdir(fresh))
            _, differ, missing = filecmp.cmpfiles(sys.argv[2], fresh, names, shallow=False)
            if differ or missing:
                print("iqm_actions.py: %s differs from what the script writes: %s" % (sys.argv[2], " ".join(differ + missing)))
                sys.exit(1)
        return
    write_all(sys.argv[1])


def write_all(outdir):
    os.makedirs(outdir, exist_ok=True)
    write_character(outdir)
    refs = {}
    refs.update(write_actions(outdir, "walk.iqm", [("walk", "walk", 6, 12.0, True)]))
    refs.update(write_actions(outdir, "wave.iqm", [("wave", "wave", 5, 10.0, False), ("nod", "nod", 4, 8.0, False)]))
    # Parent-first order (hips spine arm head tail), names in the file: bound by name.
    refs.update(write_actions(outdir, "jump.iqm", [("jump", "jump", 4, 15.0, False)], order=[1, 2, 0, 3, 4],
                              with_joints=True))
    write_actions(outdir, "short.iqm", [("short", "walk", 3, 10.0, False)], keep=4)
    write_actions(outdir, "reparented.iqm", [("reparented", "walk", 3, 10.0, False)], parents=[2, -1, 1, 1, 1])
    with open(os.path.join(outdir, "reference.json"), "w") as f:
        json.dump({"space": "IQM file (Z-up)", "clips": refs}, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
