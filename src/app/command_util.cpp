#include "app/command_util.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "anim/control/clock.h"
#include "import/import.h"
#include "util/output_file.h"
#include "util/paths.h"
#include "util/text.h"
#include "platform/import_worker.h"

namespace rig::cmd {

namespace {
thread_local ErrorCapture* tCapture = nullptr;
}  // namespace

ErrorCapture::ErrorCapture() : outer_(tCapture) { tCapture = this; }
ErrorCapture::~ErrorCapture() { tCapture = outer_; }

void printError(const std::string& line) {
    if (tCapture) {
        tCapture->add(line);
        return;
    }
    std::cerr << "rigview: " << text::forTerminal(line) << "\n";
}

namespace {
thread_local const Model* tPreloaded = nullptr;
}  // namespace

PreloadedModel::PreloadedModel(const Model& model) : outer_(tPreloaded) { tPreloaded = &model; }
PreloadedModel::~PreloadedModel() { tPreloaded = outer_; }

bool load(const std::string& path, const std::vector<std::string>& anims, const ImportOptions& options, Model& out) {
    if (tPreloaded && tPreloaded->path == path && anims.empty()) {
        out = *tPreloaded;  // its warnings were given when it was loaded
        return true;
    }
    Result<Model> r = std::move(importIsolated(path, anims, options).model);
    if (!r) {
        printError(r.error().message);
        return false;
    }
    out = std::move(r.value());
    // What the format cannot give (e.g. a .blend's armature and clips): one warning line, and
    // the file's geometry still shown.
    if (!out.stats.formatLimitation.empty()) printError(out.path + ": " + out.stats.formatLimitation);
    warnRefusedPaths(out);
    return true;
}

void warnRefusedPaths(const Model& model) {
    const std::vector<std::string>& refused = model.stats.refusedPaths;
    if (refused.empty()) return;
    printError(model.path + ": warning: not read, outside the model's folder: " + refused.front() +
               (refused.size() > 1 ? " and " + std::to_string(refused.size() - 1) + " more" : std::string()) +
               " (--allow-external-paths allows it)");
}

bool resolveClip(const Model& model, const std::string& key, int32_t& clip) {
    if (key.empty()) {
        clip = model.clips.empty() ? -1 : 0;
        return true;
    }
    clip = model.findClip(key);
    if (clip >= 0) return true;
    std::string names;
    for (size_t i = 0; i < model.clips.size(); ++i) {
        names += (i ? ", " : "") + std::to_string(i) + " '" + model.clips[i].name + "'";
    }
    printError(model.path + ": no clip '" + key + "' (clips: " + (names.empty() ? "none" : names) + ")");
    return false;
}

float clipTime(const Model& model, int32_t clip, double requested) {
    if (clip < 0 || static_cast<size_t>(clip) >= model.clips.size()) return 0.0f;
    int direction = 1;
    return static_cast<float>(seekTime(requested, model.clips[clip].duration, LoopMode::Loop, direction));
}

bool outputIsNotAResource(const std::string& output, const Model& model) {
    // Its textures, decoded or not (a command that draws nothing reads none).
    bool ok = true;
    for (const Material& m : model.materials) {
        m.forEachTexture([&](const char*, const TextureRef& tex) {
            const std::string& ref = tex.path;
            if (!ok || ref.empty() || ref[0] == '*') return;  // embedded
            const std::string file = paths::resolveResourceFile(model.path, ref, nullptr);
            if (!file.empty() && paths::sameFile(output, file)) {
                printError(output + ": is the texture " + file + " of " + model.path +
                           "; refusing to overwrite it (write the output elsewhere)");
                ok = false;
            }
        });
    }
    if (!ok) return false;
    // The model and every other file its import read: glTF buffers, material libraries, the
    // markers file, --anim files and theirs (Model::stats.filesRead).
    std::vector<std::string> read = {model.path};
    read.insert(read.end(), model.stats.filesRead.begin(), model.stats.filesRead.end());
    for (const std::string& file : read) {
        if (!file.empty() && paths::sameFile(output, file)) {
            printError(output + ": is the input file " + file + (file == model.path ? "" : " (read with " + model.path + ")") +
                       "; refusing to overwrite it (write the output elsewhere)");
            return false;
        }
    }
    return true;
}

bool outputIsNoneOf(const std::string& output, const std::vector<std::string>& inputs) {
    const size_t i = paths::sameFileAmong(output, inputs);
    if (i == inputs.size()) return true;
    printError(output + ": is the input file " + inputs[i] + "; refusing to overwrite it (write the output elsewhere)");
    return false;
}

bool outputIsNotAnInput(const std::string& output, const std::string& model, const std::vector<std::string>& anims,
                        const std::string& machine) {
    std::vector<std::string> inputs{model};
    if (!machine.empty()) inputs.push_back(machine);
    inputs.insert(inputs.end(), anims.begin(), anims.end());
    return outputIsNoneOf(output, inputs);
}

bool isStreamOutput(const std::string& path) {
    if (isProcessStream(path)) return true;
    std::error_code ec;
    const auto st = std::filesystem::status(path, ec);
    return !ec && std::filesystem::exists(st) && !std::filesystem::is_regular_file(st) && !std::filesystem::is_directory(st);
}

double metresPerModelUnit(const Model& model) {
    const Units& u = model.units;
    return u.metresPerUnit > 0.0 && u.scaleApplied > 0.0 ? u.metresPerUnit / u.scaleApplied : 1.0;
}

CompressSettings compressSettingsFor(const Model& model, double toleranceMm) {
    const double metresPerUnit = metresPerModelUnit(model);
    CompressSettings settings;
    settings.tolerance = static_cast<float>(toleranceMm * 1e-3 / metresPerUnit);
    settings.tipDistance = static_cast<float>(0.1 / metresPerUnit);
    return settings;
}

bool compressedClipsFor(const Model& model, const std::string& mm, std::unique_ptr<CompressedClipSet>& out) {
    out.reset();
    if (mm.empty()) return true;
    char* end = nullptr;
    const double v = std::strtod(mm.c_str(), &end);
    if (end == mm.c_str() || *end != '\0' || !(v >= 0.0 && v <= 1000.0)) {
        printError("--compressed " + mm + ": must be a number of millimetres in [0, 1000]");
        return false;
    }
    Result<CompressedClipSet> r = compressClips(model, compressSettingsFor(model, v));
    if (!r) {
        printError(model.path + ": " + r.error().message);
        return false;
    }
    out = std::make_unique<CompressedClipSet>(std::move(r.value()));
    return true;
}

std::string fmt(double v, const char* format) {
    char buf[64];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

bool writeFile(const std::string& path, const std::string& text) {
    std::string error;
    if (writeOutputFile(path, text, error)) return true;
    printError(error);
    return false;
}

void warnNonFinite(const std::string& what, size_t count) {
    if (count == 0) return;
    printError(what + ": warning: " + std::to_string(count) + " non-finite values (NaN or infinite) written as null");
}

std::string term(const std::string& s) { return text::forTerminal(s); }

}  // namespace rig::cmd
