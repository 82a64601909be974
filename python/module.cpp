// The rigview Python module (_rigview, wrapped by python/rigview/__init__.py): load() and the
// Model (model_bindings.cpp), and check, render, export and compress calling the code of those
// commands (app/). Errors become Python exceptions: ValueError for bad arguments, rigview.ImportError
// for files that cannot be imported, OSError for outputs that cannot be written, RuntimeError
// when no OpenGL context can be made; warning lines become Python warnings.
#include <dlfcn.h>

#include <chrono>
#include <cmath>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <cstdlib>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "app/check_formats.h"
#include "app/check_report.h"
#include "app/command_util.h"
#include "app/commands.h"
#include "app/exit_codes.h"
#include "bindings.h"
#include "check/codes.h"
#include "check/rig_diff.h"
#include "render/view_options.h"
#include "util/data_folder.h"
#include "util/json_out.h"
#include "util/text.h"
#include "util/version.h"

namespace rigpy {

namespace {

// rigview.ImportError (a handle, not an object: nothing to release after the interpreter ends;
// the module holds its reference).
py::handle gImportError;

// The package's own rigview binary, the import worker: rigview/bin/rigview beside this module
// (set when the module loads).
std::string gWorker;

// The folder holding this module's shared object: the rigview package, whose bin/rigview is
// the import worker and whose share/rigview is the data folder (an installed package, or the
// build tree's python/rigview, laid out the same way).
std::filesystem::path packageFolder() {
    Dl_info info{};
    if (::dladdr(reinterpret_cast<const void*>(&packageFolder), &info) == 0 || info.dli_fname == nullptr) return {};
    std::error_code ec;
    const std::filesystem::path so = std::filesystem::canonical(info.dli_fname, ec);
    return ec ? std::filesystem::path() : so.parent_path();
}

const char* failureKind(rig::ImportFailure f) {
    switch (f) {
        case rig::ImportFailure::Crashed: return "crashed";
        case rig::ImportFailure::TimedOut: return "timed-out";
        case rig::ImportFailure::OutOfMemory: return "out-of-memory";
        case rig::ImportFailure::Cancelled: return "cancelled";
        default: return "error";
    }
}

std::string joined(const std::vector<std::string>& lines, const char* fallback) {
    if (lines.empty()) return fallback;
    std::string s = lines.front();
    for (size_t i = 1; i < lines.size(); ++i) s += "\n" + lines[i];
    return s;
}

// A command's exit code as Python sees it: nothing for success (its lines become warnings), else
// the exception its code stands for, with the command's error lines as the message.
void finish(int rc, const std::vector<std::string>& lines) {
    namespace ec = rig::exitcode;
    if (rc == ec::kOk || rc == ec::kCheckFailed) {
        warnLines(lines);
        return;
    }
    const std::string message = messageText(joined(lines, "failed"));
    switch (rc) {
        case ec::kUsage: throw py::value_error(message);
        case ec::kBadInput: raiseImportError(message, rig::ImportFailure::Error);
        case ec::kOutputFailed: {
            PyErr_SetString(PyExc_OSError, message.c_str());
            throw py::error_already_set();
        }
        default: throw std::runtime_error(message);
    }
}

// A model argument: a path, or a loaded rigview.Model (then not imported again).
struct ModelArg {
    std::string path;
    std::shared_ptr<const rig::Model> model;  // null: a path
};

ModelArg modelArg(const py::object& arg, const std::vector<PathArg>& anims) {
    if (py::isinstance<PyModel>(arg)) {
        const PyModel& m = arg.cast<const PyModel&>();
        if (!anims.empty()) throw py::value_error("anims: give them to load(), not with a loaded Model");
        return {m.model->path, m.model};
    }
    return {arg.cast<PathArg>().string(), nullptr};
}

// Command-line style options every command shares.
template <typename Options>
void fillImport(Options& o, const ModelArg& path, const std::string& units, const std::vector<PathArg>& anims) {
    o.model = path.path;
    o.import = importOptionsFor(units);
    o.anims = pathStrings(anims);
}

// A command that reads the process-wide isolation setting (render, export, compress), run
// interruptibly (runInterruptible: Ctrl-C kills its import worker): the setting is made for the
// call under a lock (calls from several Python threads take turns), and the command's error
// lines are kept on its thread and handed back. Returns its exit code.
std::mutex gCommandMutex;

int runCommand(bool isolated, double timeout, std::vector<std::string>& lines, const std::function<int()>& command,
               const std::shared_ptr<const rig::Model>& model = nullptr) {
    std::atomic<bool> cancel{false};
    rig::IsolationConfig config = isolationFor(isolated, timeout);
    config.cancel = &cancel;
    int rc = rig::exitcode::kInternalError;
    runInterruptible(cancel, [&] {
        std::lock_guard<std::mutex> lock(gCommandMutex);
        struct Restore {
            rig::IsolationConfig previous = rig::isolation();
            ~Restore() { rig::setIsolation(previous); }
        } restore;
        rig::setIsolation(config);
        rig::cmd::ErrorCapture capture;
        std::optional<rig::cmd::PreloadedModel> preloaded;
        if (model) preloaded.emplace(*model);
        rc = command();
        lines = capture.lines();
    });
    return rc;
}

std::string clipKey(const py::object& clip) {
    if (clip.is_none()) return {};
    if (py::isinstance<py::bool_>(clip)) throw py::type_error("clip must be None, an index or a name, not a bool");
    if (PyIndex_Check(clip.ptr())) return std::to_string(py::int_(clip).cast<long long>());
    if (py::isinstance<py::str>(clip)) {
        std::string s = nameBytes(clip);
        if (s.empty()) throw py::value_error("clip: an empty name");
        return s;
    }
    throw py::type_error("clip must be None, an index or a name");
}

// config: None, the nearest rigview-check.json above the file (as `rigview check`); False, none
// (--no-config); a path, that file (--config). A configuration that cannot be used: ValueError.
std::string checkJson(const PathArg& path, const std::string& units, const std::vector<PathArg>& anims,
                      bool isolated, double timeout, bool strict, const py::object& configArg) {
    const rig::ImportOptions options = importOptionsFor(units);
    const bool none = py::isinstance<py::bool_>(configArg) && !configArg.cast<bool>();
    if (py::isinstance<py::bool_>(configArg) && configArg.cast<bool>()) {
        throw py::type_error("config must be None, False or the path of a rigview-check.json");
    }
    const std::string configPath = configArg.is_none() || none ? std::string() : configArg.cast<PathArg>().string();
    rig::CheckConfigFinder finder(configPath, none);
    const rig::CheckConfig* project = finder.forFile(path.string());
    if (!finder.error().empty()) throw py::value_error(messageText(finder.error()));
    const std::vector<const rig::CheckRule*> rules = project ? rig::rulesFor(*project, path.string())
                                                             : std::vector<const rig::CheckRule*>{};
    rig::IsolationConfig config = isolationFor(isolated, timeout);
    std::atomic<bool> cancel{false};
    config.cancel = &cancel;
    const std::vector<std::string> files = pathStrings(anims);
    const std::string file = path.string();
    rig::FileResult r;
    runInterruptible(cancel, [&] { r = rig::checkFile(file, files, options, config, nullptr, rig::kMaxInfluences, rules); });
    return rig::jsonout::dump(rig::fileJson(r, strict), 2);
}

// `rigview diff --json` of two loaded models (the GIL released while they are compared).
std::string diffJson(const PyModel& a, const PyModel& b, double toleranceMm) {
    if (!std::isfinite(toleranceMm) || toleranceMm < 0.0) {
        throw py::value_error("tolerance: must be a finite number of millimetres, 0 or more");
    }
    rig::DiffOptions options;
    options.toleranceMm = toleranceMm;
    options.metresPerUnitA = rig::cmd::metresPerModelUnit(*a.model);
    options.metresPerUnitB = rig::cmd::metresPerModelUnit(*b.model);
    rig::RigDiff d;
    {
        py::gil_scoped_release release;
        d = rig::diffModels(*a.model, *b.model, options);
    }
    return rig::jsonout::dump(rig::diffDocumentJson(d, a.model->path, b.model->path), 2);
}

// One view option set from a Python value (py::cast_error when it has the wrong type).
void applyViewOption(rig::ViewOptions& view, const rig::ViewOptionSpec* spec, const std::string& key, py::handle v) {
    switch (spec->type) {
        case rig::ViewOptionType::Flag: view.*(spec->flag) = v.cast<bool>(); break;
        case rig::ViewOptionType::Number: {
            const float x = v.cast<float>();
            if (!(x >= spec->min && x <= spec->max)) {
                throw py::value_error("view: " + key + " must be in [" + rig::cmd::fmt(spec->min, "%g") + ", " +
                                      rig::cmd::fmt(spec->max, "%g") + "]");
            }
            view.*(spec->number) = x;
            break;
        }
        case rig::ViewOptionType::Choice: {
            const std::string name = v.cast<std::string>();
            const int i = rig::choiceIndex(*spec, name);
            if (i < 0) throw py::value_error("view: " + key + " has no choice '" + name + "'");
            spec->setChoice(view, i);
            break;
        }
        case rig::ViewOptionType::Color: {
            const std::vector<float> c = v.cast<std::vector<float>>();
            if (c.size() != 3 && c.size() != 4) throw py::value_error("view: " + key + " takes (r, g, b) or (r, g, b, a)");
            view.*(spec->color) = glm::vec4(c[0], c[1], c[2], c.size() == 4 ? c[3] : 1.0f);
            break;
        }
    }
}

// The view option table's entries by key (render/view_options), as `render`'s flags set them.
void applyView(rig::ViewOptions& view, const py::dict& options) {
    for (const auto& item : options) {
        const std::string key = py::str(item.first);
        const rig::ViewOptionSpec* spec = rig::findViewOption(key);
        if (!spec) {
            std::string keys;
            for (const rig::ViewOptionSpec& s : rig::viewOptionTable()) keys += (keys.empty() ? "" : ", ") + std::string(s.key);
            throw py::value_error("view: no option '" + key + "' (options: " + keys + ")");
        }
        const py::handle v = item.second;
        try {
            applyViewOption(view, spec, key, v);
        } catch (const py::cast_error&) {
            const char* kinds[] = {"a bool", "a choice name", "a number", "(r, g, b) or (r, g, b, a)"};
            throw py::type_error("view: " + key + " takes " + kinds[static_cast<int>(spec->type)]);
        }
    }
}

// A number as the command line would get it (every digit a float keeps).
std::string numberText(double x) { return rig::cmd::fmt(x, "%.9g"); }

// X,Y,Z from a sequence of three numbers (or the command line's text).
std::string vec3Text(const py::handle& v, const char* what) {
    if (py::isinstance<py::str>(v)) return v.cast<std::string>();
    const std::vector<double> xyz = v.cast<std::vector<double>>();
    if (xyz.size() != 3) throw py::value_error(std::string("ik: ") + what + " must be three numbers X, Y, Z");
    return numberText(xyz[0]) + "," + numberText(xyz[1]) + "," + numberText(xyz[2]);
}

// ik={"two_bone": (START, MID, END) or "START,MID,END", "target": (x, y, z), "pole": (x, y, z),
// "weight": w, "soft": s}: the --ik-* options (the command checks them as it does its own).
void fillIk(rig::IkOptions& ik, const py::object& spec) {
    if (spec.is_none()) return;
    for (const auto& [k, v] : spec.cast<py::dict>()) {
        const std::string key = py::str(k);
        if (key == "two_bone") {
            if (py::isinstance<py::str>(v)) {
                ik.twoBone = v.cast<std::string>();
            } else {
                std::string chain;
                for (const py::handle& j : v) {
                    if (!chain.empty()) chain += ',';
                    chain += py::str(j).cast<std::string>();
                }
                ik.twoBone = chain;
            }
        } else if (key == "target") {
            ik.target = vec3Text(v, "target");
        } else if (key == "pole") {
            ik.pole = vec3Text(v, "pole");
        } else if (key == "weight") {
            ik.weight = v.cast<float>();
        } else if (key == "soft") {
            ik.soft = v.cast<float>();
        } else {
            throw py::value_error("ik: unknown key \"" + key + "\" (two_bone, target, pole, weight, soft)");
        }
    }
}

py::array_t<uint8_t> render(const py::object& pathOrModel, const py::object& clip, double time, bool bind, bool filePose,
                            std::pair<int, int> size, double azimuth, double elevation, int samples, const py::object& view,
                            const py::object& machine, const std::vector<std::string>& sets, const py::object& instances,
                            double spacing, const py::object& compressed, const py::object& ik, const std::string& units,
                            const std::vector<PathArg>& anims, bool isolated, double timeout) {
    rig::RenderOptions o;
    const ModelArg path = modelArg(pathOrModel, anims);
    fillImport(o, path, units, anims);
    o.clip = clipKey(clip);
    o.time = time;
    o.bindPose = bind;
    o.filePose = filePose;
    o.size = std::to_string(size.first) + "x" + std::to_string(size.second);
    o.azimuth = static_cast<float>(azimuth);
    o.elevation = static_cast<float>(elevation);
    o.samples = samples;
    if (!view.is_none()) applyView(o.view, view.cast<py::dict>());
    if (!machine.is_none()) o.machine = machine.cast<PathArg>().string();
    o.sets = sets;
    if (!instances.is_none()) {
        o.instances = instances.cast<int64_t>();
        o.instancesGiven = true;
    }
    o.spacing = static_cast<float>(spacing);
    if (!compressed.is_none()) o.compressed = numberText(compressed.cast<double>());
    fillIk(o.ik, ik);
    std::vector<uint8_t> rgba;
    int w = 0, h = 0;
    std::vector<std::string> lines;
    const int rc = runCommand(isolated, timeout, lines, [&] { return rig::renderPixels(o, rgba, w, h); }, path.model);
    finish(rc, lines);
    py::array_t<uint8_t> out({static_cast<py::ssize_t>(h), static_cast<py::ssize_t>(w), py::ssize_t{4}});
    std::copy(rgba.begin(), rgba.end(), out.mutable_data());
    return out;
}

void exportClips(const py::object& pathOrModel, const PathArg& output, const py::object& clip, const py::object& start,
                 const py::object& end, const py::object& fps, const std::string& units, const std::vector<PathArg>& anims,
                 bool isolated, double timeout) {
    rig::ExportOptions o;
    const ModelArg path = modelArg(pathOrModel, anims);
    fillImport(o, path, units, anims);
    o.output = output.string();
    o.clip = clipKey(clip);
    o.from = start.is_none() ? -1.0 : start.cast<double>();
    o.to = end.is_none() ? -1.0 : end.cast<double>();
    if (!start.is_none() && !(o.from >= 0.0)) throw py::value_error("start must be a number of seconds >= 0");
    if (!end.is_none() && !(o.to >= 0.0)) throw py::value_error("end must be a number of seconds >= 0");
    o.fpsGiven = !fps.is_none();
    o.fps = o.fpsGiven ? fps.cast<double>() : 0.0;
    std::vector<std::string> lines;
    const int rc = runCommand(isolated, timeout, lines, [&] { return rig::runExport(o); }, path.model);
    finish(rc, lines);
}

std::string compress(const py::object& pathOrModel, const PathArg& output, double tolerance, bool delta,
                     const std::string& units, const std::vector<PathArg>& anims, bool isolated, double timeout) {
    rig::CompressOptions o;
    const ModelArg path = modelArg(pathOrModel, anims);
    fillImport(o, path, units, anims);
    o.output = output.string();
    o.toleranceMm = tolerance;
    o.delta = delta;
    nlohmann::json report;
    std::vector<std::string> lines;
    const int rc = runCommand(isolated, timeout, lines, [&] { return rig::compressModel(o, report); }, path.model);
    finish(rc, lines);
    return rig::jsonout::dump(std::move(report), 2);
}

// rigview's one output rule (cmd::outputIsNoneOf) for a caller's own outputs: rigview.batch's
// -o and --resume against every file it checks. ValueError with the command line's line.
void outputIsNotAnInput(const PathArg& output, const std::vector<PathArg>& inputs) {
    const std::vector<std::string> files = pathStrings(inputs);
    std::vector<std::string> lines;
    bool ok = false;
    {
        py::gil_scoped_release release;
        rig::cmd::ErrorCapture capture;
        ok = rig::cmd::outputIsNoneOf(output.string(), files);
        lines = capture.lines();
    }
    if (!ok) throw py::value_error(messageText(joined(lines, "the output is one of the inputs")));
}

}  // namespace

std::vector<std::string> pathStrings(const std::vector<PathArg>& paths) {
    std::vector<std::string> out;
    for (const PathArg& p : paths) out.push_back(p.string());
    return out;
}

rig::ImportOptions importOptionsFor(const std::string& units) {
    rig::ImportOptions o;
    if (units == "metres" || units == "meters") {
        o.units = rig::UnitMode::Metres;
    } else if (units == "file") {
        o.units = rig::UnitMode::File;
    } else {
        throw py::value_error("units must be \"metres\" or \"file\", not \"" + units + "\"");
    }
    return o;
}

rig::IsolationConfig isolationFor(bool isolated, double timeoutSeconds) {
    if (!(timeoutSeconds > 0.0 && timeoutSeconds <= 86400.0)) throw py::value_error("timeout must be in (0, 86400] seconds");
    rig::IsolationConfig c;
    c.enabled = isolated;
    c.timeoutSeconds = timeoutSeconds;
    const char* env = std::getenv("RIGVIEW_WORKER");
    c.workerExe = env && *env ? env : gWorker;
    return c;
}

py::str pyName(const std::string& bytes) {
    PyObject* s = PyUnicode_DecodeUTF8(bytes.data(), static_cast<Py_ssize_t>(bytes.size()), "surrogateescape");
    if (!s) throw py::error_already_set();
    return py::reinterpret_steal<py::str>(s);
}

py::list pyNames(const std::vector<std::string>& bytes) {
    py::list out;
    for (const std::string& b : bytes) out.append(pyName(b));
    return out;
}

std::string nameBytes(const py::handle& str) {
    PyObject* b = PyUnicode_AsEncodedString(str.ptr(), "utf-8", "surrogateescape");
    if (!b) throw py::error_already_set();
    const py::bytes owned = py::reinterpret_steal<py::bytes>(b);
    return owned.cast<std::string>();
}

std::string messageText(const std::string& s) { return rig::text::validUtf8(s); }

void runInterruptible(std::atomic<bool>& cancel, const std::function<void()>& work) {
    std::exception_ptr failure;
    std::mutex m;
    std::condition_variable cv;
    bool done = false;
    std::thread helper([&] {
        try {
            work();
        } catch (...) {
            failure = std::current_exception();
        }
        std::lock_guard<std::mutex> lock(m);
        done = true;
        cv.notify_all();
    });
    auto waitFor = [&](std::chrono::milliseconds step) {
        py::gil_scoped_release release;
        std::unique_lock<std::mutex> lock(m);
        return cv.wait_for(lock, step, [&] { return done; });
    };
    for (;;) {
        if (waitFor(std::chrono::milliseconds(50))) break;
        if (PyErr_CheckSignals() != 0) {  // KeyboardInterrupt (or another handler's exception) is set
            cancel = true;
            {
                py::gil_scoped_release release;
                helper.join();
            }
            throw py::error_already_set();
        }
    }
    {
        py::gil_scoped_release release;
        helper.join();
    }
    if (failure) std::rethrow_exception(failure);
}

void raiseImportError(const std::string& raw, rig::ImportFailure failure) {
    const std::string message = messageText(raw);
    py::object e = gImportError(message);
    e.attr("kind") = failureKind(failure);
    PyErr_SetObject(gImportError.ptr(), e.ptr());
    throw py::error_already_set();
}

void warnLines(const std::vector<std::string>& lines) {
    for (const std::string& line : lines) {
        if (PyErr_WarnEx(PyExc_UserWarning, messageText(line).c_str(), 2) != 0) throw py::error_already_set();
    }
}

}  // namespace rigpy

