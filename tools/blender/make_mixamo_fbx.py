# Writes two FBX characters that carry the FBX transform chain's extra terms, for rigview's
# FBX import tests (tests/fbx_chain_test.cpp):
#
#   OUTDIR/mixamo_like.fbx  a Mixamo-like character: "mixamorig:" joint names, centimetres
#                           (UnitScaleFactor 1), a Hips joint 100 cm up with animated translation,
#                           every joint with a non-zero PreRotation (RotationActive 1) and every
#                           third one with a PostRotation too, as Maya and Mixamo write joints.
#   OUTDIR/fbx_pivots.fbx   the same character whose joints also carry rotation pivots and
#                           offsets and scaling pivots and offsets (3ds Max / Maya pivots).
#
# Both have two clips (stacks "Armature|Walk", 25 frames, and "Armature|Idle", 31 frames, 30 fps)
# and a mesh of 15 skinned boxes (one per bone, the head ring of each weighted half to the parent).
#
# How: Blender builds the character in centimetres (unit scale 0.01) and writes it with its FBX
# exporter (every frame keyed); the script then rewrites the file's joints so that the file
# poses exactly as before but through the chain
#   T * Roff * Rp * Rpre * R * Rpost^-1 * Rp^-1 * Soff * Sp * S * Sp^-1
# PreRotation P and PostRotation Q are set and every rotation key R_file becomes
# P^-1 * R_file * Q (Euler XYZ, kept continuous); with pivots and offsets every translation key
# becomes T - Roff - Rp - Rot * (Soff - Rp) at the same time (S is 1 throughout). The bind pose
# (clusters, BindPose) is Blender's, untouched. Blender's own parse_fbx reads the file back;
# the rewritten element tree is written with Blender's encode_bin.
#   blender -b --factory-startup --python tools/blender/make_mixamo_fbx.py -- OUTDIR
import array
import math
import os
import sys

import bpy
from mathutils import Euler, Matrix, Vector

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scene_parts  # noqa: E402

from io_scene_fbx import encode_bin, parse_fbx  # noqa: E402  (Blender's FBX add-on)

outdir = os.path.abspath(scene_parts.output_path())
os.makedirs(outdir, exist_ok=True)

FPS = 30
scene = scene_parts.empty_scene(fps=FPS, frame_start=1, frame_end=31)
scene.unit_settings.system = "METRIC"
scene.unit_settings.scale_length = 0.01  # one Blender unit is a centimetre: the file says cm

P = "mixamorig:"
# (name, head, tail, parent, roll in degrees), Blender's Z-up frame, centimetres.
BONES = [
    ("Hips", (0, 0, 100), (0, 0, 110), None, 0),
    ("Spine", (0, 0, 110), (0, 1, 125), "Hips", 10),
    ("Spine1", (0, 1, 125), (0, 0, 140), "Spine", -15),
    ("Neck", (0, 0, 140), (0, -1, 150), "Spine1", 0),
    ("Head", (0, -1, 150), (0, -1, 170), "Neck", 30),
    ("LeftArm", (15, 0, 138), (40, 2, 136), "Spine1", 90),
    ("LeftForeArm", (40, 2, 136), (62, 0, 135), "LeftArm", 80),
    ("RightArm", (-15, 0, 138), (-40, 2, 136), "Spine1", -90),
    ("RightForeArm", (-40, 2, 136), (-62, 0, 135), "RightArm", -80),
    ("LeftUpLeg", (10, 0, 97), (11, 1, 52), "Hips", 180),
    ("LeftLeg", (11, 1, 52), (10, 3, 8), "LeftUpLeg", 175),
    ("LeftFoot", (10, 3, 8), (10, -12, 2), "LeftLeg", 0),
    ("RightUpLeg", (-10, 0, 97), (-11, 1, 52), "Hips", -180),
    ("RightLeg", (-11, 1, 52), (-10, 3, 8), "RightUpLeg", -175),
    ("RightFoot", (-10, 3, 8), (-10, -12, 2), "RightLeg", 0),
]

arm_data = bpy.data.armatures.new("Armature")
rig = bpy.data.objects.new("Armature", arm_data)
scene.collection.objects.link(rig)
bpy.context.view_layer.objects.active = rig
bpy.ops.object.mode_set(mode="EDIT")
for name, head, tail, parent, roll in BONES:
    eb = arm_data.edit_bones.new(P + name)
    eb.head, eb.tail = head, tail
    eb.roll = math.radians(roll)
    if parent is not None:
        eb.parent = arm_data.edit_bones[P + parent]
