# Writes tests/data/blender/six_influences.fbx: a skinned tube on a chain of eight bones
# ("b0" ... "b7") whose every vertex is weighted to the six bones nearest it (weights falling
# off smoothly with the distance along the tube, summing to 1), animated by one clip that
# bends the chain about two axes, exported with Blender's default FBX settings (which keep
# every weight). rigview keeps 4 influences by default and up to 8 with --influences 8; the
# reference of Blender's own import is made by tools/blender/morph_fbx_reference.py.
# Run with Blender 3.4:
#   blender -b --factory-startup --python tools/blender/make_influences_fbx.py -- OUT.fbx
import math
import os
import sys

import bpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scene_parts  # noqa: E402

out = scene_parts.output_path()
scene = scene_parts.empty_scene(fps=24, frame_start=1, frame_end=40)

BONES, BONE_LENGTH, KEPT = 8, 0.5, 6
rings, sides, radius = 17, 8, 0.25
height = BONES * BONE_LENGTH
verts, faces = [], []
for r in range(rings):
    z = height * r / (rings - 1)
    for k in range(sides):
        a = 2 * math.pi * (k + 0.5 * (r % 2)) / sides
        verts.append((radius * math.cos(a), radius * math.sin(a), z))
for r in range(rings - 1):
    for k in range(sides):
        a, b = r * sides + k, r * sides + (k + 1) % sides
        faces.append((a, b, b + sides, a + sides))
tube = scene_parts.mesh_object(scene, "Tube", verts, faces)

rig = scene_parts.bone_chain(scene, [f"b{b}" for b in range(BONES)], BONE_LENGTH, connect=True)

groups = [tube.vertex_groups.new(name=f"b{b}") for b in range(BONES)]
for i, (x, y, z) in enumerate(verts):
    # The six bones whose centres are nearest, weighted by a wide falloff (plus a little
    # variation around the tube so that no two influences tie).
    angle = math.atan2(y, x)
    dist = sorted(((abs(z - (b + 0.5) * BONE_LENGTH), b) for b in range(BONES)))[:KEPT]
    raw = [(math.exp(-(d / (1.6 * BONE_LENGTH)) ** 2) * (1.0 + 0.05 * math.sin(angle + b)), b) for d, b in dist]
    total = sum(w for w, _ in raw)
    for w, b in raw:
        groups[b].add([i], w / total, "REPLACE")
scene_parts.bind(tube, rig)

keys = (1, 10, 20, 30, 40)
for b in range(BONES):
    pb = rig.pose.bones[f"b{b}"]
    pb.rotation_mode = "XYZ"
    for n, frame in enumerate(keys):
        phase = n + 0.7 * b
        pb.rotation_euler = (0.35 * math.sin(phase), 0.1 * math.cos(1.3 * phase), 0.3 * math.cos(phase))
        pb.keyframe_insert("rotation_euler", frame=frame)

bpy.ops.export_scene.fbx(filepath=out)
print("wrote", out)
