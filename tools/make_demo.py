#!/usr/bin/env python3
"""Generate rigview's bundled demo model.

Writes a rigged, animated humanoid creature as glTF 2.0:

    <out>/rigview_demo.gltf         scene description (JSON)
    <out>/rigview_demo.bin          geometry, skin and animation data
    <out>/rigview_demo_albedo.png   64x64 soft checker albedo texture

Usage:
    python3 tools/make_demo.py [--out DIR]      (default DIR: assets/demo)

The output is deterministic: no randomness, no timestamps, floats are
stored as float32 in the .bin and written to the JSON with the shortest
decimal that round-trips to the same float32.  The PNG uses stored
(uncompressed) deflate blocks so the bytes do not depend on the zlib
implementation.  Only the Python standard library is used.

Conventions: Y up, metres, the creature stands on y = 0, faces +Z and is
about 1.8 units tall.  Its left side (".L" joints) is at +X.

At the end the script checks the generated data (weights, skin, inverse
bind matrices, animations, ...) and exits with status 1 on any problem.
"""

import argparse
import json
import math
import os
import struct
import sys
import zlib

GENERATOR = "rigview tools/make_demo.py"
BASENAME = "rigview_demo"
FPS = 30

# glTF enums
FLOAT = 5126
UNSIGNED_BYTE = 5121
UNSIGNED_SHORT = 5123
ARRAY_BUFFER = 34962
ELEMENT_ARRAY_BUFFER = 34963


# --------------------------------------------------------------------------
# Small math helpers (tuples, doubles)
# --------------------------------------------------------------------------

def add(a, b):
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def sub(a, b):
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def scale(a, k):
    return (a[0] * k, a[1] * k, a[2] * k)


def dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def cross(a, b):
    return (a[1] * b[2] - a[2] * b[1],
            a[2] * b[0] - a[0] * b[2],
            a[0] * b[1] - a[1] * b[0])


def length(a):
    return math.sqrt(dot(a, a))


def normalize(a):
    n = length(a)
    return (a[0] / n, a[1] / n, a[2] / n)


def lerp3(a, b, t):
    return (a[0] + (b[0] - a[0]) * t,
            a[1] + (b[1] - a[1]) * t,
            a[2] + (b[2] - a[2]) * t)


def smoothstep(e0, e1, x):
    if x <= e0:
        return 0.0
    if x >= e1:
        return 1.0
    t = (x - e0) / (e1 - e0)
    return t * t * (3.0 - 2.0 * t)


def falloff(x):
    """1 at x <= 0, smoothly down to 0 at x >= 1."""
    return 1.0 - smoothstep(0.0, 1.0, x)


# Quaternions are (x, y, z, w), as in glTF.  q_mul(a, b) applies b first.

def q_mul(a, b):
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return (aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw,
            aw * bw - ax * bx - ay * by - az * bz)


def q_conj(q):
    return (-q[0], -q[1], -q[2], q[3])


def q_normalize(q):
    n = math.sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3])
    return (q[0] / n, q[1] / n, q[2] / n, q[3] / n)


def q_dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]


def q_axis(axis, angle):
    ax = normalize(axis)
    s = math.sin(angle * 0.5)
    return (ax[0] * s, ax[1] * s, ax[2] * s, math.cos(angle * 0.5))


def q_rotate(q, v):
    u = (q[0], q[1], q[2])
    t = scale(cross(u, v), 2.0)
    return add(add(v, scale(t, q[3])), cross(u, t))


def q_from_basis(x, y, z):
    """Quaternion of the rotation matrix with columns x, y, z."""
    m00, m10, m20 = x
    m01, m11, m21 = y
    m02, m12, m22 = z
    tr = m00 + m11 + m22
    if tr > 0.0:
        s = math.sqrt(tr + 1.0) * 2.0
        q = ((m21 - m12) / s, (m02 - m20) / s, (m10 - m01) / s, 0.25 * s)
    elif m00 > m11 and m00 > m22:
        s = math.sqrt(1.0 + m00 - m11 - m22) * 2.0
        q = (0.25 * s, (m01 + m10) / s, (m02 + m20) / s, (m21 - m12) / s)
    elif m11 > m22:
        s = math.sqrt(1.0 + m11 - m00 - m22) * 2.0
        q = ((m01 + m10) / s, 0.25 * s, (m12 + m21) / s, (m02 - m20) / s)
    else:
        s = math.sqrt(1.0 + m22 - m00 - m11) * 2.0
        q = ((m02 + m20) / s, (m12 + m21) / s, 0.25 * s, (m10 - m01) / s)
    q = q_normalize(q)
    if q[3] < 0.0:
        q = (-q[0], -q[1], -q[2], -q[3])
    return q


def rx(a):
    return q_axis((1.0, 0.0, 0.0), a)


def ry(a):
    return q_axis((0.0, 1.0, 0.0), a)


def rz(a):
    return q_axis((0.0, 0.0, 1.0), a)


def comp(*qs):
    """comp(a, b, c) = a * b * c (c is applied first)."""
    r = (0.0, 0.0, 0.0, 1.0)
    for q in qs:
        r = q_mul(r, q)
    return r


# 4x4 matrices: row-major lists of rows, column vectors (glTF semantics).

def mat_trs(t, q):
    x, y, z, w = q
    return [[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w), t[0]],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w), t[1]],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y), t[2]],
            [0.0, 0.0, 0.0, 1.0]]


def mat_identity():
    return [[1.0 if r == c else 0.0 for c in range(4)] for r in range(4)]


def mat_mul(a, b):
    return [[sum(a[r][k] * b[k][c] for k in range(4)) for c in range(4)]
            for r in range(4)]


def mat_inverse(m):
    """General 4x4 inverse (Gauss-Jordan with partial pivoting)."""
    a = [list(m[r]) + [1.0 if r == c else 0.0 for c in range(4)] for r in range(4)]
    for col in range(4):
        piv = max(range(col, 4), key=lambda r: (abs(a[r][col]), -r))
        a[col], a[piv] = a[piv], a[col]
        p = a[col][col]
        a[col] = [v / p for v in a[col]]
        for r in range(4):
            if r != col:
                f = a[r][col]
                if f != 0.0:
                    a[r] = [v - f * w for v, w in zip(a[r], a[col])]
    return [row[4:] for row in a]


