"""The rigview Python module against the command line: poses equal `rigview pose --json`,
reports equal `rigview check --json`, renders, exports and compressions equal the commands'
outputs; broken and crashing files raise rigview.ImportError and the interpreter goes on;
bad arguments raise; the GIL is released while C++ works.

Run by CTest (tests/CMakeLists.txt) with the interpreter the module was built for and
PYTHONPATH=<build>/python; RIGVIEW_EXE names the rigview binary, RIGVIEW_SOURCE_DIR the
source tree, RIGVIEW_MUTANTS_DIR the hostile files of tests/make_mutants.py (optional).
"""
import gzip
import json
import math
import os
import pathlib
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import warnings
import zlib

import numpy as np

import rigview

EXE = os.environ.get("RIGVIEW_EXE", "rigview")
SOURCE = os.environ.get("RIGVIEW_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
MUTANTS = os.environ.get("RIGVIEW_MUTANTS_DIR", "")
MODELS = "/usr/share/assimp/models"
SIMPLE_SKIN = os.path.join(MODELS, "glTF2/simple_skin/simple_skin.gltf")
BCN = os.path.join(MODELS, "X/BCN_Epileptic.X")
DEMO = os.path.join(SOURCE, "assets/demo/rigview_demo.gltf")
PUBLIC = [SIMPLE_SKIN, BCN, DEMO]


def cli(*args, check=True):
    r = subprocess.run([EXE, *args], capture_output=True, text=True, timeout=120)
    if check and r.returncode != 0:
        raise AssertionError(f"rigview {' '.join(args)}: exit {r.returncode}: {r.stderr}")
    return r


def read(path, mode="rb"):
    with open(path, mode) as f:
        return f.read()


def diagonal(points):
    return float(np.linalg.norm(points.max(axis=0) - points.min(axis=0))) if len(points) else 1.0


def read_png(path):
    """RGBA8 pixels of a non-interlaced PNG (what `rigview render` writes), as (h, w, 4)."""
    data = read(path)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width, height = 8, b"", 0, 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert (depth, colour) == (8, 6), "RGBA8 expected"
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = 4 * width
    out = np.zeros((height, stride), dtype=np.int32)
    prev = np.zeros(stride, dtype=np.int32)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = np.frombuffer(raw, dtype=np.uint8, count=stride, offset=y * (stride + 1) + 1).astype(np.int32)
        cur = np.zeros(stride, dtype=np.int32)
        for x in range(stride):
            a = cur[x - 4] if x >= 4 else 0
            b = prev[x]
            c = prev[x - 4] if x >= 4 else 0
            if f == 0:
                p = 0
            elif f == 1:
                p = a
            elif f == 2:
                p = b
            elif f == 3:
                p = (a + b) // 2
            else:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                p = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
            cur[x] = (line[x] + p) & 0xFF
        out[y] = cur
        prev = cur
    return out.reshape(height, width, 4).astype(np.uint8)


class PoseTest(unittest.TestCase):
    """model.pose / world / sample equal what `rigview pose --json` writes."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="rigview_py_")
        cls.models = {p: rigview.load(p) for p in PUBLIC}

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def cli_pose(self, path, *args):
        out = os.path.join(self.tmp, "pose.json")
        cli("pose", path, "-o", out, *args)
        with open(out) as f:
            return json.load(f)

    def compare(self, model, doc, points, worlds):
        expected = np.array([p for m in doc["meshes"] for p in m["positions"]], dtype=np.float64).reshape(-1, 3)
        self.assertEqual(points.shape, expected.shape)
        tol = 1e-6 * diagonal(expected)
        self.assertLessEqual(float(np.abs(points - expected).max(initial=0.0)), tol, model.path)
        self.assertEqual(model.joint_names, [j["name"] for j in doc["joints"]])
        cli_worlds = np.array([j["world"] for j in doc["joints"]], dtype=np.float64).reshape(-1, 4, 4).transpose(0, 2, 1)
        scale = max(1.0, float(np.abs(cli_worlds).max(initial=0.0)))
        self.assertLessEqual(float(np.abs(worlds - cli_worlds).max(initial=0.0)), 1e-6 * scale, model.path)

    def test_pose_equals_cli(self):
        for path, model in self.models.items():
            clips = model.clips
            with self.subTest(model=path):
                if clips:
                    t = 0.37 * clips[0].duration + 0.01
                    doc = self.cli_pose(path, "--clip", "0", "--time", repr(t))
                    self.compare(model, doc, model.pose(0, t), model.world(0, t))
                    # By name, as --clip takes it.
                    np.testing.assert_array_equal(model.pose(clips[0].name, t), model.pose(0, t))
                doc = self.cli_pose(path, "--bind-pose")
                self.compare(model, doc, model.pose(bind=True), model.world(bind=True))

    def test_per_mesh_follows_pose_json(self):
        model = self.models[DEMO]
        doc = self.cli_pose(DEMO, "--time", "0.5")
        parts = model.pose(None, 0.5, per_mesh=True)
        self.assertEqual(len(parts), len(doc["meshes"]))
        for part, mesh, m in zip(parts, doc["meshes"], model.meshes):
            self.assertEqual(mesh["name"], m.name)
            self.assertEqual(part.shape, (m.vertex_count, 3))
        np.testing.assert_array_equal(np.concatenate(parts), model.pose(None, 0.5))

    def test_sample_equals_pose(self):
        for path, model in self.models.items():
            if not model.clips:
                continue
            d = model.clips[0].duration
            times = [0.0, 0.25 * d, 0.5 * d, d, 1.5 * d, 0.1]
            frames = model.sample(0, times)
            self.assertEqual(frames.shape, (len(times), model.vertex_count, 3))
            for i, t in enumerate(times):
                np.testing.assert_array_equal(frames[i], model.pose(0, t), err_msg=f"{path} at {t}")

    def test_skinning_methods(self):
        # The viewer's three methods: equal at the bind pose, apart on a bent pose (the demo's
        # joints bend), sample() as pose(); an unknown name is a ValueError.
        model = self.models[DEMO]
        t = 0.3 * model.clips[0].duration
        size = diagonal(model.pose(bind=True))
        linear = model.pose(0, t)
        for method in ("stitch", "dualquat"):
            np.testing.assert_allclose(model.pose(bind=True, skinning=method), model.pose(bind=True),
                                       atol=1e-5 * size, err_msg=method)
            other = model.pose(0, t, skinning=method)
            gap = np.abs(other - linear).max()
            self.assertGreater(gap, 1e-4 * size, method)
            self.assertLess(gap, 0.2 * size, method)
            np.testing.assert_array_equal(model.sample(0, [t], skinning=method)[0], other)
        with self.assertRaises(ValueError):
            model.pose(0, t, skinning="gpu")

    def test_influences(self):
        # Blender's FBX with six influences per vertex: influences=8 poses as `pose --influences 8`
        # and apart from 4 (the default); sample() as pose(); anything but 4 or 8 is a ValueError.
        with gzip.open(os.path.join(SOURCE, "tests/data/blender/six_influences.fbx.gz")) as f:
            data = f.read()
        path = os.path.join(self.tmp, "six_influences.fbx")
        with open(path, "wb") as f:
            f.write(data)
        model = rigview.load(path)
        t = 0.8
        eight = model.pose(0, t, influences=8)
        self.compare(model, self.cli_pose(path, "--clip", "0", "--time", repr(t), "--influences", "8"), eight,
                     model.world(0, t))
        np.testing.assert_array_equal(model.pose(0, t, influences=4), model.pose(0, t))
        self.assertGreater(float(np.abs(eight - model.pose(0, t)).max()), 1e-3 * diagonal(eight))
        np.testing.assert_array_equal(model.sample(0, [t], influences=8)[0], eight)
        with self.assertRaises(ValueError):
            model.pose(0, t, influences=6)

    def test_palette_skins_the_vertices(self):
        model = self.models[SIMPLE_SKIN]
        t = 0.4
        palette = model.palette(0, t)
        offsets = model.palette_offsets(0, t)
        self.assertEqual(palette.shape[1:], (4, 4))
        self.assertTrue(np.isfinite(palette).all())
        mesh = model.meshes[0]
        p = np.concatenate([mesh.positions, np.ones((mesh.vertex_count, 1), np.float32)], axis=1)
        blended = np.einsum("vk,vkij->vij", mesh.weights, palette[offsets[0] + mesh.joints.astype(np.int64)])
        skinned = np.einsum("vij,vj->vi", blended, p)[:, :3]
        # The palette is in model space (rigid mesh node) or mesh space (then pose() applies the
        # mesh node's world matrix): compare where both agree, or after the node's matrix.
        posed = model.pose(0, t)[: mesh.vertex_count]
        world = model.world(0, t)
        if not np.allclose(skinned, posed, atol=1e-5 * diagonal(posed)):
            self.fail("palette does not reproduce pose() for simple_skin (model-space palette expected)")
        self.assertEqual(world.shape, (len(model.joint_names), 4, 4))

    def test_arrays_are_views_that_keep_the_model(self):
        model = rigview.load(DEMO)
        mesh = model.meshes[0]
        positions, weights, joints = mesh.positions, mesh.weights, mesh.joints
        self.assertEqual(positions.shape, (mesh.vertex_count, 3))
        self.assertEqual(positions.dtype, np.float32)
        self.assertFalse(positions.flags.writeable)
        self.assertIsNotNone(positions.base)
        with self.assertRaises(ValueError):
            positions[0, 0] = 1.0
        self.assertTrue(mesh.skinned)
        np.testing.assert_allclose(weights.sum(axis=1), 1.0, atol=1e-4)
        self.assertLess(int(joints.max()), len(mesh.skin_joints) + 1)
        self.assertEqual(mesh.inverse_binds.shape, (len(mesh.skin_joints), 4, 4))
        self.assertLess(int(mesh.indices.max()), mesh.vertex_count)
        copy = positions.copy()
        del model, mesh
        import gc
        gc.collect()
        np.testing.assert_array_equal(positions, copy)  # still the model's memory, still alive
        m = rigview.load(BCN)
        self.assertEqual(m.bind_pose.shape, (len(m.joint_names), 4, 4))
        self.assertEqual(m.inverse_binds.shape, m.bind_pose.shape)
        self.assertEqual(len(m.joint_parents), len(m.joint_names))
        self.assertTrue(all(p < i for i, p in enumerate(m.joint_parents)))
        self.assertTrue(all(p < i for i, p in enumerate(m.node_parents)))
        info = json.loads(cli("info", BCN, "--json").stdout)
        self.assertEqual(m.units, info["units"])
        self.assertEqual(len(m.joint_names), info["joints"])
        self.assertEqual([c.name for c in m.clips], [c["name"] for c in info["clips"]])
        for c, ic in zip(m.clips, info["clips"]):
            self.assertAlmostEqual(c.duration, ic["duration"], places=5)
            self.assertEqual(c.rotation_keys, ic["keys"]["rotation"])

    def test_iqm_action_files(self):
        # A mesh .iqm with animation-only action files (tests/iqm_actions.py): the clips play on
        # its joints, posed as that script works them out (Z-up file space; rigview is Y-up).
        actions = os.path.join(SOURCE, "tests/data/iqm/actions")
        with open(os.path.join(actions, "reference.json")) as f:
            ref = json.load(f)["clips"]
        for isolated in (True, False):
            model = rigview.load(os.path.join(actions, "character.iqm"), isolated=isolated,
                                 anims=[os.path.join(actions, "walk.iqm"), os.path.join(actions, "wave.iqm")])
            self.assertEqual([c.name for c in model.clips], ["walk", "wave", "nod"])
            for name in ("walk", "nod"):
                sample = ref[name]["samples"][-1]
                z_up = np.array(sample["vertices"], dtype=np.float64)
                np.testing.assert_allclose(model.pose(name, sample["time"]), z_up[:, [0, 2, 1]] * [1, 1, -1], atol=1e-4,
                                           err_msg=f"{name} isolated={isolated}")
        with self.assertRaises(rigview.ImportError) as e:
            rigview.load(os.path.join(actions, "character.iqm"), anims=[os.path.join(actions, "short.iqm")])
        self.assertIn("short.iqm: 4 poses, the model", str(e.exception))

    def test_in_process_import_matches_isolated(self):
        a = rigview.load(SIMPLE_SKIN, isolated=False)
        np.testing.assert_array_equal(a.pose(0, 0.3), self.models[SIMPLE_SKIN].pose(0, 0.3))

    def test_argument_forms(self):
        model = rigview.load(pathlib.Path(SIMPLE_SKIN))
        np.testing.assert_array_equal(model.pose(np.int64(0), np.float32(0.3)), model.pose(0, 0.3))
        np.testing.assert_array_equal(model.pose(0, 0.3, True), model.pose(bind=True))
        np.testing.assert_array_equal(model.pose("0", 0.3), model.pose(0, 0.3))  # a decimal index, as --clip
        np.testing.assert_array_equal(model.sample(0, np.array([0.3], np.float32))[0], model.pose(0, 0.3))


class CheckTest(unittest.TestCase):
    def test_check_equals_cli(self):
        files = PUBLIC + [os.path.join(MODELS, "invalid/malformed.obj")]
        for path in files:
            with self.subTest(model=path):
                report = rigview.check(path)
                r = cli("check", path, "--json", check=False)
                whole = json.loads(r.stdout)
                self.assertEqual(whole["schema"], "rigview.check/1")
                doc = whole["files"][0]  # one file's object, as in a report of many
                self.assertEqual(report.to_dict(), doc)
                self.assertEqual(json.loads(report.to_json()), doc)
                self.assertEqual([(f.code, f.severity, f.message, f.subject) for f in report.findings],
                                 [(f["code"], f["severity"], f["message"], f["subject"]) for f in doc["findings"]])
                self.assertEqual(report.passed, doc["passed"])
                self.assertEqual(report.passed, r.returncode == 0)


class ConfigTest(unittest.TestCase):
    """check() reads the project's rigview-check.json as `rigview check` does."""

    def test_check_reads_the_project_configuration(self):
        fbx = os.path.join(MODELS, "FBX/animation_with_skeleton.fbx")  # too-many-influences: a warning
        with tempfile.TemporaryDirectory() as tmp:
            model = os.path.join(tmp, "chars", "hero.fbx")
            os.makedirs(os.path.dirname(model))
            shutil.copyfile(fbx, model)
            with open(os.path.join(tmp, "rigview-check.json"), "w") as f:
                json.dump({"severity": {"too-many-influences": "error"}, "ignore": ["redundant-keys"]}, f)
            report = rigview.check(model)
            codes = {x.code: x.severity for x in report.findings}
            self.assertEqual(codes["too-many-influences"], "error")
            self.assertNotIn("redundant-keys", codes)
            self.assertFalse(report.passed)
            self.assertEqual(report.to_dict(), json.loads(cli("check", model, "--json", check=False).stdout)["files"][0])
            plain = {x.code: x.severity for x in rigview.check(model, config=False).findings}
            self.assertEqual(plain["too-many-influences"], "warning")
            other = os.path.join(tmp, "other.json")
            with open(other, "w") as f:
                json.dump({"ignore": ["too-many-influences"]}, f)
            self.assertNotIn("too-many-influences", {x.code for x in rigview.check(model, config=other).findings})
            with open(other, "w") as f:
                f.write('{"ignore": ["no-such-code"]}')
            with self.assertRaises(ValueError) as cm:
                rigview.check(model, config=other)
            self.assertIn("unknown finding code", str(cm.exception))


class ErrorTest(unittest.TestCase):
    def test_bad_files_raise_and_the_next_call_works(self):
        for name in ["empty.x", "malformed.obj", "empty.md5mesh", "empty.smd"]:
            path = os.path.join(MODELS, "invalid", name)
            r = cli("info", path, check=False)
            with self.subTest(file=name):
                if r.returncode == 0:
                    continue  # a file Assimp reads after all
                with self.assertRaises(rigview.ImportError) as cm:
                    rigview.load(path)
                self.assertIsInstance(cm.exception, OSError)
                self.assertEqual("rigview: " + str(cm.exception), r.stderr.strip().splitlines()[-1])
        with self.assertRaises(rigview.ImportError):
            rigview.load("/nonexistent/model.gltf")
        self.assertGreater(rigview.load(SIMPLE_SKIN).vertex_count, 0)

    def test_crashing_importer(self):
        tmp = tempfile.mkdtemp(prefix="rigview_py_")
        try:
            worker = os.path.join(tmp, "crashing_worker")
            with open(worker, "w") as f:
                f.write("#!/bin/sh\nkill -SEGV $$\n")
            os.chmod(worker, 0o755)
            os.environ["RIGVIEW_WORKER"] = worker
            try:
                with self.assertRaises(rigview.ImportError) as cm:
                    rigview.load(SIMPLE_SKIN)
            finally:
                del os.environ["RIGVIEW_WORKER"]
            self.assertEqual(cm.exception.kind, "crashed")
            self.assertIn("the importer crashed (SIGSEGV)", str(cm.exception))
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        self.assertGreater(rigview.load(SIMPLE_SKIN).vertex_count, 0)

    @unittest.skipUnless(MUTANTS and os.path.isdir(MUTANTS), "no mutants folder (tests/make_mutants.py)")
    def test_hostile_files(self):
        crasher = os.path.join(MUTANTS, "md5_weight_index_far.md5mesh")
        with self.assertRaises(rigview.ImportError) as cm:
            rigview.load(crasher, timeout=20)
        self.assertIn(cm.exception.kind, ("crashed", "error"))
        report = rigview.check(crasher, timeout=20)
        self.assertFalse(report.passed)
        self.assertEqual(report.to_dict(), json.loads(cli("check", crasher, "--json", check=False).stdout)["files"][0])
        hang = os.path.join(MUTANTS, "smd_unterminated_nodes.smd")
        with self.assertRaises(rigview.ImportError) as cm:
            rigview.load(hang, timeout=1)
        self.assertEqual(cm.exception.kind, "timed-out")
        self.assertGreater(rigview.load(SIMPLE_SKIN).vertex_count, 0)

    def test_bad_arguments(self):
        model = rigview.load(SIMPLE_SKIN)
        with self.assertRaisesRegex(ValueError, "no clip 'nope'"):
            model.pose("nope", 0.0)
        with self.assertRaises(ValueError):
            model.pose(99, 0.0)
        with self.assertRaises(ValueError):
            model.pose(-1, 0.0)
        with self.assertRaises(ValueError):
            model.pose(0, float("nan"))
        with self.assertRaises(ValueError):
            model.pose(0, math.inf)
        with self.assertRaises(ValueError):
            model.sample(0, [0.0, float("nan")])
        with self.assertRaises(ValueError):
            model.sample(0, [[0.0, 1.0]])
        with self.assertRaises(ValueError):
            model.pose(bind=True, file_pose=True)
        with self.assertRaises(TypeError):
            model.pose(1.5, 0.0)
        with self.assertRaises(ValueError):
            model.palette("nope")
        with self.assertRaises(ValueError):
            rigview.load(SIMPLE_SKIN, units="furlongs")
        with self.assertRaises(ValueError):
            rigview.load(SIMPLE_SKIN, timeout=-1)
        with self.assertRaises(IndexError):
            model.meshes[0].morph_target(5)
        self.assertEqual(model.sample(0, []).shape, (0, model.vertex_count, 3))


def children():
    """The pids of this process's child processes (every thread's), from /proc."""
    pids = []
    for task in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{task}/children") as f:
                pids += [int(x) for x in f.read().split()]
        except OSError:
            pass
    return pids


class CarefulTest(unittest.TestCase):
    """Names that are not UTF-8 arrive (surrogateescape, round trip); Ctrl-C during a call that
    waits on the import worker raises KeyboardInterrupt within a second, the worker killed."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="rigview-careful-")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def test_names_that_are_not_utf8_arrive(self):
        doc = json.loads(read(SIMPLE_SKIN, "r"))
        doc["nodes"][1]["name"] = "@@JOINT@@"
        doc.setdefault("animations", [{}])[0]["name"] = "@@CLIP@@"
        doc["meshes"][0]["name"] = "@@MESH@@"
        raw = json.dumps(doc).encode()
        raw = raw.replace(b"@@JOINT@@", b"bad\xff\xfejoint").replace(b"@@CLIP@@", b"clip\xc3")
        raw = raw.replace(b"@@MESH@@", "m\u00e9sh".encode())  # valid UTF-8 stays as it is
        path = os.path.join(os.fsencode(self.tmp), b"model\xff.gltf")  # a file name that is not UTF-8 either
        with open(path, "wb") as f:
            f.write(raw)
        m = rigview.load(path)
        self.assertEqual(m.path.encode("utf-8", "surrogateescape"), path)
        self.assertEqual(m.path, os.fsdecode(path))
        joint = m.node_names[1]
        self.assertEqual(joint, "bad\udcff\udcfejoint")
        self.assertEqual(joint.encode("utf-8", "surrogateescape"), b"bad\xff\xfejoint")
        self.assertIn(joint, m.joint_names)
        self.assertEqual(m.meshes[0].name, "m\u00e9sh")
        clip = m.clips[0].name
        self.assertEqual(clip.encode("utf-8", "surrogateescape"), b"clip\xc3")
        # The name goes back in as it came out.
        self.assertTrue(np.array_equal(m.pose(clip, 0.5), m.pose(0, 0.5)))
        repr(m), repr(m.clips[0])  # printable
        # Reports are JSON documents, as the CLI's: bytes that are not UTF-8 become U+FFFD there.
        report = rigview.check(path)
        self.assertEqual(report.file, path.decode("utf-8", "replace"))
        self.assertTrue(report.file.endswith("model\ufffd.gltf"), report.file)

    @unittest.skipUnless(MUTANTS and os.path.isdir(MUTANTS), "no mutants folder (tests/make_mutants.py)")
    def test_ctrl_c_while_waiting_on_the_worker(self):
        hang = os.path.join(MUTANTS, "smd_unterminated_nodes.smd")  # the importer loops until killed
        out = os.path.join(self.tmp, "out.glb")
        calls = [
            ("load", lambda: rigview.load(hang, timeout=60)),
            ("check", lambda: rigview.check(hang, timeout=60)),
            ("export", lambda: rigview.export(hang, out, timeout=60)),
        ]
        for name, call in calls:
            with self.subTest(call=name):
                timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
                start = time.monotonic()
                timer.start()
                try:
                    with self.assertRaises(KeyboardInterrupt):
                        call()
                finally:
                    timer.cancel()
                took = time.monotonic() - start - 0.5
                self.assertLess(took, 1.0, f"{name}: KeyboardInterrupt {took:.2f} s after Ctrl-C")
                self.assertEqual(children(), [], f"{name}: the import worker was not killed")
        # And the module still works afterwards.
        self.assertGreater(rigview.load(SIMPLE_SKIN).vertex_count, 0)


class GilTest(unittest.TestCase):
    def test_sample_releases_the_gil(self):
        """A Python thread keeps counting while another thread is inside sample(): the counter
        advances during the call, which it cannot do while the call holds the GIL."""
        model = rigview.load(BCN)
        d = model.clips[0].duration
        times = np.linspace(0.0, d, 400)
        stamps = []
        stop = threading.Event()

        def count():
            while not stop.is_set():
                stamps.append(time.perf_counter())

        # Long enough that the call spans many switch intervals.
        start = time.perf_counter()
        model.sample(0, times)
        one = time.perf_counter() - start
        reps = max(1, int(math.ceil(0.5 / max(one, 1e-4))))
        times = np.tile(times, reps)
        old = sys.getswitchinterval()
        sys.setswitchinterval(0.001)
        counter = threading.Thread(target=count)
        counter.start()
        try:
            time.sleep(0.01)
            t0 = time.perf_counter()
            model.sample(0, times)
            t1 = time.perf_counter()
        finally:
            stop.set()
            counter.join()
            sys.setswitchinterval(old)
        margin = 0.05 * (t1 - t0)
        inside = [s for s in stamps if t0 + margin < s < t1 - margin]
        # Held, the GIL would let the counter in only around the call's ends (a switch interval
        # of 1 ms); released, it counts all through it.
        span = (max(inside) - min(inside)) if len(inside) > 1 else 0.0
        # (A loaded machine may keep the counting thread waiting for a core now and then: a
        # quarter of the call is still far above the 1 ms a held GIL allows.)
        self.assertGreater(span, 0.25 * (t1 - t0), f"counter ran {span:.3f} s of a {t1 - t0:.3f} s call")

    def test_pose_releases_the_gil(self):
        model = rigview.load(DEMO)
        results = []

        def work():
            results.append(model.pose(0, 0.5))

        threads = [threading.Thread(target=work) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        for r in results:
            np.testing.assert_array_equal(r, results[0])


class CommandsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="rigview_py_")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_render_equals_cli(self):
        out = os.path.join(self.tmp, "frame.png")
        r = cli("render", SIMPLE_SKIN, "-o", out, "--size", "64x48", "--time", "0.5", "--bones", check=False)
        if r.returncode == 6:
            self.skipTest("no OpenGL here: " + r.stderr.strip())
        self.assertEqual(r.returncode, 0, r.stderr)
        image = rigview.render(SIMPLE_SKIN, size=(64, 48), time=0.5, view={"bones": True})
        self.assertEqual(image.shape, (48, 64, 4))
        self.assertEqual(image.dtype, np.uint8)
        np.testing.assert_array_equal(image, read_png(out))
        # A loaded Model renders the same without being imported again: its file may be gone.
        gone = os.path.join(self.tmp, "gone.gltf")
        shutil.copyfile(SIMPLE_SKIN, gone)
        model = rigview.load(gone)
        os.unlink(gone)
        np.testing.assert_array_equal(rigview.render(model, size=(64, 48), time=0.5, view={"bones": True}), image)
        with self.assertRaises(rigview.ImportError):
            rigview.render(gone, size=(64, 48))
        with self.assertRaises(ValueError):
            rigview.render(model, size=(8, 8), anims=[SIMPLE_SKIN])  # anims belong to load()
        with self.assertRaises(ValueError):
            rigview.render(SIMPLE_SKIN, size=(0, 10))
        with self.assertRaises(ValueError):
            rigview.render(SIMPLE_SKIN, size=(8, 8), view={"nonsense": True})
        with self.assertRaises(TypeError):
            rigview.render(SIMPLE_SKIN, size=(8, 8), view={"bones": "yes"})

    def test_render_options_equal_cli(self):
        # The options beyond the view: a state machine with a parameter, a crowd, compressed
        # clips and a two-bone IK chain, each pixel for pixel as `rigview render` draws them.
        machine = os.path.join(SOURCE, "assets/demo/rigview_demo.machine.json")
        cases = [
            (DEMO, ["--machine", machine, "--set", "speed=1", "--time", "1"],
             dict(machine=machine, sets=["speed=1"], time=1.0)),
            (SIMPLE_SKIN, ["--instances", "4", "--time", "0.5"], dict(instances=4, time=0.5)),
            (DEMO, ["--compressed", "0.1", "--time", "0.5"], dict(compressed=0.1, time=0.5)),
            (DEMO, ["--bind-pose", "--ik-two-bone", "thigh.L,shin.L,foot.L", "--ik-target", "0.2,0.4,0.3",
                    "--ik-pole", "0,0,1"],
             dict(bind=True, ik={"two_bone": ("thigh.L", "shin.L", "foot.L"), "target": (0.2, 0.4, 0.3),
                                 "pole": (0, 0, 1)})),
        ]
        plain = None
        for i, (model, args, kwargs) in enumerate(cases):
            out = os.path.join(self.tmp, f"options{i}.png")
            r = cli("render", model, "-o", out, "--size", "64x48", *args, check=False)
            if r.returncode == 6:
                self.skipTest("no OpenGL here: " + r.stderr.strip())
            self.assertEqual(r.returncode, 0, r.stderr)
            np.testing.assert_array_equal(rigview.render(model, size=(64, 48), **kwargs), read_png(out), err_msg=str(args))
            if model == DEMO and plain is None:
                plain = rigview.render(DEMO, size=(64, 48), time=1.0)
                self.assertFalse(np.array_equal(plain, read_png(out)), "the machine changed nothing")
        with self.assertRaises(ValueError):
            rigview.render(DEMO, size=(8, 8), ik={"two_bone": "thigh.L,nope,foot.L", "target": (0, 0, 0)})
        with self.assertRaises(ValueError):
            rigview.render(DEMO, size=(8, 8), ik={"reach": 1})
        with self.assertRaises(ValueError):
            rigview.render(DEMO, size=(8, 8), compressed=-1.0)

    def test_export_equals_cli(self):
        for ext in ("bvh", "gltf"):
            mine, theirs = os.path.join(self.tmp, "py." + ext), os.path.join(self.tmp, "cli." + ext)
            cli("export", DEMO, "-o", theirs, "--clip", "0", "--fps", "24")
            rigview.export(DEMO, mine, clip=0, fps=24)
            if ext == "bvh":
                self.assertEqual(read(mine), read(theirs))
            else:
                a, b = json.loads(read(mine, "r")), json.loads(read(theirs, "r"))
                for d in (a, b):  # the buffer's file name follows the output's
                    for buf in d.get("buffers", []):
                        buf.pop("uri", None)
                self.assertEqual(a, b)
        # A loaded Model: the same file.
        from_model = os.path.join(self.tmp, "model.bvh")
        rigview.export(rigview.load(DEMO), from_model, clip=0, fps=24)
        self.assertEqual(read(from_model), read(os.path.join(self.tmp, "cli.bvh")))
        with self.assertRaises(ValueError):
            rigview.export(DEMO, os.path.join(self.tmp, "x.txt"))
        with self.assertRaises(ValueError):
            rigview.export(DEMO, os.path.join(self.tmp, "x.bvh"), clip="nope")
        with self.assertRaises(OSError):
            rigview.export(DEMO, os.path.join(self.tmp, "missing", "dir", "x.bvh"))

    def test_compress_equals_cli(self):
        mine, theirs = os.path.join(self.tmp, "py.glb"), os.path.join(self.tmp, "cli.glb")
        doc = json.loads(cli("compress", SIMPLE_SKIN, "-o", theirs, "--tolerance", "0.5", "--json").stdout)
        report = rigview.compress(SIMPLE_SKIN, mine, tolerance=0.5)
        self.assertIsInstance(report, rigview.CompressReport)
        self.assertEqual(report.output, mine)
        mine_doc = report.to_dict()
        doc.pop("output")
        mine_doc.pop("output")
        self.assertEqual(mine_doc, doc)
        self.assertEqual(report.clips, doc["clips"])
        self.assertEqual(read(mine), read(theirs))
        # A loaded Model: used as it is, not imported again (the same bytes).
        again = os.path.join(self.tmp, "again.glb")
        self.assertEqual(rigview.compress(rigview.load(SIMPLE_SKIN), again, tolerance=0.5).clips, doc["clips"])
        self.assertEqual(read(again), read(theirs))
        with self.assertRaises(ValueError):
            rigview.compress(SIMPLE_SKIN, mine, tolerance=-1)

    def test_diff_equals_cli(self):
        # Against itself: nothing differs. Against another rig: the report `diff --json` prints.
        same = rigview.diff(DEMO, DEMO)
        self.assertIsInstance(same, rigview.Diff)
        self.assertFalse(same.differs)
        for a, b in ((DEMO, DEMO), (DEMO, BCN)):
            r = cli("diff", a, b, "--json", check=False)
            self.assertEqual(r.returncode, 0 if a == b else 1, r.stderr)
            doc = json.loads(r.stdout)
            mine = rigview.diff(rigview.load(a), b).to_dict()  # a Model or a path
            for d in (doc, mine):
                d.pop("a")
                d.pop("b")
            self.assertEqual(mine, doc)
        other = rigview.diff(DEMO, BCN)
        self.assertTrue(other.differs)
        self.assertEqual(other.joints, json.loads(cli("diff", DEMO, BCN, "--json", check=False).stdout)["joints"])
        with self.assertRaises(ValueError):
            rigview.diff(DEMO, DEMO, tolerance=float("nan"))
        with self.assertRaises(rigview.ImportError):
            rigview.diff(DEMO, os.path.join(self.tmp, "missing.gltf"))


if __name__ == "__main__":
    unittest.main()
