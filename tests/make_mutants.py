#!/usr/bin/env python3
"""Write the crash and hang classes of hostile model files into a folder (issue 9), for the
mutant regression test (tests/mutant_test.cpp): glTF sparse accessors with out-of-range
offsets and counts, a 100,000-deep glTF node chain, a skin of 10,000 joints without inverse
bind matrices, truncated and mutated .X, MD5 and SMD files, COLLADA with huge counts, a
FIFO, and the output-safety classes: names with invalid UTF-8 and with terminal escape
sequences (glTF, MD5, SMD, BVH), NaN/Inf transforms, inverse bind matrices and keys (glTF,
BVH, .X), and glTF buffer and image URIs outside the model's folder (relative, absolute,
../../../../etc/passwd; their names start with "external_", and each must be refused with
external-path-refused). Deterministic: the same files every run. Some of these crash or hang Assimp 5.2.5 when
read in process (`rigview --no-isolation info FILE`); through the import worker each must be
one error line (or a clean import).

usage: make_mutants.py OUT_DIR [--no-fifo]
"""
import base64
import json
import os
import random
import re
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


def skinned_gltf(nodes_extra=None, ibm=None, keys=None):
    """A one-triangle glTF skinned to two joints with a rotation clip; `ibm` (32 floats) and
    `keys` (rotation quaternions, 2 keys) replace the well-formed ones."""
    g = triangle_gltf()
    jw = struct.pack("<12H", *([0, 1, 0, 0] * 3)) + struct.pack("<12f", *([0.5, 0.5, 0, 0] * 3))
    ibm = ibm or [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1] * 2
    times = [0.0, 1.0]
    keys = keys or [0, 0, 0, 1, 0, 0.7071068, 0, 0.7071068]
    blob = jw + struct.pack("<32f", *ibm) + struct.pack("<2f", *times) + struct.pack("<8f", *keys)
    g["buffers"].append({"byteLength": len(blob), "uri": data_uri(blob)})
    g["bufferViews"] += [{"buffer": 1, "byteOffset": 0, "byteLength": 24},
                         {"buffer": 1, "byteOffset": 24, "byteLength": 48},
                         {"buffer": 1, "byteOffset": 72, "byteLength": 128},
                         {"buffer": 1, "byteOffset": 200, "byteLength": 8},
                         {"buffer": 1, "byteOffset": 208, "byteLength": 32}]
    g["accessors"] += [{"bufferView": 1, "componentType": 5123, "count": 3, "type": "VEC4"},
                       {"bufferView": 2, "componentType": 5126, "count": 3, "type": "VEC4"},
                       {"bufferView": 3, "componentType": 5126, "count": 2, "type": "MAT4"},
                       {"bufferView": 4, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0], "max": [1]},
                       {"bufferView": 5, "componentType": 5126, "count": 2, "type": "VEC4"}]
    attrs = g["meshes"][0]["primitives"][0]["attributes"]
    attrs["JOINTS_0"] = 1
    attrs["WEIGHTS_0"] = 2
    g["nodes"] = [{"name": "skinned", "mesh": 0, "skin": 0}, {"name": "root", "children": [2]},
                  {"name": "tip", "translation": [0, 1, 0]}]
    g["scenes"][0]["nodes"] = [0, 1]
    g["skins"] = [{"joints": [1, 2], "inverseBindMatrices": 3}]
    g["animations"] = [{"name": "bend", "samplers": [{"input": 4, "output": 5}],
                        "channels": [{"sampler": 0, "target": {"node": 2, "path": "rotation"}}]}]
    for k, v in (nodes_extra or {}).items():
        g["nodes"][2][k] = v
    return g


def dump_raw(g):
    """JSON text with non-ASCII characters kept as they are; surrogate escapes become raw bytes
    (invalid UTF-8 in the file, as a hostile tool would write it)."""
    return json.dumps(g, ensure_ascii=False).encode("utf-8", "surrogateescape")


