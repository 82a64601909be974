# Parts shared by the Blender scripts that make rigview's test characters: the output path
# from the command line, an empty scene with a frame range, a mesh object from vertices and
# faces, a chain of bones, the two-bone "hip"/"spine" weights and binding a mesh to a rig.
# Imported by the make_*.py scripts beside it (they put this folder on sys.path).
import sys

import bpy


def output_path():
    """The first argument after `--` on Blender's command line."""
    return sys.argv[sys.argv.index("--") + 1]


def empty_scene(fps=24, frame_start=1, frame_end=40):
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    scene.render.fps = fps
    scene.frame_start = frame_start
    scene.frame_end = frame_end
    return scene


def mesh_object(scene, name, verts, faces):
    mesh = bpy.data.meshes.new(name)
    mesh.from_pydata(verts, [], faces)
    mesh.update()
    obj = bpy.data.objects.new(name, mesh)
    scene.collection.objects.link(obj)
    return obj


def bone_chain(scene, names, length, connect=False):
    """An armature object "Rig" whose bones `names` follow each other up +Z, each `length`
    long, each the child of the one before (connected when `connect`)."""
    arm_data = bpy.data.armatures.new("Rig")
    rig = bpy.data.objects.new("Rig", arm_data)
    scene.collection.objects.link(rig)
    bpy.context.view_layer.objects.active = rig
    bpy.ops.object.mode_set(mode="EDIT")
    parent = None
    for n, name in enumerate(names):
        eb = arm_data.edit_bones.new(name)
        eb.head, eb.tail = (0, 0, n * length), (0, 0, (n + 1) * length)
        if parent is not None:
            eb.parent = parent
            eb.use_connect = connect
        parent = eb
    bpy.ops.object.mode_set(mode="OBJECT")
    return rig


def hip_spine_weights(obj, verts):
    """Weights to "hip" and "spine" from the height alone: all hip below z = 0.5, all spine
    above z = 1.5, a smoothstep between."""
    g_hip = obj.vertex_groups.new(name="hip")
    g_spine = obj.vertex_groups.new(name="spine")
    for n, (x, y, z) in enumerate(verts):
        s = min(max((z - 0.5) / 1.0, 0.0), 1.0)
        s = s * s * (3 - 2 * s)
        if s < 1.0:
            g_hip.add([n], 1.0 - s, "REPLACE")
        if s > 0.0:
            g_spine.add([n], s, "REPLACE")


def bind(obj, rig):
    """Parents `obj` to `rig` with an Armature modifier."""
    obj.parent = rig
    mod = obj.modifiers.new("Armature", "ARMATURE")
    mod.object = rig
