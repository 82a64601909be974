# Writes tests/data/morph/morph_seam.gltf: a skinned, subdivided plate (two bones, "hip" and
# "spine") with a mouth-like slit whose inner vertices are doubled: above and below the slit
# sit two vertices with the same position, normal, UV and weights, which the shape keys move
# apart ("Open" opens the slit, "Smirk" shifts only its upper lip). The shape-key values and
# the spine's rotation are animated in one clip ("Talk"), exported as glTF (embedded buffer)
# with Blender's default glTF settings. Run with Blender 3.4:
#   blender -b --factory-startup --python tools/blender/make_morph_seam_gltf.py -- OUT.gltf
import math
import os
import sys

import bpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scene_parts  # noqa: E402

out = scene_parts.output_path()
scene = scene_parts.empty_scene(fps=24, frame_start=1, frame_end=40)

# The plate: x in [-0.5, 0.5], z in [0, 2], in the XZ plane (every normal is -Y).
nx, nz, width, height = 12, 16, 1.0, 2.0
slit_row, slit_from, slit_to = 10, 3, 9  # the slit runs along row 10 between columns 3 and 9


def grid_index(i, k):
    return k * (nx + 1) + i


verts, side = [], []
for k in range(nz + 1):
    for i in range(nx + 1):
        x, z = -width / 2 + width * i / nx, height * k / nz
        verts.append((x, 0.0, z))
        side.append(0 if k == slit_row else (1 if k > slit_row else -1))
# The slit's inner vertices get a twin for the lower lip (the upper lip keeps the original).
twin = {}
for i in range(slit_from + 1, slit_to):
    twin[i] = len(verts)
    verts.append(verts[grid_index(i, slit_row)])
    side.append(-1)
for i in range(slit_from + 1, slit_to):
    side[grid_index(i, slit_row)] = 1

faces = []
for k in range(nz):
    for i in range(nx):
        quad = [grid_index(i, k), grid_index(i + 1, k), grid_index(i + 1, k + 1), grid_index(i, k + 1)]
        if k + 1 == slit_row:  # below the slit: the lower lip's twins
            quad = [twin.get(i + 1, quad[2]) if n == 2 else twin.get(i, quad[3]) if n == 3 else v
                    for n, v in enumerate(quad)]
        faces.append(quad)

mesh = bpy.data.meshes.new("Face")
mesh.from_pydata(verts, [], faces)
mesh.update()
for poly in mesh.polygons:
    poly.use_smooth = True
# UVs from the position: twins share their UV.
uv = mesh.uv_layers.new(name="UVMap")
for loop in mesh.loops:
    x, _, z = verts[loop.vertex_index]
    uv.data[loop.index].uv = (x / width + 0.5, z / height)
body = bpy.data.objects.new("Face", mesh)
scene.collection.objects.link(body)

rig = scene_parts.bone_chain(scene, ["hip", "spine"], 1.0)

# Weights from the position alone, so twins weigh alike.
scene_parts.hip_spine_weights(body, verts)
scene_parts.bind(body, rig)

z_slit = height * slit_row / nz
x_from, x_to = -width / 2 + width * slit_from / nx, -width / 2 + width * slit_to / nx


def lip(x, z):
    """1 on the slit's middle, falling to 0 at its ends and 0.4 away from it."""
    across = min(max((x - x_from) / (x_to - x_from), 0.0), 1.0)
    return math.sin(math.pi * across) * max(0.0, 1.0 - abs(z - z_slit) / 0.4)


body.shape_key_add(name="Basis")
open_key = body.shape_key_add(name="Open")
smirk = body.shape_key_add(name="Smirk")
for n, (x, y, z) in enumerate(verts):
    f = lip(x, z)
    open_key.data[n].co = (x, y - 0.05 * f, z + 0.12 * side[n] * f)
    up = 1.0 if side[n] > 0 else 0.0
    smirk.data[n].co = (x + 0.08 * up * f, y + 0.03 * math.sin(math.pi * z / height), z + 0.04 * up * f * x)

for frame, o_val, s_val in ((1, 0.0, 0.0), (12, 1.0, 0.2), (24, 0.4, 1.0), (40, 0.8, 0.5)):
    open_key.value, smirk.value = o_val, s_val
    open_key.keyframe_insert("value", frame=frame)
    smirk.keyframe_insert("value", frame=frame)
pb = rig.pose.bones["spine"]
pb.rotation_mode = "XYZ"
for frame, angle in ((1, 0.0), (20, 0.5), (40, -0.3)):
    pb.rotation_euler = (angle * 0.3, angle, 0.0)
    pb.keyframe_insert("rotation_euler", frame=frame)
open_key.value, smirk.value = 0.0, 0.0

# One clip: both actions on NLA tracks of the same name.
for owner in (rig, mesh.shape_keys):
    action = owner.animation_data.action
    track = owner.animation_data.nla_tracks.new()
    track.name = "Talk"
    track.strips.new("Talk", 1, action)
    owner.animation_data.action = None

bpy.ops.export_scene.gltf(filepath=out, export_format="GLTF_EMBEDDED")
print("wrote", out)
