#include "check/check_config.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "check/codes.h"

namespace rig {

namespace {

using nlohmann::json;

struct ToleranceField {
    const char* key;
    const char* meaning;
    float CheckSettings::*field;
};

const ToleranceField kTolerances[] = {
    {"bind_pose", "bind-pose-mismatch: displacement as a fraction of the mesh's size (default 0.001)",
     &CheckSettings::bindPoseTolerance},
    {"non_uniform_scale", "non-uniform-scale: largest / smallest axis scale - 1 (default 0.001)",
     &CheckSettings::scaleTolerance},
    {"degenerate_scale", "degenerate-transform: smallest axis scale (default 1e-6)", &CheckSettings::degenerateScale},
    {"rotation_jump_degrees", "sudden-rotation-jump: degrees between two frames (default 45)",
     &CheckSettings::rotationJumpDegrees},
    {"loop_position", "loop-seam: position jump as a fraction of the rig's size (default 0.01)",
     &CheckSettings::loopPositionTolerance},
    {"loop_rotation_degrees", "loop-seam: rotation jump in degrees (default 5)", &CheckSettings::loopRotationDegrees},
    {"static_position", "clip-static: movement as a fraction of the rig's size (default 1e-4)",
     &CheckSettings::staticPositionTolerance},
    {"static_rotation_degrees", "clip-static: rotation in degrees (default 0.05)", &CheckSettings::staticRotationDegrees},
    {"redundant_key", "redundant-keys: model units a key may be restored within (default 1e-5)",
     &CheckSettings::redundantKeyTolerance},
};

bool knownCode(const std::string& code) {
    for (const CodeInfo& c : codeTable()) {
        if (code == c.code) return true;
    }
    return false;
}

bool parseSeverity(const std::string& s, Severity& out) {
    if (s == "error") out = Severity::Error;
    else if (s == "warning") out = Severity::Warning;
    else if (s == "info") out = Severity::Info;
    else return false;
    return true;
}

// One rule object (the top level or an override); false with `error` (without the file name).
bool parseRule(const json& j, bool top, CheckRule& rule, std::string& error) {
    if (!j.is_object()) {
        error = top ? "must be a JSON object" : "each of \"overrides\" must be an object";
        return false;
    }
    const std::string where = top ? "" : " in \"overrides\"";
    for (const auto& [key, value] : j.items()) {
        if (key == "ignore") {
            if (!value.is_array()) {
                error = "\"ignore\"" + where + " must be a list of finding codes";
                return false;
            }
            for (const json& c : value) {
                if (!c.is_string() || !knownCode(c.get<std::string>())) {
                    error = "unknown finding code " + c.dump() + " in \"ignore\"" + where + " (rigview check --list-codes)";
                    return false;
                }
                rule.ignore.push_back(c.get<std::string>());
            }
        } else if (key == "severity") {
            if (!value.is_object()) {
                error = "\"severity\"" + where + " must be an object of code: \"error\" | \"warning\" | \"info\"";
                return false;
            }
            for (const auto& [code, level] : value.items()) {
                if (!knownCode(code)) {
                    error = "unknown finding code \"" + code + "\" in \"severity\"" + where + " (rigview check --list-codes)";
                    return false;
                }
                Severity s{};
                if (!level.is_string() || !parseSeverity(level.get<std::string>(), s)) {
                    error = "severity of \"" + code + "\"" + where + " must be \"error\", \"warning\" or \"info\", not " + level.dump();
                    return false;
                }
                rule.severity.emplace_back(code, s);
            }
        } else if (key == "tolerances") {
            if (!value.is_object()) {
                error = "\"tolerances\"" + where + " must be an object of name: number";
                return false;
            }
            for (const auto& [name, v] : value.items()) {
                const bool known = std::any_of(std::begin(kTolerances), std::end(kTolerances),
                                               [&](const ToleranceField& t) { return name == t.key; });
                if (!known) {
                    std::string names;
                    for (const ToleranceField& t : kTolerances) names += std::string(names.empty() ? "" : ", ") + t.key;
                    error = "unknown tolerance \"" + name + "\"" + where + " (known: " + names + ")";
                    return false;
                }
                if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < 0.0 || v.get<double>() > 1e30) {
                    error = "tolerance \"" + name + "\"" + where + " must be a finite number, 0 or more, not " + v.dump();
                    return false;
                }
                rule.tolerances.emplace_back(name, v.get<double>());
            }
        } else if (key == "loop_names") {
            if (!value.is_array() || !std::all_of(value.begin(), value.end(), [](const json& s) { return s.is_string(); })) {
                error = "\"loop_names\"" + where + " must be a list of strings";
                return false;
            }
            rule.loopNames = value.get<std::vector<std::string>>();
            rule.hasLoopNames = true;
        } else if (key == "paths" && !top) {
            if (!value.is_array() || value.empty() ||
                !std::all_of(value.begin(), value.end(), [](const json& s) { return s.is_string() && !s.get<std::string>().empty(); })) {
                error = "\"paths\" in \"overrides\" must be a non-empty list of globs";
                return false;
            }
            rule.globs = value.get<std::vector<std::string>>();
        } else if (key == "overrides" && top) {
            // parsed by the caller
        } else if (key == "schema" && top) {
            if (value != 1) {
                error = "\"schema\" must be 1 (this rigview reads version 1), not " + value.dump();
                return false;
            }
        } else {
            error = "unknown key \"" + key + "\"" + where;
            return false;
        }
    }
    if (!top && rule.globs.empty()) {
        error = "each of \"overrides\" needs \"paths\" (a list of globs)";
        return false;
    }
    return true;
}

// [...] at p (just past '['): whether c is in the set; p moves past ']'. False when malformed.
bool matchSet(const std::string& g, size_t& p, char c, bool& in) {
    bool negate = p < g.size() && (g[p] == '!' || g[p] == '^');
    if (negate) ++p;
    in = false;
    bool first = true;
    while (p < g.size() && (first || g[p] != ']')) {
        first = false;
        char lo = g[p], hi = g[p];
        if (p + 2 < g.size() && g[p + 1] == '-' && g[p + 2] != ']') {
            hi = g[p + 2];
            p += 3;
        } else {
            ++p;
        }
        if (lo <= c && c <= hi) in = true;
    }
    if (p >= g.size()) return false;
    ++p;  // ']'
    if (negate) in = !in;
    return true;
}

// Whether g[gi..] matches s[si..]. Each (gi, si) is answered once (memo: 0 unknown, 1 no,
// 2 yes), so many stars cost |g| x |s| x |s| at worst, never exponential time.
bool matchFrom(const std::string& g, size_t gi, const std::string& s, size_t si, std::vector<uint8_t>& memo);

bool matchAt(const std::string& g, size_t gi, const std::string& s, size_t si, std::vector<uint8_t>& memo) {
    uint8_t& m = memo[gi * (s.size() + 1) + si];
    if (m == 0) m = matchFrom(g, gi, s, si, memo) ? 2 : 1;
    return m == 2;
}

bool matchFrom(const std::string& g, size_t gi, const std::string& s, size_t si, std::vector<uint8_t>& memo) {
    while (gi < g.size()) {
        if (g.compare(gi, 2, "**") == 0) {
            size_t rest = gi + 2;
            const bool slash = rest < g.size() && g[rest] == '/';
            if (slash) ++rest;
            // Zero or more whole folders ("**/"), or anything at all (a final "**").
            for (size_t k = si; k <= s.size(); ++k) {
                if ((k == si || s[k - 1] == '/' || !slash) && matchAt(g, rest, s, k, memo)) return true;
            }
            return false;
        }
        const char c = g[gi];
        if (c == '*') {
            for (size_t k = si; k <= s.size(); ++k) {
                if (matchAt(g, gi + 1, s, k, memo)) return true;
                if (k < s.size() && s[k] == '/') break;
            }
            return false;
        }
        if (si >= s.size()) return false;
        if (c == '?') {
            if (s[si] == '/') return false;
        } else if (c == '[') {
            size_t p = gi + 1;
            bool in = false;
            if (matchSet(g, p, s[si], in)) {
                if (!in || s[si] == '/') return false;
                gi = p;
                ++si;
                continue;
            }
            if (s[si] != '[') return false;  // an unclosed '[' is itself
        } else if (c != s[si]) {
            return false;
        }
        ++gi;
        ++si;
    }
    return si == s.size();
}

}  // namespace

