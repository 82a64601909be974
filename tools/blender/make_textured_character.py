# Writes tests/data/character/textured_character.gltf (+ .bin + five PNGs): a small skinned,
# textured, normal-mapped character for the render-parity tests of issue 27
# (docs/reference-renders.md). A body of revolution (legs, torso, neck, head) and two arms,
# smooth shaded, one material with every glTF texture slot made here (no downloaded image):
#   base colour   128x128 sRGB: cloth bands, a diamond weave, a skin-toned head
#   normal map    128x128: horizontal ribs on the torso, round studs on the belt (tangents exported)
#   metallic-roughness 64x64: roughness (G) per band, metallic (B) on the belt
#   occlusion      64x64 (R): darker in the neck and armpits, under the belt
#   emissive       64x64 sRGB: glowing dots on the belt, emission strength 3
#                  (KHR_materials_emissive_strength)
# Five bones (hip, spine, head, arm.L, arm.R) and one clip "Wave" of 1 s (25 frames at 24 fps):
# the spine bends and twists, the head turns, the arms wave. Exported by Blender's glTF exporter
# as separate files (.gltf + .bin + PNGs) with tangents. Run with Blender 3.4:
#   blender -b --factory-startup --python tools/blender/make_textured_character.py -- OUT.gltf
import math
import os
import sys
import tempfile

import bpy
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scene_parts  # noqa: E402

out = os.path.abspath(scene_parts.output_path())
scene = scene_parts.empty_scene(fps=24, frame_start=1, frame_end=25)

# ---- geometry (Blender's Z-up frame; the exporter writes glTF's Y-up) -----------------------
SIDES = 24
# (height, radius) of the body's rings, bottom to top.
PROFILE = [(0.0, 0.03), (0.02, 0.17), (0.3, 0.2), (0.6, 0.25), (0.8, 0.27), (1.0, 0.3), (1.2, 0.31),
           (1.32, 0.25), (1.4, 0.12), (1.47, 0.12), (1.55, 0.2), (1.68, 0.23), (1.8, 0.21), (1.9, 0.14),
           (1.96, 0.03)]
BODY_V = (0.0, 0.75)        # the body's V range in the textures; the arms take the rest
SHOULDER_Z, SHOULDER_X, HAND_X = 1.22, 0.22, 0.95
ARM_SIDES, ARM_RINGS = 12, 8

verts, faces, face_uvs = [], [], []
top = PROFILE[-1][0]
for z, r in PROFILE:
    for k in range(SIDES):
        a = 2 * math.pi * k / SIDES
        verts.append((r * math.sin(a), -r * math.cos(a), z))   # k = 0 faces -Y (glTF's +Z)
for i in range(len(PROFILE) - 1):
    v0 = BODY_V[0] + (BODY_V[1] - BODY_V[0]) * PROFILE[i][0] / top
    v1 = BODY_V[0] + (BODY_V[1] - BODY_V[0]) * PROFILE[i + 1][0] / top
    for k in range(SIDES):
        a, b = i * SIDES + k, i * SIDES + (k + 1) % SIDES
        faces.append((a, b, b + SIDES, a + SIDES))
        u0, u1 = k / SIDES, (k + 1) / SIDES
        face_uvs.append(((u0, v0), (u1, v0), (u1, v1), (u0, v1)))


def arm(side):
    """A tube along side * +X from inside the shoulder to the hand, tapering, closed at the hand."""
    base = len(verts)
    for j in range(ARM_RINGS):
        t = j / (ARM_RINGS - 1)
        x = side * (SHOULDER_X + (HAND_X - SHOULDER_X) * t)
        r = 0.085 - 0.025 * t if j < ARM_RINGS - 1 else 0.02
        if j == ARM_RINGS - 2:
            x = side * (HAND_X - 0.03)
        for k in range(ARM_SIDES):
            a = 2 * math.pi * k / ARM_SIDES
            verts.append((x, r * math.cos(a) * side, SHOULDER_Z + r * math.sin(a)))
    for j in range(ARM_RINGS - 1):
        v0 = 0.78 + 0.2 * j / (ARM_RINGS - 1)
        v1 = 0.78 + 0.2 * (j + 1) / (ARM_RINGS - 1)
        for k in range(ARM_SIDES):
            a, b = base + j * ARM_SIDES + k, base + j * ARM_SIDES + (k + 1) % ARM_SIDES
            # Faces wound so that their normals point out of the tube on both sides.
            faces.append((a, b, b + ARM_SIDES, a + ARM_SIDES) if side > 0 else (a, a + ARM_SIDES, b + ARM_SIDES, b))
            u0, u1 = (0.5 + 0.5 * k / ARM_SIDES), (0.5 + 0.5 * (k + 1) / ARM_SIDES)
            uvs = ((u0, v0), (u1, v0), (u1, v1), (u0, v1))
            face_uvs.append(uvs if side > 0 else (uvs[0], uvs[3], uvs[2], uvs[1]))


