#!/usr/bin/env python3
"""Write the crash and hang classes of hostile model files into a folder (issue 9), for the
mutant regression test (tests/mutant_test.cpp): glTF sparse accessors with out-of-range
offsets and counts, a 100,000-deep glTF node chain, a skin of 10,000 joints without inverse
bind matrices, truncated and mutated .X, MD5 and SMD files, COLLADA with huge counts, and a
FIFO. Deterministic: the same files every run. Some of these crash or hang Assimp 5.2.5 when
read in process (`rigview --no-isolation info FILE`); through the import worker each must be
one error line (or a clean import).

usage: make_mutants.py OUT_DIR [--no-fifo]
"""
import base64
import json
import os
import random
import struct
import sys

MODELS = "/usr/share/assimp/models"


def write(out, name, data):
    mode = "wb" if isinstance(data, bytes) else "w"
    with open(os.path.join(out, name), mode) as f:
        f.write(data)


def read(rel):
    with open(os.path.join(MODELS, rel), "rb") as f:
        return f.read()


def data_uri(b):
    return "data:application/octet-stream;base64," + base64.b64encode(b).decode()


def triangle_gltf():
    """A one-triangle glTF with its buffer embedded; callers add to it."""
    pos = struct.pack("<9f", 0, 0, 0, 1, 0, 0, 0, 1, 0)
    return {
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": [{"mesh": 0}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
        "buffers": [{"byteLength": len(pos), "uri": data_uri(pos)}],
        "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": len(pos)}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
                       "min": [0, 0, 0], "max": [1, 1, 0]}],
    }


def gltf_sparse(out):
    """Sparse accessors whose indices/values point past their buffers or the accessor."""
    idx = struct.pack("<3I", 0, 1, 2)
    val = struct.pack("<9f", *([0.5] * 9))
    cases = {
        "sparse_index_past_count": dict(count=3, idx=struct.pack("<3I", 0, 1, 4000000000)),
        "sparse_count_past_buffer": dict(count=100000, idx=idx),
        "sparse_offset_past_buffer": dict(count=3, idx=idx, idx_offset=1 << 30),
        "sparse_values_offset_past_buffer": dict(count=3, idx=idx, val_offset=1 << 30),
        "sparse_count_negative": dict(count=-5, idx=idx),
    }
    for name, c in cases.items():
        g = triangle_gltf()
        b = c["idx"] + val
        g["buffers"].append({"byteLength": len(b), "uri": data_uri(b)})
        g["bufferViews"].append({"buffer": 1, "byteOffset": 0, "byteLength": len(c["idx"])})
        g["bufferViews"].append({"buffer": 1, "byteOffset": len(c["idx"]), "byteLength": len(val)})
        g["accessors"][0]["sparse"] = {
            "count": c["count"],
            "indices": {"bufferView": 1, "byteOffset": c.get("idx_offset", 0), "componentType": 5125},
            "values": {"bufferView": 2, "byteOffset": c.get("val_offset", 0)},
        }
        write(out, "gltf_%s.gltf" % name, json.dumps(g))
    # An accessor with no bufferView (all zeros) made sparse, with an index far out.
    g = triangle_gltf()
    b = struct.pack("<I", 0x7FFFFFFF) + struct.pack("<3f", 1, 1, 1)
    g["buffers"].append({"byteLength": len(b), "uri": data_uri(b)})
    g["bufferViews"].append({"buffer": 1, "byteOffset": 0, "byteLength": 4})
    g["bufferViews"].append({"buffer": 1, "byteOffset": 4, "byteLength": 12})
    g["accessors"].append({"componentType": 5126, "count": 3, "type": "VEC3",
                           "sparse": {"count": 1, "indices": {"bufferView": 1, "componentType": 5125},
                                      "values": {"bufferView": 2}}})
    g["meshes"][0]["primitives"][0]["attributes"]["NORMAL"] = 1
    write(out, "gltf_sparse_no_bufferview_index_far_out.gltf", json.dumps(g))


def gltf_deep_chain(out, depth=100000):
    g = triangle_gltf()
    g["nodes"] = [{"children": [i + 1]} for i in range(depth - 1)] + [{"mesh": 0}]
    write(out, "gltf_deep_chain_%d.gltf" % depth, json.dumps(g, separators=(",", ":")))


def gltf_wide_skin(out, joints=10000):
    g = triangle_gltf()
    jw = struct.pack("<12H", *([0, 1, 2, 3] * 3)) + struct.pack("<12f", *([0.25] * 12))
    g["buffers"].append({"byteLength": len(jw), "uri": data_uri(jw)})
    g["bufferViews"].append({"buffer": 1, "byteOffset": 0, "byteLength": 24})
    g["bufferViews"].append({"buffer": 1, "byteOffset": 24, "byteLength": 48})
    g["accessors"].append({"bufferView": 1, "componentType": 5123, "count": 3, "type": "VEC4"})
    g["accessors"].append({"bufferView": 2, "componentType": 5126, "count": 3, "type": "VEC4"})
    attrs = g["meshes"][0]["primitives"][0]["attributes"]
    attrs["JOINTS_0"] = 1
    attrs["WEIGHTS_0"] = 2
    g["nodes"] = [{"mesh": 0, "skin": 0}] + [{"name": "j%d" % i} for i in range(joints)]
    g["scenes"][0]["nodes"] = list(range(joints + 1))
    g["skins"] = [{"joints": list(range(1, joints + 1))}]  # no inverseBindMatrices
    write(out, "gltf_skin_%d_joints_no_ibm.gltf" % joints, json.dumps(g, separators=(",", ":")))
    # The same skin naming joints that do not exist.
    g["skins"] = [{"joints": [joints + 5, -1, 1 << 31]}]
    write(out, "gltf_skin_joints_out_of_range.gltf", json.dumps(g, separators=(",", ":")))


