#include "app/check_report.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "check/codes.h"
#include "util/json_out.h"
#include "util/version.h"

namespace rig {

using nlohmann::json;

namespace {

// A crash or time-out of the importer as a finding (the file is still unreadable).
void addImporterFinding(FileResult& r) {
    if (r.failure != ImportFailure::Crashed && r.failure != ImportFailure::TimedOut) return;
    const std::string prefix = r.path + ": ";
    r.report.findings.push_back(makeFinding(r.failure == ImportFailure::Crashed ? CheckCode::ImporterCrashed
                                                                                : CheckCode::ImporterTimeout,
                                            r.error.rfind(prefix, 0) == 0 ? r.error.substr(prefix.size()) : r.error, 1, ""));
}

}  // namespace

CheckConfigFinder::CheckConfigFinder(const std::string& config, bool none) : none_(none) {
    if (!config.empty()) {
        hasForced_ = true;
        forced_ = load(config);
    }
}

const CheckConfig* CheckConfigFinder::forFile(const std::string& file) {
    namespace fs = std::filesystem;
    if (none_ || !error_.empty()) return nullptr;
    if (hasForced_) return forced_;
    std::error_code ec;
    fs::path dir = fs::absolute(file, ec).lexically_normal().parent_path();
    std::vector<std::string> visited;
    const CheckConfig* found = nullptr;
    for (;;) {
        const std::string key = dir.string();
        auto hit = byFolder_.find(key);
        if (hit != byFolder_.end()) {
            found = hit->second;
            break;
        }
        visited.push_back(key);
        const fs::path candidate = dir / "rigview-check.json";
        if (fs::is_regular_file(candidate, ec)) {
            found = load(candidate.string());
            break;
        }
        if (!dir.has_parent_path() || dir.parent_path() == dir) break;
        dir = dir.parent_path();
    }
    for (const std::string& v : visited) byFolder_[v] = found;
    return found;
}

const CheckConfig* CheckConfigFinder::load(const std::string& path) {
    // A configuration is small: anything over 1 MiB is not one.
    constexpr size_t kMax = 1 << 20;
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        error_ = path + ": cannot read the check configuration (" + std::strerror(errno) + ")";
        return nullptr;
    }
    std::string text(kMax + 1, '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<size_t>(in.gcount()));
    if (text.size() > kMax) {
        error_ = path + ": cannot read the check configuration (larger than 1 MiB)";
        return nullptr;
    }
    auto c = std::make_unique<CheckConfig>();
    if (!parseCheckConfig(text, path, *c, error_)) return nullptr;
    loaded_.push_back(std::move(c));
    return loaded_.back().get();
}

int severityRank(const FileResult& r, bool strict) {
    if (!r.imported) return 3;
    if (r.report.empty()) return 0;
    const Severity w = r.report.worst();
    if (w == Severity::Error) return 2;
    if (w == Severity::Warning) return strict ? 2 : 1;
    return 0;
}

json findingJson(const Finding& f) {
    json j = {{"code", f.code},   {"severity", severityName(f.severity)}, {"message", f.message},
              {"count", f.count}, {"subject", f.subject},                {"examples", f.examples},
              {"names", f.names}, {"value", f.value}};
    // Where it is: indices into the model's meshes, skeleton nodes and clips (absent: -1).
    if (f.mesh >= 0) j["mesh"] = f.mesh;
    if (f.joint >= 0) j["joint"] = f.joint;
    if (f.clip >= 0) j["clip"] = f.clip;
    return j;
}

namespace {

json fileJsonRaw(const FileResult& r, bool strict) {
    json j;
    j["rigview_version"] = rigviewVersion();
    j["file"] = r.path;
    if (!r.imported) {
        j["error"] = r.error;
        j["worst"] = "error";
        j["passed"] = false;
        j["findings"] = json::array();
        // An import error that names a finding code (external-path-refused) is that code's error row.
        if (const CodeInfo* code = findCode(r.errorCode, Severity::Error)) {
            j["findings"].push_back(findingJson(makeFinding(code->id, r.error, 1, "files")));
        }
        for (const Finding& f : r.report.findings) j["findings"].push_back(findingJson(f));
        return j;
    }
    j["worst"] = r.report.empty() ? "none" : severityName(r.report.worst());
    j["passed"] = severityRank(r, strict) < 2;
    j["findings"] = json::array();
    for (const Finding& f : r.report.findings) j["findings"].push_back(findingJson(f));
    return j;
}

}  // namespace

json fileJson(const FileResult& r, bool strict) {
    jsonout::Stats st;
    json j = jsonout::sanitized(fileJsonRaw(r, strict), st);
    if (st.nonFinite) {
        j["findings"].push_back(findingJson(makeFinding(
            CheckCode::NonFiniteOutput, std::to_string(st.nonFinite) + " values of this report are NaN or infinite and written as null",
            static_cast<uint64_t>(st.nonFinite), "values")));
    }
    return j;
}

FileResult checkFile(const std::string& path, const std::vector<std::string>& anims, const ImportOptions& options,
                     const IsolationConfig& config, Model* keep, int influences,
                     const std::vector<const CheckRule*>& rules) {
    FileResult r;
    r.path = path;
    ImportOutcome m = importIsolated(path, anims, options, config);
    if (!m.model) {
        r.error = m.model.error().message;
        r.errorCode = m.model.error().code;
        r.failure = m.failure;
        addImporterFinding(r);
        applyRules(rules, r.report);  // importer-crashed may be ignored or lowered; the file stays unreadable
    } else {
        r.imported = true;
        CheckSettings settings = settingsFor(rules, CheckSettings{});
        settings.influences = influences;
        r.report = checkModel(m.model.value(), settings);
        applyRules(rules, r.report);
        if (keep) *keep = std::move(m.model.value());
    }
    return r;
}

}  // namespace rig