arm(+1)
arm(-1)
body = scene_parts.mesh_object(scene, "Character", verts, faces)
mesh = body.data
for poly in mesh.polygons:
    poly.use_smooth = True
uv = mesh.uv_layers.new(name="UVMap")
for poly, uvs in zip(mesh.polygons, face_uvs):
    for loop_index, st in zip(poly.loop_indices, uvs):
        uv.data[loop_index].uv = st

# ---- rig and weights --------------------------------------------------------------------------
rig = scene_parts.rig_from_bones(scene, [
    ("hip", (0, 0, 0.0), (0, 0, 0.75), None),
    ("spine", (0, 0, 0.75), (0, 0, 1.36), "hip"),
    ("head", (0, 0, 1.4), (0, 0, 1.95), "spine"),
    ("arm.L", (SHOULDER_X, 0, SHOULDER_Z), (HAND_X, 0, SHOULDER_Z), "spine"),
    ("arm.R", (-SHOULDER_X, 0, SHOULDER_Z), (-HAND_X, 0, SHOULDER_Z), "spine"),
])


def smooth(e0, e1, x):
    s = min(max((x - e0) / (e1 - e0), 0.0), 1.0)
    return s * s * (3 - 2 * s)


groups = {name: body.vertex_groups.new(name=name) for name in ("hip", "spine", "head", "arm.L", "arm.R")}
n_body = len(PROFILE) * SIDES
for n, (x, y, z) in enumerate(verts):
    if n < n_body:
        up, head = smooth(0.55, 0.95, z), smooth(1.34, 1.5, z)
        weights = {"hip": 1 - up, "spine": up * (1 - head), "head": head}
    else:
        along = smooth(SHOULDER_X + 0.05, SHOULDER_X + 0.25, abs(x))
        weights = {"spine": 1 - along, ("arm.L" if x > 0 else "arm.R"): along}
    for name, w in weights.items():
        if w > 1e-4:
            groups[name].add([n], w, "REPLACE")
scene_parts.bind(body, rig)

# ---- the clip ---------------------------------------------------------------------------------
FRAMES = (1, 7, 13, 19, 25)
for name, curve in (
        ("spine", lambda p: (0.25 * math.sin(p), 0.3 * math.sin(p + 0.6), 0.15 * math.cos(p))),
        ("head", lambda p: (0.2 * math.cos(p), 0.6 * math.sin(p + 1.0), 0.0)),
        ("arm.L", lambda p: (0.0, 0.4 * math.sin(p), 0.5 + 0.6 * math.sin(p + 0.4))),
        ("arm.R", lambda p: (0.0, -0.3 * math.sin(p), -0.4 - 0.5 * math.cos(p)))):
    pb = rig.pose.bones[name]
    pb.rotation_mode = "XYZ"
    for frame in FRAMES:
        pb.rotation_euler = curve(2 * math.pi * (frame - 1) / (FRAMES[-1] - 1))
        pb.keyframe_insert("rotation_euler", frame=frame)
rig.animation_data.action.name = "Wave"

# ---- textures (float arrays, row 0 at the top, V = 0 at the top as in glTF) ------------------
N = 128
yy, xx = np.mgrid[0:N, 0:N].astype(np.float64) + 0.5
U, V = xx / N, 1.0 - yy / N                     # Blender's UV (V up) of each texel


def body_band(v_img):
    """0 legs, 1 belt, 2 torso, 3 neck and head, 4 arms: by the texel's height on the body."""
    zf = (v_img - BODY_V[0]) / (BODY_V[1] - BODY_V[0]) * top
    return np.select([v_img >= 0.76, zf >= 1.36, zf >= 0.82, zf >= 0.62], [4, 3, 2, 1], 0)


band = body_band(V)
weave = 0.5 + 0.5 * np.sign(np.sin(2 * np.pi * 12 * U) * np.sin(2 * np.pi * 12 * V))
palette = np.array([[0.16, 0.22, 0.45], [0.55, 0.45, 0.3], [0.75, 0.22, 0.12], [0.85, 0.62, 0.48], [0.2, 0.5, 0.3]])
base = palette[band] * (0.85 + 0.15 * weave[..., None])
# The face: two dark eyes on the front (U near 0 and 1 wrap at the front: k = 0 faces forward).
zf = (V - BODY_V[0]) / (BODY_V[1] - BODY_V[0]) * top
for eye_u in (0.045, 0.955):
    d = np.hypot((U - eye_u) * 6.0, zf - 1.72)
    base[d < 0.045] = (0.05, 0.05, 0.08)