const std::vector<ToleranceName>& toleranceNames() {
    static const std::vector<ToleranceName> names = [] {
        std::vector<ToleranceName> v;
        for (const ToleranceField& t : kTolerances) v.push_back({t.key, t.meaning});
        return v;
    }();
    return names;
}

bool parseCheckConfig(const std::string& text, const std::string& path, CheckConfig& out, std::string& error) {
    out = {};
    out.path = path;
    out.folder = std::filesystem::absolute(path).parent_path().lexically_normal().string();
    const json j = json::parse(text, nullptr, false);
    if (j.is_discarded()) {
        error = path + ": not valid JSON";
        return false;
    }
    CheckRule top;
    std::string why;
    if (!parseRule(j, true, top, why)) {
        error = path + ": " + why;
        return false;
    }
    out.rules.push_back(std::move(top));
    if (j.contains("overrides")) {
        const json& o = j["overrides"];
        if (!o.is_array()) {
            error = path + ": \"overrides\" must be a list of objects";
            return false;
        }
        for (const json& r : o) {
            CheckRule rule;
            if (!parseRule(r, false, rule, why)) {
                error = path + ": " + why;
                return false;
            }
            out.rules.push_back(std::move(rule));
        }
    }
    return true;
}

bool globMatch(const std::string& glob, const std::string& relative) {
    auto match = [](const std::string& g, const std::string& s) {
        std::vector<uint8_t> memo((g.size() + 1) * (s.size() + 1), 0);
        return matchAt(g, 0, s, 0, memo);
    };
    if (glob.find('/') == std::string::npos) {  // a name alone: the file's name in any folder
        const size_t slash = relative.rfind('/');
        return match(glob, slash == std::string::npos ? relative : relative.substr(slash + 1));
    }
    return match(glob.rfind("./", 0) == 0 ? glob.substr(2) : glob, relative);
}

