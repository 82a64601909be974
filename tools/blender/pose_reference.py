# Blender's own evaluation of a skinned FBX or COLLADA character, as a JSON reference for
# rigview's tests: Blender's importer (default settings) reads the file; then, in the rest (bind)
# pose and at the given frames of every action the importer made, every vertex of every mesh
# object (the depsgraph-evaluated mesh: shape keys and the armature modifier with all of each
# vertex's weights, world space) and every bone's head (world position). Metres (Blender's FBX
# import scales a centimetre file), in the file's Y-up frame as Assimp gives it: Blender
# (x, y, z) -> (x, z, -y), the inverse of the FBX exporter's default axis conversion and
# Assimp's turn of a COLLADA Z_UP file, so the numbers compare with rigview's directly.
#   blender -b --factory-startup --python tools/blender/pose_reference.py -- IN.fbx|IN.dae OUT.json F1,F2,... [CLIP]
#
# Frames must be keys of every curve (rigview and three.js interpolate keys linearly, Blender
# makes Bezier curves of them: they agree on keys). FBX: Blender's importer puts FBX time 0 at
# frame 1 (anim_offset), so "time" is (frame - 1) / fps; each action "<object>|<stack>" is the
# clip <stack>. COLLADA: Blender's importer puts time t at frame t * fps; the armature's action is
# written as the clip CLIP (rigview's name for it).
import json
import os
import sys

import bpy
from mathutils import Matrix

args = sys.argv[sys.argv.index("--") + 1:]
path, out, frames = args[0], args[1], [int(f) for f in args[2].split(",")]
dae = path.lower().endswith(".dae")
clip_name = args[3] if len(args) > 3 else None

TO_FILE = Matrix(((1, 0, 0, 0), (0, 0, 1, 0), (0, -1, 0, 0), (0, 0, 0, 1)))

bpy.ops.wm.read_factory_settings(use_empty=True)
if dae:
    bpy.ops.wm.collada_import(filepath=path)
else:
    bpy.ops.import_scene.fbx(filepath=path)
scene = bpy.context.scene
fps = scene.render.fps / scene.render.fps_base
anim_offset = 0 if dae else bpy.ops.import_scene.fbx.get_rna_type().properties["anim_offset"].default
arm = next(o for o in scene.objects if o.type == "ARMATURE")
meshes = sorted((o for o in scene.objects if o.type == "MESH"), key=lambda o: o.name)


def rounded(values):
    return [float("%.7g" % v) for v in values]


def sample():
    dg = bpy.context.evaluated_depsgraph_get()
    out_meshes = []
    for obj in meshes:
        ev = obj.evaluated_get(dg)
        me = ev.to_mesh()
        mw = TO_FILE @ ev.matrix_world
        pos = []
        for v in me.vertices:
            p = mw @ v.co
            pos.extend((p.x, p.y, p.z))
        out_meshes.append({"name": obj.name, "positions": rounded(pos)})
        ev.to_mesh_clear()
    bones = [{"name": pb.name, "head": rounded((TO_FILE @ arm.matrix_world @ pb.matrix).translation)}
             for pb in arm.pose.bones]
    return out_meshes, bones


result = {"file": os.path.basename(path), "generator": "Blender " + bpy.app.version_string,
          "frame": "fbx-file-y-up", "unit": "metre", "fps": fps, "poses": []}
if arm.animation_data is None:
    arm.animation_data_create()
dae_action = arm.animation_data.action
arm.animation_data.action = None
arm.data.pose_position = "REST"
scene.frame_set(frames[0])
m, b = sample()
result["poses"].append({"bind": True, "meshes": m, "bones": b})
arm.data.pose_position = "POSE"
# FBX: the importer names each action "<object>|<stack>"; the clip is the FBX stack.
clips = [(clip_name, dae_action)] if dae else [(a.name.split("|", 1)[1], a) for a in sorted(bpy.data.actions, key=lambda a: a.name)
                                               if a.name.startswith(arm.name + "|")]
for clip, action in clips:
    if action is None:
        continue
    arm.animation_data.action = action
    last = int(action.frame_range[1])
    for f in frames:
        if f > last:
            continue
        scene.frame_set(f)
        m, b = sample()
        result["poses"].append({"clip": clip, "frame": f, "time": (f - anim_offset) / fps, "meshes": m, "bones": b})
with open(out, "w") as fh:
    json.dump(result, fh, separators=(",", ":"))
print("wrote", out, len(result["poses"]), "poses")
