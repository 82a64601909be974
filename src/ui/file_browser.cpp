#include "ui/file_browser.h"

#include <GLFW/glfw3.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>

#include "ui/widgets.h"
#include "util/paths.h"

namespace rig {

namespace fs = std::filesystem;

namespace {

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

bool nameLess(const std::string& a, const std::string& b) {
    const std::string la = lower(a), lb = lower(b);
    return la != lb ? la < lb : a < b;
}

std::string humanSize(unsigned long long n) {
    char buf[32];
    if (n < 1024) {
        std::snprintf(buf, sizeof buf, "%llu B", n);
    } else if (n < 1024ull * 1024) {
        std::snprintf(buf, sizeof buf, "%.1f KiB", static_cast<double>(n) / 1024.0);
    } else {
        std::snprintf(buf, sizeof buf, "%.1f MiB", static_cast<double>(n) / (1024.0 * 1024.0));
    }
    return buf;
}

}  // namespace

bool listFolder(const std::string& dir, const std::string& filter, const FileFilter& isModel,
                std::vector<FileBrowserState::Entry>& out, std::string& error) {
    out.clear();
    error.clear();
    std::error_code ec;
    fs::directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec);
    if (ec) {
        error = dir + ": " + ec.message();
        return false;
    }
    const std::string needle = lower(filter);
    std::vector<FileBrowserState::Entry> folders, files;
    for (; it != fs::directory_iterator(); it.increment(ec)) {
        if (ec) break;
        const fs::directory_entry& e = *it;
        const std::string name = e.path().filename().string();
        if (name.empty() || name[0] == '.') continue;
        std::error_code ec2;
        if (e.is_directory(ec2)) {
            folders.push_back({name, true, 0});
            continue;
        }
        if (!e.is_regular_file(ec2)) continue;
        if (!needle.empty() && lower(name).find(needle) == std::string::npos) continue;
        if (!isModel(e.path().string())) continue;
        const auto size = e.file_size(ec2);
        files.push_back({name, false, ec2 ? 0ull : static_cast<unsigned long long>(size)});
    }
    auto byName = [](const FileBrowserState::Entry& a, const FileBrowserState::Entry& b) { return nameLess(a.name, b.name); };
    std::sort(folders.begin(), folders.end(), byName);
    std::sort(files.begin(), files.end(), byName);
    out = std::move(folders);
    out.insert(out.end(), files.begin(), files.end());
    return true;
}

std::string neighbourFile(const std::string& current, int step, const FileFilter& isModel) {
    if (current.empty() || step == 0) return "";
    std::error_code ec;
    const fs::path abs = fs::absolute(current, ec);
    if (ec) return "";
    std::vector<FileBrowserState::Entry> entries;
    std::string error;
    if (!listFolder(abs.parent_path().string(), "", isModel, entries, error)) return "";
    std::vector<std::string> files;
    for (const auto& e : entries) {
        if (!e.folder) files.push_back(e.name);
    }
    const std::string self = abs.filename().string();
    auto pos = std::find(files.begin(), files.end(), self);
    if (pos == files.end()) {
        // The file on screen is gone or is not a model file: step from where it would sort.
        pos = std::lower_bound(files.begin(), files.end(), self, nameLess);
        if (step > 0 && pos != files.end()) return (abs.parent_path() / *pos).string();
        if (step > 0 && !files.empty()) return (abs.parent_path() / files.front()).string();
        if (step < 0 && !files.empty()) return (abs.parent_path() / (pos == files.begin() ? files.back() : *(pos - 1))).string();
        return "";
    }
    if (files.size() < 2) return "";
    const long n = static_cast<long>(files.size());
    const long i = ((pos - files.begin()) + (step % n) + n) % n;
    return (abs.parent_path() / files[static_cast<size_t>(i)]).string();
}

bool isEnvironmentFile(const std::string& path) { return paths::lowerExtension(path) == ".hdr"; }

