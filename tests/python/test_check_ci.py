"""`rigview check` for CI (docs/ci.md): the project file rigview-check.json (found above each
file, --config, --no-config; ignore, severity, tolerances, per-path overrides; bad files refused
in one line), --format sarif|junit|json|json-lines|text, -o FILE and - for stdout, the JSON
outputs of check, diff, info and pose valid against docs/schemas/ (Debian's python3-jsonschema),
the pre-commit hook's script on a folder with a broken file, and the rigview check commands of
docs/ci.md's GitHub Actions and GitLab CI examples run as written.

Run: RIGVIEW_EXE=build/rigview RIGVIEW_SOURCE_DIR=. python3 tests/python/test_check_ci.py -v
(CTest: python.check_ci).
"""

import gzip
import json
import os
import re
import shutil
import subprocess
import tempfile
import unittest
import xml.etree.ElementTree as ET

import jsonschema
import yaml

EXE = os.path.abspath(os.environ["RIGVIEW_EXE"]) if "RIGVIEW_EXE" in os.environ else "rigview"
REPO = os.environ.get("RIGVIEW_SOURCE_DIR", os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
MODELS = "/usr/share/assimp/models"
# Warnings only: too-many-influences (mesh 0), and nothing else at error.
WARNED = MODELS + "/FBX/animation_with_skeleton.fbx"
CLEAN = MODELS + "/glTF2/simple_skin/simple_skin.gltf"
BROKEN = MODELS + "/invalid/empty.x"


def run(args, cwd=None, env=None, stdin=None):
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, timeout=120, stdin=subprocess.DEVNULL)


def schema(name):
    with open(os.path.join(REPO, "docs", "schemas", name + ".schema.json")) as f:
        return json.load(f)


def validate(doc, name, ref=None):
    s = schema(name)
    if ref:
        s = {"$schema": s["$schema"], "$defs": s["$defs"], "$ref": "#/$defs/" + ref}
    jsonschema.Draft202012Validator(s, format_checker=jsonschema.FormatChecker()).validate(doc)


def findings(report, name):
    """{code: severity} of the file whose path ends in `name` in a --format json report."""
    for f in report["files"]:
        if f["file"].endswith(name):
            return {x["code"]: x["severity"] for x in f["findings"]}
    raise AssertionError(name + " not in the report")


class Tmp(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="rigview-ci-")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def put(self, src, rel):
        dst = os.path.join(self.dir, rel)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copy(src, dst)
        return dst

    def write(self, rel, text):
        dst = os.path.join(self.dir, rel)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        with open(dst, "w") as f:
            f.write(text)
        return dst


