#include "app/viewer_settings.h"

#include <filesystem>

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include <sstream>

#include <nlohmann/json.hpp>

#include "util/input_file.h"
#include "util/json_depth.h"

namespace rig {

namespace fs = std::filesystem;
using nlohmann::json;

// Which panels are open, by panel: the flags live in ViewerState (PanelVisibility, the crowd).
bool* panelOpenFlag(ViewerState& s, PanelId id) {
    switch (id) {
        case PanelId::Open: return &s.panels.open;
        case PanelId::Clips: return &s.panels.clips;
        case PanelId::Hierarchy: return &s.panels.hierarchy;
        case PanelId::View: return &s.panels.view;
        case PanelId::Checks: return &s.panels.checks;
        case PanelId::Stats: return &s.panels.stats;
        case PanelId::Timeline: return &s.panels.timeline;
        case PanelId::Blend: return &s.panels.blend;
        case PanelId::Morphs: return &s.panels.morphs;
        case PanelId::Crowd: return &s.crowd.panelOpen;
        case PanelId::Machine: return &s.panels.machine;
        case PanelId::Ik: return &s.panels.ik;
        default: return nullptr;
    }
}

namespace {

template <class T>
void read(const json& j, const char* key, T& out) {
    if (j.contains(key)) out = j.at(key).get<T>();  // a wrong type throws: the file is ignored
}

// The view options, each under its key from the view option table (render/view_options.h).
json viewOptionsToJson(const ViewOptions& v) {
    json out = json::object();
    for (const ViewOptionSpec& o : viewOptionTable()) {
        switch (o.type) {
            case ViewOptionType::Flag: out[o.key] = v.*o.flag; break;
            case ViewOptionType::Choice: {
                const int i = o.choiceOf(v);
                if (o.savedByName) {
                    out[o.key] = o.choices[static_cast<size_t>(i)].name;
                } else {
                    out[o.key] = i;
                }
                break;
            }
            case ViewOptionType::Number: out[o.key] = v.*o.number; break;
            case ViewOptionType::Color: {
                const glm::vec4& c = v.*o.color;
                out[o.key] = {c.r, c.g, c.b};
                break;
            }
        }
    }
    return out;
}

// Reads the view options `jv` holds into `v`; a wrongly typed value throws. A choice saved by
// name that names none is the first choice; an index or a number past its range is clamped.
void readViewOptions(const json& jv, ViewOptions& v) {
    for (const ViewOptionSpec& o : viewOptionTable()) {
        if (!jv.contains(o.key)) continue;
        const json& x = jv.at(o.key);
        switch (o.type) {
            case ViewOptionType::Flag: v.*o.flag = x.get<bool>(); break;
            case ViewOptionType::Choice:
                o.setChoice(v, o.savedByName ? std::max(0, choiceIndex(o, x.get<std::string>())) : x.get<int>());
                break;
            case ViewOptionType::Number: {
                const float f = x.get<float>();
                if (std::isfinite(f)) v.*o.number = std::clamp(f, o.min, o.max);
                break;
            }
            case ViewOptionType::Color: {
                const auto c = x.get<std::vector<float>>();
                if (c.size() == 3) v.*o.color = glm::vec4(c[0], c[1], c[2], 1.0f);
                break;
            }
        }
    }
}

}  // namespace

fs::path settingsFolder() {
    const char* xdg = std::getenv("XDG_CONFIG_HOME");
    const char* home = std::getenv("HOME");
    const fs::path base = xdg && *xdg ? fs::path(xdg) : fs::path(home ? home : ".") / ".config";
    return base / "rigview";
}

fs::path picturesFolder() {
    const char* home = std::getenv("HOME");
    const fs::path homeDir = home && *home ? fs::path(home) : fs::path();
    std::error_code ec;
    auto folder = [&](const fs::path& p) { return !p.empty() && fs::is_directory(p, ec); };
    if (const char* env = std::getenv("XDG_PICTURES_DIR"); env && folder(env)) return env;
    // user-dirs.dirs holds lines such as XDG_PICTURES_DIR="$HOME/Pictures".
    const char* xdg = std::getenv("XDG_CONFIG_HOME");
    const fs::path dirs = (xdg && *xdg ? fs::path(xdg) : homeDir / ".config") / "user-dirs.dirs";
    std::string text, why;
    if (readInputFile(dirs.string(), size_t(1) << 16, text, why) == InputFileStatus::Read) {
        std::istringstream in(text);
        std::string line;
        const std::string key = "XDG_PICTURES_DIR=\"";
        while (std::getline(in, line)) {
            if (line.rfind(key, 0) != 0 || line.size() < key.size() + 1 || line.back() != '"') continue;
            std::string value = line.substr(key.size(), line.size() - key.size() - 1);
            if (value.rfind("$HOME", 0) == 0) value = homeDir.string() + value.substr(5);
            if (folder(value)) return value;
        }
    }
    if (folder(homeDir / "Pictures")) return homeDir / "Pictures";
    return {};
}

std::string settingsToJson(const ViewerState& s) {
    json j;
    j["version"] = kSettingsVersion;
    const LayoutSettings& l = s.ui.layout.settings;
    json panels = json::object();
    for (int i = 0; i < kPanelCount; ++i) {
        const PanelId id = static_cast<PanelId>(i);
        json p = {{"area", areaName(l.area[i])}, {"weight", l.weight[i]}, {"half", l.pane[i] == 0 ? "upper" : "lower"}};
        if (bool* f = panelOpenFlag(const_cast<ViewerState&>(s), id)) p["open"] = *f;
        panels[panelName(id)] = p;
    }
    j["layout"] = {{"left", l.leftWidth}, {"right", l.rightWidth}, {"bottom", l.bottomHeight}, {"strip", l.stripHeight},
                   {"leftSplit", l.split[0]}, {"rightSplit", l.split[1]}, {"inspector", s.ui.inspectorHeight}, {"timelineNames", s.timeline.nameWidth}, {"panels", panels}};
    json view = viewOptionsToJson(s.view);
    // Deviation lasts as long as a comparison: the next start shows the material.
    view["colorView"] = s.checks.colorView == ColorView::Deviation ? 0 : static_cast<int>(s.checks.colorView);
    view["bindGhost"] = s.checks.bindGhost;
    view["onion"] = s.checks.onion;
    view["onionCount"] = s.checks.onionCount;
    view["onionStep"] = s.checks.onionStep;
    view["uiScale"] = s.ui.uiScale;
    // The environment map (a path; "" the bundled studio): only one that loaded (the viewer
    // puts back the last good one when a map fails); one gone by the next start is one notice
    // and the studio.
    view["environment"] = s.view.environment;
    j["view"] = view;
    const OrbitCamera& c = s.camera;
    j["camera"] = {{"azimuth", c.azimuthDeg}, {"elevation", c.elevationDeg}, {"distance", c.distance},
                   {"target", {c.target.x, c.target.y, c.target.z}}, {"zUp", c.zUp},
                   {"near", c.nearPlane}, {"far", c.farPlane}};
    // The camera is the model's it looked at: the next start keeps it for that file only.
    std::error_code ec;
    if (!s.path.empty()) j["camera"]["file"] = std::filesystem::absolute(s.path, ec).string();
    j["recent"] = s.recent;
    const ViewerUiState::WindowPlacement& w = s.ui.window;
    if (w.width > 0 && w.height > 0) j["window"] = {{"x", w.x}, {"y", w.y}, {"width", w.width}, {"height", w.height}};
    json up = json::object();
    for (const auto& [path, zUp] : s.ui.zUpByFile) up[path] = zUp ? "z" : "y";
    j["upAxis"] = up;
    return j.dump(2) + "\n";
}

bool applySettingsJson(const std::string& text, ViewerState& s, bool& hasCamera, std::string& why) {
    hasCamera = false;
    // Settings are a file like any other: how deep they nest is capped before parsing.
    if (jsonTooDeepAt(text, kMaxJsonDepth) != std::string_view::npos) {
        why = "nested more than " + std::to_string(kMaxJsonDepth) + " deep";
        return false;
    }
    const json j = json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object()) {
        why = "not a JSON object";
        return false;
    }
    if (!j.contains("version") || !j["version"].is_number_integer() || j["version"].get<int>() != kSettingsVersion) {
        why = "unknown version (this rigview reads version " + std::to_string(kSettingsVersion) + ")";
        return false;
    }
    // Everything is read into copies first: a bad field leaves `s` as it was.
    LayoutSettings l;
    PanelVisibility panels = s.panels;
    bool crowdOpen = s.crowd.panelOpen;
    ViewOptions v = s.view;
    CheckViewState checks;
    ViewerUiState ui;
    OrbitCamera cam = s.camera;
    std::vector<std::string> recent = s.recent;
    ViewerUiState::WindowPlacement window = s.ui.window;
    std::map<std::string, bool> zUpByFile = s.ui.zUpByFile;
    std::string cameraFile;
    float timelineNames = s.timeline.nameWidth;
    ViewerState flags;  // holds the open flags while reading
    flags.panels = panels;
    flags.crowd.panelOpen = crowdOpen;
    try {
        if (j.contains("layout")) {
            const json& jl = j.at("layout");
            read(jl, "left", l.leftWidth);
            read(jl, "right", l.rightWidth);
            read(jl, "bottom", l.bottomHeight);
            read(jl, "strip", l.stripHeight);
            read(jl, "leftSplit", l.split[0]);
            read(jl, "rightSplit", l.split[1]);
            for (float& f : l.split) f = std::clamp(std::isfinite(f) ? f : 0.5f, 0.1f, 0.9f);
            read(jl, "inspector", ui.inspectorHeight);
            read(jl, "timelineNames", timelineNames);
            if (jl.contains("panels")) {
                for (int i = 0; i < kPanelCount; ++i) {
                    const PanelId id = static_cast<PanelId>(i);
                    if (!jl.at("panels").contains(panelName(id))) continue;
                    const json& p = jl.at("panels").at(panelName(id));
                    if (p.contains("area")) {
                        const std::string a = p.at("area").get<std::string>();
                        for (Area area : {Area::Left, Area::Right, Area::Bottom}) {
                            if (a == areaName(area)) l.area[i] = area;
                        }
                    }
                    read(p, "weight", l.weight[i]);
                    if (p.contains("half")) l.pane[i] = p.at("half").get<std::string>() == "lower" ? 1 : 0;
                    l.weight[i] = std::clamp(std::isfinite(l.weight[i]) ? l.weight[i] : 1.0f, 0.05f, 20.0f);
                    if (bool* f = panelOpenFlag(flags, id); f && p.contains("open")) *f = p.at("open").get<bool>();
                }
            }
        }
        if (j.contains("view")) {
            const json& jv = j.at("view");
            readViewOptions(jv, v);
            if (jv.contains("colorView")) checks.colorView = static_cast<ColorView>(std::clamp(jv.at("colorView").get<int>(), 0, 5));
            read(jv, "bindGhost", checks.bindGhost);
            read(jv, "onion", checks.onion);
            read(jv, "onionCount", checks.onionCount);
            read(jv, "onionStep", checks.onionStep);
            read(jv, "uiScale", ui.uiScale);
            read(jv, "environment", v.environment);
        }
        if (j.contains("camera")) {
            const json& jc = j.at("camera");
            read(jc, "azimuth", cam.azimuthDeg);
            read(jc, "elevation", cam.elevationDeg);
            read(jc, "distance", cam.distance);
            read(jc, "zUp", cam.zUp);
            read(jc, "near", cam.nearPlane);
            read(jc, "far", cam.farPlane);
            read(jc, "file", cameraFile);
            if (jc.contains("target")) {
                const auto t = jc.at("target").get<std::vector<float>>();
                if (t.size() == 3) cam.target = glm::vec3(t[0], t[1], t[2]);
            }
            hasCamera = std::isfinite(cam.distance) && cam.distance > 0.0f && cam.nearPlane > 0.0f && cam.farPlane > cam.nearPlane;
            if (!hasCamera) cam = s.camera;
        }
        if (j.contains("recent")) recent = j.at("recent").get<std::vector<std::string>>();
        if (j.contains("window")) {
            const json& jw = j.at("window");
            read(jw, "x", window.x);
            read(jw, "y", window.y);
            read(jw, "width", window.width);
            read(jw, "height", window.height);
        }
        if (j.contains("upAxis")) {
            for (const auto& [path, axis] : j.at("upAxis").items()) {
                const std::string a = axis.get<std::string>();
                if (a == "z" || a == "y") zUpByFile[path] = a == "z";
            }
        }
    } catch (const json::exception& e) {
        why = std::string("a field has the wrong type (") + e.what() + ")";
        hasCamera = false;
        return false;
    }
    if (recent.size() > 10) recent.resize(10);
    s.ui.layout.settings = l;
    s.panels = flags.panels;
    s.crowd.panelOpen = flags.crowd.panelOpen;
    s.view = v;
    s.checks.colorView = checks.colorView;
    s.checks.bindGhost = checks.bindGhost;
    s.checks.onion = checks.onion;
    s.checks.onionCount = std::clamp(checks.onionCount, 1, 16);
    s.checks.onionStep = std::clamp(checks.onionStep, 0.001f, 10.0f);
    s.ui.uiScale = std::clamp(std::isfinite(ui.uiScale) ? ui.uiScale : 1.0f, 0.5f, 3.0f);
    // The Hierarchy panel clamps it to its own height when drawn.
    s.ui.inspectorHeight = std::clamp(std::isfinite(ui.inspectorHeight) ? ui.inspectorHeight : ViewerUiState{}.inspectorHeight, 0.0f, 10000.0f);
    s.camera = cam;
    s.recent = recent;
    s.ui.window = window;
    s.ui.zUpByFile = std::move(zUpByFile);
    s.ui.cameraFile = hasCamera ? cameraFile : std::string();
    s.timeline.nameWidth = std::clamp(std::isfinite(timelineNames) ? timelineNames : 90.0f, 40.0f, 600.0f);
    return true;
}

void resetLayout(ViewerState& s) {
    s.ui.layout.settings = LayoutSettings{};
    s.ui.inspectorHeight = ViewerUiState{}.inspectorHeight;
    // Panels open again as at the first start; those the model on screen opened (Morphs, State
    // Machine) stay as they are.
    PanelVisibility defaults;
    defaults.morphs = s.panels.morphs;
    defaults.machine = s.panels.machine;
    s.panels = defaults;
    s.crowd.panelOpen = false;
}

}  // namespace rig
