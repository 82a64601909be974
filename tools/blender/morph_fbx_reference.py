# Blender's own evaluation of a skinned FBX (with or without shape keys), as a JSON reference
# for rigview's tests: Blender's FBX importer (default settings) reads the file, then at each
# frame the shape key values (if any) and the evaluated mesh (shape keys, then the armature
# with all of each vertex's weights) in world space.
# Positions are written in the file's Y-up frame (Blender's (x, y, z) -> (x, z, -y), the
# inverse of the exporter's default axis conversion) so they compare with rigview directly.
#   blender -b --factory-startup --python tools/blender/morph_fbx_reference.py -- IN.fbx OUT.json F1,F2,...
import json
import sys

import bpy

args = sys.argv[sys.argv.index("--") + 1:]
path, out, frames = args[0], args[1], [int(f) for f in args[2].split(",")]

bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.fbx(filepath=path)
scene = bpy.context.scene
meshes = [o for o in scene.objects if o.type == "MESH"]
if len(meshes) != 1:
    raise SystemExit(f"expected one mesh object, found {len(meshes)}")
obj = meshes[0]


def yup(v):
    # 7 significant digits: float precision, and a small file.
    return [float("%.7g" % c) for c in (v.x, v.z, -v.y)]


scene.frame_set(frames[0])
rest = []
for v in obj.data.vertices:  # the basis shape, unposed
    rest += yup(obj.matrix_world @ v.co)

samples = []
for f in frames:
    scene.frame_set(f)
    deps = bpy.context.evaluated_depsgraph_get()
    ev = obj.evaluated_get(deps)
    m = ev.to_mesh()
    positions = []
    for v in m.vertices:
        positions += yup(ev.matrix_world @ v.co)
    ev.to_mesh_clear()
    shapes = obj.data.shape_keys
    keys = shapes.key_blocks if shapes else []
    samples.append({
        "frame": f,
        "weights": {k.name: k.value for k in keys if k != shapes.reference_key},
        "positions": positions,
    })

with open(out, "w") as fh:
    json.dump({"file": path.split("/")[-1], "blender": bpy.app.version_string, "fps": scene.render.fps / scene.render.fps_base,
               "frame_start": scene.frame_start, "mesh": obj.name, "rest": rest, "samples": samples}, fh)
print("wrote", out, len(samples), "samples")
