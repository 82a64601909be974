#include "app/command_util.h"

#include <algorithm>
#include <filesystem>
#include <iostream>

#include "anim/clock.h"
#include "import/import.h"

namespace rig::cmd {

void printError(const std::string& line) { std::cerr << "rigview: " << line << "\n"; }

bool load(const std::string& path, const std::vector<std::string>& anims, Model& out) {
    Result<Model> r = importModelWithAnims(path, anims);
    if (!r) {
        printError(r.error().message);
        return false;
    }
    out = std::move(r.value());
    // What the format cannot give (e.g. a .blend's armature and clips): one warning line, and
    // the file's geometry still shown.
    if (!out.stats.formatLimitation.empty()) printError(out.path + ": " + out.stats.formatLimitation);
    return true;
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
    PlaybackClock clock;
    clock.setDuration(model.clips[clip].duration, model.clips[clip].sampleRate);
    clock.seek(requested);
    return clock.time();
}

std::string extensionOf(const std::string& path) {
    std::string ext = std::filesystem::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    return ext;
}

}  // namespace rig::cmd
