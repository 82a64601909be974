# Independent references for rigview's FBX import, made by Blender's own FBX exporter and
# importer (Blender 3.4, Debian's package).
#
#   blender -b --python tools/make_blender_refs.py -- OUTDIR [DEMO.gltf]
#
# (Debian: also needs python3-numpy for Blender's glTF importer.) Its outputs are committed
# under tests/data/blender/ (the FBX files gzip-compressed); tests/reference_test.cpp compares
# rigview against them, so CI needs neither Blender nor a network.
#
# 1. Imports the demo character (assets/demo/rigview_demo.gltf) with Blender's glTF importer.
# 2. Exports it to OUTDIR/blender_demo.fbx with the FBX exporter's default settings, and a copy
#    OUTDIR/blender_demo_samename.fbx whose mesh object "body" is renamed like the armature's
#    root bone ("root"): the mesh node and the root bone then share a name in the file.
# 3. Re-imports each FBX into an empty scene with Blender's FBX importer (default settings) and
#    writes OUTDIR/<name>.json: world-space vertex positions of the depsgraph-evaluated meshes
#    (armature modifier applied, matrix_world applied, metres) in the rest (bind) pose and at
#    several times of every clip, plus every bone's head (world position).
#
# Frames. Blender works Z-up; the FBX files are written Y-up (the exporter's default axes), which
# is how Assimp, and so rigview, reads them. Every position and matrix in the JSON is converted
# back to the file's frame: Blender (x, y, z) -> file (x, z, -y) ("frame": "fbx-file-y-up").
#
# Times. Blender's importer makes Bezier keys, rigview interpolates FBX keys linearly: the two
# agree exactly only on keys (and between keys of equal value). Sampled times are frames at
# which every curve of the clip is such, so the comparison measures import, not interpolation.
# The importer puts FBX time 0 at frame anim_offset (its default, 1): time = (frame - 1) / fps.
#
# 4. Imports Assimp's own sample FBX files (assimp-testmodels) with Blender's importer and writes
#    OUTDIR/assimp_fbx_sizes.json: the diagonal of each file's bounding box in metres (rest pose,
#    world space), to check that rigview's metres agree in size.
#
# Size. All vertices would make the JSON too large to commit, so every STRIDE-th vertex of each
# mesh is written (with its index); the test matches them to rigview's vertices in the bind pose.
import json
import os
import sys

import bpy
from mathutils import Matrix

# Blender 3.4's glTF importer still says np.bool, which NumPy 1.24 (Debian 12) removed.
try:
    import numpy
    if not hasattr(numpy, "bool"):
        numpy.bool = bool
except ImportError:
    raise SystemExit("Blender's glTF importer needs NumPy (Debian: apt-get install python3-numpy)")

STRIDE = 32
TIMES_PER_CLIP = 4


def args():
    argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
    if not argv:
        raise SystemExit("usage: blender -b --python tools/make_blender_refs.py -- OUTDIR [DEMO.gltf]")
    here = os.path.dirname(os.path.abspath(__file__))
    demo = argv[1] if len(argv) > 1 else os.path.join(here, "..", "assets", "demo", "rigview_demo.gltf")
    return os.path.abspath(argv[0]), os.path.abspath(demo)


# Blender (Z-up) to the FBX file's Y-up frame: (x, y, z) -> (x, z, -y).
TO_FILE = Matrix(((1, 0, 0, 0), (0, 0, 1, 0), (0, -1, 0, 0), (0, 0, 0, 1)))


def empty_scene():
    bpy.ops.wm.read_factory_settings(use_empty=True)


def export_fbx(path):
    bpy.ops.export_scene.fbx(filepath=path)  # the exporter's defaults


def round_list(values):
    return [float("%.7g" % v) for v in values]


def mesh_samples(depsgraph):
    out = []
    for obj in sorted(bpy.context.scene.objects, key=lambda o: o.name):
        if obj.type != "MESH":
            continue
        ev = obj.evaluated_get(depsgraph)
        me = ev.to_mesh()
        mw = TO_FILE @ ev.matrix_world
        pos = []
        idx = []
        for i in range(0, len(me.vertices), STRIDE):
            p = mw @ me.vertices[i].co
            idx.append(i)
            pos.extend((p.x, p.y, p.z))
        out.append({"name": obj.name, "vertices": len(me.vertices), "indices": idx,
                    "positions": round_list(pos)})
        ev.to_mesh_clear()
    return out


def bone_worlds(arm):
    # Each bone's head: the origin of its world matrix (its FBX node's world position).
    bones = []
    for pb in arm.pose.bones:
        m = TO_FILE @ arm.matrix_world @ pb.matrix
        bones.append({"name": pb.name, "head": round_list(m.translation)})
    return bones