bpy.ops.object.mode_set(mode="OBJECT")

# A box around each bone: rings of 4 at the head, the middle and the tail.
verts, faces, weights = [], [], []
for name, head, tail, parent, _ in BONES:
    h, t = Vector(head), Vector(tail)
    axis = (t - h).normalized()
    side = axis.orthogonal().normalized()
    up = axis.cross(side)
    radius = 3.0 if "Arm" in name or "Leg" in name else 6.0
    base = len(verts)
    for r, f in enumerate((0.0, 0.5, 1.0)):
        c = h.lerp(t, f)
        for k in range(4):
            a = math.pi / 4 + k * math.pi / 2
            verts.append(tuple(c + radius * (math.cos(a) * side + math.sin(a) * up)))
            if r == 0 and parent is not None:
                weights.append([(name, 0.5), (parent, 0.5)])
            else:
                weights.append([(name, 1.0)])
    for r in range(2):
        for k in range(4):
            a, b = base + r * 4 + k, base + r * 4 + (k + 1) % 4
            faces.append((a, b, b + 4, a + 4))
    faces.append((base + 3, base + 2, base + 1, base))
    faces.append((base + 8, base + 9, base + 10, base + 11))
body = scene_parts.mesh_object(scene, "Body", verts, faces)
groups = {name: body.vertex_groups.new(name=P + name) for name, *_ in BONES}
for v, ws in enumerate(weights):
    for name, w in ws:
        groups[name].add([v], w, "REPLACE")
scene_parts.bind(body, rig)

# Two actions. Keys every few frames (Bezier in Blender); the exporter bakes every frame.
rig.animation_data_create()


def key(bone, frame, rot=None, loc=None):
    pb = rig.pose.bones[P + bone]
    pb.rotation_mode = "XYZ"
    if rot is not None:
        pb.rotation_euler = [math.radians(a) for a in rot]
        pb.keyframe_insert("rotation_euler", frame=frame)
    if loc is not None:
        pb.location = loc
        pb.keyframe_insert("location", frame=frame)


def pose_all(frame, phase, amount):
    s, c = math.sin(phase), math.cos(phase)
    key("Hips", frame, rot=(3 * s * amount, 8 * c * amount, 2 * s), loc=(2 * s * amount, 4 * abs(s) * amount, 12 * phase * amount))
    key("Spine", frame, rot=(5 * c, 10 * s * amount, 4 * s), loc=(0, 0, 0))
    key("Spine1", frame, rot=(4 * s, -6 * c * amount, 3 * c), loc=(0, 0, 0))
    key("Neck", frame, rot=(-3 * s, 5 * c, 0), loc=(0, 0, 0))
    key("Head", frame, rot=(6 * c, 20 * s * amount, -4 * s), loc=(0, 0, 0))
    for side, sign in (("Left", 1), ("Right", -1)):
        key(side + "Arm", frame, rot=(35 * sign * s * amount, 10 * c, 50 + 10 * s), loc=(0, 0, 0))
        key(side + "ForeArm", frame, rot=(25 + 20 * sign * c * amount, 5 * s, 0), loc=(0, 0, 0))
        key(side + "UpLeg", frame, rot=(30 * sign * s * amount, 4 * c, 3 * sign), loc=(0, 0, 0))
        key(side + "Leg", frame, rot=(20 + 25 * sign * c * amount, 0, 2 * s), loc=(0, 0, 0))
        key(side + "Foot", frame, rot=(10 * sign * s * amount, 5 * c, 0), loc=(0, 0, 0))


for action_name, frames, amount in (("Walk", 25, 1.0), ("Idle", 31, 0.15)):
    action = bpy.data.actions.new(action_name)
    rig.animation_data.action = action
    for frame in range(1, frames + 1, 4 if action_name == "Walk" else 5):
        pose_all(frame, 2 * math.pi * (frame - 1) / (frames - 1), amount)
    action.use_fake_user = True
rig.animation_data.action = None

plain = os.path.join(outdir, "blender_plain.fbx")
bpy.ops.export_scene.fbx(filepath=plain, bake_anim_simplify_factor=0.0, add_leaf_bones=False)


# ---- rewriting the file's joints ----------------------------------------------------------

