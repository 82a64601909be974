#include "app/check_formats.h"

#include <cstdio>
#include <set>

#include "check/codes.h"
#include "util/json_out.h"
#include "util/text.h"
#include "util/version.h"

namespace rig {

using nlohmann::json;

namespace {

// What a file that could not be read is reported as (SARIF rule, JUnit error type).
constexpr const char* kUnreadable = "unreadable";

size_t countOf(const FileResult& r, Severity s) {
    size_t n = 0;
    for (const Finding& f : r.report.findings) n += f.severity == s;
    return n;
}

// A finding as one line of text: "severity [code] message (e.g. ...)", or the message and
// examples alone (SARIF carries the level and code in their own fields).
std::string findingLine(const Finding& f, bool withCode = true) {
    std::string s = withCode ? std::string(severityName(f.severity)) + " [" + f.code + "] " + f.message : f.message;
    if (!f.examples.empty()) {
        s += " (e.g. " + f.subject + ":";
        for (int64_t e : f.examples) s += " " + std::to_string(e);
        s += ")";
    } else if (!f.names.empty()) {
        s += " (e.g.";
        for (size_t k = 0; k < f.names.size(); ++k) s += (k ? ", '" : " '") + f.names[k] + "'";
        s += ")";
    }
    return text::validUtf8(s);
}

// A path as a URI reference: relative paths stay relative (SARIF resolves them against the
// checkout), absolute ones become file:// URIs; every byte outside the unreserved set and '/'
// percent-encoded (spaces, '%', '#', bytes of any encoding).
std::string uriOf(const std::string& path) {
    std::string out = !path.empty() && path[0] == '/' ? "file://" : "";
    for (unsigned char c : path) {
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' ||
            c == '~' || c == '/') {
            out += static_cast<char>(c);
        } else {
            char hex[4];
            std::snprintf(hex, sizeof hex, "%%%02X", c);
            out += hex;
        }
    }
    return out;
}

// Text made safe for XML 1.0 content and attributes: valid UTF-8, the five special characters
// escaped, control characters XML cannot carry written as '?'.
std::string xml(const std::string& raw) {
    const std::string s = text::validUtf8(raw);
    std::string out;
    out.reserve(s.size());
    for (char ch : s) {
        const unsigned char c = static_cast<unsigned char>(ch);
        switch (ch) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&apos;"; break;
            case '\n': out += "&#10;"; break;
            default: out += (c < 0x20 && ch != '\t') || c == 0x7f ? '?' : ch;
        }
    }
    return out;
}

}  // namespace

json checkSummaryJson(const std::vector<FileResult>& results, bool strict) {
    size_t passed = 0, unreadable = 0, errors = 0, warnings = 0, infos = 0, crashed = 0, timedOut = 0;
    for (const FileResult& r : results) {
        passed += severityRank(r, strict) < 2 ? 1 : 0;
        unreadable += r.imported ? 0 : 1;
        crashed += r.failure == ImportFailure::Crashed;
        timedOut += r.failure == ImportFailure::TimedOut;
        errors += countOf(r, Severity::Error);
        warnings += countOf(r, Severity::Warning);
        infos += countOf(r, Severity::Info);
    }
    return {{"files", results.size()}, {"passed", passed},        {"failed", results.size() - passed},
            {"unreadable", unreadable}, {"importer_crashed", crashed}, {"importer_timeout", timedOut},
            {"errors", errors},         {"warnings", warnings},       {"infos", infos}};
}

json checkDocumentJson(const std::vector<FileResult>& results, bool strict) {
    json j;
    j["schema"] = kCheckSchema;
    j["rigview_version"] = rigviewVersion();
    j["files"] = json::array();
    for (const FileResult& r : results) j["files"].push_back(fileJson(r, strict));
    j["summary"] = checkSummaryJson(results, strict);
    return j;
}