def f32(x):
    """Round a double to the nearest float32 (returned as a Python float)."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def jnum(x):
    """JSON number for a float32 value: shortest decimal that round-trips."""
    f = f32(x)
    if f == 0.0:
        return 0.0
    for digits in range(1, 10):
        v = float("%.*g" % (digits, f))
        if f32(v) == f:
            return v
    return f


# --------------------------------------------------------------------------
# Skeleton
# --------------------------------------------------------------------------

def bone_rotation(direction):
    """Bind orientation of a bone: local +Y along the bone."""
    y = normalize(direction)
    ref = (0.0, 0.0, 1.0) if abs(y[2]) < 0.9 else (0.0, -1.0, 0.0)
    x = normalize(cross(y, ref))
    z = cross(x, y)
    return q_from_basis(x, y, z)


def skeleton_definition():
    """List of (name, parent name, head position, tail position)."""
    arm_dir = (math.cos(math.radians(40.0)), -math.sin(math.radians(40.0)), 0.0)
    defs = [
        ("root", None, (0.0, 0.0, 0.0), (0.0, 0.95, 0.0)),
        ("hips", "root", (0.0, 0.95, 0.0), (0.0, 1.07, 0.0)),
        ("spine", "hips", (0.0, 1.07, 0.0), (0.0, 1.24, 0.0)),
        ("chest", "spine", (0.0, 1.24, 0.0), (0.0, 1.47, 0.0)),
        ("neck", "chest", (0.0, 1.47, 0.0), (0.0, 1.56, 0.0)),
        ("head", "neck", (0.0, 1.56, 0.0), (0.0, 1.80, 0.0)),
    ]
    for side, sx in (("L", 1.0), ("R", -1.0)):
        d = (arm_dir[0] * sx, arm_dir[1], arm_dir[2])
        clav = (0.025 * sx, 1.43, 0.0)
        shoulder = (0.175 * sx, 1.41, 0.0)
        elbow = add(shoulder, scale(d, 0.29))
        wrist = add(elbow, scale(d, 0.26))
        tip = add(wrist, scale(d, 0.17))
        defs += [
            ("shoulder." + side, "chest", clav, shoulder),
            ("upper_arm." + side, "shoulder." + side, shoulder, elbow),
            ("forearm." + side, "upper_arm." + side, elbow, wrist),
            ("hand." + side, "forearm." + side, wrist, tip),
        ]
    for side, sx in (("L", 1.0), ("R", -1.0)):
        hip = (0.09 * sx, 0.91, 0.0)
        knee = (0.09 * sx, 0.50, 0.012)
        ankle = (0.09 * sx, 0.085, -0.015)
        ball = (0.09 * sx, 0.025, 0.115)
        toe_tip = (0.09 * sx, 0.02, 0.19)
        defs += [
            ("thigh." + side, "hips", hip, knee),
            ("shin." + side, "thigh." + side, knee, ankle),
            ("foot." + side, "shin." + side, ankle, ball),
            ("toe." + side, "foot." + side, ball, toe_tip),
        ]
    return defs


class Skeleton:
    def __init__(self):
        defs = skeleton_definition()
        self.names = [d[0] for d in defs]
        self.index = {n: i for i, n in enumerate(self.names)}
        self.parent = [self.index[d[1]] if d[1] is not None else -1 for d in defs]
        self.head = [d[2] for d in defs]
        self.tail = [d[3] for d in defs]
        self.bone_dir = [normalize(sub(d[3], d[2])) for d in defs]
        # Designed global bind orientation (doubles).
        self.grot = [bone_rotation(sub(d[3], d[2])) for d in defs]
        # Local bind TRS, rounded to float32 (what the file stores).
        self.local_t = []
        self.local_r = []
        for i in range(len(defs)):
            p = self.parent[i]
            if p < 0:
                t = self.head[i]
                r = self.grot[i]
            else:
                inv = q_conj(self.grot[p])
                t = q_rotate(inv, sub(self.head[i], self.head[p]))
                r = q_normalize(q_mul(inv, self.grot[i]))
                if r[3] < 0.0:
                    r = (-r[0], -r[1], -r[2], -r[3])
            self.local_t.append(tuple(f32(c) for c in t))
            self.local_r.append(tuple(f32(c) for c in r))
        # Global bind matrices from the stored (float32) local transforms.
        self.gmat = []
        for i in range(len(defs)):
            m = mat_trs(self.local_t[i], self.local_r[i])
            if self.parent[i] >= 0:
                m = mat_mul(self.gmat[self.parent[i]], m)
            self.gmat.append(m)
        self.ibm = [mat_inverse(m) for m in self.gmat]

    def __len__(self):
        return len(self.names)

    def j(self, name):
        return self.index[name]


# --------------------------------------------------------------------------
# Geometry: skinned tubes with capsule-like caps
# --------------------------------------------------------------------------

class Polyline:
    def __init__(self, pts):
        self.pts = pts
        self.cum = [0.0]
        for a, b in zip(pts[:-1], pts[1:]):
            self.cum.append(self.cum[-1] + length(sub(b, a)))
        self.length = self.cum[-1]

    def point(self, s):
        s = min(max(s, 0.0), self.length)
        for i in range(len(self.pts) - 1):
            if s <= self.cum[i + 1] or i == len(self.pts) - 2:
                seg = self.cum[i + 1] - self.cum[i]
                t = (s - self.cum[i]) / seg if seg > 0.0 else 0.0
                return lerp3(self.pts[i], self.pts[i + 1], t)
        return self.pts[-1]

    def tangent(self, s, delta=0.035):
        a = self.point(max(0.0, s - delta))
        b = self.point(min(self.length, s + delta))
        return normalize(sub(b, a))


def tube_samples(total, cap0, cap1, step, ncap=5):
    """Ring positions along a tube: hemispherical caps plus uniform middle."""
    ss = []
    for k in range(ncap):
        phi = 0.5 * math.pi * k / ncap
        ss.append(cap0 * (1.0 - math.cos(phi)))
    mid = total - cap0 - cap1
    n = max(1, int(math.ceil(mid / step - 1e-9)))
    for k in range(n + 1):
        ss.append(cap0 + mid * k / n)
    for k in range(ncap - 1, -1, -1):
        phi = 0.5 * math.pi * k / ncap
        ss.append(total - cap1 * (1.0 - math.cos(phi)))
    return ss


def cap_factor(s, total, cap0, cap1):
    if cap0 > 0.0 and s < cap0:
        x = (cap0 - s) / cap0
        return math.sqrt(max(0.0, 1.0 - x * x))
    if cap1 > 0.0 and s > total - cap1:
        x = (s - (total - cap1)) / cap1
        return math.sqrt(max(0.0, 1.0 - x * x))
    return 1.0


def interp_profile(ctrl, x):
    """Cosine-smoothed piecewise interpolation of control rows (x, v1, v2, ...)."""
    if x <= ctrl[0][0]:
        return ctrl[0][1:]
    if x >= ctrl[-1][0]:
        return ctrl[-1][1:]
    for a, b in zip(ctrl[:-1], ctrl[1:]):
        if a[0] <= x <= b[0]:
            t = (x - a[0]) / (b[0] - a[0])
            t = 0.5 - 0.5 * math.cos(math.pi * t)
            return tuple(va + (vb - va) * t for va, vb in zip(a[1:], b[1:]))
    return ctrl[-1][1:]


def finalize_weights(raw):
    """Top 4 influences, normalised, float32, sum == 1; padded with (0, 0)."""
    items = [(w, j) for j, w in raw.items() if w > 0.0]
    items.sort(key=lambda it: (-it[0], it[1]))
    items = items[:4]
    total = sum(w for w, _ in items)
    items = [(w / total, j) for w, j in items]
    items = [(w, j) for w, j in items if w >= 0.01]
    total = sum(w for w, _ in items)
    ws = [f32(w / total) for w, _ in items]
    js = [j for _, j in items]
    ws[0] = f32(ws[0] + (1.0 - sum(ws)))
    while len(ws) < 4:
        ws.append(0.0)
        js.append(0)
    return js, ws


class MeshBuilder:
    def __init__(self, name):
        self.name = name
        self.positions = []
        self.uvs = []
        self.joints = []
        self.weights = []
        self.groups = []      # vertices in one group share one normal
        self.centers = []     # ring centre (None for poles), for checks
        self.tris = []
        self.normals = None
        self.next_group = 0

    def add_tube(self, path, samples, shape, ref, sides, weight_fn, v_scale,
                 cap0, cap1):
        total = path.length
        nr = len(samples)
        pole = [False] * nr
        ring_start = []
        for i, s in enumerate(samples):
            c = path.point(s)
            t = path.tangent(s)
            e2 = normalize(sub(ref, scale(t, dot(ref, t))))
            e1 = cross(e2, t)             # (e1, e2, t) is right-handed
            a, b, off = shape(s, c)
            f = cap_factor(s, total, cap0, cap1)
            if (i == 0 and cap0 > 0.0) or (i == nr - 1 and cap1 > 0.0):
                f = 0.0
            pole[i] = (f == 0.0)
            center = add(c, off)
            ring_start.append(len(self.positions))
            if pole[i]:
                # A pole: one vertex per fan triangle (for its own u).
                js, ws = finalize_weights(weight_fn(s, center))
                for j in range(sides):
                    self.positions.append(center)
                    self.uvs.append(((j + 0.5) / sides, s * v_scale))
                    self.joints.append(js)
                    self.weights.append(ws)
                    self.groups.append(self.next_group)
                    self.centers.append(None)
                self.next_group += 1
                continue
            for j in range(sides + 1):
                th = -0.5 * math.pi + 2.0 * math.pi * (j % sides) / sides
                p = add(center, add(scale(e1, a * f * math.cos(th)),
                                    scale(e2, b * f * math.sin(th))))
                self.positions.append(p)
                self.uvs.append((j / sides, s * v_scale))
                js, ws = finalize_weights(weight_fn(s, p))
                self.joints.append(js)
                self.weights.append(ws)
                self.groups.append(self.next_group + (j % sides))
                self.centers.append(center)
            self.next_group += sides
        for i in range(nr - 1):
            r0, r1 = ring_start[i], ring_start[i + 1]
            for j in range(sides):
                if pole[i]:
                    self.tris.append((r0 + j, r1 + j + 1, r1 + j))
                elif pole[i + 1]:
                    self.tris.append((r0 + j, r0 + j + 1, r1 + j))
                else:
                    self.tris.append((r0 + j, r0 + j + 1, r1 + j + 1))
                    self.tris.append((r0 + j, r1 + j + 1, r1 + j))

    def compute_normals(self):
        acc = {}
        for a, b, c in self.tris:
            pa, pb, pc = self.positions[a], self.positions[b], self.positions[c]
            n = cross(sub(pb, pa), sub(pc, pa))
            for v in (a, b, c):
                g = self.groups[v]
                acc[g] = add(acc.get(g, (0.0, 0.0, 0.0)), n)
        self.normals = [normalize(acc[g]) for g in self.groups]


def chain_weight_fn(bones, radius, extras=()):
    """Weights by arc length along a chain of bones [(joint, s0, s1), ...]."""
    def fn(s, p):
        w = {}
        for j, s0, s1 in bones:
            d = max(0.0, s0 - s, s - s1)
            x = d / radius
            if x < 1.0:
                w[j] = w.get(j, 0.0) + falloff(x)
        for ex in extras:
            ex(p, w)
        return w
    return fn


def proximity_extra(joint, center, radius, amount, mask=None):
    def ex(p, w):
        x = length(sub(p, center)) / radius
        if x < 1.0:
            k = amount * falloff(x)
            if mask is not None:
                k *= mask(p)
            if k > 0.0:
                w[joint] = w.get(joint, 0.0) + k
    return ex


def build_meshes(sk):
    J = sk.j
    body = MeshBuilder("body")
    arms = MeshBuilder("arms")
    inf = float("inf")

    # ---- torso + neck + head: one tube from the pelvis to the top of the head
    y0, y1 = 0.80, 1.80
    head_c, head_r = 1.685, 0.115
    head_a, head_b, head_z = 0.098, 0.112, 0.012
    torso_ctrl = [
        # y,    side, front, z offset
        (0.80, 0.145, 0.105, 0.000),
        (0.90, 0.160, 0.115, -0.005),
        (1.00, 0.150, 0.105, 0.000),
        (1.08, 0.132, 0.095, 0.000),
        (1.20, 0.145, 0.105, 0.006),
        (1.32, 0.165, 0.115, 0.010),
        (1.40, 0.163, 0.105, 0.000),
        (1.45, 0.130, 0.085, -0.005),
        (1.49, 0.065, 0.060, 0.000),
        (1.53, 0.050, 0.050, 0.000),
        (1.57, 0.052, 0.055, 0.005),
    ]

    def torso_shape(s, c):
        y = c[1]
        a, b, zo = interp_profile(torso_ctrl, y)
        if y >= head_c:
            a, b, zo = head_a, head_b, head_z
        elif y > head_c - head_r:
            k = math.sqrt(max(0.0, 1.0 - ((y - head_c) / head_r) ** 2))
            if head_a * k > a:
                a, b = head_a * k, max(b, head_b * k)
                zo = head_z
        return a, b, (0.0, 0.0, zo)

    torso_path = Polyline([(0.0, y0, 0.0), (0.0, y1, 0.0)])
    torso_bones = [
        (J("hips"), -inf, 1.07 - y0),
        (J("spine"), 1.07 - y0, 1.24 - y0),
        (J("chest"), 1.24 - y0, 1.47 - y0),
        (J("neck"), 1.47 - y0, 1.56 - y0),
        (J("head"), 1.56 - y0, inf),
    ]
    extras = []
    for side in ("L", "R"):
        clav = J("shoulder." + side)
        extras.append(proximity_extra(clav, sk.head[J("upper_arm." + side)], 0.12, 0.7))
        extras.append(proximity_extra(clav, lerp3(sk.head[clav], sk.tail[clav], 0.5),
                                      0.13, 0.5))
        extras.append(proximity_extra(
            J("thigh." + side), sk.head[J("thigh." + side)], 0.13, 0.8,
            mask=lambda p: 1.0 - smoothstep(0.88, 0.96, p[1])))
    body.add_tube(torso_path,
                  tube_samples(y1 - y0, 0.07, head_r, 0.022),
                  torso_shape, (0.0, 0.0, 1.0), 16,
                  chain_weight_fn(torso_bones, 0.07, extras), 2.0,
                  0.07, head_r)

    # ---- nose (shows which way the creature faces)
    nose_path = Polyline([(0.0, 1.675, 0.095), (0.0, 1.66, 0.142)])
    body.add_tube(nose_path, tube_samples(nose_path.length, 0.012, 0.012, 0.01, 3),
                  lambda s, c: (0.016 - 0.06 * s, 0.02 - 0.08 * s, (0.0, 0.0, 0.0)),
                  (0.0, 1.0, 0.0), 8, lambda s, p: {J("head"): 1.0}, 2.0,
                  0.012, 0.012)

    # ---- legs: hip -> knee -> ankle, and a foot from heel to toe tip
    leg_ctrl = [
        # y,    side, front
        (0.05, 0.036, 0.038),
        (0.10, 0.038, 0.040),
        (0.25, 0.046, 0.050),
        (0.40, 0.056, 0.060),
        (0.52, 0.052, 0.054),
        (0.70, 0.068, 0.070),
        (0.88, 0.078, 0.080),
        (0.99, 0.078, 0.080),
    ]
    foot_ctrl = [
        # z,     width, height, y offset
        (-0.075, 0.038, 0.040, 0.000),
        (0.000, 0.042, 0.044, 0.000),
        (0.100, 0.048, 0.034, 0.000),
        (0.200, 0.040, 0.024, 0.000),
    ]
    for side, sx in (("L", 1.0), ("R", -1.0)):
        hip = sk.head[J("thigh." + side)]
        knee = sk.head[J("shin." + side)]
        ankle = sk.head[J("foot." + side)]
        ball = sk.head[J("toe." + side)]
        leg_path = Polyline([(hip[0], 0.99, 0.0), hip, knee, ankle,
                             (ankle[0], 0.045, ankle[2])])
        cm = leg_path.cum
        leg_bones = [
            (J("hips"), -inf, cm[1]),
            (J("thigh." + side), cm[1], cm[2]),
            (J("shin." + side), cm[2], cm[3]),
            (J("foot." + side), cm[3], inf),
        ]
        body.add_tube(leg_path, tube_samples(leg_path.length, 0.06, 0.035, 0.028),
                      lambda s, c: tuple(interp_profile(leg_ctrl, c[1])) + ((0.0, 0.0, 0.0),),
                      (0.0, 0.0, 1.0), 14,
                      chain_weight_fn(leg_bones, 0.075), 2.0, 0.06, 0.035)

        heel = (0.09 * sx, 0.042, -0.075)
        tip = (0.09 * sx, 0.026, 0.205)
        foot_path = Polyline([heel, (ball[0], 0.036, ball[2]), tip])
        fm = foot_path.cum
        foot_bones = [
            (J("foot." + side), -inf, fm[1]),
            (J("toe." + side), fm[1], inf),
        ]

        def foot_shape(s, c):
            a, b, yo = interp_profile(foot_ctrl, c[2])
            return a, b, (0.0, yo, 0.0)

        body.add_tube(foot_path, tube_samples(foot_path.length, 0.035, 0.025, 0.02),
                      foot_shape, (0.0, 1.0, 0.0), 12,
                      chain_weight_fn(foot_bones, 0.04), 2.0, 0.035, 0.025)

    # ---- arms: clavicle -> shoulder -> elbow -> wrist -> finger tips
    for side in ("L", "R"):
        names = ["shoulder." + side, "upper_arm." + side, "forearm." + side, "hand." + side]
        pts = [sk.head[J(n)] for n in names] + [sk.tail[J("hand." + side)]]
        arm_path = Polyline(pts)
        cm = arm_path.cum
        arm_bones = [(J("chest"), -inf, 0.0)]
        for k, n in enumerate(names):
            arm_bones.append((J(n), cm[k], cm[k + 1] if k + 1 < len(names) else inf))
        arm_ctrl = [
            # s,            thickness, width
            (0.0, 0.045, 0.045),
            (cm[1] - 0.02, 0.058, 0.058),
            (cm[1] + 0.03, 0.055, 0.055),
            (0.5 * (cm[1] + cm[2]), 0.046, 0.048),
            (cm[2], 0.037, 0.039),
            (cm[2] + 0.08, 0.041, 0.043),
            (cm[3] - 0.01, 0.026, 0.030),
            (cm[3] + 0.05, 0.018, 0.046),
            (cm[4], 0.016, 0.040),
        ]
        arms.add_tube(arm_path, tube_samples(arm_path.length, 0.04, 0.035, 0.024),
                      lambda s, c, ctrl=arm_ctrl: tuple(interp_profile(ctrl, s)) + ((0.0, 0.0, 0.0),),
                      (0.0, 0.0, 1.0), 12,
                      chain_weight_fn(arm_bones, 0.07), 2.0, 0.04, 0.035)

    body.compute_normals()
    arms.compute_normals()
    return [body, arms]


# --------------------------------------------------------------------------
# Animations
# --------------------------------------------------------------------------

class Poser:
    """Helpers to author rotations as world-space deltas from the bind pose."""

    def __init__(self, sk):
        self.sk = sk

    def flex(self, name, angle):
        """Hinge bend: positive moves the bone's tip towards +Z (forward)."""
        d = self.sk.bone_dir[self.sk.j(name)]
        return q_axis(cross(d, (0.0, 0.0, 1.0)), angle)

    def twist(self, name, angle):
        return q_axis(self.sk.bone_dir[self.sk.j(name)], angle)


