# A character in two formats for `rigview diff` across formats (tests/diff_test.cpp): Blender's
# glTF export (Blender 3.4, Debian's package) of an FBX file, both imported and exported with
# Blender's defaults, so the two files differ as a pipeline's FBX and its glTF hand-off do
# (axes, units, the armature object's placement, clip names, key times) while the character and
# its motion are the same.
#
#   zcat tests/data/blender/blender_demo.fbx.gz > /tmp/blender_demo.fbx
#   blender -b --python tools/blender/fbx_to_gltf.py -- /tmp/blender_demo.fbx /tmp/blender_demo_from_fbx.glb
#   gzip -9n < /tmp/blender_demo_from_fbx.glb > tests/data/blender/blender_demo_from_fbx.glb.gz
import sys

import bpy

args = sys.argv[sys.argv.index("--") + 1:]
if len(args) != 2:
    print("usage: blender -b --python fbx_to_gltf.py -- IN.fbx OUT.glb")
    sys.exit(2)
source, out = args

bpy.ops.wm.read_factory_settings(use_empty=True)
# Leaf bones off: the "_end" bones Blender's FBX import adds by default are no joint of the file.
bpy.ops.import_scene.fbx(filepath=source, ignore_leaf_bones=True)
# Every clip of the file, not only the one the import made active: each action on an NLA track
# of its own named as the action (Blender 3.4's glTF export writes one animation per track).
for obj in bpy.data.objects:
    if obj.type != "ARMATURE" or obj.animation_data is None:
        continue
    for action in bpy.data.actions:
        track = obj.animation_data.nla_tracks.new()
        track.name = action.name
        track.strips.new(action.name, int(action.frame_range[0]), action)
    obj.animation_data.action = None
bpy.ops.export_scene.gltf(filepath=out, export_format="GLB", export_animations=True, export_nla_strips=True)
