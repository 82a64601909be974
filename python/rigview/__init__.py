"""rigview from Python: import rigged, animated models and pose, check, render, export and
compress them with the same code as the `rigview` command line.

    import rigview
    model = rigview.load("character.fbx")           # isolated worker process, as the CLI
    points = model.pose("walk", 0.5)                 # (N, 3) world positions, = rigview pose --json
    frames = model.sample("walk", [0.0, 0.1, 0.2])   # (T, N, 3), the GIL released meanwhile
    report = rigview.check("character.fbx")          # a Report: = rigview check --json
    image = rigview.render(model, size=(320, 240))   # (240, 320, 4) uint8; a Model or a path

Errors are exceptions: ValueError for bad arguments (an unknown clip, a NaN time),
rigview.ImportError for files that cannot be imported (a crash of the importer included: it
runs in a worker process, the interpreter lives on), OSError for outputs that cannot be
written. Warnings the command line prints (a resource outside the model's folder, a format's
limits) are Python warnings.
"""
from __future__ import annotations

import json as _json
import os
from dataclasses import dataclass, field
from typing import Any, Dict, List, Literal, Optional, Sequence, Union

from ._rigview import (  # noqa: F401  (re-exported)
    Clip,
    ImportError,
    Mesh,
    Model,
    __version__,
    export,
    load,
    output_is_not_an_input,
    render,
)
from . import _rigview

# rigview.ImportError is left out of __all__: `from rigview import *` must not shadow the
# built-in ImportError.
__all__ = [
    "Clip",
    "CompressReport",
    "Diff",
    "Finding",
    "Mesh",
    "Model",
    "Report",
    "check",
    "codes_markdown",
    "compress",
    "diff",
    "export",
    "load",
    "output_is_not_an_input",
    "render",
]


PathLike = Union[str, bytes, "os.PathLike[str]"]


@dataclass(frozen=True)
class Finding:
    """One finding of `rigview check`: a stable code, its severity ("error", "warning" or
    "info"), a one-line message, how many things it counts and what they are (`subject`), a few
    example indices or names, a measured value, and where it is (indices into the model's
    meshes, skeleton nodes and clips; None when it is not about one)."""

    code: str
    severity: str
    message: str
    count: int = 0
    subject: str = ""
    examples: List[int] = field(default_factory=list)
    names: List[str] = field(default_factory=list)
    value: Optional[float] = None
    mesh: Optional[int] = None
    joint: Optional[int] = None
    clip: Optional[int] = None

    @classmethod
    def from_dict(cls, d: Dict[str, Any]) -> "Finding":
        """A finding from its `check --json` object."""
        return cls(code=d["code"], severity=d["severity"], message=d["message"], count=d.get("count", 0),
                   subject=d.get("subject", ""), examples=list(d.get("examples", [])), names=list(d.get("names", [])),
                   value=d.get("value"), mesh=d.get("mesh"), joint=d.get("joint"), clip=d.get("clip"))


class _CliJson:
    """A result that keeps the JSON text its command prints with --json (check, diff,
    compress): to_json() gives that text, to_dict() the parsed object."""

    _json: str

    def to_json(self) -> str:
        """The result as the command's --json prints it (without the final newline)."""
        return self._json

    def to_dict(self) -> Dict[str, Any]:
        """The result as a dict (the JSON object)."""
        d: Dict[str, Any] = _json.loads(self._json)
        return d


@dataclass(frozen=True)
class Report(_CliJson):
    """What `rigview check --json` reports for one file. `worst` is "error", "warning", "info"
    or "none"; `passed` is False when there are errors (or warnings, with strict=True) or the
    file could not be imported, then `error` holds the import's one-line message (a crash or a
    time-out of the importer is also a finding, importer-crashed / importer-timeout)."""

    file: str
    worst: str
    passed: bool
    findings: List[Finding]
    error: Optional[str] = None
    _json: str = field(default="", repr=False, compare=False)

    @property
    def imported(self) -> bool:
        """Whether the file could be imported (and was checked)."""
        return self.error is None


@dataclass(frozen=True)
class Diff(_CliJson):
    """What changed from version `a` of a rig to version `b` (`rigview diff A B --json`, whose
    JSON Schema is docs/schemas/diff.schema.json): `placement` first (where b's whole rig sits
    relative to a's: "moved", "translation_mm", "rotation_deg", "axis", "scale"...), then, with
    a placed so, `joints` ("added", "removed", "renamed", "reparented", "bind_pose"), `meshes`
    ("added", "removed", "changed"), `weights` (per mesh, with the joints that gained or lost
    weight), `materials`, `clips` ("added", "removed", "renamed", "retimed", "motion").
    `differs` is True when anything differs beyond the tolerances."""

    a: str
    b: str
    differs: bool
    tolerance_mm: float
    tolerance_deg: float
    weight_tolerance: float
    placement: Dict[str, Any]
    joints: Dict[str, List[Any]]
    meshes: Dict[str, List[Any]]
    weights: List[Dict[str, Any]]
    materials: List[Dict[str, Any]]
    clips: Dict[str, List[Any]]
    _json: str = field(default="", repr=False, compare=False)


