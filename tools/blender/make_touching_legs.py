# Writes OUT.fbx: a character whose two legs touch, for rigview's vertex-join tests
# (tests/vertex_join_test.cpp). Two flat-shaded leg boxes side by side meet at x = 0 under a
# pelvis box; each leg is weighted 1.0 to its own bone ("leg.L", "leg.R"), the pelvis to "hips",
# one weight per vertex, as a Minetest character's are. The legs' UVs are mirrored, so the corners
# where the legs' front (and back) faces meet have the same position, normal and UV and differ
# only in their bone: a join that does not compare bones makes one vertex of them, weighted half to
# each leg. One clip "Walk" (25 frames, 24 fps) swings the legs apart and back.
# Exported by Blender's FBX exporter with its default settings. Run with Blender 3.4:
#   blender -b --factory-startup --python tools/blender/make_touching_legs.py -- OUT.fbx
import math
import os
import sys

import bpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scene_parts  # noqa: E402

out = os.path.abspath(scene_parts.output_path())
scene = scene_parts.empty_scene(fps=24, frame_start=1, frame_end=25)

W, D = 0.2, 0.2          # a leg's width (x) and depth (y)
LEG, PELVIS = 0.9, 0.25  # heights
verts, faces, owner = [], [], []


def box(x0, x1, z0, z1, bone, rings):
    """A box from x0 to x1, -D/2 to D/2 in y, z0 to z1, with `rings` rings of 4 (quads around,
    caps at both ends), every vertex weighted to `bone`."""
    base = len(verts)
    for r in range(rings):
        z = z0 + (z1 - z0) * r / (rings - 1)
        for x, y in ((x0, -D / 2), (x1, -D / 2), (x1, D / 2), (x0, D / 2)):
            verts.append((x, y, z))
            owner.append(bone)
    for r in range(rings - 1):
        for k in range(4):
            a, b = base + 4 * r + k, base + 4 * r + (k + 1) % 4
            faces.append((a, b, b + 4, a + 4))
    faces.append((base + 3, base + 2, base + 1, base))
    top = base + 4 * (rings - 1)
    faces.append((top, top + 1, top + 2, top + 3))


box(0.0, W, 0.0, LEG, "leg.L", 4)
box(-W, 0.0, 0.0, LEG, "leg.R", 4)
box(-W, W, LEG, LEG + PELVIS, "hips", 2)
body = scene_parts.mesh_object(scene, "Body", verts, faces)
for poly in body.data.polygons:
    poly.use_smooth = False

# Mirrored UVs: the legs' front and back faces meet at x = 0 with the same u.
uv = body.data.uv_layers.new(name="UVMap")
for poly in body.data.polygons:
    n = poly.normal
    for li in poly.loop_indices:
        x, y, z = verts[body.data.loops[li].vertex_index]
        if abs(n.y) > 0.5:
            uv.data[li].uv = (0.5 - abs(x), z / (LEG + PELVIS))
        elif abs(n.x) > 0.5:
            uv.data[li].uv = (0.5 + y, z / (LEG + PELVIS))
        else:
            uv.data[li].uv = (abs(x), 0.5 + y)

rig = scene_parts.rig_from_bones(scene, [
    ("hips", (0, 0, LEG), (0, 0, LEG + PELVIS), None),
    ("leg.L", (W / 2, 0, LEG), (W / 2, 0, 0), "hips"),
    ("leg.R", (-W / 2, 0, LEG), (-W / 2, 0, 0), "hips"),
])
groups = {name: body.vertex_groups.new(name=name) for name in ("hips", "leg.L", "leg.R")}
for v, bone in enumerate(owner):
    groups[bone].add([v], 1.0, "REPLACE")
scene_parts.bind(body, rig)

for frame in (1, 7, 13, 19, 25):
    swing = 35 * math.sin(2 * math.pi * (frame - 1) / 24)
    for bone, sign in (("leg.L", 1), ("leg.R", -1)):
        pb = rig.pose.bones[bone]
        pb.rotation_mode = "XYZ"
        pb.rotation_euler = (math.radians(sign * swing), 0.0, math.radians(4 * sign))
        pb.keyframe_insert("rotation_euler", frame=frame)
rig.animation_data.action.name = "Walk"

bpy.ops.export_scene.fbx(filepath=out)
print("wrote", out)