PYBIND11_MODULE(_rigview, m) {
    using namespace rigpy;
    m.doc() = "rigview's C++ core (see the rigview package for the documented API).";
    rig::setRigviewVersion(rig::kBuildVersion);
    m.attr("__version__") = rig::rigviewVersion();
    const std::filesystem::path package = packageFolder();
    gWorker = (package / "bin" / "rigview").string();
    rig::setDataFolder((package / "share" / "rigview").string());
    m.attr("worker") = gWorker;
    m.attr("data_folder") = rig::dataFolder();
    py::object importError = py::reinterpret_steal<py::object>(PyErr_NewExceptionWithDoc(
        "rigview.ImportError",
        "A model file could not be imported: unreadable, refused by its importer, or the importer\n"
        "crashed, hung or ran out of memory in its worker process. str(e) is the one line the\n"
        "command line prints; e.kind is \"error\", \"crashed\", \"timed-out\", \"out-of-memory\" or\n"
        "\"cancelled\". A subclass of OSError.",
        PyExc_OSError, nullptr));
    if (!importError) throw py::error_already_set();
    m.attr("ImportError") = importError;
    gImportError = importError;
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const std::bad_alloc&) {
            PyErr_SetString(PyExc_MemoryError, "rigview: out of memory");
        }
    });

    bindModel(m);

    m.def("_check_json", &checkJson, py::arg("path"), py::arg("units") = "metres",
          py::arg("anims") = std::vector<PathArg>{}, py::arg("isolated") = true, py::arg("timeout") = 120.0,
          py::arg("strict") = false, py::arg("config") = py::none(),
          "The report `rigview check --json` prints for one file (a JSON string).");
    m.def("_diff_json", &diffJson, py::arg("a"), py::arg("b"), py::arg("tolerance") = 0.01,
          "`rigview diff A B --json` of two loaded Models (a JSON string).");
    m.def("output_is_not_an_input", &outputIsNotAnInput, py::arg("output"), py::arg("inputs"),
          "Raise ValueError (the command line's one line) when `output` is the same file as one of\n"
          "`inputs` (device and inode: through symbolic links, '..' and hard links), as every rigview\n"
          "command refuses to write over what it reads; an output that does not exist yet passes.\n"
          "Each input is stat'ed once (a million files: a million stats, on several threads).");
    m.def("_codes_markdown", &rig::codesMarkdown, "The table of finding codes (`rigview check --list-codes`).");
    m.def("render", &render, py::arg("path"), py::kw_only(), py::arg("clip") = py::none(), py::arg("time") = 0.0,
          py::arg("bind") = false, py::arg("file_pose") = false, py::arg("size") = std::pair<int, int>(800, 600),
          py::arg("azimuth") = 30.0, py::arg("elevation") = 15.0, py::arg("samples") = 4, py::arg("view") = py::none(),
          py::arg("machine") = py::none(), py::arg("sets") = std::vector<std::string>{}, py::arg("instances") = py::none(),
          py::arg("spacing") = 0.0, py::arg("compressed") = py::none(), py::arg("ik") = py::none(),
          py::arg("units") = "metres", py::arg("anims") = std::vector<PathArg>{}, py::arg("isolated") = true,
          py::arg("timeout") = 120.0,
          "Draw one frame headless (EGL) as `rigview render` does and return it as an (h, w, 4) uint8\n"
          "RGBA array, top row first. size=(w, h); clip, time, bind, file_pose, azimuth, elevation and\n"
          "samples as --clip, --time, --bind-pose, --file-pose, --azimuth, --elevation, --samples;\n"
          "view: the view options by their key, e.g. {\"bones\": True, \"skinning\": \"cpu\",\n"
          "\"background\": (1, 1, 1)} (rigview render --help lists them); machine and sets as --machine\n"
          "and --set (\"NAME=VALUE\" strings); instances and spacing as --instances and --spacing;\n"
          "compressed (millimetres) as --compressed; ik={\"two_bone\": (START, MID, END), \"target\":\n"
          "(x, y, z), \"pole\": (x, y, z), \"weight\": w, \"soft\": s} as the --ik-* options. ValueError\n"
          "for what the command refuses; RuntimeError when no OpenGL context can be made.");
    m.def("export", &exportClips, py::arg("path"), py::arg("output"), py::kw_only(), py::arg("clip") = py::none(),
          py::arg("start") = py::none(), py::arg("end") = py::none(), py::arg("fps") = py::none(),
          py::arg("units") = "metres", py::arg("anims") = std::vector<PathArg>{}, py::arg("isolated") = true,
          py::arg("timeout") = 120.0,
          "Write clips as BVH or glTF (.bvh, .gltf, .glb) as `rigview export` does: clip, start, end\n"
          "and fps as --clip, --from, --to and --fps. OSError when the output cannot be written.");
    m.def("_compress_json", &compress, py::arg("path"), py::arg("output"), py::arg("tolerance") = 0.1,
          py::arg("delta") = true, py::arg("units") = "metres", py::arg("anims") = std::vector<PathArg>{},
          py::arg("isolated") = true, py::arg("timeout") = 120.0,
          "`rigview compress --json`: writes the output, returns the report (a JSON string).");
}