def hostile_names(out):
    """Names with invalid UTF-8 and terminal escape sequences, in formats that keep names."""
    evil_utf8 = "bad\udcff\udcfename\udcc3"  # lone bytes 0xFF 0xFE, a cut two-byte sequence
    escapes = "\x1b[2J\x1b[31mred\x1b]0;title\x07\x9b1m\r\nnext"
    for tag, name in [("invalid_utf8", evil_utf8), ("terminal_escapes", escapes)]:
        g = skinned_gltf()
        for n in g["nodes"]:
            n["name"] = name + n["name"]
        g["animations"][0]["name"] = name
        g["meshes"][0]["name"] = name
        write(out, "names_%s.gltf" % tag, dump_raw(g))
        # Line-based formats: the name without its line break (it would end the line).
        raw = re.sub(rb"[\r\n]", b"", name.encode("utf-8", "surrogateescape").replace(b'"', b""))
        md5 = read("MD5/SimpleCube.md5mesh").replace(b'"joint1"', b'"' + raw + b'"', 1)
        write(out, "names_%s.md5mesh" % tag, md5)
        smd = read("SMD/triangle.smd")
        write(out, "names_%s.smd" % tag, re.sub(rb'"[^"]*"', lambda m: b'"' + raw + b'"', smd, count=1))
        bvh = bvh_small().replace(b"JOINT LeftUpLeg", b"JOINT " + re.sub(rb"\s", b"_", raw), 1)
        write(out, "names_%s.bvh" % tag, bvh)


def bvh_small():
    with open(os.path.join(MODELS, "BVH/01_01.bvh"), "rb") as f:
        text = f.read().decode("latin-1")
    head, motion = text.split("MOTION", 1)
    rows = [l for l in motion.strip().splitlines() if l and l[0] in "-0123456789"][:4]
    return (head + "MOTION\nFrames: 4\nFrame Time: 0.0333333\n" + "\n".join(rows) + "\n").encode("latin-1")


def non_finite(out):
    """NaN and infinite transforms, bind matrices and keys."""
    nan, inf = float("nan"), float("inf")
    ibm = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1] * 2
    for tag, m in [("nan", nan), ("inf", inf)]:
        bad_ibm = list(ibm)
        bad_ibm[12] = m
        bad_ibm[21] = -m
        write(out, "nonfinite_%s_inverse_bind.gltf" % tag, json.dumps(skinned_gltf(ibm=bad_ibm)))
        write(out, "nonfinite_%s_rotation_keys.gltf" % tag,
              json.dumps(skinned_gltf(keys=[0, 0, 0, 1, m, m, 0, m])))
    # glTF JSON has no NaN; a number too big to be a float is read as infinity by some readers.
    write(out, "nonfinite_huge_translation.gltf",
          json.dumps(skinned_gltf(nodes_extra={"translation": [1e39, -1e39, 1e308], "scale": [1e38, 1e38, 1e38]})))
    bvh = bvh_small().decode("latin-1")
    head, motion = bvh.split("MOTION", 1)
    head = head.replace("OFFSET 0.00000 0.00000 0.00000", "OFFSET nan inf -inf", 1)
    lines = motion.split("\n")
    for i, l in enumerate(lines):
        if l and l[0] in "-0123456789":
            vals = l.split()
            vals[0], vals[4] = "nan", "inf"
            lines[i] = " ".join(vals)
            break
    write(out, "nonfinite_offsets_and_keys.bvh", (head + "MOTION" + "\n".join(lines)).encode("latin-1"))
    x = read("X/anim_test.x").decode("latin-1")
    x = re.sub(r"(FrameTransformMatrix\s*\{\s*)([-\d.eE]+)", lambda mm: mm.group(1) + "1e39", x, count=1)  # a float overflow: infinity
    write(out, "nonfinite_frame_matrix.x", x.encode("latin-1"))


