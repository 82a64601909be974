# Writes tests/data/morph/blender_shape_keys.fbx: a skinned tube (two bones, "hip" and
# "spine") with two shape keys ("Smile", "Lean") whose values are animated together with the
# spine's rotation, exported with Blender's default FBX settings. Run with Blender 3.4:
#   blender -b --factory-startup --python tools/blender/make_morph_fbx.py -- OUT.fbx
import math
import sys

import bpy

out = sys.argv[sys.argv.index("--") + 1]

bpy.ops.wm.read_factory_settings(use_empty=True)
scene = bpy.context.scene
scene.render.fps = 24
scene.frame_start = 1
scene.frame_end = 40

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
mesh = bpy.data.meshes.new("Body")
mesh.from_pydata(verts, [], faces)
mesh.update()
body = bpy.data.objects.new("Body", mesh)
scene.collection.objects.link(body)

arm_data = bpy.data.armatures.new("Rig")
rig = bpy.data.objects.new("Rig", arm_data)
scene.collection.objects.link(rig)
bpy.context.view_layer.objects.active = rig
bpy.ops.object.mode_set(mode="EDIT")
hip = arm_data.edit_bones.new("hip")
hip.head, hip.tail = (0, 0, 0), (0, 0, 1)
spine = arm_data.edit_bones.new("spine")
spine.head, spine.tail = (0, 0, 1), (0, 0, 2)
spine.parent = hip
bpy.ops.object.mode_set(mode="OBJECT")

g_hip = body.vertex_groups.new(name="hip")
g_spine = body.vertex_groups.new(name="spine")
for i, (x, y, z) in enumerate(verts):
    s = min(max((z - 0.5) / 1.0, 0.0), 1.0)
    s = s * s * (3 - 2 * s)
    if s < 1.0:
        g_hip.add([i], 1.0 - s, "REPLACE")
    if s > 0.0:
        g_spine.add([i], s, "REPLACE")
body.parent = rig
mod = body.modifiers.new("Armature", "ARMATURE")
mod.object = rig

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