def pose_idle(P, t, T):
    ph = 2.0 * math.pi * t / T
    s, c = math.sin(ph), math.cos(ph)
    pose = {
        "hips": rz(0.015 * s),
        "spine": rx(0.012 * s),
        "chest": rx(-0.035 * s),
        "neck": comp(ry(0.06 * s), rx(0.01 * c)),
        "head": comp(ry(0.20 * s), rx(0.03 * math.sin(2.0 * ph))),
        "shoulder.L": rz(0.03 * (0.5 + 0.5 * s)),
        "shoulder.R": rz(-0.03 * (0.5 + 0.5 * s)),
        "upper_arm.L": comp(rx(0.05 * math.sin(ph + 1.0)), rz(-0.72)),
        "upper_arm.R": comp(rx(0.05 * math.sin(ph + 1.0)), rz(0.72)),
        "forearm.L": P.flex("forearm.L", 0.25 + 0.04 * s),
        "forearm.R": P.flex("forearm.R", 0.25 + 0.04 * s),
        "hand.L": P.flex("hand.L", 0.10),
        "hand.R": P.flex("hand.R", 0.10),
        "thigh.L": rz(-0.015 * s),
        "thigh.R": rz(-0.015 * s),
    }
    offset = (0.0, 0.008 * s, 0.0)
    return pose, offset


