"""The Python API type-checks: `mypy --strict` (Debian's mypy) on docs/python.md's examples and
tests/python/typed_usage.py against the built package's stubs (build/python/rigview: py.typed,
_rigview.pyi), and mypy's stubtest holding _rigview.pyi to the compiled module (every name,
class member and argument the stub declares is the module's and the other way round).

Run: PYTHONPATH=build/python RIGVIEW_SOURCE_DIR=. MYPY_CACHE_DIR=build/mypy_cache \
     /usr/bin/python3 tests/python/test_types.py -v   (CTest: python.types)
"""
import ast
import importlib
import os
import re
import subprocess
import sys
import tempfile
import unittest

SOURCE = os.environ.get("RIGVIEW_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
PACKAGE = next((p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep)
                if os.path.isdir(os.path.join(p, "rigview"))), "")


def mypy(*args):
    env = dict(os.environ, MYPYPATH=PACKAGE)
    return subprocess.run([sys.executable, "-m", "mypy", *args], capture_output=True, text=True, env=env,
                          timeout=600)


class TypesTest(unittest.TestCase):
    def test_docs_examples_and_typed_usage_pass_mypy_strict(self):
        with open(os.path.join(SOURCE, "docs", "python.md")) as f:
            blocks = re.findall(r"```python\n(.*?)```", f.read(), re.S)
        self.assertTrue(blocks)
        with tempfile.TemporaryDirectory() as tmp:
            examples = os.path.join(tmp, "docs_examples.py")
            with open(examples, "w") as f:
                f.write("\n".join(blocks))
            r = mypy("--strict", "--python-executable", sys.executable, examples,
                     os.path.join(SOURCE, "tests", "python", "typed_usage.py"))
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)

    def test_a_wrong_use_fails(self):
        # The check can fail: a per-mesh pose taken as one array is an error.
        with tempfile.TemporaryDirectory() as tmp:
            wrong = os.path.join(tmp, "wrong.py")
            with open(wrong, "w") as f:
                f.write("import rigview\nm = rigview.load('x.fbx')\nn: int = m.pose(per_mesh=True).shape[0]\n"
                        "d: dict[str, object] = rigview.diff(m, m)\n")
            r = mypy("--strict", "--python-executable", sys.executable, wrong)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("wrong.py:3", r.stdout)
        self.assertIn("wrong.py:4", r.stdout)

    def test_stubs_match_the_compiled_module(self):
        allow = os.path.join(SOURCE, "tests", "python", "stubtest_allowlist.txt")
        r = subprocess.run([sys.executable, "-m", "mypy.stubtest", "rigview._rigview", "--allowlist", allow],
                           capture_output=True, text=True, env=dict(os.environ, MYPYPATH=PACKAGE), timeout=600)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)

    def test_stub_arguments_are_the_bindings(self):
        # stubtest cannot read a pybind11 function's signature; pybind11 writes it as the first
        # line of the docstring: "name(self: T, clip: object = None, *, file_pose: bool = False) -> R".
        # Every function and method of the stub takes the same arguments, in order, keyword-only
        # where the binding's are.
        module = importlib.import_module("rigview._rigview")
        with open(os.path.join(PACKAGE, "rigview", "_rigview.pyi")) as f:
            tree = ast.parse(f.read())

        def stub_args(fn):
            a = fn.args
            return [(x.arg, False) for x in a.posonlyargs + a.args if x.arg != "self"] + [(x.arg, True) for x in a.kwonlyargs]

        def runtime_args(obj, name):
            first = (obj.__doc__ or "").strip().splitlines()[0]
            m = re.match(re.escape(name) + r"\((.*)\) ->", first)
            self.assertIsNotNone(m, name + ": " + first)
            out, kwonly, depth, part = [], False, 0, ""
            for ch in m.group(1) + ",":
                depth += ch in "[(" and 1 or (ch in "])" and -1 or 0)
                if ch == "," and depth == 0:
                    part = part.strip()
                    if part == "*":
                        kwonly = True
                    elif part:
                        arg = part.split(":")[0].strip()
                        if arg != "self":
                            out.append((arg, kwonly))
                    part = ""
                else:
                    part += ch
            return out

        checked = 0
        for node in tree.body:
            defs = [(node.name, node, module)] if isinstance(node, ast.FunctionDef) else []
            if isinstance(node, ast.ClassDef):
                cls = getattr(module, node.name)
                defs = [(f.name, f, cls) for f in node.body if isinstance(f, ast.FunctionDef)
                        and not any(isinstance(d, ast.Name) and d.id == "property" for d in f.decorator_list)]
            seen = set()
            for name, fn, owner in defs:
                if name in seen or name.startswith("__"):  # an overload's first declaration speaks for all
                    continue
                seen.add(name)
                with self.subTest(function=name):
                    self.assertEqual(stub_args(fn), runtime_args(getattr(owner, name), name))
                    checked += 1
        self.assertGreater(checked, 12)


if __name__ == "__main__":
    unittest.main()