def to_elem(node):
    """Blender's parse_fbx tuple (id, props, types, children) -> an encode_bin.FBXElem."""
    elem_id, props, types, children = node
    e = encode_bin.FBXElem(elem_id)
    adders = {ord("Y"): e.add_int16, ord("C"): e.add_bool, ord("I"): e.add_int32, ord("F"): e.add_float32,
              ord("D"): e.add_float64, ord("L"): e.add_int64, ord("R"): e.add_bytes, ord("S"): e.add_string,
              ord("f"): e.add_float32_array, ord("i"): e.add_int32_array, ord("d"): e.add_float64_array,
              ord("l"): e.add_int64_array, ord("b"): e.add_bool_array, ord("c"): e.add_byte_array}
    for value, t in zip(props, types):
        adders[t](value)
    for c in children:
        e.elems.append(to_elem(c))
    return e


def child(node, name):
    return next((c for c in node[3] if c[0] == name), None)


def props70(node):
    return child(node, b"Properties70")


def get_prop(node, name):
    p70 = props70(node)
    for p in p70[3]:
        if p[1][0] == name:
            return p
    return None


def set_vector(node, name, xyz, kind=b"Vector3D", label=b"Vector", flags=b""):
    """Sets (or adds) a P entry of three doubles."""
    p = get_prop(node, name)
    if p is None:
        p = (b"P", [name, kind, label, flags, 0.0, 0.0, 0.0], bytearray(b"SSSSDDD"), [])
        props70(node)[3].append(p)
    p[1][4:7] = [float(v) for v in xyz]


def set_bool(node, name, value):
    p = get_prop(node, name)
    if p is None:
        p = (b"P", [name, b"bool", b"", b"", int(value)], bytearray(b"SSSSI"), [])
        props70(node)[3].append(p)
    p[1][4] = int(value)


def vector_of(node, name, default):
    p = get_prop(node, name)
    return Vector(p[1][4:7]) if p is not None else Vector(default)


def rot_matrix(deg):
    return Euler([math.radians(a) for a in deg], "XYZ").to_matrix()


def euler_deg(m3, compat=None):
    e = m3.to_euler("XYZ", compat) if compat is not None else m3.to_euler("XYZ")
    return e, [math.degrees(a) for a in e]