def pose_walk(P, t, T):
    ph = 2.0 * math.pi * t / T
    s = math.sin(ph)
    c = math.cos(ph)
    pose = {
        "hips": comp(ry(-0.10 * s), rz(0.03 * c)),
        "spine": comp(ry(0.05 * s), rx(0.05)),
        "chest": comp(ry(0.09 * s), rx(-0.02)),
        "neck": ry(-0.06 * s),
        "head": comp(ry(-0.03 * s), rx(-0.03)),
    }
    for side, phase, sx in (("L", 0.0, 1.0), ("R", math.pi, -1.0)):
        p = ph + phase
        sp, cp = math.sin(p), math.cos(p)
        swing = -0.42 * sp                                # < 0: leg forward
        bend = 0.08 + 0.85 * ((1.0 + math.cos(p + 0.4)) * 0.5) ** 3
        push = 0.35 * ((1.0 - sp) * 0.5) ** 4             # toe-off
        pose["thigh." + side] = rx(swing)
        pose["shin." + side] = P.flex("shin." + side, -bend)
        pose["foot." + side] = rx(-0.5 * (swing + bend) + push)
        pose["toe." + side] = rx(-0.8 * push)
        pose["shoulder." + side] = rz(sx * 0.02 * cp)
        pose["upper_arm." + side] = comp(rx(0.38 * sp), rz(-0.72 * sx))
        pose["forearm." + side] = P.flex("forearm." + side, 0.30 + 0.30 * (1.0 - sp) * 0.5)
        pose["hand." + side] = P.flex("hand." + side, 0.12)
    offset = (0.0, -0.025 + 0.018 * math.cos(2.0 * ph), 0.0)
    return pose, offset