void drawFileBrowser(ViewerState& s, const FileFilter& isModelFile, UiProbe* probe) {
    ViewerUiState& ui = s.ui;
    if (!ui.fileBrowser) {
        ui.browser.forCompare = false;
        ui.browser.forEnvironment = false;
        return;
    }
    FileBrowserState& b = ui.browser;
    // Opened by the Environment section: it lists .hdr files, and one chosen lights the model.
    const FileFilter environmentFilter = isEnvironmentFile;
    const FileFilter& isModel = b.forEnvironment ? environmentFilter : isModelFile;
    if (b.dir.empty()) {
        std::error_code ec;
        fs::path start = !s.path.empty() ? fs::absolute(s.path, ec).parent_path() : fs::current_path(ec);
        b.dir = start.string();
    }
    const ImGuiIO& io = ImGui::GetIO();
    ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y * 0.5f), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowSize(ImVec2(std::min(640.0f, io.DisplaySize.x - 40), std::min(460.0f, io.DisplaySize.y - 80)),
                             ImGuiCond_Appearing);
    if (!ImGui::Begin(b.forEnvironment ? "Choose an environment (.hdr)###Open a model" : "Open a model", &ui.fileBrowser)) {
        ImGui::End();
        return;
    }
    if (ImGui::IsWindowAppearing() || b.listedFor != b.forEnvironment) {
        b.listedFor = b.forEnvironment;
        b.listedDir.clear();
        b.focusFilter = true;
    }
    if (b.listedDir != b.dir + '\n' + b.filter) {
        listFolder(b.dir, b.filter, isModel, b.entries, b.listError);
        b.listedDir = b.dir + '\n' + b.filter;
        b.cursor = std::clamp(b.cursor, 0, static_cast<int>(b.entries.size()));
    }
    auto enter = [&](const std::string& dir) {
        std::error_code ec;
        const fs::path p = fs::weakly_canonical(fs::path(dir), ec);
        b.dir = ec ? dir : p.string();
        b.filter.clear();
        b.cursor = 0;
        b.listedDir.clear();
    };
    auto goUp = [&] {
        const fs::path p(b.dir);
        if (p.has_parent_path() && p.parent_path() != p) enter(p.parent_path().string());
    };
    std::string openPath;
    // Path bar: the folder, editable (Enter goes there).
    char buf[1024];
    std::snprintf(buf, sizeof buf, "%s", b.dir.c_str());
    if (ImGui::Button("Up")) goUp();
    probeItem(probe, "browser:up");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(-1);
    bool dirEntered = false;
    if (ImGui::InputText("##dir", buf, sizeof buf, ImGuiInputTextFlags_EnterReturnsTrue)) {
        dirEntered = true;
        std::error_code ec;
        if (fs::is_directory(buf, ec)) {
            enter(buf);
        } else if (fs::is_regular_file(buf, ec)) {
            openPath = buf;
        } else {
            b.listError = std::string(buf) + ": no such folder";
        }
    }
    probeItem(probe, "browser:dir");
    char fbuf[256];
    std::snprintf(fbuf, sizeof fbuf, "%s", b.filter.c_str());
    if (b.focusFilter) {
        ImGui::SetKeyboardFocusHere();
        b.focusFilter = false;
    }
    ImGui::SetNextItemWidth(-ImGui::CalcTextSize("filter (type a name)").x - ImGui::GetStyle().ItemInnerSpacing.x);
    const bool filterEnter = ImGui::InputText("filter (type a name)", fbuf, sizeof fbuf, ImGuiInputTextFlags_EnterReturnsTrue);
    probeItem(probe, "browser:filter");
    if (b.filter != fbuf) {
        b.filter = fbuf;
        b.cursor = 0;
    }
    // Keys while the browser is focused: arrows move, Enter opens, Backspace in an empty
    // filter goes up a folder.
    const int rows = static_cast<int>(b.entries.size()) + 1;  // row 0: ".."
    bool activate = filterEnter;
    if (ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows)) {
        if (ImGui::IsKeyPressed(GLFW_KEY_DOWN)) b.cursor = std::min(b.cursor + 1, rows - 1);
        if (ImGui::IsKeyPressed(GLFW_KEY_UP)) b.cursor = std::max(b.cursor - 1, 0);
        if (ImGui::IsKeyPressed(GLFW_KEY_BACKSPACE) && b.filter.empty() && !filterEnter) goUp();
        if (ImGui::IsKeyPressed(GLFW_KEY_ESCAPE)) ui.fileBrowser = false;
    }
    if (!b.listError.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 0.45f, 0.45f, 1));
        ImGui::TextWrapped("%s", b.listError.c_str());
        ImGui::PopStyleColor();
    }
    const float footer = ImGui::GetFrameHeightWithSpacing() + ImGui::GetStyle().ItemSpacing.y;
    ImGui::BeginChild("entries", ImVec2(0, -footer), true);
    const float sizeColumn = ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize("0000.0 MiB").x;
    for (int row = 0; row < rows; ++row) {
        const bool parent = row == 0;
        const FileBrowserState::Entry* e = parent ? nullptr : &b.entries[static_cast<size_t>(row - 1)];
        const std::string label = parent ? "../" : e->folder ? e->name + "/" : e->name;
        const bool selected = row == b.cursor;
        if (e && !e->folder) ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.75f, 0.9f, 1.0f, 1.0f));
        if (ImGui::Selectable((label + "##row" + std::to_string(row)).c_str(), selected,
                              ImGuiSelectableFlags_AllowDoubleClick)) {
            b.cursor = row;
            // Folders open on one click; a file is picked by one and opened by a double click
            // (or Enter, or the Open button).
            if (ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left) || parent || (e && e->folder)) activate = true;
        }
        if (e && !e->folder) ImGui::PopStyleColor();
        probeItem(probe, "browser:entry:" + label);
        if (selected && ImGui::IsWindowAppearing()) ImGui::SetScrollHereY();
        if (e && !e->folder) {
            ImGui::SameLine(std::max(sizeColumn, ImGui::CalcTextSize(label.c_str()).x + 16.0f));
            ImGui::TextDisabled("%s", humanSize(e->size).c_str());
        }
    }
    if (filterEnter && b.cursor == 0 && !b.entries.empty() && !b.filter.empty()) b.cursor = 1;  // Enter in the filter: the first match
    if (!dirEntered && !filterEnter && ImGui::IsKeyPressed(GLFW_KEY_ENTER, false) &&
        ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows)) {
        activate = true;
    }
    ImGui::EndChild();
    if (activate) {
        if (b.cursor == 0) {
            goUp();
        } else if (b.cursor - 1 < static_cast<int>(b.entries.size())) {
            const FileBrowserState::Entry& e = b.entries[static_cast<size_t>(b.cursor - 1)];
            const std::string full = (fs::path(b.dir) / e.name).string();
            if (e.folder) {
                enter(full);
            } else {
                openPath = full;
            }
        }
    }
    const bool fileChosen = b.cursor > 0 && b.cursor - 1 < static_cast<int>(b.entries.size()) &&
                            !b.entries[static_cast<size_t>(b.cursor - 1)].folder;
    ImGui::BeginDisabled(!fileChosen);
    if (ImGui::Button("Open") && fileChosen) openPath = (fs::path(b.dir) / b.entries[static_cast<size_t>(b.cursor - 1)].name).string();
    probeItem(probe, "browser:open");
    ImGui::SameLine();
    std::string comparePath;
    if (ImGui::Button("Compare with...") && fileChosen && !s.path.empty()) {
        comparePath = (fs::path(b.dir) / b.entries[static_cast<size_t>(b.cursor - 1)].name).string();
    }
    ImGui::EndDisabled();
    probeItem(probe, "browser:compare");
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("Compare the model on screen with this file");
    ImGui::SameLine();
    ImGui::TextDisabled("%zu entries in %s", b.entries.size(), b.dir.c_str());
    // Opened from File > Compare with...: the chosen file is compared with, not opened.
    if (b.forCompare && !openPath.empty() && !s.path.empty()) std::swap(openPath, comparePath);
    if (b.forEnvironment && !openPath.empty()) {
        s.requests.environment = openPath;
        openPath.clear();
        comparePath.clear();
        ui.fileBrowser = false;
    }
    if (!openPath.empty()) {
        s.requests.open = openPath;
        s.pathField = openPath;
        ui.fileBrowser = false;
    }
    if (!comparePath.empty()) {
        s.requests.compare = comparePath;
        ui.fileBrowser = false;
    }
    if (!ui.fileBrowser) {
        b.forCompare = false;
        b.forEnvironment = false;
    }
    ImGui::End();
}

}  // namespace rig