class ConfigTest(Tmp):
    def test_project_file_found_above_each_file_with_overrides(self):
        a = self.put(WARNED, "proj/chars/hero/a.fbx")
        b = self.put(WARNED, "proj/props/b.fbx")
        self.write("proj/rigview-check.json", json.dumps({
            "schema": 1,
            "severity": {"too-many-influences": "error"},
            "overrides": [{"paths": ["props/**"], "ignore": ["too-many-influences"]}],
        }))
        r = run([EXE, "check", a, b, "--format", "json"])
        self.assertEqual(r.returncode, 1, r.stderr)  # a's warning made an error
        doc = json.loads(r.stdout)
        validate(doc, "check")
        self.assertEqual(findings(doc, "a.fbx").get("too-many-influences"), "error")
        self.assertNotIn("too-many-influences", findings(doc, "b.fbx"))
        self.assertEqual(doc["summary"]["failed"], 1)
        # --no-config: the table's severities (a warning passes).
        r = run([EXE, "check", a, b, "--format", "json", "--no-config"])
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(findings(json.loads(r.stdout), "b.fbx").get("too-many-influences"), "warning")
        # --config names one file for all: here one that lowers it to info everywhere.
        other = self.write("elsewhere.json", json.dumps({"severity": {"too-many-influences": "info"}}))
        r = run([EXE, "check", a, b, "--format", "json", "--config", other])
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(findings(json.loads(r.stdout), "b.fbx").get("too-many-influences"), "info")
        # The nearest file wins: one in chars/ ignoring the code for a.fbx alone.
        self.write("proj/chars/rigview-check.json", json.dumps({"ignore": ["too-many-influences"]}))
        r = run([EXE, "check", a, "--format", "json"])
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertNotIn("too-many-influences", findings(json.loads(r.stdout), "a.fbx"))

    def test_tolerances_and_loop_names(self):
        # animation_with_skeleton.fbx: a node scaled 1.214 : 1 (non-uniform-scale at the default
        # 0.001), and a clip whose name says nothing of looping (loop-seam at info).
        m = self.put(WARNED, "p/m.fbx")
        codes = findings(json.loads(run([EXE, "check", m, "--format", "json", "--no-config"]).stdout), "m.fbx")
        self.assertEqual(codes.get("non-uniform-scale"), "warning")
        self.assertEqual(codes.get("loop-seam"), "info")
        self.write("p/rigview-check.json", json.dumps({"overrides": [
            {"paths": ["*.fbx"], "tolerances": {"non_uniform_scale": 0.25}, "loop_names": ["action"]}]}))
        tuned = findings(json.loads(run([EXE, "check", m, "--format", "json"]).stdout), "m.fbx")
        self.assertNotIn("non-uniform-scale", tuned)
        self.assertEqual(tuned.get("loop-seam"), "warning")
        self.write("p/rigview-check.json", json.dumps({"overrides": [
            {"paths": ["other/*.fbx"], "tolerances": {"non_uniform_scale": 0.25}}]}))
        self.assertEqual(findings(json.loads(run([EXE, "check", m, "--format", "json"]).stdout), "m.fbx"), codes)

    def test_bad_configuration_is_one_line(self):
        m = self.put(CLEAN, "q/m.gltf")
        cases = {
            '{"ignore": ["no-such-code"]}': "unknown finding code",
            '{"severity": {"clip-static": "fatal"}}': "must be \"error\", \"warning\" or \"info\"",
            '{"tolerances": {"bind_pos": 1}}': "unknown tolerance \"bind_pos\"",
            '{"tolerances": {"bind_pose": -1}}': "finite number",
            '{"overrides": [{"ignore": []}]}': "needs \"paths\"",
            '{"ignore": ["clip-static"]': "not valid JSON",
            '{"ignored": []}': "unknown key \"ignored\"",
        }
        for text, why in cases.items():
            path = self.write("q/rigview-check.json", text)
            r = run([EXE, "check", m])
            err = r.stderr.decode()
            self.assertEqual(r.returncode, 2, text + ": " + err)
            self.assertEqual(len(err.splitlines()), 1, err)
            self.assertIn(path, err)
            self.assertIn(why, err)