def pose_wave(P, t, T):
    ph = 2.0 * math.pi * t / T
    s = math.sin(ph)
    env = smoothstep(0.0, 0.5, t) * (1.0 - smoothstep(1.5, 2.0, t))
    win = smoothstep(0.35, 0.6, t) * (1.0 - smoothstep(1.4, 1.65, t))
    w1 = math.sin(2.0 * math.pi * 2.0 * (t - 0.5)) * win
    w2 = math.sin(2.0 * math.pi * 2.0 * (t - 0.5) - 0.9) * win
    pose = {
        "hips": rz(-0.02 * env),
        "spine": rx(0.01 * s),
        "chest": comp(rz(0.04 * env), rx(-0.02 * s)),
        "neck": ry(-0.08 * env),
        "head": comp(ry(-0.22 * env), rz(0.06 * env)),
        "shoulder.L": rz(0.0),
        "upper_arm.L": comp(rx(0.03 * s), rz(-0.72)),
        "forearm.L": P.flex("forearm.L", 0.25),
        "hand.L": P.flex("hand.L", 0.10),
        "shoulder.R": rz(-0.15 * env),
        "upper_arm.R": comp(ry(0.35 * env), rz(0.72 - 1.75 * env)),
        "forearm.R": comp(rz(-1.0 * env + 0.38 * w1),
                          P.flex("forearm.R", 0.25 * (1.0 - env)),
                          P.twist("forearm.R", -1.2 * env)),
        "hand.R": comp(rz(-0.1 * env + 0.30 * w2), P.flex("hand.R", 0.10 * (1.0 - env))),
        "thigh.L": rz(0.02 * env),
        "thigh.R": rz(0.02 * env),
    }
    offset = (-0.012 * env, 0.004 * s, 0.0)
    return pose, offset


ANIMATIONS = [
    ("idle", 3.0, pose_idle),
    ("walk", 1.1, pose_walk),
    ("wave", 2.0, pose_wave),
]


