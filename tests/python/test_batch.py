"""rigview.batch (python/rigview/batch.py): `rigview check` over a folder on a local Dask
cluster gives the lines and summary `rigview check --json-lines` gives; a worker killed mid-run
loses no file; a file whose task kills its worker every time is importer-crashed (found by
running its failed chunk again one file per task); --resume checks only changed files and
skips damaged lines with one warning; the local cluster listens on loopback with no dashboard;
an output over a file to check is refused.

Run: PYTHONPATH=build/python RIGVIEW_BIN=build/rigview /usr/bin/python3 tests/python/test_batch.py
(CTest: python.batch). Each test starts a LocalCluster of 2 worker processes, one thread each.
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
MODELS = "/usr/share/assimp/models"
DEMO = os.path.join(REPO, "assets", "demo")

try:
    import distributed  # noqa: F401
    HAVE_DASK = True
except ImportError:
    HAVE_DASK = False

from rigview import batch  # noqa: E402  (the built package: PYTHONPATH=build/python)

# Small public files: two rigged models, a mocap clip, broken ones; and the demo (with its .bin).
COPIES = [
    ("glTF2/simple_skin/simple_skin.gltf", "simple_skin.gltf"),
    ("BVH/Boxing_Toes.bvh", "mocap/Boxing_Toes.bvh"),
    ("invalid/empty.x", "broken/empty.x"),
    ("invalid/malformed.obj", "broken/malformed.obj"),
    ("invalid/malformed2.obj", "broken/malformed2.obj"),
]


def rigview_bin():
    return batch.find_rigview(None)  # $RIGVIEW_BIN (CTest's), else the build beside python/


def file_lines(text):
    """{file: line object without the batch's own keys}, and the summary."""
    files, summary = {}, None
    for raw in text.splitlines():
        if not raw.strip():
            continue
        obj = json.loads(raw)
        if "summary" in obj:
            summary = obj["summary"]
            continue
        obj.pop("stat", None)
        obj.pop("counts", None)
        assert obj["file"] not in files, "file reported twice: " + obj["file"]
        files[obj["file"]] = obj
    return files, summary


@unittest.skipUnless(HAVE_DASK, "Dask distributed is not installed (Debian: python3-distributed)")
class BatchCheckTest(unittest.TestCase):
    """The command line against one LocalCluster shared by the tests (--scheduler ADDRESS), and
    once with its own (--local 2)."""

    @classmethod
    def setUpClass(cls):
        cls.rigview = rigview_bin()
        cls.tmp = tempfile.mkdtemp(prefix="rigview_batch_test_")
        cls.root = os.path.join(cls.tmp, "library")
        for src, dst in COPIES:
            dst = os.path.join(cls.root, dst)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copyfile(os.path.join(MODELS, src), dst)
        os.makedirs(os.path.join(cls.root, "demo"))
        for name in ("rigview_demo.gltf", "rigview_demo.bin"):
            shutil.copyfile(os.path.join(DEMO, name), os.path.join(cls.root, "demo", name))
        # A symlink to a model (followed, as rigview does) and a file that is no model (skipped).
        os.symlink(os.path.join(cls.root, "demo", "rigview_demo.gltf"), os.path.join(cls.root, "linked.gltf"))
        with open(os.path.join(cls.root, "notes.txt"), "w") as f:
            f.write("not a model\n")
        # What rigview itself says about the folder.
        p = subprocess.run([cls.rigview, "check", "--json-lines", cls.root], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, check=False)
        cls.expected_rc = p.returncode
        cls.expected, cls.expected_summary = file_lines(p.stdout.decode())
        cls.expected_summary_line = p.stdout.decode().splitlines()[-1]
        assert len(cls.expected) == len(COPIES) + 2, cls.expected
        # The workers read the test hook's file (batch.py's RIGVIEW_BATCH_TEST_HOOKS) at each task.
        cls.hooks = os.path.join(cls.tmp, "hooks.json")
        os.environ["RIGVIEW_BATCH_TEST_HOOKS"] = cls.hooks
        cls.cluster = batch.local_cluster(2, processes=True)  # worker processes: the tests kill one

    @classmethod
    def tearDownClass(cls):
        cls.cluster.close()
        del os.environ["RIGVIEW_BATCH_TEST_HOOKS"]
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def setUp(self):
        self.set_hooks({})

    def set_hooks(self, hooks):
        with open(self.hooks, "w") as f:
            json.dump(hooks, f)

    def run_batch(self, *args, wait=True):
        env = dict(os.environ)
        env["RIGVIEW_BIN"] = self.rigview
        where = [] if "--local" in args else ["--scheduler", self.cluster.scheduler_address]
        cmd = [sys.executable, "-m", "rigview.batch", "check", self.root] + where + list(args)
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        if not wait:
            return p
        out, err = p.communicate(timeout=120)
        return p.returncode, out.decode(), err.decode()

    def assert_same_as_rigview(self, out, rc, err=""):
        files, summary = file_lines(out)  # asserts each file once
        self.assertEqual(files, self.expected, err)
        self.assertEqual(summary, self.expected_summary)
        self.assertEqual(rc, self.expected_rc, err)

    def test_local_cluster_gives_rigviews_lines_and_summary(self):
        rc, out, err = self.run_batch("--local", "2")
        self.assert_same_as_rigview(out, rc, err)
        # Every line carries the file's stat and its one-file counts.
        for raw in out.splitlines()[:-1]:
            obj = json.loads(raw)
            st = os.stat(obj["file"])
            self.assertEqual(obj["stat"], {"size": st.st_size, "mtime_ns": st.st_mtime_ns})
            self.assertEqual(obj["counts"]["files"], 1)
        # The summary line is rigview's, byte for byte.
        self.assertEqual(out.splitlines()[-1], self.expected_summary_line)
        self.assertIn('"rigview_version":', self.expected_summary_line)

    def test_a_worker_killed_mid_run_loses_no_file(self):
        pidfile = os.path.join(self.tmp, "hung.pid")
        self.set_hooks({"hang": "simple_skin.gltf", "pidfile": pidfile})
        p = self.run_batch(wait=False)
        deadline = time.monotonic() + 60
        while not os.path.exists(pidfile) and time.monotonic() < deadline and p.poll() is None:
            time.sleep(0.05)
        self.assertTrue(os.path.exists(pidfile), "the hung task never started")
        with open(pidfile) as f:
            os.kill(int(f.read()), signal.SIGKILL)  # the Dask worker running simple_skin.gltf's task
        out, err = p.communicate(timeout=120)
        self.assert_same_as_rigview(out.decode(), p.returncode, err.decode())

    def test_a_file_that_kills_its_worker_every_time_is_importer_crashed(self):
        self.set_hooks({"exit": "Boxing_Toes.bvh"})
        # In chunks of 4: the chunk holding it fails, is run again one file per task.
        rc, out, err = self.run_batch("--retries", "1", "--chunk", "4")
        files, summary = file_lines(out)
        self.assertEqual(set(files), set(self.expected), err)
        crashed = [f for f in files if f.endswith("Boxing_Toes.bvh")][0]
        line = files[crashed]
        self.assertEqual(line["passed"], False)
        self.assertEqual(line["worst"], "error")
        self.assertTrue(line["error"].startswith(crashed + ": the check killed its Dask worker on 2 tries"), line)
        self.assertEqual([f["code"] for f in line["findings"]], ["importer-crashed"])
        self.assertEqual(line["findings"][0]["severity"], "error")
        for f in files:
            if f != crashed:
                self.assertEqual(files[f], self.expected[f])
        self.assertEqual(summary["importer_crashed"], self.expected_summary["importer_crashed"] + 1)
        self.assertEqual(summary["unreadable"], self.expected_summary["unreadable"] + 1)
        self.assertEqual(summary["files"], self.expected_summary["files"])
        self.assertEqual(rc, batch.EXIT_BAD_INPUT)

    def test_a_file_rigview_cannot_check_has_no_line_and_exit_7(self):
        # A rigview that lists the files but dies without a report on one of them.
        fake = os.path.join(self.tmp, "fake_rigview")
        with open(fake, "w") as f:
            # (the names come on standard input: look there)
            f.write('#!/bin/sh\ncase "$*" in *--files-from*) names=$(tr "\\0" "\\n");; esac\n'
                    'case "$names" in *malformed.obj*) echo "rigview: internal error" >&2; exit 7;; esac\n'
                    'if [ -n "$names" ]; then printf "%%s" "$names" | tr "\\n" "\\0" | exec "%s" "$@"; fi\n'
                    'exec "%s" "$@"\n' % (self.rigview, self.rigview))
        os.chmod(fake, 0o755)
        rc, out, err = self.run_batch("--rigview", fake, "--chunk", "7")  # one chunk: every file run again alone
        files, summary = file_lines(out)
        broken = os.path.join(self.root, "broken", "malformed.obj")
        self.assertEqual(set(files), set(self.expected) - {broken}, err)
        self.assertEqual(summary["files"], self.expected_summary["files"] - 1)
        self.assertIn(broken + ": could not be checked: rigview check gave no report", err)
        self.assertEqual(rc, batch.EXIT_INTERNAL_ERROR)

    def test_local_cluster_listens_on_loopback_with_no_dashboard(self):
        import urllib.error
        import urllib.request
        # --local's cluster (worker threads): in-process messages, HTTP servers on 127.0.0.1 only.
        threads = batch.local_cluster(2)
        try:
            self.assertTrue(threads.scheduler_address.startswith("inproc://"), threads.scheduler_address)
            servers = [threads.scheduler.http_server] + [w.http_server for w in threads.workers.values()]
            hosts = {sock.getsockname()[0] for server in servers for sock in server._sockets.values()}
            self.assertEqual(hosts, {"127.0.0.1"})
        finally:
            threads.close()
        self.assertTrue(self.cluster.scheduler_address.startswith("tcp://127.0.0.1:"), self.cluster.scheduler_address)
        port = self.cluster.scheduler.http_server.port
        for page in ("/status", "/"):
            with self.assertRaises(urllib.error.HTTPError) as cm:
                urllib.request.urlopen("http://127.0.0.1:%d%s" % (port, page), timeout=10)
            self.assertEqual(cm.exception.code, 404)

    def test_output_over_a_file_to_check_is_refused(self):
        """-o (and --resume) naming a file to check, by any name: the file itself, a path through
        '..', a symbolic link to it and a hard link to it (another name, outside the library) are
        all refused by rigview's own rule before anything is written; the file is intact."""
        model = os.path.join(self.root, "simple_skin.gltf")
        demo = os.path.join(self.root, "demo", "rigview_demo.gltf")
        with open(model, "rb") as f:
            before = f.read()
        with open(demo, "rb") as f:
            demo_before = f.read()
        hard = os.path.join(self.tmp, "report_hard.jsonl")
        soft = os.path.join(self.tmp, "report_soft.jsonl")
        os.link(demo, hard)
        os.symlink(model, soft)
        try:
            for out in (model, os.path.join(self.root, "mocap", "..", "simple_skin.gltf"), soft, hard):
                for option in ("-o", "--resume"):
                    rc, _, err = self.run_batch(option, out)
                    self.assertEqual(rc, batch.EXIT_USAGE, out + ": " + err)
                    self.assertIn(": is the input file ", err)
                    self.assertEqual(len(err.strip().splitlines()), 1, err)
            with open(model, "rb") as f:
                self.assertEqual(f.read(), before)
            with open(demo, "rb") as f:
                self.assertEqual(f.read(), demo_before)
            # The rule itself, through the module: the same refusals, and an output that is
            # none of the files (or does not exist yet) passes.
            import rigview
            files = batch.list_files(self.rigview, [self.root])
            with self.assertRaises(ValueError):
                rigview.output_is_not_an_input(hard, files)
            rigview.output_is_not_an_input(os.path.join(self.tmp, "hooks.json"), files)
            rigview.output_is_not_an_input(os.path.join(self.tmp, "new.jsonl"), files)
        finally:
            os.remove(hard)
            os.remove(soft)

    def test_resume_checks_only_changed_files(self):
        out_path = os.path.join(self.tmp, "resume.jsonl")
        rc, out, err = self.run_batch("-o", out_path)
        self.assertEqual(out, "")
        with open(out_path) as f:
            first = f.read().splitlines(True)
        self.assert_same_as_rigview("".join(first), rc, err)
        # A run cut short: no summary, its last line half written (that file is checked again).
        with open(out_path, "w") as f:
            f.write("".join(first[:-2]) + first[-2][:20])
        cut = json.loads(first[-2])["file"]
        # Touch one file; any other file's task would kill its worker if it ran again.
        touched = os.path.join(self.root, "broken", "malformed2.obj")
        st = os.stat(touched)
        os.utime(touched, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
        untouched = [f for f in self.expected if f not in (touched, cut)][0]
        self.set_hooks({"exit": os.path.basename(untouched)})
        rc, out, err = self.run_batch("--resume", out_path, "--retries", "0", "--chunk", "3")
        self.assertEqual(out, "")
        self.assertIn("to check", err)
        with open(out_path) as f:
            final = f.read()
        self.assert_same_as_rigview(final, rc, err)
        self.assertEqual(len(final.splitlines()), len(self.expected) + 1)  # one line per file, the summary
        stats = {json.loads(l)["file"]: json.loads(l)["stat"] for l in final.splitlines()[:-1]}
        self.assertEqual(stats[touched]["mtime_ns"], os.stat(touched).st_mtime_ns)


class BatchUnitTest(unittest.TestCase):
    def test_read_previous_skips_summaries_and_cut_lines(self):
        with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
            f.write('{"file":"a","passed":true,"counts":{"files":1},"stat":{"size":1,"mtime_ns":2}}\n')
            f.write('{"summary":{"files":1}}\n')
            f.write('{"file":"a","passed":false,"counts":{"files":1},"stat":{"size":1,"mtime_ns":3}}\n')
            f.write('{"file":"b","passed":true}\n')  # plain rigview output: no stat, checked again
            f.write('{"file":"c","pass')
        try:
            previous = batch.read_previous(f.name)
        finally:
            os.unlink(f.name)
        self.assertEqual(sorted(previous), ["a"])
        self.assertEqual(previous["a"][0]["mtime_ns"], 3)

    def test_damaged_lines_are_skipped_with_one_warning(self):
        good = '{"file":"a","passed":true,"counts":{"files":1,"passed":1},"stat":{"size":1,"mtime_ns":2}}\n'
        damaged = [
            '{"summary":{"files":1,"fai\n',                       # a summary line cut short
            '{"file":"b","passed":true,"counts":[1],"stat":{"size":1,"mtime_ns":2}}\n',  # counts not an object
            '{"file":"c","passed":true,"counts":{"files":1},"stat":{"size":"x","mtime_ns":2}}\n',
            '{"file":"d","passed":"yes","counts":{"files":1},"stat":{"size":1,"mtime_ns":2}}\n',
            '[' * 100000 + '\n',                                  # nesting Python's parser cannot take
            '\xff\xfe{"file":\n',
            '7\n',
        ]
        with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False, encoding="latin-1") as f:
            f.write(good + "".join(damaged))
        warnings = []
        try:
            previous = batch.read_previous(f.name, warnings.append)
        finally:
            os.unlink(f.name)
        self.assertEqual(sorted(previous), ["a"])
        self.assertEqual(len(warnings), 1, warnings)
        self.assertIn("7 cut or damaged lines skipped", warnings[0])
        self.assertIn("checked again", warnings[0])

    def test_counts_of_a_line_are_rigviews_summary_of_it(self):
        # An unreadable file with its own error row, and a report with non-finite values.
        line = {"file": "x", "error": "x: refused", "passed": False, "worst": "error", "findings": [
            {"code": "external-path-refused", "severity": "error"}, {"code": "importer-crashed", "severity": "error"}]}
        c = batch.counts_of(line)
        self.assertEqual((c["files"], c["failed"], c["unreadable"], c["importer_crashed"], c["errors"]), (1, 1, 1, 1, 1))
        line = {"file": "y", "passed": True, "worst": "warning", "findings": [
            {"code": "loop-seam", "severity": "warning"}, {"code": "non-finite-output", "severity": "info"}]}
        c = batch.counts_of(line)
        self.assertEqual((c["passed"], c["warnings"], c["infos"]), (1, 1, 0))

    def test_dash_is_standard_output(self):
        out = batch.Output("-", append=False)
        self.assertIsNone(out.path)
        self.assertIs(out.f, sys.stdout.buffer)

    def test_added_keys_keep_rigviews_text(self):
        line = '{"file":"x.gltf","findings":[],"passed":true,"value":1e-05,"worst":"none"}'
        out = batch.add_keys(line, {"size": 3, "mtime_ns": 4}, {"files": 1})
        self.assertTrue(out.startswith(line[:-1] + ',"counts":{"files":1},"stat":'))
        self.assertEqual(json.loads(out)["stat"], {"size": 3, "mtime_ns": 4})


if __name__ == "__main__":
    unittest.main(verbosity=2)
