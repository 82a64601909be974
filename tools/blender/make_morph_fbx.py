# Writes tests/data/morph/blender_shape_keys.fbx: a skinned tube (two bones, "hip" and
# "spine") with two shape keys ("Smile", "Lean") whose values are animated together with the
# spine's rotation, exported with Blender's default FBX settings. Run with Blender 3.4:
#   blender -b --factory-startup --python tools/blender/make_morph_fbx.py -- OUT.fbx
import math
import os
import sys

import bpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scene_parts  # noqa: E402

out = scene_parts.output_path()
scene = scene_parts.empty_scene(fps=24, frame_start=1, frame_end=40)

rings, sides, height, radius = 5, 8, 2.0, 0.3
verts, faces = [], []
for r in range(rings):
    z = height * r / (rings - 1)
    for k in range(sides):
        a = 2 * math.pi * k / sides
        verts.append((radius * math.cos(a), radius * math.sin(a), z))
for r in range(rings - 1):
    for k in range(sides):
        a, b = r * sides + k, r * sides + (k + 1) % sides
        faces.append((a, b, b + sides, a + sides))
body = scene_parts.mesh_object(scene, "Body", verts, faces)

rig = scene_parts.bone_chain(scene, ["hip", "spine"], 1.0)

scene_parts.hip_spine_weights(body, verts)
scene_parts.bind(body, rig)

body.shape_key_add(name="Basis")
smile = body.shape_key_add(name="Smile")
lean = body.shape_key_add(name="Lean")
for i, (x, y, z) in enumerate(verts):
    bulge = 0.15 * math.sin(math.pi * z / height)
    smile.data[i].co = (x * (1 + bulge / radius), y * (1 + bulge / radius), z)
    lean.data[i].co = (x + 0.25 * z / height, y, z + 0.05 * z)

for frame, s_val, l_val in ((1, 0.0, 0.5), (20, 1.0, 0.0), (40, 0.3, 1.0)):
    smile.value, lean.value = s_val, l_val
    smile.keyframe_insert("value", frame=frame)
    lean.keyframe_insert("value", frame=frame)
pb = rig.pose.bones["spine"]
pb.rotation_mode = "XYZ"
for frame, angle in ((1, 0.0), (20, 0.6), (40, -0.3)):
    pb.rotation_euler = (0.0, angle, 0.0)
    pb.keyframe_insert("rotation_euler", frame=frame)
smile.value, lean.value = 0.0, 0.0

bpy.ops.export_scene.fbx(filepath=out)
print("wrote", out)
