"""The rigview Python API as a typed program uses it: `mypy --strict` must pass on this file
(CTest python.types, tests/python/test_types.py) without a cast or an ignore, so the stubs give
each call the one type a caller expects. Not run, only type-checked."""
from __future__ import annotations

from typing import Dict, List

import numpy as np
import numpy.typing as npt

import rigview


def summary(path: str) -> Dict[str, int]:
    model: rigview.Model = rigview.load(path, units="file", timeout=30.0)
    points: npt.NDArray[np.float32] = model.pose("walk", 0.5)
    centre = points.mean(axis=0)
    per_mesh: List[npt.NDArray[np.float32]] = model.pose(0, 0.25, per_mesh=True)
    bind: npt.NDArray[np.float32] = model.pose(bind=True)
    frames: npt.NDArray[np.float32] = model.sample("walk", [0.0, 0.5, 1.0])
    world: npt.NDArray[np.float32] = model.world("walk", 0.5)
    offsets: List[int] = model.palette_offsets("walk", 0.5)
    palette = model.palette(None, 0.0, file_pose=True)
    names: List[str] = [c.name for c in model.clips] + model.joint_names + [m.name for m in model.meshes]
    image: npt.NDArray[np.uint8] = rigview.render(model, size=(64, 48), view={"bones": True})
    rigview.export(model, "/tmp/out.glb", clip=0)
    report: rigview.Report = rigview.check(path, strict=True, config=False)
    worst: str = report.worst
    errors = [f for f in report.findings if f.severity == "error" and f.mesh is not None]
    changes: rigview.Diff = rigview.diff(path, model, tolerance=0.1)
    renamed: List[str] = [r["to"] for r in changes.clips["renamed"]]
    packed: rigview.CompressReport = rigview.compress(model, "/tmp/small.glb", tolerance=0.5)
    ratio = float(packed.total["ratio"])
    return {
        "vertices": int(points.shape[0]) + len(per_mesh) + int(bind.size) + int(centre.size),
        "frames": int(frames.shape[0]) + int(world.shape[0]) + len(offsets) + int(palette.shape[0]),
        "names": len(names) + len(worst) + len(errors) + len(renamed) + int(image.shape[0]) + int(ratio),
        "differs": int(changes.differs) + len(report.to_json()) + len(packed.to_dict()),
    }
