// What the binding files of the rigview Python module share: the Model as Python holds it,
// how a call's import options and isolation are made, and how a command's error lines become
// Python exceptions and warnings.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include "anim/runtime/model.h"
#include "import/import_options.h"
#include "platform/import_worker.h"

namespace rigpy {

namespace py = pybind11;

// rigview.Model: an imported model, immutable and shared (NumPy views keep it alive).
struct PyModel {
    std::shared_ptr<const rig::Model> model;
};

// A file argument: str, bytes or os.PathLike (pathlib.Path).
using PathArg = std::filesystem::path;
std::vector<std::string> pathStrings(const std::vector<PathArg>& paths);

// units="metres" or "file" (ValueError otherwise).
rig::ImportOptions importOptionsFor(const std::string& units);
// How one call imports: in a worker process (the package's bin/rigview, or $RIGVIEW_WORKER)
// with a time limit, or in this process.
rig::IsolationConfig isolationFor(bool isolated, double timeoutSeconds);
// Raise rigview.ImportError(message) with its `kind` ("error", "crashed", "timed-out",
// "out-of-memory", "cancelled").
[[noreturn]] void raiseImportError(const std::string& message, rig::ImportFailure failure);
// Lines a library call printed (app/command_util's ErrorCapture) as Python warnings.
void warnLines(const std::vector<std::string>& lines);

// rigview.Model, rigview.Mesh, rigview.Clip and rigview.load().
void bindModel(py::module_& m);

}  // namespace rigpy
