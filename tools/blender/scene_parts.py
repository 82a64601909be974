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


def rig_from_bones(scene, bones):
    """An armature object "Rig" from `bones`: (name, head, tail, parent name or None) each,
    heads and tails in Blender's Z-up frame, every child unconnected."""
    arm_data = bpy.data.armatures.new("Rig")
    rig = bpy.data.objects.new("Rig", arm_data)
    scene.collection.objects.link(rig)
    bpy.context.view_layer.objects.active = rig
    bpy.ops.object.mode_set(mode="EDIT")
    for name, head, tail, parent in bones:
        eb = arm_data.edit_bones.new(name)
        eb.head, eb.tail = head, tail
        if parent is not None:
            eb.parent = arm_data.edit_bones[parent]
    bpy.ops.object.mode_set(mode="OBJECT")
    return rig


def image_from_array(name, rgb, folder, colour_data):
    """A Blender image `name` from a (H, W, 3) float array in 0..1 (row 0 the image's top),
    saved as FOLDER/NAME.png (8-bit) and loaded back from that file. `colour_data`: sRGB
    (base colour, emission) or Non-Color (normal, metallic-roughness, occlusion)."""
    import numpy as np
    h, w, _ = rgb.shape
    img = bpy.data.images.new(name, w, h, alpha=False)
    rgba = np.concatenate([rgb, np.ones((h, w, 1))], axis=-1)[::-1]      # Blender's rows go up
    img.pixels.foreach_set(rgba.astype(np.float32).ravel())
    img.filepath_raw = f"{folder}/{name}.png"
    img.file_format = "PNG"
    img.save()
    img.source = "FILE"
    img.reload()
    img.colorspace_settings.name = "sRGB" if colour_data else "Non-Color"
    return img
