#include "import/clip_markers.h"

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "util/input_file.h"
#include "util/output_file.h"

namespace rig {

using json = nlohmann::json;

namespace {

constexpr size_t kMaxMarkersFileBytes = size_t(16) << 20;

}  // namespace

bool readMarkerList(const json& list, std::vector<Marker>& out) {
    out.clear();
    if (!list.is_array()) return false;
    for (const json& m : list) {
        if (!m.is_object() || !m.contains("name") || !m["name"].is_string() || !m.contains("time") ||
            !m["time"].is_number()) {
            continue;
        }
        const double t = m["time"].get<double>();
        if (!std::isfinite(t)) continue;
        out.push_back({m["name"].get<std::string>(), static_cast<float>(t)});
    }
    sortMarkers(out);
    return true;
}

void sortMarkers(std::vector<Marker>& markers) {
    markers.erase(std::remove_if(markers.begin(), markers.end(), [](const Marker& m) { return !std::isfinite(m.time); }),
                  markers.end());
    std::stable_sort(markers.begin(), markers.end(), [](const Marker& a, const Marker& b) { return a.time < b.time; });
}

std::string markersFilePath(const std::string& modelPath) { return modelPath + ".markers.json"; }

bool applyMarkersFile(const std::string& modelPath, Model& model, std::string& error) {
    const std::string file = markersFilePath(modelPath);
    // Only a regular file, of a bounded size: a pipe or a device by that name is refused,
    // never waited on.
    std::string bytes, why;
    switch (readInputFile(file, kMaxMarkersFileBytes, bytes, why)) {
        case InputFileStatus::Missing: return true;
        case InputFileStatus::Refused: error = file + ": cannot be read (" + why + ")"; return false;
        case InputFileStatus::Read: break;
    }
    model.stats.filesRead.push_back(file);
    const json doc = json::parse(bytes, nullptr, false);
    if (doc.is_discarded() || !doc.is_object() || !doc.contains("clips") || !doc["clips"].is_array()) {
        error = file + ": not a markers file (an object with a \"clips\" array)";
        return false;
    }
    for (const json& entry : doc["clips"]) {
        if (!entry.is_object() || !entry.contains("clip") || !entry["clip"].is_string()) continue;
        const std::string name = entry["clip"].get<std::string>();
        auto clip = std::find_if(model.clips.begin(), model.clips.end(), [&](const Clip& c) { return c.name == name; });
        std::vector<Marker> markers;
        if (clip == model.clips.end() || !entry.contains("markers") || !readMarkerList(entry["markers"], markers)) continue;
        clip->markers = std::move(markers);
    }
    return true;
}

bool writeMarkersFile(const std::string& modelPath, const std::vector<std::string>& clipNames,
                      const std::vector<std::vector<Marker>>& markers, std::string& error) {
    json clips = json::array();
    for (size_t c = 0; c < clipNames.size(); ++c) {
        json list = json::array();
        if (c < markers.size()) {
            for (const Marker& m : markers[c]) list.push_back(json{{"name", m.name}, {"time", m.time}});
        }
        clips.push_back(json{{"clip", clipNames[c]}, {"markers", list}});
    }
    const std::string text = json{{"clips", clips}}.dump(2) + "\n";
    OutputFile out(markersFilePath(modelPath));
    if (!out.open() || !out.write(text) || !out.commit()) {
        error = out.error();
        return false;
    }
    return true;
}

}  // namespace rig
