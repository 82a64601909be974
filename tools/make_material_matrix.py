#!/usr/bin/python3
"""Make the material test model for issue 27's render-parity tests: one glTF 2.0 scene
(material_matrix.gltf + material_matrix.bin + PNG textures, all made here) that lays out, in a
grid of 6 columns x 3 rows facing +Z (spacing 2.2, centred on the origin), every part of the
glTF metallic-roughness material rigview must draw like three.js:

  columns 0-2  spheres, metallic 0 / 0.5 / 1 (rows, top to bottom) x roughness 0.1 / 0.5 / 0.9
               (columns), base colour (0.9, 0.55, 0.3)
  column 3     row 0: normal map (a grid of round bumps; TANGENT given, MikkTSpace-compatible)
               row 1: occlusion map (horizontal stripes, strength 1; R channel)
               row 2: emissive map (soft dots) x emissiveFactor x KHR_materials_emissive_strength 4
  column 4     quads with the same RGBA checker base colour texture (alpha 1 and a 0..1 ramp),
               in front of an opaque blue bar: row 0 OPAQUE (alpha ignored), row 1 MASK
               (alphaCutoff 0.5), row 2 BLEND
  column 5     row 0: two quads whose front faces look away (-Z): left doubleSided (drawn,
               back-face normal flipped), right single-sided (culled: only background)
               row 1: KHR_texture_transform on the base colour texture (offset, rotation, scale)
               row 2: base colour texture read through TEXCOORD_1 (a second UV set, turned 90
               degrees from TEXCOORD_0, which the texture ignores)

The reference camera (also in the file's asset.extras): eye (0, 0, 14), target the origin,
vertical FOV 32 degrees, a 2:1 image (e.g. --size 1024x512).

  /usr/bin/python3 tools/make_material_matrix.py OUTDIR     # writes OUTDIR/material_matrix.gltf ...
  node tools/gltf_validator/validate.mjs OUTDIR/material_matrix.gltf
  /usr/bin/python3 tools/make_material_matrix.py --cells 1024x512
      # JSON {cell name: [x, y, w, h]}: each cell's pixel rectangle in a render of that size
      # from the reference camera (for per-cell comparisons: image_compare.py --crop)

Deterministic bytes; Python 3 and NumPy only (PNGs written with zlib).
"""
import json
import os
import struct
import sys
import zlib

import numpy as np

SPACING = 2.2
COLS, ROWS = 6, 3
RADIUS = 0.9
HALF = 0.85                      # quads are 1.7 x 1.7
CAMERA = {"eye": [0, 0, 14], "target": [0, 0, 0], "yfov_degrees": 32, "aspect": 2.0}


def cell(col, row, z=0.0):
    return [(col - (COLS - 1) / 2) * SPACING, ((ROWS - 1) / 2 - row) * SPACING, z]


# ---- PNG ----------------------------------------------------------------------------------------
def png_bytes(img):
    """uint8 (H, W, 3|4) -> PNG bytes (filter none, zlib level 9)."""
    h, w, c = img.shape
    raw = b"".join(b"\0" + img[y].tobytes() for y in range(h))

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xffffffff)

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, {3: 2, 4: 6}[c], 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def tex_normal(n=128, cells=8):
    """Tangent-space normal map (+X right, +Y up in the image, glTF's convention) of round bumps."""
    y, x = np.mgrid[0:n, 0:n].astype(np.float64) + 0.5
    fx, fy = (x * cells / n) % 1.0 - 0.5, (y * cells / n) % 1.0 - 0.5
    r2 = (fx * fx + fy * fy) / 0.16
    h = np.where(r2 < 1.0, np.sqrt(np.clip(1.0 - r2, 0.0, 1.0)), 0.0) * 0.25      # height, in cell units
    # Gradients per cell unit; image rows go down, the tangent frame's +Y goes up.
    dhdx = np.gradient(h, axis=1) * n / cells
    dhdrow = np.gradient(h, axis=0) * n / cells
    v = np.stack([-dhdx, dhdrow, np.ones_like(h)], axis=-1)
    v /= np.linalg.norm(v, axis=-1, keepdims=True)
    return np.clip(np.round((v * 0.5 + 0.5) * 255.0), 0, 255).astype(np.uint8)