def rewrite(src, dst, with_post, with_pivots):
    root, version = parse_fbx.parse(src, use_namedtuple=False)
    objects = child(root, b"Objects")
    conns = child(root, b"Connections")
    models = {o[1][0]: o for o in objects[3] if o[0] == b"Model" and o[1][2] == b"LimbNode"}
    curve_nodes = {o[1][0]: o for o in objects[3] if o[0] == b"AnimationCurveNode"}
    curves = {o[1][0]: o for o in objects[3] if o[0] == b"AnimationCurve"}
    # curve node -> (model, property); curve -> (curve node, channel)
    layers = {o[1][0] for o in objects[3] if o[0] == b"AnimationLayer"}
    node_target, curve_of, layer_of = {}, {}, {}
    for c in conns[3]:
        kind, src_id, dst_id = c[1][0], c[1][1], c[1][2]
        if kind == b"OP" and src_id in curve_nodes and dst_id in models:
            node_target[src_id] = (dst_id, c[1][3])
        elif kind == b"OP" and src_id in curves and dst_id in curve_nodes:
            curve_of.setdefault(dst_id, {})[c[1][3]] = src_id
        elif kind == b"OO" and src_id in curve_nodes and dst_id in layers:
            layer_of[src_id] = dst_id

    order = sorted(models, key=lambda i: models[i][1][1])  # by name: the same numbers every run
    for n, mid in enumerate(order):
        model = models[mid]
        pre = ((n * 37) % 110 - 55 or 20, (n * 53) % 90 - 45 or -15, (n * 71) % 130 - 65 or 25)
        has_post = with_post and n % 3 == 1
        post = ((n * 29) % 60 - 30 or 12, (n * 17) % 40 - 20 or -9, (n * 13) % 50 - 25 or 7) if has_post else (0, 0, 0)
        P_, Q_ = rot_matrix(pre), rot_matrix(post)
        if with_pivots and n % 2 == 0:
            roff = Vector(((n % 5) - 2.0, 1.5, -(n % 3) * 0.75))
            rpiv = Vector((0.5 * n - 3.0, (n % 4) * 1.25, 2.0))
            soff = Vector((1.0, -0.5 * (n % 3), 0.25 * n))
            spiv = Vector((-2.0, 0.75 * n, (n % 2) * 3.0))
        else:
            roff = rpiv = soff = spiv = Vector((0, 0, 0))
        set_bool(model, b"RotationActive", True)
        set_vector(model, b"PreRotation", pre)
        if has_post:
            set_vector(model, b"PostRotation", post)
        if with_pivots and n % 2 == 0:
            set_vector(model, b"RotationOffset", roff)
            set_vector(model, b"RotationPivot", rpiv)
            set_vector(model, b"ScalingOffset", soff)
            set_vector(model, b"ScalingPivot", spiv)

        def new_rotation(r_deg, compat=None):
            return euler_deg(P_.inverted() @ rot_matrix(r_deg) @ Q_, compat)

        def new_translation(t, r_deg):
            rot = rot_matrix(r_deg)
            return Vector(t) - roff - rpiv - rot @ (soff - rpiv)

        static_r = vector_of(model, b"Lcl Rotation", (0, 0, 0))
        static_t = vector_of(model, b"Lcl Translation", (0, 0, 0))
        _, r_new = new_rotation(static_r)
        set_vector(model, b"Lcl Rotation", r_new, b"Lcl Rotation", b"", b"A")
        set_vector(model, b"Lcl Translation", new_translation(static_t, static_r), b"Lcl Translation", b"", b"A")

        # The model's curves in each layer (one layer per stack): rotation and translation keys
        # at the same times (every frame).
        def rewrite_curves(rcn, tcn):
            if rcn is None:
                return
            if tcn is None and with_pivots and n % 2 == 0:
                raise SystemExit(f"{model[1][1]}: rotation keys but no translation curves to carry the pivots")

            def channel_arrays(cn):
                ids = curve_of[cn]
                return [curves[ids[ch]] for ch in (b"d|X", b"d|Y", b"d|Z")]

            rc = channel_arrays(rcn)
            times = child(rc[0], b"KeyTime")[1][0]
            for c in rc[1:]:
                assert list(child(c, b"KeyTime")[1][0]) == list(times), "rotation curves keyed at different times"
            r_vals = [list(child(c, b"KeyValueFloat")[1][0]) for c in rc]
            if tcn is not None:
                tc = channel_arrays(tcn)
                t_times = child(tc[0], b"KeyTime")[1][0]
                t_vals = [list(child(c, b"KeyValueFloat")[1][0]) for c in tc]
                if list(t_times) != list(times):
                    raise SystemExit(f"{model[1][1]}: translation and rotation keyed at different times")
            out_r = [[], [], []]
            out_t = [[], [], []]
            compat = None
            for k in range(len(times)):
                r_file = [r_vals[a][k] for a in range(3)]
                compat, r_deg = new_rotation(r_file, compat)
                for a in range(3):
                    out_r[a].append(r_deg[a])
                if tcn is not None:
                    t = new_translation([t_vals[a][k] for a in range(3)], r_file)
                    for a in range(3):
                        out_t[a].append(t[a])
            for a in range(3):
                child(rc[a], b"KeyValueFloat")[1][0] = array.array("f", out_r[a])
            cn = curve_nodes[rcn]
            for a, ch in enumerate((b"d|X", b"d|Y", b"d|Z")):
                get_prop(cn, ch)[1][4] = float(out_r[a][0])
            if tcn is not None:
                for a in range(3):
                    child(tc[a], b"KeyValueFloat")[1][0] = array.array("f", out_t[a])
                cn = curve_nodes[tcn]
                for a, ch in enumerate((b"d|X", b"d|Y", b"d|Z")):
                    get_prop(cn, ch)[1][4] = float(out_t[a][0])

        by_layer = {}
        for cn, (m, prop) in node_target.items():
            if m == mid:
                by_layer.setdefault(layer_of[cn], {})[prop] = cn
        for layer in sorted(by_layer):
            rewrite_curves(by_layer[layer].get(b"Lcl Rotation"), by_layer[layer].get(b"Lcl Translation"))

    encode_bin.write(dst, to_elem(root), version)


rewrite(plain, os.path.join(outdir, "mixamo_like.fbx"), with_post=False, with_pivots=False)
rewrite(plain, os.path.join(outdir, "fbx_post_rotation.fbx"), with_post=True, with_pivots=False)
rewrite(plain, os.path.join(outdir, "fbx_pivots.fbx"), with_post=False, with_pivots=True)
if not os.environ.get("KEEP_PLAIN"):  # Blender's own export, kept to compare with
    os.remove(plain)
print("wrote mixamo_like.fbx, fbx_post_rotation.fbx and fbx_pivots.fbx in", outdir)
