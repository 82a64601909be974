"""Builds the rigview Python package with the project's CMake (pyproject.toml names this file's
backend, setuptools): configure a Release tree without tests or benchmarks in build-pip/
(beside build/, so a compiler cache given both through CMAKE_ARGS sees the same relative paths
and reuses objects), build the extension `_rigview`, the rigview binary and the prefiltered studio environment, and
install CMake's `python` component (python/CMakeLists.txt) into the package being built:
rigview/ with the extension, the Python files, bin/rigview (the import worker) and
share/rigview (the data folder).

$CMAKE_ARGS adds arguments to CMake's configure step (e.g. a compiler launcher);
$RIGVIEW_PIP_BUILD_DIR names another CMake build folder; $CMAKE_BUILD_PARALLEL_LEVEL the jobs.
"""
import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
(ROOT / "build-pip").mkdir(exist_ok=True)  # setuptools' build and metadata folders go there, not into build/


def rigview_version():
    """The version by the rule the binary uses (cmake/version.cmake)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "version.txt"
        subprocess.run(["cmake", "-DSOURCE_DIR=" + str(ROOT), "-DOUT=" + str(out), "-DFORMAT=text", "-P",
                        str(ROOT / "cmake" / "version.cmake")], check=True)
        return out.read_text().strip()


class CMakeBuild(build_ext):
    def run(self):
        self.force = True  # CMake decides what is out of date
        super().run()

    def build_extension(self, ext):
        # build/lib.../rigview/_rigview.*.so -> build/lib...: the prefix the component installs into.
        prefix = Path(self.get_ext_fullpath(ext.name)).resolve().parent.parent
        build = Path(os.environ.get("RIGVIEW_PIP_BUILD_DIR") or ROOT / "build-pip")
        configure = ["cmake", "-S", str(ROOT), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
                     "-DRIGVIEW_BUILD_TESTS=OFF", "-DRIGVIEW_BUILD_BENCH=OFF", "-DRIGVIEW_PYTHON=ON",
                     "-DPython3_EXECUTABLE=" + sys.executable]
        configure += shlex.split(os.environ.get("CMAKE_ARGS", ""))
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 1)
        subprocess.run(configure, check=True)
        subprocess.run(["cmake", "--build", str(build), "--target", "_rigview", "rigview", "rigview_prefiltered_studio", "-j",
                        jobs], check=True)
        subprocess.run(["cmake", "--install", str(build), "--component", "python", "--prefix", str(prefix), "--strip"],
                       check=True)


setup(
    version=rigview_version(),
    packages=[],  # everything in the package comes from CMake's python component
    ext_modules=[Extension("rigview._rigview", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    options={"build": {"build_base": "build-pip/setuptools"}, "egg_info": {"egg_base": "build-pip"}},
    zip_safe=False,
)
