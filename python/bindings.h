// What the binding files of the rigview Python module share: the Model as Python holds it,
// how a call's import options and isolation are made, and how a command's error lines become
// Python exceptions and warnings.
#pragma once

#include <atomic>
#include <filesystem>
#include <functional>
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

// Names and paths from a model (nodes, joints, meshes, clips, morph targets, Model.path) as
// Python str: bytes that are not UTF-8 arrive as lone surrogates (the "surrogateescape" error
// handler, as os.fsdecode does), so name.encode("utf-8", "surrogateescape") gives the file's
// bytes back and the name can be passed back (pose(clip=name)). nameBytes is the way back.
py::str pyName(const std::string& bytes);
py::list pyNames(const std::vector<std::string>& bytes);
std::string nameBytes(const py::handle& str);
// Text for a message (exceptions, warnings): invalid UTF-8 replaced by U+FFFD.
std::string messageText(const std::string& s);

// Runs `work` (which must not touch Python) on a helper thread while this thread waits with the
// GIL released, taking it back every 50 ms to run Python's signal handlers: when one raises
// (Ctrl-C's KeyboardInterrupt), `cancel` is set, so an isolated import in flight kills its
// worker and returns within about 50 ms; the helper is waited for and the exception propagates.
// An exception thrown by `work` is rethrown here.
void runInterruptible(std::atomic<bool>& cancel, const std::function<void()>& work);

// rigview.Model, rigview.Mesh, rigview.Clip and rigview.load().
void bindModel(py::module_& m);

}  // namespace rigpy
