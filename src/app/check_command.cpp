// `rigview check`: rig diagnostics for one model or a whole asset library. Files and folders
// (searched recursively) are checked in parallel on all cores, with a progress bar on a
// terminal, then a summary; --json gives one report; the exit code tells the worst result.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <thread>

#include <nlohmann/json.hpp>

#include "app/command_util.h"
#include "app/commands.h"
#include "app/contact_sheet.h"
#include "app/exit_codes.h"
#include "check/diagnostics.h"
#include "import/import.h"
#include "platform/import_worker.h"

namespace rig {

namespace {

using nlohmann::json;
namespace fs = std::filesystem;

struct FileResult {
    std::string path;
    bool imported = false;
    std::string error;  // import error (one line)
    Report report;
};

// Expand the command line into model files: files as given, folders searched recursively
// for extensions Assimp reads. Sorted, so output is stable.
bool expand(const std::vector<std::string>& paths, std::vector<std::string>& files) {
    for (const std::string& p : paths) {
        std::error_code ec;
        if (fs::is_directory(p, ec)) {
            std::vector<std::string> found;
            for (auto it = fs::recursive_directory_iterator(p, fs::directory_options::skip_permission_denied, ec);
                 !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
                if (it->is_regular_file(ec) && isModelFile(it->path().string())) found.push_back(it->path().string());
            }
            std::sort(found.begin(), found.end());
            files.insert(files.end(), found.begin(), found.end());
        } else {
            files.push_back(p);  // a missing file is reported by the import, as for one file
        }
    }
    return !files.empty();
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

json fileJson(const FileResult& r, bool strict) {
    json j;
    j["file"] = r.path;
    if (!r.imported) {
        j["error"] = r.error;
        j["worst"] = "error";
        j["passed"] = false;
        j["findings"] = json::array();
        return j;
    }
    j["worst"] = r.report.empty() ? "none" : severityName(r.report.worst());
    j["passed"] = severityRank(r, strict) < 2;
    j["findings"] = json::array();
    for (const Finding& f : r.report.findings) j["findings"].push_back(findingJson(f));
    return j;
}

void printText(const FileResult& r) {
    if (!r.imported) {
        std::cout << r.error << "\n";
        return;
    }
    if (r.report.empty()) std::cout << r.path << ": no problems found\n";
    for (const Finding& f : r.report.findings) {
        std::cout << r.path << ": " << severityName(f.severity) << " [" << f.code << "] " << f.message;
        if (!f.examples.empty()) {
            std::cout << " (e.g. " << f.subject << ":";
            for (int64_t e : f.examples) std::cout << " " << e;
            std::cout << ")";
        } else if (!f.names.empty()) {
            std::cout << " (e.g.";
            for (size_t k = 0; k < f.names.size(); ++k) std::cout << (k ? ", '" : " '") << f.names[k] << "'";
            std::cout << ")";
        }
        std::cout << "\n";
    }
}

// A one-line progress bar on the terminal (written to a saved copy of stderr, because
// imports point stderr at /dev/null while they run).
class Progress {
public:
    Progress(size_t total, bool enabled) : total_(total) {
        if (enabled) fd_ = ::dup(2);
    }
    ~Progress() {
        if (fd_ < 0) return;
        const std::string clear = "\r\033[K";
        (void)!::write(fd_, clear.data(), clear.size());
        ::close(fd_);
    }
    void tick(const std::string& file) {
        const size_t done = ++done_;
        if (fd_ < 0) return;
        std::lock_guard<std::mutex> lock(mutex_);
        constexpr int kWidth = 30;
        const int filled = static_cast<int>(kWidth * done / std::max<size_t>(total_, 1));
        std::string line = "\r\033[K[" + std::string(filled, '#') + std::string(kWidth - filled, ' ') + "] " +
                           std::to_string(done) + "/" + std::to_string(total_) + " " + fs::path(file).filename().string();
        (void)!::write(fd_, line.data(), line.size());
    }

private:
    size_t total_;
    std::atomic<size_t> done_{0};
    int fd_ = -1;
    std::mutex mutex_;
};

}  // namespace

int runCheck(const CheckOptions& o) {
    std::vector<std::string> files;
    if (!expand(o.paths, files)) {
        cmd::printError("no model files found in " + (o.paths.empty() ? std::string("(nothing)") : o.paths.front()));
        return exitcode::kBadInput;
    }
    bool many = files.size() > 1;
    for (const std::string& p : o.paths) {
        std::error_code ec;
        many = many || fs::is_directory(p, ec);
    }
    if (!o.sheet.empty() && many) {
        cmd::printError("--sheet takes one model, not " + std::to_string(files.size()) + " files");
        return exitcode::kUsage;
    }

    // Check in parallel: each worker imports and checks whole files.
    std::vector<FileResult> results(files.size());
    std::vector<Model> sheetModel(o.sheet.empty() ? 0 : 1);
    {
        Progress progress(files.size(), many && ::isatty(2));
        std::atomic<size_t> next{0};
        const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
        const size_t workers = std::min<size_t>(files.size(), o.jobs > 0 ? static_cast<size_t>(o.jobs) : cores);
        auto work = [&] {
            for (size_t i = next++; i < files.size(); i = next++) {
                FileResult& r = results[i];
                r.path = files[i];
                Result<Model> m = std::move(importIsolated(files[i], o.anims).model);
                if (!m) {
                    r.error = m.error().message;
                } else {
                    r.imported = true;
                    r.report = checkModel(m.value());
                    if (!sheetModel.empty()) sheetModel[0] = std::move(m.value());
                }
                progress.tick(files[i]);
            }
        };
        std::vector<std::thread> pool;
        for (size_t w = 1; w < workers; ++w) pool.emplace_back(work);
        work();
        for (std::thread& t : pool) t.join();
    }

    int worst = 0;
    for (const FileResult& r : results) worst = std::max(worst, severityRank(r, o.strict));

    if (o.json) {
        if (!many) {
            std::cout << fileJson(results[0], o.strict).dump(2) << "\n";
            if (!results[0].imported) cmd::printError(results[0].error);  // and the one error line
        } else {
            json j;
            j["files"] = json::array();
            size_t passed = 0, unreadable = 0, errors = 0, warnings = 0, infos = 0;
            for (const FileResult& r : results) {
                j["files"].push_back(fileJson(r, o.strict));
                passed += severityRank(r, o.strict) < 2 ? 1 : 0;
                unreadable += r.imported ? 0 : 1;
                for (const Finding& f : r.report.findings) {
                    errors += f.severity == Severity::Error;
                    warnings += f.severity == Severity::Warning;
                    infos += f.severity == Severity::Info;
                }
            }
            j["summary"] = {{"files", results.size()}, {"passed", passed}, {"failed", results.size() - passed},
                            {"unreadable", unreadable}, {"errors", errors}, {"warnings", warnings}, {"infos", infos}};
            std::cout << j.dump(2) << "\n";
            for (const FileResult& r : results) {
                if (!r.imported) cmd::printError(r.error);
            }
        }
    } else if (!many) {
        if (!results[0].imported) {
            cmd::printError(results[0].error);
        } else {
            printText(results[0]);
        }
    } else {
        for (const FileResult& r : results) {
            if (r.imported) printText(r);
        }
        // Summary table.
        size_t width = 4;
        for (const FileResult& r : results) width = std::max(width, r.path.size());
        width = std::min<size_t>(width, 70);
        std::printf("\n%-*s  %-8s %6s %8s %6s\n", static_cast<int>(width), "file", "result", "errors", "warnings", "infos");
        size_t passed = 0;
        for (const FileResult& r : results) {
            size_t e = 0, w = 0, i = 0;
            for (const Finding& f : r.report.findings) {
                e += f.severity == Severity::Error;
                w += f.severity == Severity::Warning;
                i += f.severity == Severity::Info;
            }
            const int rank = severityRank(r, o.strict);
            passed += rank < 2;
            const char* verdict = rank == 3 ? "UNREADABLE" : rank == 2 ? "FAIL" : rank == 1 ? "warn" : "ok";
            std::string name = r.path;
            if (name.size() > width) name = "..." + name.substr(name.size() - width + 3);
            std::printf("%-*s  %-8s %6zu %8zu %6zu\n", static_cast<int>(width), name.c_str(), verdict, e, w, i);
        }
        std::printf("%zu files: %zu passed, %zu failed\n", results.size(), passed, results.size() - passed);
        for (const FileResult& r : results) {
            if (!r.imported) std::cerr << "rigview: " << r.error << "\n";
        }
    }

    if (!o.sheet.empty() && results[0].imported) {
        const int rc = writeContactSheet(sheetModel[0], results[0].report, o.sheet);
        if (rc != exitcode::kOk) return rc;
    }
    if (worst == 3) return exitcode::kBadInput;
    return worst == 2 ? exitcode::kCheckFailed : exitcode::kOk;
}

}  // namespace rig
