#!/usr/bin/env python3
"""Write the seed corpus of tests/fuzz/import_fuzz.cpp: small files of every format rigview
reads (assimp-testmodels), each prefixed by one byte naming its format (the index
into kFormats of import_fuzz.cpp). Small on purpose: every input costs a worker process.

usage: import_fuzz_seeds.py OUT_DIR [IQM_SEED_DIR] [ASF_AMC_SEED_FILE]
"""
import base64
import json
import os
import struct
import sys

FORMATS = [".gltf", ".glb", ".fbx", ".dae", ".x", ".bvh", ".md5mesh", ".smd",
           ".iqm", ".asf", ".obj", ".md5anim", ".ms3d", ".3ds", ".md2", ".ply"]
MODELS = "/usr/share/assimp/models"

FILES = [
    "glTF2/simple_skin/simple_skin.gltf",
    "glTF2/BoxWithInfinites-glTF-Binary/BoxWithInfinites.glb",
    "FBX/box.fbx",
    "Collada/cube_tristrips.dae",
    "Collada/box_nested_animation.dae",
    "X/test_cube_text.x",
    "X/test_cube_compressed.x",
    "MD5/SimpleCube.md5mesh",
    "SMD/triangle.smd",
    "OBJ/number_formats.obj",
    "3DS/RotatingCube.3DS",
    "PLY/cube.ply",
]


def put(out, name, ext, data):
    with open(os.path.join(out, name), "wb") as f:
        f.write(bytes([FORMATS.index(ext)]) + data)


def small_bvh():
    """01_01.bvh's hierarchy with its first three frames (the file has 2,751)."""
    with open(os.path.join(MODELS, "BVH/01_01.bvh"), "rb") as f:
        text = f.read().decode("latin-1")
    head, motion = text.split("MOTION", 1)
    lines = motion.strip().splitlines()
    frames = [l for l in lines if l and l[0] in "-0123456789"][:3]
    return (head + "MOTION\nFrames: 3\nFrame Time: 0.0333333\n" + "\n".join(frames) + "\n").encode("latin-1")


def skin_glb():
    """simple_skin.gltf (a skinned, animated glTF with its buffer as a data URI) as one .glb."""
    with open(os.path.join(MODELS, "glTF2/simple_skin/simple_skin.gltf")) as f:
        g = json.load(f)
    binary = base64.b64decode(g["buffers"][0]["uri"].split(",", 1)[1])
    g["buffers"] = [{"byteLength": len(binary)}]
    js = json.dumps(g, separators=(",", ":")).encode()
    js += b" " * (-len(js) % 4)
    binary += b"\0" * (-len(binary) % 4)
    body = struct.pack("<I4s", len(js), b"JSON") + js + struct.pack("<I4s", len(binary), b"BIN\0") + binary
    return struct.pack("<4sII", b"glTF", 2, 12 + len(body)) + body


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for rel in FILES:
        path = os.path.join(MODELS, rel)
        if os.path.exists(path):
            with open(path, "rb") as f:
                put(out, os.path.basename(rel), os.path.splitext(rel)[1].lower(), f.read())
    if os.path.exists(os.path.join(MODELS, "BVH/01_01.bvh")):
        put(out, "01_01_3frames.bvh", ".bvh", small_bvh())
    if os.path.exists(os.path.join(MODELS, "glTF2/simple_skin/simple_skin.gltf")):
        put(out, "simple_skin.glb", ".glb", skin_glb())
    if len(sys.argv) > 2 and os.path.isdir(sys.argv[2]):
        for name in sorted(os.listdir(sys.argv[2])):
            with open(os.path.join(sys.argv[2], name), "rb") as f:
                put(out, name + ".iqm", ".iqm", f.read())
    if len(sys.argv) > 3 and os.path.isfile(sys.argv[3]):
        with open(sys.argv[3], "rb") as f:
            put(out, "skeleton_motion.asf", ".asf", f.read())


if __name__ == "__main__":
    main()