class FormatTest(Tmp):
    def folder(self):
        self.put(WARNED, "models/warned.fbx")
        self.put(BROKEN, "models/sub/broken.x")
        return os.path.join(self.dir, "models")

    def test_one_json_shape_for_any_count_and_json_lines(self):
        one = run([EXE, "check", WARNED, "--json"])
        doc = json.loads(one.stdout)
        validate(doc, "check")
        self.assertEqual(len(doc["files"]), 1)
        self.assertEqual(doc["schema"], "rigview.check/1")
        many = run([EXE, "check", self.folder(), "--format", "json"])
        self.assertEqual(many.returncode, 3)
        doc = json.loads(many.stdout)
        validate(doc, "check")
        self.assertEqual(doc["summary"]["unreadable"], 1)
        self.assertEqual(sorted(doc.keys()), ["files", "rigview_version", "schema", "summary"])
        lines = run([EXE, "check", self.folder(), "--format", "json-lines"]).stdout.decode().splitlines()
        self.assertEqual(len(lines), 3)
        for line in lines:
            validate(json.loads(line), "check", "line")
        self.assertIn("summary", json.loads(lines[-1]))

    def test_files_from_a_list(self):
        # NUL-ended names, as --list-files writes them: from a file or standard input; a name
        # with a newline in it is one name.
        odd = self.put(CLEAN, "odd\nname.gltf")
        listing = os.path.join(self.dir, "list")
        with open(listing, "wb") as f:
            f.write(WARNED.encode() + b"\0" + odd.encode() + b"\0")
        doc = json.loads(run([EXE, "check", "--files-from", listing, "--format", "json"]).stdout)
        self.assertEqual(sorted(x["file"] for x in doc["files"]), sorted([WARNED, odd]))
        p = subprocess.run([EXE, "check", "--files-from", "-", "--format", "json", BROKEN], input=odd.encode() + b"\0",
                           capture_output=True, timeout=120)
        self.assertEqual(p.returncode, 3)
        self.assertEqual(json.loads(p.stdout)["summary"]["files"], 2)
        missing = run([EXE, "check", "--files-from", os.path.join(self.dir, "none")])
        self.assertEqual(missing.returncode, 2)
        self.assertEqual(len(missing.stderr.decode().splitlines()), 1)

    def test_sarif(self):
        r = run([EXE, "check", self.folder(), "--format", "sarif"])
        self.assertEqual(r.returncode, 3)
        sarif = json.loads(r.stdout)
        self.assertEqual(sarif["version"], "2.1.0")
        run0 = sarif["runs"][0]
        self.assertEqual(run0["tool"]["driver"]["name"], "rigview")
        rules = {x["id"] for x in run0["tool"]["driver"]["rules"]}
        by_rule = {}
        for res in run0["results"]:
            self.assertIn(res["ruleId"], rules)
            self.assertIn(res["level"], ("error", "warning", "note"))
            self.assertTrue(res["message"]["text"])
            by_rule[res["ruleId"]] = res["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        self.assertTrue(by_rule["too-many-influences"].endswith("models/warned.fbx"), by_rule)
        self.assertTrue(by_rule["unreadable"].endswith("models/sub/broken.x"), by_rule)
        # Relative paths stay relative (resolved against the checkout by code scanning).
        rel = json.loads(run([EXE, "check", "models", "--format", "sarif"], cwd=self.dir).stdout)
        self.assertIn("models/warned.fbx", [x["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                                            for x in rel["runs"][0]["results"]])

    def test_junit(self):
        r = run([EXE, "check", self.folder(), "--format", "junit", "--strict"])
        self.assertEqual(r.returncode, 3)
        root = ET.fromstring(r.stdout)
        suite = root.find("testsuite")
        self.assertEqual(suite.get("tests"), "2")
        self.assertEqual(suite.get("failures"), "1")  # the warnings, with --strict
        self.assertEqual(suite.get("errors"), "1")    # the unreadable file
        cases = {c.get("name"): c for c in suite.findall("testcase")}
        warned = [c for n, c in cases.items() if n.endswith("warned.fbx")][0]
        self.assertEqual(warned.find("failure").get("type"), "weights-not-normalized")  # the first of its warnings
        self.assertIn("[too-many-influences]", warned.find("failure").text)
        broken = [c for n, c in cases.items() if n.endswith("broken.x")][0]
        self.assertIsNotNone(broken.find("error"))
        # Without --strict the warnings pass, written as the case's output.
        root = ET.fromstring(run([EXE, "check", WARNED, "--format", "junit"]).stdout)
        case = root.find("testsuite/testcase")
        self.assertIsNone(case.find("failure"))
        self.assertIn("too-many-influences", case.find("system-out").text)

    def test_output_file_and_dash(self):
        out = os.path.join(self.dir, "report.json")
        r = run([EXE, "check", WARNED, "--format", "json", "-o", out])
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout, b"")
        with open(out) as f:
            validate(json.load(f), "check")
        dash = run([EXE, "check", WARNED, "--format", "sarif", "-o", "-"])
        self.assertEqual(json.loads(dash.stdout)["version"], "2.1.0")
        # The report never over a checked file.
        model = self.put(WARNED, "x/m.fbx")
        r = run([EXE, "check", model, "-o", model])
        self.assertEqual(r.returncode, 2)
        with open(model, "rb") as f, open(WARNED, "rb") as g:
            self.assertEqual(f.read(), g.read())
        # - for stdout where other commands take an output: pose (JSON) and compress (.glb).
        pose = run([EXE, "pose", CLEAN, "-o", "-"])
        self.assertEqual(pose.returncode, 0, pose.stderr)
        validate(json.loads(pose.stdout), "pose")
        bvh = run([EXE, "export", CLEAN, "-o", "-"])
        self.assertEqual(bvh.returncode, 0, bvh.stderr)
        self.assertTrue(bvh.stdout.startswith(b"HIERARCHY"), bvh.stdout[:40])
        png = run([EXE, "render", CLEAN, "-o", "-", "--size", "32x24"])
        if png.returncode != 6:  # 6: no OpenGL context here
            self.assertEqual(png.returncode, 0, png.stderr)
            self.assertEqual(png.stdout[:8], b"\x89PNG\r\n\x1a\n")
        glb = run([EXE, "compress", MODELS + "/BVH/01_01.bvh", "-o", "-"])
        self.assertEqual(glb.returncode, 0, glb.stderr)
        self.assertEqual(glb.stdout[:4], b"glTF")


class SchemaTest(Tmp):
    def test_info_pose_diff_validate(self):
        for f in (WARNED, CLEAN, MODELS + "/BVH/01_01.bvh", os.path.join(REPO, "assets", "demo", "demo.gltf")):
            if not os.path.exists(f):
                continue
            r = run([EXE, "info", f, "--json"])
            self.assertEqual(r.returncode, 0, r.stderr)
            validate(json.loads(r.stdout), "info")
            p = run([EXE, "pose", f, "-o", "-", "--time", "0.5"])
            self.assertEqual(p.returncode, 0, p.stderr)
            validate(json.loads(p.stdout), "pose")
        same = run([EXE, "diff", CLEAN, CLEAN, "--json"])
        self.assertEqual(same.returncode, 0, same.stderr)
        validate(json.loads(same.stdout), "diff")
        other = run([EXE, "diff", WARNED, CLEAN, "--json"])
        self.assertEqual(other.returncode, 1, other.stderr)
        doc = json.loads(other.stdout)
        validate(doc, "diff")
        self.assertTrue(doc["differs"])
        # Across formats: an FBX and Blender's glTF export of it (placement, renamed clips, materials).
        pair = []
        for name in ("blender_demo.fbx.gz", "blender_demo_from_fbx.glb.gz"):
            out = os.path.join(self.dir, name[:-3])
            with gzip.open(os.path.join(REPO, "tests", "data", "blender", name)) as f, open(out, "wb") as g:
                g.write(f.read())
            pair.append(out)
        across = json.loads(run([EXE, "diff"] + pair + ["--json"]).stdout)
        validate(across, "diff")
        self.assertEqual(len(across["clips"]["renamed"]), 3)
        # A schema that would accept anything proves nothing: a wrong type is refused.
        doc["differs"] = "yes"
        with self.assertRaises(jsonschema.ValidationError):
            validate(doc, "diff")


class HookTest(Tmp):
    def test_hook_definition_and_script(self):
        with open(os.path.join(REPO, ".pre-commit-hooks.yaml")) as f:
            hooks = yaml.safe_load(f)
        hook = [h for h in hooks if h["id"] == "rigview-check"][0]
        script = os.path.join(REPO, hook["entry"])
        self.assertTrue(os.access(script, os.X_OK))
        pattern = re.compile(hook["files"])
        self.assertTrue(pattern.search("a/b/Hero.FBX") and pattern.search("x.gltf"))
        self.assertFalse(pattern.search("notes.txt") or pattern.search("tex.png"))
        env = dict(os.environ, RIGVIEW=EXE)
        self.put(CLEAN, "repo/ok/rig.gltf")
        self.put(BROKEN, "repo/assets/broken.x")
        bad = run([script, os.path.join(self.dir, "repo")], env=env)
        self.assertNotEqual(bad.returncode, 0)
        self.assertIn("broken.x", bad.stderr.decode() + bad.stdout.decode())
        good = run([script, WARNED], env=env)
        self.assertEqual(good.returncode, 0, good.stderr)
        self.assertEqual(run([script], env=env).returncode, 0)  # no file staged


class CiExamplesTest(Tmp):
    def test_docs_examples_run_as_written(self):
        with open(os.path.join(REPO, "docs", "ci.md")) as f:
            blocks = re.findall(r"```yaml\n(.*?)```", f.read(), re.S)
        commands = []
        for b in blocks:
            doc = yaml.safe_load(b)
            text = json.dumps(doc)
            commands += re.findall(r'"(rigview check [^"]*)"', text)
        self.assertEqual(len(commands), 2, commands)  # GitHub's (SARIF) and GitLab's (JUnit)
        self.put(WARNED, "models/hero.fbx")
        self.put(BROKEN, "models/broken.x")
        for c in commands:
            args = c.split()
            r = run([EXE] + args[1:], cwd=self.dir)
            self.assertEqual(r.returncode, 3, c + ": " + r.stderr.decode())
            out = os.path.join(self.dir, args[args.index("-o") + 1])
            with open(out, "rb") as f:
                data = f.read()
            if "sarif" in args:
                results = json.loads(data)["runs"][0]["results"]
                self.assertEqual({x["ruleId"] for x in results} >= {"unreadable", "too-many-influences"}, True)
            else:
                self.assertEqual(ET.fromstring(data).find("testsuite").get("errors"), "1")


if __name__ == "__main__":
    unittest.main()
