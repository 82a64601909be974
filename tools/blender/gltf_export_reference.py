# An independent reading of rigview's glTF export: Blender's own glTF importer (Blender 3.4,
# Debian's package) poses an export and writes what tests/export_test.cpp compares against
# rigview's pose of the exported file's source.
#
#   rigview export assets/demo/rigview_demo.gltf -o /tmp/demo.glb
#   blender -b --python tools/blender/gltf_export_reference.py -- /tmp/demo.glb OUT.json CLIP=T1,T2 ...
#
# tests/data/export/demo_blender.json was made so, with
#   idle=0,0.5,1.5,2.9 walk=0.1,0.5,1.0 wave=0.6,1.8
#
# For each CLIP (an animation name) and time T (seconds): the action of that name is put on
# every object it was made for (Blender's importer names them CLIP, or CLIP_<object> when
# several objects are animated), the scene is set to T, and every mesh's depsgraph-evaluated
# vertices (armature modifier applied, matrix_world applied) are written in the glTF file's
# frame: Blender (x, y, z) -> glTF (x, z, -y). Every STRIDE-th vertex is written, with its
# index (Blender's importer keeps a primitive's vertex order when it does not merge vertices,
# its default).
#
# Times: Blender interpolates a LINEAR rotation per quaternion component, glTF (and rigview)
# by slerp: they agree on keys, so the times asked for should be key times.
import json
import sys

import bpy

# Blender 3.4's glTF importer still says np.bool, which NumPy 1.24 (Debian 12) removed.
import numpy
if not hasattr(numpy, "bool"):
    numpy.bool = bool

STRIDE = 13

args = sys.argv[sys.argv.index("--") + 1:]
if len(args) < 3:
    print("usage: blender -b --python gltf_export_reference.py -- FILE.glb OUT.json CLIP=T1,T2 ...")
    sys.exit(2)
path, out, requests = args[0], args[1], args[2:]

bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.gltf(filepath=path)
scene = bpy.context.scene
fps = scene.render.fps / scene.render.fps_base
meshes = [o for o in scene.objects if o.type == "MESH"]
animated = [o for o in scene.objects if o.animation_data is not None or o.type == "ARMATURE"]


def action_for(obj, clip):
    for name in (clip, clip + "_" + obj.name):
        if name in bpy.data.actions:
            return bpy.data.actions[name]
    return None


samples = []
for request in requests:
    clip, times = request.rsplit("=", 1)
    for obj in animated:
        if obj.animation_data is None:
            obj.animation_data_create()
        obj.animation_data.action = action_for(obj, clip)
    for t in [float(x) for x in times.split(",")]:
        frame = t * fps
        scene.frame_set(int(frame // 1), subframe=frame - frame // 1)
        depsgraph = bpy.context.evaluated_depsgraph_get()
        result = []
        for obj in meshes:
            ev = obj.evaluated_get(depsgraph)
            mesh = ev.to_mesh()
            world = ev.matrix_world
            points = []
            for i in range(0, len(mesh.vertices), STRIDE):
                p = world @ mesh.vertices[i].co
                points += [i] + [float("%.8g" % v) for v in (p.x, p.z, -p.y)]
            result.append({"name": obj.name, "vertices": len(mesh.vertices), "points": points})
            ev.to_mesh_clear()
        samples.append({"clip": clip, "time": t, "meshes": result})

with open(out, "w") as f:
    json.dump({"file": path.split("/")[-1], "blender": bpy.app.version_string, "stride": STRIDE,
               "frame": "gltf-y-up", "samples": samples}, f)
print("RESULT", out, len(samples), "samples")