std::vector<const CheckRule*> rulesFor(const CheckConfig& config, const std::string& file) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path abs = fs::absolute(file, ec).lexically_normal();
    const std::string relative = abs.lexically_relative(config.folder).generic_string();
    std::vector<const CheckRule*> out;
    for (const CheckRule& r : config.rules) {
        if (r.globs.empty() || std::any_of(r.globs.begin(), r.globs.end(),
                                           [&](const std::string& g) { return globMatch(g, relative); })) {
            out.push_back(&r);
        }
    }
    return out;
}

CheckSettings settingsFor(const std::vector<const CheckRule*>& rules, CheckSettings base) {
    for (const CheckRule* r : rules) {
        for (const auto& [name, value] : r->tolerances) {
            for (const ToleranceField& t : kTolerances) {
                if (name == t.key) base.*(t.field) = static_cast<float>(value);
            }
        }
        if (r->hasLoopNames) base.loopNameHints = r->loopNames;
    }
    return base;
}

void applyRules(const std::vector<const CheckRule*>& rules, Report& report) {
    for (const CheckRule* r : rules) {
        auto& f = report.findings;
        f.erase(std::remove_if(f.begin(), f.end(),
                               [&](const Finding& x) {
                                   return std::find(r->ignore.begin(), r->ignore.end(), x.code) != r->ignore.end();
                               }),
                f.end());
        for (Finding& x : f) {
            for (const auto& [code, s] : r->severity) {
                if (x.code == code) x.severity = s;
            }
        }
    }
    std::stable_sort(report.findings.begin(), report.findings.end(),
                     [](const Finding& a, const Finding& b) { return a.severity > b.severity; });
}

}  // namespace rig