# Height field for the normal map: ribs on the torso, studs on the belt.
ribs = np.where(band == 2, 0.5 + 0.5 * np.cos(2 * np.pi * 10 * V / (BODY_V[1] - BODY_V[0])), 0.0)
su, sv = (U * 16) % 1.0 - 0.5, (zf * 16) % 1.0 - 0.5
studs = np.where(band == 1, np.sqrt(np.clip(1 - (su * su + sv * sv) / 0.12, 0, 1)), 0.0)
height = 0.6 * ribs + 0.8 * studs
gx = np.gradient(height, axis=1) * N / 16
gy = np.gradient(height, axis=0) * N / 16       # down the rows (-V)
nrm = np.stack([-gx, gy, np.ones_like(height)], axis=-1)
nrm /= np.linalg.norm(nrm, axis=-1, keepdims=True)
normal_img = nrm * 0.5 + 0.5


def down(a):
    """128 -> 64 by 2x2 means."""
    return a.reshape(64, 2, 64, 2, -1).mean(axis=(1, 3))


rough = np.choose(band, [0.75, 0.3, 0.55, 0.45, 0.65]) + 0.1 * (weave - 0.5)
metal = np.where(band == 1, 1.0, 0.0)
mr_img = down(np.stack([np.zeros_like(rough), rough, metal], axis=-1))
neck = np.exp(-((zf - 1.4) / 0.06) ** 2)
belt_below = np.exp(-((zf - 0.6) / 0.05) ** 2)
pit = np.where(band == 4, np.exp(-((V - 0.78) / 0.03) ** 2), 0.0)
ao = np.clip(1.0 - 0.55 * neck - 0.35 * belt_below - 0.5 * pit, 0, 1)
ao_img = down(np.repeat(ao[..., None], 3, axis=-1))
dots = np.where(band == 1, (0.5 - 0.5 * np.cos(2 * np.pi * 8 * U)) ** 4, 0.0)
emissive_img = down(np.stack([dots, 0.8 * dots, 0.2 * dots], axis=-1))

tmp = tempfile.mkdtemp(prefix="rigview-character-")
images = {
    "character_base": scene_parts.image_from_array("character_base", base, tmp, True),
    "character_normal": scene_parts.image_from_array("character_normal", normal_img, tmp, False),
    "character_mr": scene_parts.image_from_array("character_mr", mr_img, tmp, False),
    "character_ao": scene_parts.image_from_array("character_ao", ao_img, tmp, False),
    "character_emissive": scene_parts.image_from_array("character_emissive", emissive_img, tmp, True),
}

# ---- the material -----------------------------------------------------------------------------
mat = bpy.data.materials.new("Suit")
mat.use_nodes = True
nodes, links = mat.node_tree.nodes, mat.node_tree.links
bsdf = nodes["Principled BSDF"]


def tex(name):
    node = nodes.new("ShaderNodeTexImage")
    node.image = images[name]
    node.interpolation = "Linear"
    return node


links.new(tex("character_base").outputs["Color"], bsdf.inputs["Base Color"])
normal_map = nodes.new("ShaderNodeNormalMap")
normal_map.uv_map = "UVMap"
links.new(tex("character_normal").outputs["Color"], normal_map.inputs["Color"])
links.new(normal_map.outputs["Normal"], bsdf.inputs["Normal"])
split = nodes.new("ShaderNodeSeparateColor")
links.new(tex("character_mr").outputs["Color"], split.inputs["Color"])
links.new(split.outputs["Green"], bsdf.inputs["Roughness"])
links.new(split.outputs["Blue"], bsdf.inputs["Metallic"])
links.new(tex("character_emissive").outputs["Color"], bsdf.inputs["Emission"])
bsdf.inputs["Emission Strength"].default_value = 3.0
# Occlusion: the exporter reads it from a node group named "glTF Material Output".
group = bpy.data.node_groups.new("glTF Material Output", "ShaderNodeTree")
group.inputs.new("NodeSocketFloat", "Occlusion")
settings = nodes.new("ShaderNodeGroup")
settings.node_tree = group
split_ao = nodes.new("ShaderNodeSeparateColor")
links.new(tex("character_ao").outputs["Color"], split_ao.inputs["Color"])
links.new(split_ao.outputs["Red"], settings.inputs["Occlusion"])
mat.use_backface_culling = True        # single-sided (glTF doubleSided false)
mesh.materials.append(mat)

scene.frame_set(1)
bpy.ops.export_scene.gltf(filepath=out, export_format="GLTF_SEPARATE", export_tangents=True,
                          export_image_format="AUTO", export_texture_dir="", export_animations=True,
                          export_skins=True, export_yup=True)
for name in images:
    os.remove(f"{tmp}/{name}.png")
os.rmdir(tmp)
print("wrote", out)