@dataclass(frozen=True)
class CompressReport(_CliJson):
    """What `rigview compress --json` reports: the model and output, the tolerance (millimetres
    and model units), a note on the units, per clip its sizes, ratios, kept keys and measured
    errors (`clips`: "name", "original_bytes", "compressed_bytes", "ratio", "original_keys",
    "kept_keys", "joint_error_mm", "vertex_error_mm", "within_tolerance"...), and the totals."""

    model: str
    output: str
    tolerance_mm: float
    tolerance_model_units: float
    units: str
    clips: List[Dict[str, Any]]
    total: Dict[str, Any]
    _json: str = field(default="", repr=False, compare=False)


def check(path: PathLike, *, units: str = "metres", anims: Sequence[PathLike] = (), isolated: bool = True,
          timeout: float = 120.0, strict: bool = False,
          config: Union[None, Literal[False], PathLike] = None) -> Report:
    """Check one model file's rig as `rigview check --json` does and return its Report (the
    same findings, codes, severities, messages and subjects). The file is imported in an
    isolated worker process unless isolated=False; a file that cannot be imported gives a Report
    with `error` set (and passed False), not an exception. units, anims and timeout as for
    load(); strict=True fails on warnings too (--strict). config: the project configuration,
    as `rigview check` finds it: None, the nearest rigview-check.json in the file's folder or
    above it; a path, that file (--config); False, none (--no-config); one that cannot be used
    raises ValueError. The GIL is released meanwhile."""
    text = _rigview._check_json(path, units, list(anims), isolated, timeout, strict, config)
    d: Dict[str, Any] = _json.loads(text)
    return Report(file=d["file"], worst=d["worst"], passed=d["passed"],
                  findings=[Finding.from_dict(f) for f in d["findings"]], error=d.get("error"), _json=text)


def compress(path: Union[PathLike, Model], output: PathLike, *, tolerance: float = 0.1, delta: bool = True,
             units: str = "metres", anims: Sequence[PathLike] = (), isolated: bool = True,
             timeout: float = 120.0) -> CompressReport:
    """Compress every clip of `path` (a file, or a loaded Model, used as it was loaded) within
    `tolerance` millimetres and write the model with the compressed clips to `output` (.gltf or
    .glb), as `rigview compress` does; returns the report `rigview compress --json` prints."""
    text = _rigview._compress_json(path, output, tolerance, delta, units, list(anims), isolated, timeout)
    d = _json.loads(text)
    return CompressReport(model=d["model"], output=d["output"], tolerance_mm=d["tolerance_mm"],
                          tolerance_model_units=d["tolerance_model_units"], units=d["units"], clips=d["clips"],
                          total=d["total"], _json=text)


def diff(a: Union[PathLike, Model], b: Union[PathLike, Model], *, tolerance: float = 0.01,
         units: str = "metres", anims: Sequence[PathLike] = (), isolated: bool = True,
         timeout: float = 120.0) -> Diff:
    """What changed from version `a` of a rig to version `b`, as `rigview diff A B --json`
    reports it (see Diff): the placement, then joints, bind poses, meshes, weights, materials,
    clips and motion compared with a placed so. `a` and `b` are paths (loaded as load() does,
    with units, anims, isolated and timeout) or Models. The comparison runs with the GIL released."""
    ma = a if isinstance(a, Model) else load(a, units=units, anims=list(anims), isolated=isolated, timeout=timeout)
    mb = b if isinstance(b, Model) else load(b, units=units, anims=list(anims), isolated=isolated, timeout=timeout)
    text = _rigview._diff_json(ma, mb, tolerance)
    d = _json.loads(text)
    return Diff(a=d["a"], b=d["b"], differs=d["differs"], tolerance_mm=d["tolerance_mm"],
                tolerance_deg=d["tolerance_deg"], weight_tolerance=d["weight_tolerance"], placement=d["placement"],
                joints=d["joints"], meshes=d["meshes"], weights=d["weights"], materials=d["materials"],
                clips=d["clips"], _json=text)


def codes_markdown() -> str:
    """The table of finding codes, their severities and meanings (`rigview check --list-codes`)."""
    text: str = _rigview._codes_markdown()
    return text
