# A real FBX (tests/data/blender/blender_demo.fbx.gz, Blender's FBX export of the demo) and
# Blender's glTF export of it, for `rigview diff` across formats (tests/diff_test.cpp): Blender
# 3.4 imports the FBX and exports a .glb of it with the character placed elsewhere (turned
# 90 degrees about the up axis and moved 2 m, 1 m), so the two files differ in format, units
# (the FBX is in centimetres) and placement while the character and its motion are the same;
# and a second .glb with one joint moved, a real change.
#
# What the export keeps as the FBX has it (Blender's defaults would change it, see
# fbx_to_gltf.py for that pair): the key times (the FBX import's "Animation Offset" off: by
# default it starts every clip one frame later), the clip names (the FBX's animation stacks:
# Blender's import prefixes them with the object's name) and the materials as rigview and
# three.js draw the FBX's Phong materials: the diffuse colour as a display (sRGB) value, the
# roughness from the shininess by rigview's rule (import/assimp/material_import.cpp), one-sided.
#
#   blender -b --factory-startup --python tools/blender/fbx_to_gltf_placed.py -- OUTDIR/blender_demo_placed.glb.gz
#
# writes OUTDIR/blender_demo_placed.glb.gz and OUTDIR/blender_demo_placed_hand_moved.glb.gz
# (hand.L's rest position 2 cm higher), gzip'd without a time stamp: the same bytes every run
# (tests/blender_data.py checks the committed tests/data/fbx_gltf against this script).
import gzip
import math
import os
import shutil
import sys
import tempfile

import bpy
import mathutils

args = sys.argv[sys.argv.index("--") + 1:]
if len(args) != 1 or not args[0].endswith(".glb.gz"):
    print("usage: blender -b --python fbx_to_gltf_placed.py -- OUTDIR/NAME.glb.gz")
    sys.exit(2)
out = args[0]
here = os.path.dirname(os.path.abspath(__file__))
source = os.path.join(here, "..", "..", "tests", "data", "blender", "blender_demo.fbx.gz")
MOVED_JOINT = "hand.L"


def srgb_to_linear(c):
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def rigview_roughness(shininess):
    """rigview's roughness of a Phong shininess (material_import.cpp's roughnessFromShininess)."""
    if shininess <= 0.0:
        return 1.0
    return min(1.0, math.sqrt(math.sqrt(2.0 / (shininess + 2.0))))


def export_gz(tmp, path):
    glb = os.path.join(tmp, "out.glb")
    bpy.ops.export_scene.gltf(filepath=glb, export_format="GLB", export_animations=True, export_nla_strips=True)
    with open(glb, "rb") as src, open(path, "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", compresslevel=9, fileobj=raw, mtime=0) as f:
            shutil.copyfileobj(src, f)


with tempfile.TemporaryDirectory() as tmp:
    fbx = os.path.join(tmp, "blender_demo.fbx")
    with gzip.open(source, "rb") as src, open(fbx, "wb") as f:
        shutil.copyfileobj(src, f)
    bpy.ops.wm.read_factory_settings(use_empty=True)
    # No "_end" leaf bones (no joint of the file), and key times as the file has them.
    bpy.ops.import_scene.fbx(filepath=fbx, ignore_leaf_bones=True, anim_offset=0.0)

    # Materials as the FBX's Phong values are drawn (Blender's import keeps the numbers as linear
    # values and derives roughness as 1 - sqrt(shininess) / 10).
    for material in bpy.data.materials:
        material.use_backface_culling = True
        if not material.use_nodes:
            continue
        for node in material.node_tree.nodes:
            if node.type != "BSDF_PRINCIPLED":
                continue
            base = node.inputs["Base Color"]
            base.default_value = [srgb_to_linear(c) for c in base.default_value[:3]] + [base.default_value[3]]
            rough = node.inputs["Roughness"]
            shininess = ((1.0 - rough.default_value) * 10.0) ** 2
            rough.default_value = rigview_roughness(shininess)

    # The whole character placed elsewhere: turned about Blender's up axis (Z) and moved, applied
    # to the bones' rest and the vertices (Blender 3.4's glTF export writes no transform for the
    # armature object's node).
    place = mathutils.Matrix.Translation((2.0, 1.0, 0.0)) @ mathutils.Matrix.Rotation(math.radians(90.0), 4, "Z")
    for obj in bpy.data.objects:
        if obj.parent is None:
            obj.matrix_world = place @ obj.matrix_world
    bpy.context.view_layer.update()
    rig = next(obj for obj in bpy.data.objects if obj.type == "ARMATURE")
    for obj in bpy.data.objects:
        obj.select_set(True)
    bpy.context.view_layer.objects.active = rig
    bpy.ops.object.transform_apply(location=True, rotation=True, scale=True)

    # Every clip of the file under its own name (the FBX's animation stack), on an NLA track of
    # its own (Blender 3.4's glTF export writes one animation per track).
    for obj in bpy.data.objects:
        if obj.type != "ARMATURE" or obj.animation_data is None:
            continue
        for action in bpy.data.actions:
            track = obj.animation_data.nla_tracks.new()
            track.name = action.name.split("|", 1)[1] if action.name.startswith(obj.name + "|") else action.name
            track.strips.new(track.name, int(action.frame_range[0]), action)
        obj.animation_data.action = None
    export_gz(tmp, out)

    # One joint's rest position moved 2 cm up (Blender's Z): the skin is bound to it there.
    bpy.ops.object.mode_set(mode="EDIT")
    bone = rig.data.edit_bones[MOVED_JOINT]
    bone.use_connect = False
    offset = rig.matrix_world.inverted().to_3x3() @ mathutils.Vector((0.0, 0.0, 0.02))
    bone.head += offset
    bone.tail += offset
    bpy.ops.object.mode_set(mode="OBJECT")
    export_gz(tmp, out.replace(".glb.gz", "_hand_moved.glb.gz"))