def safe_frames(fc):
    """Whole frames at which Blender's Bezier curve and a linear interpolation of the same keys
    agree exactly: the keys, and frames between two keys of equal value."""
    keys = sorted((k.co[0], k.co[1]) for k in fc.keyframe_points)
    frames = {round(t, 4) for t, _ in keys}
    for (t0, v0), (t1, v1) in zip(keys, keys[1:]):
        if v0 == v1:
            frames.update(float(f) for f in range(int(t0) + 1, int(t1) + 1))
    return frames


def key_frames(action):
    common = None
    for fc in action.fcurves:
        frames = safe_frames(fc)
        common = frames if common is None else common & frames
    return sorted(common or [])


def pick(frames, n):
    if len(frames) <= n:
        return frames
    return [frames[round(i * (len(frames) - 1) / (n - 1))] for i in range(n)]


def anim_offset():
    return bpy.ops.import_scene.fbx.get_rna_type().properties["anim_offset"].default


def reference(fbx_path, json_path):
    empty_scene()
    bpy.ops.import_scene.fbx(filepath=fbx_path)  # the importer's defaults
    scene = bpy.context.scene
    arm = next(o for o in scene.objects if o.type == "ARMATURE")
    fps = scene.render.fps / scene.render.fps_base
    result = {"file": os.path.basename(fbx_path), "generator": "Blender " + bpy.app.version_string,
              "frame": "fbx-file-y-up", "unit": "metre", "stride": STRIDE, "fps": fps, "poses": []}

    if arm.animation_data is None:
        arm.animation_data_create()
    arm.animation_data.action = None
    arm.data.pose_position = "REST"
    scene.frame_set(0)
    dg = bpy.context.evaluated_depsgraph_get()
    result["poses"].append({"bind": True, "meshes": mesh_samples(dg), "bones": bone_worlds(arm)})
    arm.data.pose_position = "POSE"

    # Blender's importer names an action "<object>|<stack>"; the clip is the FBX take/stack.
    for action in sorted(bpy.data.actions, key=lambda a: a.name):
        if not action.name.startswith(arm.name + "|"):
            continue
        clip = action.name.split("|", 1)[1]
        arm.animation_data.action = action
        for frame in pick(key_frames(action), TIMES_PER_CLIP):
            f = int(frame)
            scene.frame_set(f, subframe=frame - f)
            dg = bpy.context.evaluated_depsgraph_get()
            result["poses"].append({"clip": clip, "frame": frame, "time": (frame - anim_offset()) / fps,
                                    "meshes": mesh_samples(dg), "bones": bone_worlds(arm)})
    with open(json_path, "w") as f:
        json.dump(result, f, separators=(",", ":"))


ASSIMP_FBX = ["huesitos.fbx", "animation_with_skeleton.fbx", "spider.fbx", "box.fbx", "cubes_with_names.fbx",
              "global_settings.fbx", "maxPbrMaterial_metalRough.fbx"]


def sample_sizes(outdir, folder="/usr/share/assimp/models/FBX"):
    sizes = []
    for name in ASSIMP_FBX:
        empty_scene()
        try:
            bpy.ops.import_scene.fbx(filepath=os.path.join(folder, name))
        except RuntimeError as e:
            sizes.append({"file": name, "error": str(e).splitlines()[0]})
            continue
        for o in bpy.context.scene.objects:
            if o.type == "ARMATURE":
                o.data.pose_position = "REST"
        dg = bpy.context.evaluated_depsgraph_get()
        lo = [float("inf")] * 3
        hi = [float("-inf")] * 3
        for obj in bpy.context.scene.objects:
            if obj.type != "MESH":
                continue
            ev = obj.evaluated_get(dg)
            me = ev.to_mesh()
            for v in me.vertices:
                p = ev.matrix_world @ v.co
                lo = [min(a, b) for a, b in zip(lo, p)]
                hi = [max(a, b) for a, b in zip(hi, p)]
            ev.to_mesh_clear()
        if lo[0] > hi[0]:
            continue
        diag = sum((b - a) ** 2 for a, b in zip(lo, hi)) ** 0.5
        sizes.append({"file": name, "diagonal": float("%.7g" % diag)})
    with open(os.path.join(outdir, "assimp_fbx_sizes.json"), "w") as f:
        json.dump({"generator": "Blender " + bpy.app.version_string, "unit": "metre", "files": sizes}, f, indent=1)


def main():
    outdir, demo = args()
    os.makedirs(outdir, exist_ok=True)
    empty_scene()
    bpy.ops.import_scene.gltf(filepath=demo)
    plain = os.path.join(outdir, "blender_demo.fbx")
    export_fbx(plain)
    arm = next(o for o in bpy.context.scene.objects if o.type == "ARMATURE")
    root_bone = next(b for b in arm.data.bones if b.parent is None)
    body = bpy.context.scene.objects["body"]
    body.name = root_bone.name
    samename = os.path.join(outdir, "blender_demo_samename.fbx")
    export_fbx(samename)
    for fbx in (plain, samename):
        reference(fbx, os.path.splitext(fbx)[0] + ".json")
    sample_sizes(outdir)


main()