def sample_animation(sk, poser, duration, pose_fn):
    """Returns (times, {joint: [quat]}, [hips translation])."""
    n = int(round(duration * FPS))
    times = [f32(k / FPS) for k in range(n + 1)]
    hips = sk.j("hips")
    rot = {j: [] for j in range(len(sk)) if j != sk.j("root")}
    trans = []
    for k in range(n):
        pose, offset = pose_fn(poser, k / FPS, duration)
        for j in rot:
            rw = pose.get(sk.names[j], (0.0, 0.0, 0.0, 1.0))
            g = sk.grot[j]
            d = q_mul(q_conj(g), q_mul(rw, g))
            q = q_normalize(q_mul(sk.local_r[j], d))
            keys = rot[j]
            if keys:
                if q_dot(keys[-1], q) < 0.0:
                    q = (-q[0], -q[1], -q[2], -q[3])
            elif q[3] < 0.0:
                q = (-q[0], -q[1], -q[2], -q[3])
            keys.append(tuple(f32(v) for v in q))
        pinv = q_conj(sk.grot[sk.parent[hips]])
        trans.append(tuple(f32(a + b) for a, b in
                           zip(sk.local_t[hips], q_rotate(pinv, offset))))
    # Loop: the last key is exactly the first one.
    for j in rot:
        rot[j].append(rot[j][0])
    trans.append(trans[0])
    return times, rot, trans


# --------------------------------------------------------------------------
# PNG (stored deflate blocks, independent of the zlib implementation)
# --------------------------------------------------------------------------

def make_albedo_png(size=64):
    light = (250.0, 242.0, 230.0)
    dark = (196.0, 176.0, 160.0)
    raw = bytearray()
    for y in range(size):
        raw.append(0)  # filter: none
        for x in range(size):
            v = math.sin(2.0 * math.pi * (x + 0.5) / 32.0) * math.sin(2.0 * math.pi * (y + 0.5) / 32.0)
            k = 0.5 + 0.5 * max(-1.0, min(1.0, 1.6 * v))
            for ch in range(3):
                raw.append(int(math.floor(dark[ch] + (light[ch] - dark[ch]) * k + 0.5)))
    raw = bytes(raw)
    # zlib stream with stored blocks
    z = bytearray(b"\x78\x01")
    pos = 0
    while True:
        block = raw[pos:pos + 65535]
        pos += len(block)
        final = 1 if pos >= len(raw) else 0
        z.append(final)
        z += struct.pack("<HH", len(block), len(block) ^ 0xFFFF)
        z += block
        if final:
            break
    z += struct.pack(">I", zlib.adler32(raw) & 0xFFFFFFFF)

    def chunk(tag, data):
        return (struct.pack(">I", len(data)) + tag + data +
                struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF))

    ihdr = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) +
            chunk(b"IDAT", bytes(z)) + chunk(b"IEND", b""))


# --------------------------------------------------------------------------
# glTF assembly
# --------------------------------------------------------------------------

class BufferBuilder:
    TYPES = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT4": 16}
    FMT = {FLOAT: "f", UNSIGNED_BYTE: "B", UNSIGNED_SHORT: "H"}

    def __init__(self):
        self.data = bytearray()
        self.views = []
        self.accessors = []

    def accessor(self, rows, ctype, atype, target=None, minmax=False, name=None):
        ncomp = self.TYPES[atype]
        flat = []
        for r in rows:
            if ncomp == 1:
                flat.append(r)
            else:
                if len(r) != ncomp:
                    raise ValueError("bad row size")
                flat.extend(r)
        payload = struct.pack("<%d%s" % (len(flat), self.FMT[ctype]), *flat)
        while len(self.data) % 4:
            self.data.append(0)
        view = {"buffer": 0, "byteOffset": len(self.data), "byteLength": len(payload)}
        if target is not None:
            view["target"] = target
        self.data += payload
        self.views.append(view)
        acc = {"bufferView": len(self.views) - 1, "componentType": ctype,
               "count": len(rows), "type": atype}
        if name:
            acc["name"] = name
        if minmax:
            cols = [[r] if ncomp == 1 else list(r) for r in rows]
            if ctype == FLOAT:
                acc["min"] = [jnum(min(c[i] for c in cols)) for i in range(ncomp)]
                acc["max"] = [jnum(max(c[i] for c in cols)) for i in range(ncomp)]
            else:
                acc["min"] = [min(c[i] for c in cols) for i in range(ncomp)]
                acc["max"] = [max(c[i] for c in cols) for i in range(ncomp)]
        self.accessors.append(acc)
        return len(self.accessors) - 1


def col_major(m):
    return tuple(f32(m[r][c]) for c in range(4) for r in range(4))