def external_uris(out):
    """Buffers and images that point outside the model's folder: each must be refused."""
    # The sibling folder's file exists (a buffer's worth of bytes), so only the rule keeps it out.
    outside = os.path.join(os.path.dirname(os.path.abspath(out)), "mutants_outside")
    os.makedirs(outside, exist_ok=True)
    with open(os.path.join(outside, "secret.bin"), "wb") as f:
        f.write(b"RIGVIEW-SECRET-OUTSIDE" * 4)
    for tag, uri in [("etc_passwd_relative", "../../../../../../../../etc/passwd"),
                     ("etc_passwd_absolute", "/etc/passwd"),
                     ("file_url", "file:///etc/passwd"),
                     ("sibling_folder", "../mutants_outside/secret.bin"),
                     ("encoded_dotdot", "%2E%2E/%2E%2E/%2E%2E/%2E%2E/etc/passwd")]:
        g = triangle_gltf()
        g["buffers"][0] = {"byteLength": 36, "uri": uri}
        write(out, "external_buffer_%s.gltf" % tag, json.dumps(g))
        g = skinned_gltf()
        g["images"] = [{"uri": uri}]
        g["textures"] = [{"source": 0}]
        g["materials"] = [{"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}}]
        g["meshes"][0]["primitives"][0]["material"] = 0
        write(out, "external_image_%s.gltf" % tag, json.dumps(g))


def accessor_types(out):
    """Accessors whose componentType, type or normalized the glTF 2.0 specification does not
    allow for their use, or that Assimp 5.2.5 reads into a larger element than they hold (a
    3-byte UNSIGNED_BYTE position into a 12-byte vector): its uninitialised bytes then reached
    the model, and `check` found different things on different runs. Each must be refused before
    Assimp reads it, or read the same on every run (a VEC3 colour's alpha)."""
    def mutant(name, edit):
        g = skinned_gltf()
        edit(g)
        write(out, "gltf_accessor_%s.gltf" % name, json.dumps(g))

    def add_accessor(g, blob, acc):
        g["buffers"].append({"byteLength": len(blob), "uri": data_uri(blob)})
        g["bufferViews"].append({"buffer": len(g["buffers"]) - 1, "byteLength": len(blob)})
        acc = dict(acc, bufferView=len(g["bufferViews"]) - 1)
        g["accessors"].append(acc)
        return len(g["accessors"]) - 1

    def attr(g, semantic, blob, acc):
        g["meshes"][0]["primitives"][0]["attributes"][semantic] = add_accessor(g, blob, acc)

    def set_acc(i, **kv):
        def edit(g):
            g["accessors"][i].update(kv)
        return edit

    mutant("position_ubyte", set_acc(0, componentType=5121))
    mutant("position_vec2", set_acc(0, type="VEC2"))
    mutant("position_normalized_float", set_acc(0, normalized=True))
    mutant("joints_float", set_acc(1, componentType=5126))
    mutant("joints_normalized", set_acc(1, normalized=True))
    mutant("weights_ubyte_normalized", set_acc(2, componentType=5121, normalized=True))
    mutant("weights_ushort_unnormalized", set_acc(2, componentType=5123))
    mutant("weights_normalized_string", set_acc(2, normalized="yes"))
    mutant("ibm_mat3", set_acc(3, type="MAT3"))
    mutant("ibm_ushort", set_acc(3, componentType=5123))
    mutant("times_ubyte", set_acc(4, componentType=5121))
    mutant("rotation_vec3", set_acc(5, type="VEC3"))
    mutant("rotation_short_unnormalized", set_acc(5, componentType=5122))
    mutant("texcoord_ubyte_normalized",
           lambda g: attr(g, "TEXCOORD_0", bytes(range(6)) + bytes(2),
                          {"componentType": 5121, "normalized": True, "count": 3, "type": "VEC2"}))
    mutant("texcoord_vec3",
           lambda g: attr(g, "TEXCOORD_0", struct.pack("<9f", *range(9)), {"componentType": 5126, "count": 3, "type": "VEC3"}))
    mutant("color_vec3_float",
           lambda g: attr(g, "COLOR_0", struct.pack("<9f", 1, 0, 0, 0, 1, 0, 0, 0, 1),
                          {"componentType": 5126, "count": 3, "type": "VEC3"}))
    mutant("color_vec3_ubyte",
           lambda g: attr(g, "COLOR_0", bytes([255, 0, 0, 0, 255, 0, 0, 0, 255]) + bytes(3),
                          {"componentType": 5121, "normalized": True, "count": 3, "type": "VEC3"}))
    mutant("normal_short", lambda g: attr(g, "NORMAL", struct.pack("<9h", 0, 0, 1, 0, 0, 1, 0, 0, 1) + bytes(2),
                                          {"componentType": 5122, "normalized": True, "count": 3, "type": "VEC3"}))

    def indices(ct, t="SCALAR"):
        def edit(g):
            blob = struct.pack("<3f", 0, 1, 2) if ct == 5126 else struct.pack("<3H", 0, 1, 2) + bytes(2)
            g["meshes"][0]["primitives"][0]["indices"] = add_accessor(g, blob, {"componentType": ct, "count": 3, "type": t})
        return edit
    mutant("indices_float", indices(5126))
    mutant("indices_vec2", indices(5123, "VEC2"))

    def target(g):
        i = add_accessor(g, bytes(range(9)) + bytes(3), {"componentType": 5121, "count": 3, "type": "VEC3"})
        g["meshes"][0]["primitives"][0]["targets"] = [{"POSITION": i}]
        g["meshes"][0]["weights"] = [0.5]
    mutant("target_position_ubyte", target)


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
    hostile_names(out)
    non_finite(out)
    external_uris(out)
    accessor_types(out)
    if "--no-fifo" not in sys.argv:
        fifo = os.path.join(out, "fifo_model.fbx")
        if not os.path.exists(fifo):
            os.mkfifo(fifo)


if __name__ == "__main__":
    main()