def truncations(out, prefix, data, ext, points):
    for p in points:
        cut = int(len(data) * p)
        write(out, "%s_truncated_%02d%s" % (prefix, int(p * 100), ext), data[:cut])


def mutate_text(out, prefix, data, ext, rng, count, replacements):
    """Replace some numbers of a text file with hostile ones."""
    text = data.decode("latin-1")
    tokens = text.split(" ")
    numeric = [i for i, t in enumerate(tokens) if t.strip().lstrip("-").replace(".", "", 1).isdigit()]
    for k in range(count):
        t = list(tokens)
        for i in rng.sample(numeric, min(len(numeric), 3)):
            t[i] = rng.choice(replacements)
        write(out, "%s_mutant_%02d%s" % (prefix, k, ext), " ".join(t).encode("latin-1"))


HOSTILE = ["2147483647", "-2147483648", "4294967295", "99999999", "-1", "1e38", "nan", "0"]


def x_files(out, rng):
    data = read("X/Testwuson.X")
    truncations(out, "x_testwuson", data, ".x", [0.1, 0.33, 0.5, 0.9])
    mutate_text(out, "x_testwuson", data, ".x", rng, 8, HOSTILE)
    # Counts in front of arrays made huge.
    text = data.decode("latin-1")
    first = text.find("Mesh ")
    if first >= 0:
        brace = text.find("{", first)
        semi = text.find(";", brace)
        write(out, "x_huge_vertex_count.x", (text[:brace + 1] + " 2000000000" + text[semi:]).encode("latin-1"))


def md5_files(out, rng):
    data = read("MD5/SimpleCube.md5mesh")
    truncations(out, "md5_simplecube", data, ".md5mesh", [0.2, 0.5, 0.8])
    text = data.decode("latin-1")
    for name, old, new in [("numverts_huge", "numverts 24", "numverts 2000000000"),
                           ("numjoints_huge", "numJoints 3", "numJoints 2000000000"),
                           ("weight_index_far", "vert 0 ( 0.1875 -0.25 ) 0 2", "vert 0 ( 0.1875 -0.25 ) 900000 2"),
                           ("numtris_negative", "numtris", "numtris -7\n// was"),
                           ("joint_parent_far", '"joint1" 1', '"joint1" 77')]:
        write(out, "md5_%s.md5mesh" % name, text.replace(old, new, 1).encode("latin-1"))
    mutate_text(out, "md5_simplecube", data, ".md5mesh", rng, 6, HOSTILE)


def smd_files(out, rng):
    for src in ["SMD/WusonSMD.smd", "SMD/triangle.smd"]:
        data = read(src)
        stem = os.path.splitext(os.path.basename(src))[0].lower()
        truncations(out, "smd_" + stem, data, ".smd", [0.05, 0.5, 0.95])
    mutate_text(out, "smd_wuson", read("SMD/WusonSMD.smd"), ".smd", rng, 4, HOSTILE)
    # A nodes block that never ends: Assimp 5.2.5's SMD reader loops for ever on it.
    write(out, "smd_unterminated_nodes.smd", b"version 1\nnodes\n0 \"a\" -1\n")
    write(out, "smd_unterminated_nodes_2.smd", b"version 1\nnodes\n0 \"a\" -1\n1 \"b\" 0\n")
    write(out, "smd_unterminated_skeleton.smd", b"version 1\nnodes\n0 \"a\" -1\nend\nskeleton\ntime 0\n0 0 0 0 0 0 0\n")
    write(out, "smd_huge_time.smd", b"version 1\nnodes\n0 \"a\" -1\nend\nskeleton\ntime 2000000000\n0 0 0 0 0 0 0\nend\n")


def collada_files(out):
    data = read("Collada/duck.dae").decode("utf-8", "replace")
    import re
    huge = re.sub(r'count="\d+"', 'count="2000000000"', data, count=3)
    write(out, "dae_duck_huge_counts.dae", huge.encode())
    huge_all = re.sub(r'count="\d+"', 'count="4294967295"', data)
    write(out, "dae_duck_all_counts_huge.dae", huge_all.encode())
    stride = re.sub(r'stride="\d+"', 'stride="0"', data)
    write(out, "dae_duck_stride_zero.dae", stride.encode())
    write(out, "dae_duck_truncated.dae", data[: len(data) // 2].encode())
    skin = read("Collada/library_animation_clips.dae").decode("utf-8", "replace") if os.path.exists(
        os.path.join(MODELS, "Collada/library_animation_clips.dae")) else ""
    if skin:
        write(out, "dae_clips_huge_counts.dae", re.sub(r'count="\d+"', 'count="2000000000"', skin).encode())


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    rng = random.Random(9)
    gltf_sparse(out)
    gltf_deep_chain(out)
    gltf_wide_skin(out)
    x_files(out, rng)
    md5_files(out, rng)
    smd_files(out, rng)
    collada_files(out)
    if "--no-fifo" not in sys.argv:
        fifo = os.path.join(out, "fifo_model.fbx")
        if not os.path.exists(fifo):
            os.mkfifo(fifo)


if __name__ == "__main__":
    main()
