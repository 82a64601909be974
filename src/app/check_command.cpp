// `rigview check`: rig diagnostics for one model or a whole asset library. Files and folders
// (searched recursively) are checked in parallel, each imported in its own worker process
// (platform/import_worker; --jobs at once), with a progress bar on a terminal, then a summary
// in file-path order; --json gives one report, --json-lines one line per file as it finishes;
// a file that crashes or hangs its importer is a finding and the run goes on; --shard I/N
// takes every N-th file; --list-files prints the files alone; the exit code tells the worst result.
#include <unistd.h>

#include <algorithm>
#include <exception>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <thread>

#include <nlohmann/json.hpp>

#include "app/check_report.h"
#include "app/command_util.h"
#include "app/commands.h"
#include "app/contact_sheet.h"
#include "app/exit_codes.h"
#include "check/codes.h"
#include "check/diagnostics.h"
#include "import/import.h"
#include "util/json_out.h"
#include "util/version.h"
#include "util/text.h"
#include "platform/import_worker.h"

namespace rig {

namespace {

using nlohmann::json;
namespace fs = std::filesystem;

// --shard I/N: 1 <= I <= N.
bool parseShard(const std::string& s, size_t& index, size_t& count) {
    const size_t slash = s.find('/');
    if (slash == std::string::npos) return false;
    try {
        size_t used = 0;
        const unsigned long i = std::stoul(s.substr(0, slash), &used);
        if (used != slash) return false;
        const unsigned long n = std::stoul(s.substr(slash + 1), &used);
        if (used != s.size() - slash - 1 || n == 0 || i == 0 || i > n) return false;
        index = i - 1;
        count = n;
        return true;
    } catch (const std::exception&) {
        return false;
    }
}

// Expand the command line into model files: files as given, folders searched recursively
// for extensions Assimp reads. Sorted, so output is stable. A symbolic link in a folder that
// leads out of it is skipped with one line on stderr: a folder's check reads only that folder
// (and the import worker's sandbox is not widened to the link's target).
bool expand(const std::vector<std::string>& args, std::vector<std::string>& files) {
    for (const std::string& p : args) {
        std::error_code ec;
        if (fs::is_directory(p, ec)) {
            std::vector<std::string> found;
            const fs::path root = fs::weakly_canonical(fs::absolute(p, ec), ec);
            for (auto it = fs::recursive_directory_iterator(p, fs::directory_options::skip_permission_denied, ec);
                 !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
                if (!it->is_regular_file(ec) || !isModelFile(it->path().string())) continue;
                if (it->is_symlink(ec)) {
                    const fs::path target = fs::weakly_canonical(it->path(), ec);
                    const fs::path rel = target.lexically_relative(root);
                    if (ec || rel.empty() || *rel.begin() == "..") {
                        cmd::printError(it->path().string() + ": skipped, a symbolic link to " + target.string() +
                                        ", outside " + p);
                        continue;
                    }
                }
                found.push_back(it->path().string());
            }
            std::sort(found.begin(), found.end());
            files.insert(files.end(), found.begin(), found.end());
        } else {
            files.push_back(p);  // a missing file is reported by the import, as for one file
        }
    }
    return !files.empty();
}

std::string term(const std::string& s) { return text::forTerminal(s); }

void printText(const FileResult& r) {
    if (!r.imported && r.report.empty()) {
        std::cout << term(r.error) << "\n";
        return;
    }
    if (r.report.empty()) std::cout << term(r.path) << ": no problems found\n";
    for (const Finding& f : r.report.findings) {
        std::cout << term(r.path) << ": " << severityName(f.severity) << " [" << f.code << "] " << term(f.message);
        if (!f.examples.empty()) {
            std::cout << " (e.g. " << term(f.subject) << ":";
            for (int64_t e : f.examples) std::cout << " " << e;
            std::cout << ")";
        } else if (!f.names.empty()) {
            std::cout << " (e.g.";
            for (size_t k = 0; k < f.names.size(); ++k) std::cout << (k ? ", '" : " '") << term(f.names[k]) << "'";
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
                           std::to_string(done) + "/" + std::to_string(total_) + " " + term(fs::path(file).filename().string());
        (void)!::write(fd_, line.data(), line.size());
    }

private:
    size_t total_;
    std::atomic<size_t> done_{0};
    int fd_ = -1;
    std::mutex mutex_;
};


json summaryJson(const std::vector<FileResult>& results, bool strict) {
    size_t passed = 0, unreadable = 0, errors = 0, warnings = 0, infos = 0, crashed = 0, timedOut = 0;
    for (const FileResult& r : results) {
        passed += severityRank(r, strict) < 2 ? 1 : 0;
        unreadable += r.imported ? 0 : 1;
        crashed += r.failure == ImportFailure::Crashed;
        timedOut += r.failure == ImportFailure::TimedOut;
        for (const Finding& f : r.report.findings) {
            errors += f.severity == Severity::Error;
            warnings += f.severity == Severity::Warning;
            infos += f.severity == Severity::Info;
        }
    }
    return {{"files", results.size()}, {"passed", passed},        {"failed", results.size() - passed},
            {"unreadable", unreadable}, {"importer_crashed", crashed}, {"importer_timeout", timedOut},
            {"errors", errors},         {"warnings", warnings},       {"infos", infos}};
}

}  // namespace

int runCheck(const CheckOptions& o) {
    if (o.listCodes) {
        std::cout << codesMarkdown();
        return exitcode::kOk;
    }
    if (o.paths.empty()) {
        cmd::printError("check: give model files or folders (or --list-codes)");
        return exitcode::kUsage;
    }
    std::vector<std::string> files;
    if (!expand(o.paths, files)) {
        cmd::printError("no model files found in " + (o.paths.empty() ? std::string("(nothing)") : o.paths.front()));
        return exitcode::kBadInput;
    }
    bool many = files.size() > 1 || !o.shard.empty();
    for (const std::string& p : o.paths) {
        std::error_code ec;
        many = many || fs::is_directory(p, ec);
    }
    // One order for every run and every shard: by path, each file once.
    std::sort(files.begin(), files.end());
    files.erase(std::unique(files.begin(), files.end()), files.end());
    if (!o.shard.empty()) {
        size_t index = 0, count = 1;
        if (!parseShard(o.shard, index, count)) {
            cmd::printError("--shard takes I/N with 1 <= I <= N (e.g. 2/8), not '" + o.shard + "'");
            return exitcode::kUsage;
        }
        std::vector<std::string> mine;
        for (size_t k = index; k < files.size(); k += count) mine.push_back(files[k]);
        files = std::move(mine);
    }
    if (o.listFiles) {  // the list alone, exact for any name (rigview.batch checks these files on a cluster)
        for (const std::string& f : files) std::fwrite(f.c_str(), 1, f.size() + 1, stdout);
        std::fflush(stdout);
        return exitcode::kOk;
    }
    if (!o.sheet.empty() && files.size() > kMaxSheetModels) {
        cmd::printError(o.sheet + ": --sheet draws at most " + std::to_string(kMaxSheetModels) + " models, not " +
                        std::to_string(files.size()) + " (fewer paths, or --shard)");
        return exitcode::kUsage;
    }
    for (size_t i = 0; i < (o.sheet.empty() ? 0 : files.size()); ++i) {
        if (!cmd::outputIsNotAnInput(o.sheet, files[i], o.anims)) return exitcode::kUsage;
    }

    // Check in parallel: each thread runs one import worker process at a time and checks its
    // model. In process (--no-isolation) one file at a time: Assimp is not safe on threads.
    std::vector<FileResult> results(files.size());
    // One model is kept for its sheet; several are imported again one at a time as the sheet
    // draws them, so a folder's models are never all in memory.
    std::vector<Model> sheetModels(o.sheet.empty() || files.size() != 1 ? 0 : 1);
    std::mutex outMutex;
    {
        Progress progress(files.size(), many && !o.jsonLines && ::isatty(2));
        std::atomic<size_t> next{0};
        const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
        size_t workers = std::min<size_t>(files.size(), o.jobs > 0 ? static_cast<size_t>(o.jobs) : cores);
        if (!isolation().enabled) workers = 1;
        auto work = [&] {
            for (size_t i = next++; i < files.size(); i = next++) {
                FileResult& r = results[i];
                r = checkFile(files[i], o.anims, o.import, isolation(), sheetModels.empty() ? nullptr : &sheetModels[0],
                              o.influences);
                if (o.jsonLines) {
                    // Streamed as each file finishes, whole lines only, flushed.
                    // (on a worker thread: invalid UTF-8 in a name is replaced, never thrown)
                    const std::string line =
                        fileJson(r, o.strict).dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
                    std::lock_guard<std::mutex> lock(outMutex);
                    std::fwrite(line.data(), 1, line.size(), stdout);
                    std::fflush(stdout);
                }
                progress.tick(files[i]);
            }
        };
        std::vector<std::thread> pool;
        for (size_t w = 1; w < workers; ++w) pool.emplace_back(work);
        work();
        for (std::thread& t : pool) t.join();
    }

    // The sheet: a section per file, in the report's order; written when any file was imported.
    const auto writeSheet = [&] {
        if (o.sheet.empty() || std::none_of(results.begin(), results.end(), [](const FileResult& r) { return r.imported; })) {
            return exitcode::kOk;
        }
        std::vector<SheetEntry> entries;
        for (const FileResult& r : results) {
            SheetEntry e{r.path, nullptr, &r.report, r.error, {}};
            if (r.imported && !sheetModels.empty()) {
                e.model = &sheetModels[0];
            } else if (r.imported) {
                e.load = [&o, path = r.path](Model& m) {
                    cmd::ErrorCapture quiet;  // its warnings were printed by the check
                    return cmd::load(path, o.anims, o.import, m);
                };
            }
            entries.push_back(std::move(e));
        }
        return writeContactSheet(entries, o.sheet);
    };

    if (o.jsonLines) {
        int worst = 0;
        for (const FileResult& r : results) worst = std::max(worst, severityRank(r, o.strict));
        const std::string line =
            json{{"rigview_version", rigviewVersion()}, {"summary", summaryJson(results, o.strict)}}.dump() + "\n";
        std::fwrite(line.data(), 1, line.size(), stdout);
        std::fflush(stdout);
        for (const FileResult& r : results) {
            if (!r.imported) cmd::printError(r.error);
        }
        if (const int rc = writeSheet(); rc != exitcode::kOk) return rc;
        if (worst == 3) return exitcode::kBadInput;
        return worst == 2 ? exitcode::kCheckFailed : exitcode::kOk;
    }
    if (results.empty()) {  // an empty shard
        if (o.json) {
            const json j{{"rigview_version", rigviewVersion()}, {"files", json::array()},
                         {"summary", summaryJson(results, o.strict)}};
            std::cout << j.dump(2) << "\n";
        } else {
            std::printf("0 files: 0 passed, 0 failed\n");
        }
        return exitcode::kOk;
    }

    int worst = 0;
    for (const FileResult& r : results) worst = std::max(worst, severityRank(r, o.strict));

    if (o.json) {
        if (!many) {
            std::cout << jsonout::dump(fileJson(results[0], o.strict), 2) << "\n";
            if (!results[0].imported) cmd::printError(results[0].error);  // and the one error line
        } else {
            json j;
            j["rigview_version"] = rigviewVersion();
            j["files"] = json::array();
            for (const FileResult& r : results) j["files"].push_back(fileJson(r, o.strict));
            j["summary"] = summaryJson(results, o.strict);
            std::cout << jsonout::dump(std::move(j), 2) << "\n";
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
            if (r.imported || !r.report.empty()) printText(r);
        }
        // Summary table.
        size_t width = 4;
        for (const FileResult& r : results) width = std::max(width, term(r.path).size());
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
            const char* verdict = r.failure == ImportFailure::Crashed    ? "CRASHED"
                                  : r.failure == ImportFailure::TimedOut ? "TIMEOUT"
                                  : rank == 3                            ? "UNREADABLE"
                                  : rank == 2                            ? "FAIL"
                                  : rank == 1                            ? "warn"
                                                                         : "ok";
            std::string name = term(r.path);
            if (name.size() > width) name = text::validUtf8("..." + name.substr(name.size() - width + 3));
            std::printf("%-*s  %-8s %6zu %8zu %6zu\n", static_cast<int>(width), name.c_str(), verdict, e, w, i);
        }
        std::printf("%zu files: %zu passed, %zu failed\n", results.size(), passed, results.size() - passed);
        for (const FileResult& r : results) {
            if (!r.imported) cmd::printError(r.error);
        }
    }

    if (const int rc = writeSheet(); rc != exitcode::kOk) return rc;
    if (worst == 3) return exitcode::kBadInput;
    return worst == 2 ? exitcode::kCheckFailed : exitcode::kOk;
}

}  // namespace rig
