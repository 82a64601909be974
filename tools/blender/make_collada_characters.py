# Writes two COLLADA characters for rigview's COLLADA tests (tests/collada_test.cpp), with
# Blender's COLLADA exporter (Z_UP, as Blender writes every file):
#   OUTDIR/bind_shape.dae   a skinned character whose mesh object sits rotated, scaled by 0.6
#                           and moved against its armature when bound: the skin's
#                           bind_shape_matrix carries that, and the mesh's node (identity) does
#                           not. The skinned vertices stand where the bones are.
#                           One clip (25 frames, 24 fps: the spine bends, the arms swing).
#   OUTDIR/skin_morph.dae   the same character with two shape keys ("Smile", "Puff") animated in
#                           the clip. Blender writes a skin controller over the geometry and a
#                           morph controller beside it; the script points the skin at the morph
#                           controller (skin -> morph -> geometry, as Maya writes a skinned
#                           character with blend shapes).
# Run with Blender 3.4:
#   blender -b --factory-startup --python tools/blender/make_collada_characters.py -- OUTDIR
import math
import os
import sys

import bpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scene_parts  # noqa: E402

outdir = os.path.abspath(scene_parts.output_path())
os.makedirs(outdir, exist_ok=True)


def character(with_shapes):
    scene = scene_parts.empty_scene(fps=24, frame_start=1, frame_end=25)
    # A torso column with two arms, around bones hip -> spine -> head and arm.L / arm.R.
    verts, faces, owner = [], [], []

    def tube(p0, p1, radius, rings, bones):
        import mathutils
        a, b = mathutils.Vector(p0), mathutils.Vector(p1)
        axis = (b - a).normalized()
        side = axis.orthogonal().normalized()
        up = axis.cross(side)
        base = len(verts)
        for r in range(rings):
            f = r / (rings - 1)
            c = a.lerp(b, f)
            for k in range(6):
                ang = 2 * math.pi * k / 6
                verts.append(tuple(c + radius * (math.cos(ang) * side + math.sin(ang) * up)))
                owner.append(bones(f))
        for r in range(rings - 1):
            for k in range(6):
                i, j = base + 6 * r + k, base + 6 * r + (k + 1) % 6
                faces.append((i, j, j + 6, i + 6))

    tube((0, 0, 0), (0, 0, 1.6), 0.2, 9, lambda f: [("hip", 1 - min(f * 2, 1)), ("spine", min(f * 2, 1))] if f < 0.7
         else [("spine", max(0.0, 1 - (f - 0.7) * 5)), ("head", min(1.0, (f - 0.7) * 5))])
    tube((0.2, 0, 1.3), (0.9, 0, 1.3), 0.07, 5, lambda f: [("arm.L", 1.0)])
    tube((-0.2, 0, 1.3), (-0.9, 0, 1.3), 0.07, 5, lambda f: [("arm.R", 1.0)])
    body = scene_parts.mesh_object(scene, "Body", verts, faces)
    rig = scene_parts.rig_from_bones(scene, [
        ("hip", (0, 0, 0), (0, 0, 0.5), None),
        ("spine", (0, 0, 0.5), (0, 0, 1.2), "hip"),
        ("head", (0, 0, 1.2), (0, 0, 1.6), "spine"),
        ("arm.L", (0.2, 0, 1.3), (0.9, 0, 1.3), "spine"),
        ("arm.R", (-0.2, 0, 1.3), (-0.9, 0, 1.3), "spine"),
    ])
    groups = {}
    for v, ws in enumerate(owner):
        for name, w in ws:
            if w <= 0:
                continue
            if name not in groups:
                groups[name] = body.vertex_groups.new(name=name)
            groups[name].add([v], w, "REPLACE")
    # The mesh object is rotated, scaled and moved against the armature (applied to nothing: the
    # exporter writes it as the skin's bind_shape_matrix), its vertices moved back so that the
    # mesh sits on the bones.
    body.location = (0.3, 0.2, -0.4)
    body.rotation_euler = (math.radians(10), math.radians(-20), math.radians(35))
    body.scale = (0.6, 0.6, 0.6)
    # The mesh's vertices are where the armature's bones are once the object transform is applied.
    inv = body.matrix_basis.inverted()
    for v in body.data.vertices:
        v.co = inv @ v.co
    bpy.context.view_layer.update()
    body.parent = rig
    mod = body.modifiers.new("Armature", "ARMATURE")
    mod.object = rig

    if with_shapes:
        body.shape_key_add(name="Basis")
        for name, (dx, dy) in (("Smile", (0.15, 0.0)), ("Puff", (0.0, 0.12))):
            key = body.shape_key_add(name=name)
            for i, v in enumerate(body.data.vertices):
                x, y, z = verts[i]
                if z > 1.2 and abs(x) < 0.25:
                    key.data[i].co = v.co + inv.to_3x3() @ __import__("mathutils").Vector((dx * x, dy * (1 if y > 0 else -1), 0))
        for frame, (s, p) in ((1, (0, 0)), (13, (1, 0.5)), (25, (0, 1))):
            body.data.shape_keys.key_blocks["Smile"].value = s
            body.data.shape_keys.key_blocks["Puff"].value = p
            body.data.shape_keys.key_blocks["Smile"].keyframe_insert("value", frame=frame)
            body.data.shape_keys.key_blocks["Puff"].keyframe_insert("value", frame=frame)

    for frame in (1, 7, 13, 19, 25):
        ph = 2 * math.pi * (frame - 1) / 24
        for bone, rot in (("spine", (0.3 * math.sin(ph), 0.2 * math.cos(ph), 0)),
                          ("head", (0, 0, 0.5 * math.sin(ph))),
                          ("arm.L", (0, 0.6 * math.sin(ph), 0.3)),
                          ("arm.R", (0, -0.6 * math.sin(ph), -0.3))):
            pb = rig.pose.bones[bone]
            pb.rotation_mode = "XYZ"
            pb.rotation_euler = rot
            pb.keyframe_insert("rotation_euler", frame=frame)
    rig.animation_data.action.name = "Wave"
    return scene


for name, shapes in (("bind_shape", False), ("skin_morph", True)):
    character(shapes)
    path = os.path.join(outdir, name + ".dae")
    bpy.ops.wm.collada_export(filepath=path, include_shapekeys=shapes, include_animations=True, sampling_rate=1,
                              keep_bind_info=False)
    if shapes:
        with open(path) as f:
            text = f.read()
        assert text.count('<skin source="#Body-mesh">') == 1 and '<morph source="#Body-mesh"' in text
        with open(path, "w") as f:
            f.write(text.replace('<skin source="#Body-mesh">', '<skin source="#Body-morph">'))
    print("wrote", path)