def build_gltf(sk, meshes, anims):
    buf = BufferBuilder()
    nj = len(sk)
    # Node layout: 0..nj-1 = joints, then the mesh nodes.  The scene's root
    # nodes are the root joint and the (untransformed) skinned mesh nodes.
    joint_node = list(range(nj))
    mesh_node = [nj + k for k in range(len(meshes))]
    nodes = []
    for j in range(nj):
        node = {"name": sk.names[j]}
        children = [joint_node[c] for c in range(nj) if sk.parent[c] == j]
        if children:
            node["children"] = children
        node["rotation"] = [jnum(v) for v in sk.local_r[j]]
        node["translation"] = [jnum(v) for v in sk.local_t[j]]
        nodes.append(node)

    ibm_acc = buf.accessor([col_major(m) for m in sk.ibm], FLOAT, "MAT4",
                           name="inverse_bind_matrices")
    skin = {"name": "rig", "inverseBindMatrices": ibm_acc,
            "joints": joint_node, "skeleton": joint_node[sk.j("root")]}

    gl_meshes = []
    for k, m in enumerate(meshes):
        pos = [tuple(f32(v) for v in p) for p in m.positions]
        attrs = {
            "POSITION": buf.accessor(pos, FLOAT, "VEC3", ARRAY_BUFFER, minmax=True),
            "NORMAL": buf.accessor([tuple(f32(v) for v in n) for n in m.normals],
                                   FLOAT, "VEC3", ARRAY_BUFFER),
            "TEXCOORD_0": buf.accessor([tuple(f32(v) for v in uv) for uv in m.uvs],
                                       FLOAT, "VEC2", ARRAY_BUFFER),
            "JOINTS_0": buf.accessor([tuple(js) for js in m.joints],
                                     UNSIGNED_BYTE, "VEC4", ARRAY_BUFFER),
            "WEIGHTS_0": buf.accessor([tuple(ws) for ws in m.weights],
                                      FLOAT, "VEC4", ARRAY_BUFFER),
        }
        idx = [i for tri in m.tris for i in tri]
        ind_acc = buf.accessor(idx, UNSIGNED_SHORT, "SCALAR", ELEMENT_ARRAY_BUFFER)
        gl_meshes.append({"name": m.name, "primitives": [{
            "attributes": attrs, "indices": ind_acc, "material": k, "mode": 4}]})
        nodes.append({"name": m.name, "mesh": k, "skin": 0})

    gl_anims = []
    hips = sk.j("hips")
    for name, duration, (times, rot, trans) in anims:
        t_acc = buf.accessor(times, FLOAT, "SCALAR", minmax=True)
        samplers = []
        channels = []
        for j in sorted(rot):
            samplers.append({"input": t_acc, "interpolation": "LINEAR",
                             "output": buf.accessor(rot[j], FLOAT, "VEC4")})
            channels.append({"sampler": len(samplers) - 1,
                             "target": {"node": joint_node[j], "path": "rotation"}})
        samplers.append({"input": t_acc, "interpolation": "LINEAR",
                         "output": buf.accessor(trans, FLOAT, "VEC3")})
        channels.append({"sampler": len(samplers) - 1,
                         "target": {"node": joint_node[hips], "path": "translation"}})
        gl_anims.append({"name": name, "channels": channels, "samplers": samplers})

    while len(buf.data) % 4:
        buf.data.append(0)

    doc = {
        "asset": {"version": "2.0", "generator": GENERATOR},
        "scene": 0,
        "scenes": [{"name": BASENAME, "nodes": [joint_node[sk.j("root")]] + mesh_node}],
        "nodes": nodes,
        "meshes": gl_meshes,
        "skins": [skin],
        "animations": gl_anims,
        "materials": [
            {"name": "body_skin",
             "pbrMetallicRoughness": {
                 "baseColorTexture": {"index": 0, "texCoord": 0},
                 "baseColorFactor": [jnum(v) for v in (0.95, 0.78, 0.66, 1.0)],
                 "metallicFactor": 0.0,
                 "roughnessFactor": jnum(0.7)}},
            {"name": "arms_cloth",
             "pbrMetallicRoughness": {
                 "baseColorFactor": [jnum(v) for v in (0.22, 0.42, 0.78, 1.0)],
                 "metallicFactor": 0.0,
                 "roughnessFactor": jnum(0.6)}},
        ],
        "textures": [{"name": "albedo", "sampler": 0, "source": 0}],
        "images": [{"name": "albedo", "uri": BASENAME + "_albedo.png",
                    "mimeType": "image/png"}],
        "samplers": [{"magFilter": 9729, "minFilter": 9987,
                      "wrapS": 10497, "wrapT": 10497}],
        "accessors": buf.accessors,
        "bufferViews": buf.views,
        "buffers": [{"name": BASENAME, "byteLength": len(buf.data),
                     "uri": BASENAME + ".bin"}],
    }
    text = json.dumps(doc, indent=1, ensure_ascii=True, allow_nan=False) + "\n"
    return text.encode("utf-8"), bytes(buf.data)


# --------------------------------------------------------------------------
# Consistency checks (run on the serialised data)
# --------------------------------------------------------------------------

def read_accessor(doc, bin_data, index):
    acc = doc["accessors"][index]
    view = doc["bufferViews"][acc["bufferView"]]
    ncomp = BufferBuilder.TYPES[acc["type"]]
    fmt = BufferBuilder.FMT[acc["componentType"]]
    n = acc["count"] * ncomp
    off = view["byteOffset"] + acc.get("byteOffset", 0)
    vals = struct.unpack_from("<%d%s" % (n, fmt), bin_data, off)
    if ncomp == 1:
        return list(vals)
    return [vals[i:i + ncomp] for i in range(0, n, ncomp)]