json diffDocumentJson(const RigDiff& diff, const std::string& a, const std::string& b) {
    json j = toJson(diff);
    j["schema"] = kDiffSchema;
    j["rigview_version"] = rigviewVersion();
    j["a"] = a;
    j["b"] = b;
    return j;
}

std::string checkSarif(const std::vector<FileResult>& results, bool strict) {
    (void)strict;  // SARIF carries levels; whether a warning fails is the reader's rule
    // One rule per code used, with the meaning of its first row in the table.
    std::set<std::string> used;
    for (const FileResult& r : results) {
        for (const Finding& f : r.report.findings) used.insert(f.code);
    }
    json rules = json::array();
    std::set<std::string> written;
    for (const CodeInfo& c : codeTable()) {
        if (!used.count(c.code) || !written.insert(c.code).second) continue;
        rules.push_back({{"id", c.code}, {"shortDescription", {{"text", c.meaning}}}});
    }
    rules.push_back({{"id", kUnreadable}, {"shortDescription", {{"text", "the file could not be read or imported"}}}});
    auto level = [](Severity s) { return s == Severity::Error ? "error" : s == Severity::Warning ? "warning" : "note"; };
    auto location = [](const std::string& path) {
        return json::array({{{"physicalLocation", {{"artifactLocation", {{"uri", uriOf(path)}}}}}}});
    };
    json out = json::array();
    for (const FileResult& r : results) {
        if (!r.imported) {
            out.push_back({{"ruleId", kUnreadable},
                           {"level", "error"},
                           {"message", {{"text", text::validUtf8(r.error)}}},
                           {"locations", location(r.path)}});
        }
        for (const Finding& f : r.report.findings) {
            out.push_back({{"ruleId", f.code},
                           {"level", level(f.severity)},
                           {"message", {{"text", findingLine(f, false)}}},
                           {"locations", location(r.path)}});
        }
    }
    json sarif = {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
                  {"version", "2.1.0"},
                  {"runs",
                   json::array({{{"tool",
                                  {{"driver",
                                    {{"name", "rigview"},
                                     {"version", rigviewVersion()},
                                     {"rules", rules}}}}},
                                 {"results", out}}})}};
    return jsonout::dump(std::move(sarif), 2) + "\n";
}

std::string checkJunit(const std::vector<FileResult>& results, bool strict) {
    size_t failures = 0, errors = 0;
    for (const FileResult& r : results) {
        const int rank = severityRank(r, strict);
        errors += rank == 3;
        failures += rank == 2;
    }
    std::string counts = "tests=\"" + std::to_string(results.size()) + "\" failures=\"" + std::to_string(failures) +
                         "\" errors=\"" + std::to_string(errors) + "\"";
    std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"rigview check\" " + counts +
                      ">\n  <testsuite name=\"rigview check\" " + counts + " skipped=\"0\">\n";
    for (const FileResult& r : results) {
        out += "    <testcase classname=\"rigview.check\" name=\"" + xml(r.path) + "\" file=\"" + xml(r.path) + "\"";
        const int rank = severityRank(r, strict);
        std::string lines;
        for (const Finding& f : r.report.findings) lines += findingLine(f) + "\n";
        if (rank < 2 && lines.empty()) {
            out += "/>\n";
            continue;
        }
        out += ">\n";
        if (rank == 3) {
            out += "      <error type=\"" + std::string(kUnreadable) + "\" message=\"" + xml(r.error) + "\">" + xml(r.error + "\n" + lines) +
                   "</error>\n";
        } else if (rank == 2) {
            const Finding& first = r.report.findings.front();  // the worst: errors sort first
            out += "      <failure type=\"" + xml(first.code) + "\" message=\"" + xml(findingLine(first)) + "\">" + xml(lines) +
                   "</failure>\n";
        } else {
            out += "      <system-out>" + xml(lines) + "</system-out>\n";
        }
        out += "    </testcase>\n";
    }
    out += "  </testsuite>\n</testsuites>\n";
    return out;
}

}  // namespace rig