def tex_occlusion(n=64, stripes=8):
    y = (np.arange(n) + 0.5) / n
    ao = np.where((y * stripes) % 1.0 < 0.5, 1.0, 0.25)
    g = np.round(np.repeat(ao[:, None], n, axis=1) * 255).astype(np.uint8)
    return np.stack([g, g, g], axis=-1)            # glTF reads R


def tex_emissive(n=64, cols=8, rows=4):
    """Smooth glowing dots (cosine products, no hard edges that would alias on the sphere)."""
    y, x = np.mgrid[0:n, 0:n].astype(np.float64) + 0.5
    f = (0.5 - 0.5 * np.cos(2 * np.pi * cols * x / n)) * (0.5 - 0.5 * np.cos(2 * np.pi * rows * y / n))
    g = np.round(16 + 239 * f).astype(np.uint8)
    return np.stack([g, g, g], axis=-1)


def tex_checker_alpha(n=64, squares=4):
    """RGBA: orange/white checker; alpha 1 on the white squares, a 0..1 left-to-right ramp on the orange."""
    y, x = np.mgrid[0:n, 0:n]
    odd = ((x * squares // n) + (y * squares // n)) % 2 == 1
    rgb = np.where(odd[..., None], np.array([240, 120, 30], np.uint8), np.array([235, 235, 235], np.uint8))
    ramp = np.round((x + 0.5) / n * 255).astype(np.uint8)
    a = np.where(odd, ramp, 255).astype(np.uint8)
    return np.concatenate([rgb, a[..., None]], axis=-1).astype(np.uint8)


def tex_uvgrid(n=64):
    """Four coloured quadrants (red top-left, green top-right, blue bottom-left, yellow
    bottom-right) with a dark grid every 8 texels and a white dot near the top-left corner,
    so orientation, offset, scale and rotation all show."""
    y, x = np.mgrid[0:n, 0:n]
    top, left = y < n // 2, x < n // 2
    c = np.zeros((n, n, 3), np.uint8)
    c[top & left] = (220, 40, 40)
    c[top & ~left] = (40, 200, 60)
    c[~top & left] = (40, 80, 220)
    c[~top & ~left] = (230, 210, 40)
    c[(x % 8 == 0) | (y % 8 == 0)] = (30, 30, 30)
    c[(np.hypot(x - 12, y - 12) < 4)] = (255, 255, 255)
    return c


# ---- geometry -----------------------------------------------------------------------------------
def sphere(radius=RADIUS, seg_u=48, seg_v=24):
    """UV sphere: u = longitude (0 at +Z, increasing towards +X), v = 0 at the north pole."""
    pos, nor, tan, uv0, uv1 = [], [], [], [], []
    for j in range(seg_v + 1):
        v = j / seg_v
        th = v * np.pi
        for i in range(seg_u + 1):
            u = i / seg_u
            ph = u * 2.0 * np.pi
            n = np.array([np.sin(th) * np.sin(ph), np.cos(th), np.sin(th) * np.cos(ph)])
            pos.append(n * radius)
            nor.append(n)
            t = np.array([np.cos(ph), 0.0, -np.sin(ph)])    # dP/du, unit; bitangent N x T points north (-dP/dv)
            tan.append([t[0], t[1], t[2], 1.0])
            uv0.append([u, v])
            uv1.append([v, u])
    idx = []
    for j in range(seg_v):
        for i in range(seg_u):
            a = j * (seg_u + 1) + i
            b = a + seg_u + 1
            if j != 0:
                idx += [a, b, a + 1]
            if j != seg_v - 1:
                idx += [a + 1, b, b + 1]
    return dict(pos=pos, nor=nor, tan=tan, uv0=uv0, uv1=uv1, idx=idx)


def quad(half=HALF, facing=1.0, half_w=None):
    """Quad in the XY plane whose front (counter-clockwise) face looks along facing * +Z.
    TEXCOORD_0 has (0, 0) at the top-left as seen from the front; TEXCOORD_1 is it turned 90 degrees."""
    hw = half if half_w is None else half_w
    s = facing
    # Corners as seen from the front: top-left, top-right, bottom-left, bottom-right.
    # Seen from -Z, "right" is -X.
    pos = [[-hw * s, half, 0], [hw * s, half, 0], [-hw * s, -half, 0], [hw * s, -half, 0]]
    uv0 = [[0, 0], [1, 0], [0, 1], [1, 1]]
    uv1 = [[1 - v, u] for u, v in uv0]
    nor = [[0, 0, s]] * 4
    tan = [[s, 0, 0, 1]] * 4
    idx = [0, 2, 1, 1, 2, 3]
    return dict(pos=pos, nor=nor, tan=tan, uv0=uv0, uv1=uv1, idx=idx)


# ---- glTF writer --------------------------------------------------------------------------------
class Gltf:
    def __init__(self):
        self.bin = bytearray()
        self.j = {"asset": {"version": "2.0", "generator": "rigview tools/make_material_matrix.py",
                            "extras": {"reference_camera": CAMERA}},
                  "extensionsUsed": ["KHR_materials_emissive_strength", "KHR_texture_transform"],
                  "scene": 0, "scenes": [{"name": "material_matrix", "nodes": []}], "nodes": [], "meshes": [],
                  "materials": [], "textures": [], "images": [], "samplers": [
                      {"magFilter": 9729, "minFilter": 9987, "wrapS": 10497, "wrapT": 10497}],
                  "accessors": [], "bufferViews": [], "buffers": []}
        self.images = {}
        self.geometry = {}

    def view(self, data, target=None):
        while len(self.bin) % 4:
            self.bin.append(0)
        bv = {"buffer": 0, "byteOffset": len(self.bin), "byteLength": len(data)}
        if target:
            bv["target"] = target
        self.bin += data
        self.j["bufferViews"].append(bv)
        return len(self.j["bufferViews"]) - 1

    def accessor(self, values, kind, comp=5126, target=34962, minmax=False):
        arr = np.asarray(values, dtype=np.float32 if comp == 5126 else np.uint16)
        acc = {"bufferView": self.view(arr.tobytes(), target), "componentType": comp,
               "count": int(arr.shape[0]), "type": kind}
        if minmax:
            acc["min"] = [float(x) for x in arr.min(axis=0)]
            acc["max"] = [float(x) for x in arr.max(axis=0)]
        self.j["accessors"].append(acc)
        return len(self.j["accessors"]) - 1

    def mesh(self, name, g, material, tangents=False):
        """A mesh of one primitive; meshes made from the same geometry share its accessors."""
        key = (id(g), tangents)
        if key not in self.geometry:
            self.geometry[key] = self.attributes(g, tangents)
        attrs, ind = self.geometry[key]
        self.j["meshes"].append({"name": name, "primitives": [{"attributes": dict(attrs), "indices": ind, "material": material}]})
        return len(self.j["meshes"]) - 1

    def attributes(self, g, tangents):
        pos = np.asarray(g["pos"], np.float32)
        nor = np.asarray(g["nor"], np.float64)
        nor = (nor / np.linalg.norm(nor, axis=1, keepdims=True)).astype(np.float32)
        attrs = {"POSITION": self.accessor(pos, "VEC3", minmax=True), "NORMAL": self.accessor(nor, "VEC3"),
                 "TEXCOORD_0": self.accessor(g["uv0"], "VEC2"), "TEXCOORD_1": self.accessor(g["uv1"], "VEC2")}
        if tangents:
            attrs["TANGENT"] = self.accessor(g["tan"], "VEC4")
        ind = self.accessor(np.asarray(g["idx"], np.uint16), "SCALAR", comp=5123, target=34963)
        return attrs, ind

    def texture(self, uri):
        if uri not in self.images:
            self.j["images"].append({"uri": uri})
            self.j["textures"].append({"sampler": 0, "source": len(self.j["images"]) - 1})
            self.images[uri] = len(self.j["textures"]) - 1
        return self.images[uri]

    def material(self, m):
        self.j["materials"].append(m)
        return len(self.j["materials"]) - 1

    def node(self, name, mesh, translation):
        self.j["nodes"].append({"name": name, "mesh": mesh, "translation": [float(x) for x in translation]})
        self.j["scenes"][0]["nodes"].append(len(self.j["nodes"]) - 1)


def build():
    g = Gltf()
    textures = {"normal_bumps.png": tex_normal(), "occlusion_stripes.png": tex_occlusion(),
                "emissive_dots.png": tex_emissive(), "checker_alpha.png": tex_checker_alpha(),
                "uv_grid.png": tex_uvgrid()}
    sph = sphere()
    base = [0.9, 0.55, 0.3, 1.0]
    # Metallic x roughness sweep.
    for row, metal in enumerate((0.0, 0.5, 1.0)):
        for col, rough in enumerate((0.1, 0.5, 0.9)):
            name = f"metal{metal:g}_rough{rough:g}"
            m = g.material({"name": name, "pbrMetallicRoughness": {
                "baseColorFactor": base, "metallicFactor": metal, "roughnessFactor": rough}})
            g.node(name, g.mesh(name, sph, m), cell(col, row))
    grey = {"baseColorFactor": [0.8, 0.8, 0.8, 1.0], "metallicFactor": 0.0, "roughnessFactor": 0.4}
    # Normal map.
    m = g.material({"name": "normal_map", "pbrMetallicRoughness": dict(grey),
                    "normalTexture": {"index": g.texture("normal_bumps.png"), "scale": 1.0}})
    g.node("normal_map", g.mesh("normal_map", sph, m, tangents=True), cell(3, 0))
    # Occlusion.
    m = g.material({"name": "occlusion", "pbrMetallicRoughness": dict(grey),
                    "occlusionTexture": {"index": g.texture("occlusion_stripes.png"), "strength": 1.0}})
    g.node("occlusion", g.mesh("occlusion", sph, m), cell(3, 1))
    # Emissive.
    m = g.material({"name": "emissive", "pbrMetallicRoughness": {
                        "baseColorFactor": [0.1, 0.1, 0.1, 1.0], "metallicFactor": 0.0, "roughnessFactor": 0.5},
                    "emissiveTexture": {"index": g.texture("emissive_dots.png")},
                    "emissiveFactor": [1.0, 0.45, 0.1],
                    "extensions": {"KHR_materials_emissive_strength": {"emissiveStrength": 4.0}}})
    g.node("emissive", g.mesh("emissive", sph, m), cell(3, 2))
    # Alpha modes, each in front of an opaque bar.
    q = quad()
    bar = g.material({"name": "bar", "pbrMetallicRoughness": {
        "baseColorFactor": [0.1, 0.3, 0.9, 1.0], "metallicFactor": 0.0, "roughnessFactor": 0.6}})
    bar_mesh = g.mesh("bar", quad(half=1.0, half_w=0.25), bar)
    checker = g.texture("checker_alpha.png")
    for row, mode in enumerate(("OPAQUE", "MASK", "BLEND")):
        mat = {"name": f"alpha_{mode.lower()}", "pbrMetallicRoughness": {
            "baseColorTexture": {"index": checker}, "metallicFactor": 0.0, "roughnessFactor": 0.5}}
        if mode != "OPAQUE":
            mat["alphaMode"] = mode
        if mode == "MASK":
            mat["alphaCutoff"] = 0.5
        m = g.material(mat)
        g.node(f"alpha_{mode.lower()}", g.mesh(f"alpha_{mode.lower()}", q, m), cell(4, row))
        g.node(f"bar_behind_{mode.lower()}", bar_mesh, cell(4, row, -0.6))
    # Back faces: a double-sided and a single-sided quad whose fronts look away from the camera.
    uvgrid = g.texture("uv_grid.png")
    back = quad(half_w=HALF / 2 - 0.05, facing=-1.0)
    m = g.material({"name": "double_sided", "doubleSided": True, "pbrMetallicRoughness": {
        "baseColorTexture": {"index": uvgrid}, "metallicFactor": 0.0, "roughnessFactor": 0.5}})
    c = cell(5, 0)
    g.node("double_sided_back", g.mesh("double_sided_back", back, m), [c[0] - HALF / 2, c[1], c[2]])
    m = g.material({"name": "single_sided", "pbrMetallicRoughness": {
        "baseColorTexture": {"index": uvgrid}, "metallicFactor": 0.0, "roughnessFactor": 0.5}})
    g.node("single_sided_back", g.mesh("single_sided_back", back, m), [c[0] + HALF / 2, c[1], c[2]])
    # Texture transform.
    m = g.material({"name": "texture_transform", "pbrMetallicRoughness": {
        "baseColorTexture": {"index": uvgrid, "extensions": {"KHR_texture_transform": {
            "offset": [0.25, 0.1], "rotation": 0.3, "scale": [1.5, 1.5]}}},
        "metallicFactor": 0.0, "roughnessFactor": 0.5}})
    g.node("texture_transform", g.mesh("texture_transform", q, m), cell(5, 1))
    # Second UV set.
    m = g.material({"name": "texcoord1", "pbrMetallicRoughness": {
        "baseColorTexture": {"index": uvgrid, "texCoord": 1}, "metallicFactor": 0.0, "roughnessFactor": 0.5}})
    g.node("texcoord1", g.mesh("texcoord1", q, m), cell(5, 2))

    g.j["buffers"].append({"uri": "material_matrix.bin", "byteLength": len(g.bin)})
    files = {"material_matrix.gltf": (json.dumps(g.j, indent=1) + "\n").encode(),
             "material_matrix.bin": bytes(g.bin)}
    for name, img in textures.items():
        files[name] = png_bytes(img)
    return files


CELL_NAMES = [["metal0_rough0.1", "metal0_rough0.5", "metal0_rough0.9", "normal_map", "alpha_opaque", "double_single_sided"],
              ["metal0.5_rough0.1", "metal0.5_rough0.5", "metal0.5_rough0.9", "occlusion", "alpha_mask", "texture_transform"],
              ["metal1_rough0.1", "metal1_rough0.5", "metal1_rough0.9", "emissive", "alpha_blend", "texcoord1"]]


def cell_rects(width, height, half=SPACING / 2):
    """Pixel rectangle [x, y, w, h] (y down) of each cell's square (side SPACING, at z = 0) seen
    from the reference camera in a width x height render (vertical FOV fixed, so a wider
    image shows more on the sides)."""
    eye = CAMERA["eye"][2]
    f = (height / 2) / np.tan(np.radians(CAMERA["yfov_degrees"]) / 2)
    rects = {}
    for row in range(ROWS):
        for col in range(COLS):
            cx, cy, _ = cell(col, row)
            x0 = width / 2 + (cx - half) * f / eye
            x1 = width / 2 + (cx + half) * f / eye
            y0 = height / 2 - (cy + half) * f / eye
            y1 = height / 2 - (cy - half) * f / eye
            xi0, yi0 = max(0, int(np.ceil(x0))), max(0, int(np.ceil(y0)))
            xi1, yi1 = min(width, int(np.floor(x1))), min(height, int(np.floor(y1)))
            rects[CELL_NAMES[row][col]] = [xi0, yi0, max(0, xi1 - xi0), max(0, yi1 - yi0)]
    return rects


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--cells":
        w, h = (int(x) for x in sys.argv[2].lower().split("x"))
        print(json.dumps(cell_rects(w, h)))
        return 0
    if len(sys.argv) != 2 or sys.argv[1].startswith("-"):
        print("usage: make_material_matrix.py OUTDIR | --cells WxH", file=sys.stderr)
        return 2
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    files = build()
    for name, data in files.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
    total = sum(len(d) for d in files.values())
    print(f"make_material_matrix: wrote {len(files)} files ({total} bytes) to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