def check(doc_bytes, bin_data, meshes):
    errors = []

    def err(msg):
        errors.append(msg)

    doc = json.loads(doc_bytes.decode("utf-8"))
    if doc["buffers"][0]["byteLength"] != len(bin_data):
        err("buffer byteLength mismatch")
    for v in doc["bufferViews"]:
        if v["byteOffset"] % 4 or v["byteOffset"] + v["byteLength"] > len(bin_data):
            err("bad bufferView %r" % v)

    skin = doc["skins"][0]
    joints = skin["joints"]
    nodes = doc["nodes"]
    if len(joints) < 20:
        err("only %d joints" % len(joints))
    names = [nodes[n]["name"] for n in joints]
    if len(set(names)) != len(names):
        err("joint names are not unique")

    # Global bind transforms from the node hierarchy as written.
    parent = {}
    for i, n in enumerate(nodes):
        for c in n.get("children", []):
            if c in parent:
                err("node %d has two parents" % c)
            parent[c] = i
    cache = {}

    def world(i):
        if i not in cache:
            n = nodes[i]
            m = mat_trs(n.get("translation", [0.0, 0.0, 0.0]),
                        n.get("rotation", [0.0, 0.0, 0.0, 1.0]))
            cache[i] = mat_mul(world(parent[i]), m) if i in parent else m
        return cache[i]

    ibms = read_accessor(doc, bin_data, skin["inverseBindMatrices"])
    worst = 0.0
    for j, node in enumerate(joints):
        ibm = [[ibms[j][c * 4 + r] for c in range(4)] for r in range(4)]
        prod = mat_mul(ibm, world(node))
        for r in range(4):
            for c in range(4):
                worst = max(worst, abs(prod[r][c] - (1.0 if r == c else 0.0)))
    if worst > 1e-5:
        err("inverse bind matrix * global bind deviates from identity by %g" % worst)

    # Mesh nodes: scene root nodes, identity transform, shared skin.
    mesh_nodes = [i for i, n in enumerate(nodes) if "mesh" in n]
    if len(doc["meshes"]) < 2 or len(mesh_nodes) < 2:
        err("expected two meshes")
    for i in mesh_nodes:
        n = nodes[i]
        if n.get("skin") != 0 or i in parent or i not in doc["scenes"][0]["nodes"] or any(
                k in n for k in ("translation", "rotation", "scale", "matrix")):
            err("mesh node %s is not a plain skinned child of the root" % n["name"])

    stats = {"vertices": 0, "infl": [0, 0, 0, 0, 0]}
    for mesh, mb in zip(doc["meshes"], meshes):
        prim = mesh["primitives"][0]
        at = prim["attributes"]
        pos = read_accessor(doc, bin_data, at["POSITION"])
        nrm = read_accessor(doc, bin_data, at["NORMAL"])
        jts = read_accessor(doc, bin_data, at["JOINTS_0"])
        wts = read_accessor(doc, bin_data, at["WEIGHTS_0"])
        idx = read_accessor(doc, bin_data, prim["indices"])
        nv = len(pos)
        stats["vertices"] += nv
        acc = doc["accessors"][at["POSITION"]]
        for i in range(3):
            if (f32(acc["min"][i]) != min(p[i] for p in pos) or
                    f32(acc["max"][i]) != max(p[i] for p in pos)):
                err("POSITION min/max wrong in %s" % mesh["name"])
        if len(idx) % 3 or max(idx) >= nv or nv > 65535:
            err("bad indices in %s" % mesh["name"])
        for t in range(0, len(idx), 3):
            a, b, c = idx[t:t + 3]
            if a == b or b == c or a == c:
                err("degenerate triangle in %s" % mesh["name"])
                break
        for v in range(nv):
            n = nrm[v]
            if abs(math.sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]) - 1.0) > 1e-5:
                err("normal %d of %s not unit length" % (v, mesh["name"]))
                break
            ctr = mb.centers[v]
            if ctr is not None and dot(n, sub(pos[v], ctr)) <= 0.0:
                err("normal %d of %s points inwards" % (v, mesh["name"]))
                break
            w = wts[v]
            if abs(sum(w) - 1.0) > 1e-6:
                err("weights of vertex %d in %s sum to %r" % (v, mesh["name"], sum(w)))
                break
            used = 0
            for jj, ww in zip(jts[v], w):
                if ww < 0.0 or jj >= len(joints):
                    err("bad influence in %s" % mesh["name"])
                if ww == 0.0 and jj != 0:
                    err("unused weight slot with joint %d in %s" % (jj, mesh["name"]))
                if ww > 0.0:
                    used += 1
            stats["infl"][used] += 1
        # Triangle winding: face normals agree with vertex normals.
        bad = 0
        for t in range(0, len(idx), 3):
            a, b, c = (pos[i] for i in idx[t:t + 3])
            fn = cross(sub(b, a), sub(c, a))
            vn = add(add(nrm[idx[t]], nrm[idx[t + 1]]), nrm[idx[t + 2]])
            if dot(fn, vn) <= 0.0:
                bad += 1
        if bad:
            err("%d triangles of %s are wound against their normals" % (bad, mesh["name"]))
    if stats["infl"][0]:
        err("%d vertices without influences" % stats["infl"][0])
    if stats["infl"][3] + stats["infl"][4] == 0:
        err("no vertex has 3 or 4 influences")

    anims = doc["animations"]
    if len(anims) < 3:
        err("only %d animations" % len(anims))
    for a in anims:
        rot_channels = 0
        has_hips_t = False
        for ch in a["channels"]:
            smp = a["samplers"][ch["sampler"]]
            times = read_accessor(doc, bin_data, smp["input"])
            vals = read_accessor(doc, bin_data, smp["output"])
            if len(times) != len(vals) or any(t1 <= t0 for t0, t1 in zip(times, times[1:])):
                err("bad keys in %s" % a["name"])
            if vals[0] != vals[-1]:
                err("%s does not loop (node %d)" % (a["name"], ch["target"]["node"]))
            if ch["target"]["path"] == "rotation":
                rot_channels += 1
                for q0, q1 in zip(vals, vals[1:]):
                    if q_dot(q0, q1) <= 0.0:
                        err("quaternion sign flip in %s" % a["name"])
                        break
                for q in vals:
                    if abs(math.sqrt(q_dot(q, q)) - 1.0) > 1e-5:
                        err("non-unit quaternion in %s" % a["name"])
                        break
            elif ch["target"]["path"] == "translation":
                if nodes[ch["target"]["node"]]["name"] == "hips":
                    has_hips_t = True
        if rot_channels < 10 or not has_hips_t:
            err("animation %s animates too little" % a["name"])
    return errors, stats


# --------------------------------------------------------------------------

def main():
    here = os.path.dirname(os.path.abspath(__file__))
    default_out = os.path.join(os.path.dirname(here), "assets", "demo")
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=default_out,
                    help="output directory (default: assets/demo)")
    args = ap.parse_args()

    sk = Skeleton()
    meshes = build_meshes(sk)
    poser = Poser(sk)
    anims = [(name, duration, sample_animation(sk, poser, duration, fn))
             for name, duration, fn in ANIMATIONS]
    gltf_bytes, bin_bytes = build_gltf(sk, meshes, anims)
    png_bytes = make_albedo_png()

    errors, stats = check(gltf_bytes, bin_bytes, meshes)
    if errors:
        for e in errors:
            sys.stderr.write("make_demo: error: %s\n" % e)
        sys.exit(1)

    os.makedirs(args.out, exist_ok=True)
    for fname, data in ((BASENAME + ".gltf", gltf_bytes),
                        (BASENAME + ".bin", bin_bytes),
                        (BASENAME + "_albedo.png", png_bytes)):
        with open(os.path.join(args.out, fname), "wb") as fh:
            fh.write(data)

    infl = stats["infl"]
    print("make_demo: wrote %s (%d joints, %s, %d animations)" % (
        args.out, len(sk),
        ", ".join("%s: %d vertices / %d triangles" % (m.name, len(m.positions), len(m.tris))
                  for m in meshes),
        len(anims)))
    print("make_demo: influences per vertex: 1: %d, 2: %d, 3: %d, 4: %d" % tuple(infl[1:]))


if __name__ == "__main__":
    main()
