// `rigview check`: rig diagnostics for one model or a whole asset library. Files and folders
// (searched recursively) are checked in parallel, each imported in its own worker process
// (platform/import_worker; --jobs at once), with a progress bar on a terminal, then a summary
// in file-path order; --format json gives one report (one shape for any number of files),
// json-lines one line per file as it finishes, sarif and junit what CI systems read; -o writes
// it to a file; a project's rigview-check.json (or --config) ignores codes, changes severities
// and sets tolerances per path glob (check/check_config.h);
// a file that crashes or hangs its importer is a finding and the run goes on; --shard I/N
// takes every N-th file; --list-files prints the files alone; the exit code tells the worst result.
#include <unistd.h>

#include <algorithm>
#include <exception>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <sstream>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <thread>

#include <nlohmann/json.hpp>

#include "app/check_formats.h"
#include "app/check_report.h"
#include "app/command_util.h"
#include "app/commands.h"
#include "app/contact_sheet.h"
#include "app/exit_codes.h"
#include "check/check_config.h"
#include "check/codes.h"
#include "check/diagnostics.h"
#include "import/import.h"
#include "util/json_out.h"
#include "util/output_file.h"
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

void printText(std::ostream& out, const FileResult& r) {
    if (!r.imported && r.report.empty()) {
        out << term(r.error) << "\n";
        return;
    }
    if (r.report.empty()) out << term(r.path) << ": no problems found\n";
    for (const Finding& f : r.report.findings) {
        out << term(r.path) << ": " << severityName(f.severity) << " [" << f.code << "] " << term(f.message);
        if (!f.examples.empty()) {
            out << " (e.g. " << term(f.subject) << ":";
            for (int64_t e : f.examples) out << " " << e;
            out << ")";
        } else if (!f.names.empty()) {
            out << " (e.g.";
            for (size_t k = 0; k < f.names.size(); ++k) out << (k ? ", '" : " '") << term(f.names[k]) << "'";
            out << ")";
        }
        out << "\n";
    }
}

// Where the report goes: stdout, or -o's file (written whole, or stdout for "-").
class Sink {
public:
    explicit Sink(const std::string& path) {
        if (!path.empty()) file_ = std::make_unique<OutputFile>(path);
    }
    bool open() { return !file_ || file_->open() || fail(); }
    bool write(const std::string& s) {
        if (failed_) return false;
        if (file_) return file_->write(s) || fail();
        std::fwrite(s.data(), 1, s.size(), stdout);
        std::fflush(stdout);
        return true;
    }
    bool finish() { return failed_ ? false : (!file_ || file_->commit() || fail()); }

private:
    bool fail() {
        if (!failed_) cmd::printError(file_->error());
        failed_ = true;
        return false;
    }
    std::unique_ptr<OutputFile> file_;
    bool failed_ = false;
};

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


}  // namespace

int runCheck(const CheckOptions& o) {
    if (o.listCodes) {
        std::cout << codesMarkdown();
        return exitcode::kOk;
    }
    std::vector<std::string> paths = o.paths;
    if (!o.filesFrom.empty()) {
        // NUL-ended names, exact for any name (a last name without its NUL counts too).
        std::string list;
        if (o.filesFrom == "-") {
            list.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
        } else {
            std::ifstream in(o.filesFrom, std::ios::binary);
            if (!in) {
                cmd::printError(o.filesFrom + ": cannot read the list of files (" + std::strerror(errno) + ")");
                return exitcode::kUsage;
            }
            list.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
        }
        for (size_t at = 0; at < list.size();) {
            const size_t end = std::min(list.find('\0', at), list.size());
            if (end > at) paths.push_back(list.substr(at, end - at));
            at = end + 1;
        }
    }
    if (paths.empty()) {
        cmd::printError("check: give model files or folders (or --list-codes)");
        return exitcode::kUsage;
    }
    // One format: --format, or the older --json / --json-lines.
    const std::string format = !o.format.empty() ? o.format : o.jsonLines ? "json-lines" : o.json ? "json" : "text";
    std::vector<std::string> files;
    if (!expand(paths, files)) {
        cmd::printError("no model files found in " + paths.front());
        return exitcode::kBadInput;
    }
    bool many = files.size() > 1 || !o.shard.empty();
    many = many || !o.filesFrom.empty();
    for (const std::string& p : paths) {
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
    // No output over any file checked or --anim file: one stat each, however many files.
    std::vector<std::string> inputs = files;
    inputs.insert(inputs.end(), o.anims.begin(), o.anims.end());
    if (!o.sheet.empty() && !cmd::outputIsNoneOf(o.sheet, inputs)) return exitcode::kUsage;
    if (!o.output.empty() && o.output != "-" && !cmd::outputIsNoneOf(o.output, inputs)) return exitcode::kUsage;
    // The configuration's rules for each file, found before any import.
    CheckConfigFinder finder(o.config, o.noConfig);
    std::vector<std::vector<const CheckRule*>> rules(files.size());
    for (size_t i = 0; i < files.size(); ++i) {
        if (const CheckConfig* c = finder.forFile(files[i])) rules[i] = rulesFor(*c, files[i]);
        if (!finder.error().empty()) {
            cmd::printError(finder.error());
            return exitcode::kUsage;
        }
    }
    Sink sink(o.output);
    if (!sink.open()) return exitcode::kOutputFailed;

    // Check in parallel: each thread runs one import worker process at a time and checks its
    // model. In process (--no-isolation) one file at a time: Assimp is not safe on threads.
    const bool jsonLines = format == "json-lines";
    std::vector<FileResult> results(files.size());
    // One model is kept for its sheet; several are imported again one at a time as the sheet
    // draws them, so a folder's models are never all in memory.
    std::vector<Model> sheetModels(o.sheet.empty() || files.size() != 1 ? 0 : 1);
    std::mutex outMutex;
    {
        Progress progress(files.size(), many && !jsonLines && ::isatty(2));
        std::atomic<size_t> next{0};
        const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
        size_t workers = std::min<size_t>(files.size(), o.jobs > 0 ? static_cast<size_t>(o.jobs) : cores);
        if (!isolation().enabled) workers = 1;
        auto work = [&] {
            for (size_t i = next++; i < files.size(); i = next++) {
                FileResult& r = results[i];
                r = checkFile(files[i], o.anims, o.import, isolation(), sheetModels.empty() ? nullptr : &sheetModels[0],
                              o.influences, rules[i]);
                if (jsonLines) {
                    // Streamed as each file finishes, whole lines only, flushed.
                    // (on a worker thread: invalid UTF-8 in a name is replaced, never thrown)
                    json line = fileJson(r, o.strict);
                    line["schema"] = kCheckSchema;
                    const std::string text = line.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
                    std::lock_guard<std::mutex> lock(outMutex);
                    sink.write(text);
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
    std::string doc;
    if (jsonLines) {
        doc = json{{"schema", kCheckSchema}, {"rigview_version", rigviewVersion()}, {"summary", checkSummaryJson(results, o.strict)}}
                  .dump() +
              "\n";
    } else if (format == "json") {
        doc = jsonout::dump(checkDocumentJson(results, o.strict), 2) + "\n";
    } else if (format == "sarif") {
        doc = checkSarif(results, o.strict);
    } else if (format == "junit") {
        doc = checkJunit(results, o.strict);
    } else if (results.empty()) {  // an empty shard
        doc = "0 files: 0 passed, 0 failed\n";
    } else if (!many) {
        if (results[0].imported) {
            std::ostringstream out;
            printText(out, results[0]);
            doc = out.str();
        }
    } else {
        std::ostringstream out;
        for (const FileResult& r : results) {
            if (r.imported || !r.report.empty()) printText(out, r);
        }
        // Summary table.
        size_t width = 4;
        for (const FileResult& r : results) width = std::max(width, term(r.path).size());
        width = std::min<size_t>(width, 70);
        char line[512];
        std::snprintf(line, sizeof line, "\n%-*s  %-8s %6s %8s %6s\n", static_cast<int>(width), "file", "result", "errors",
                      "warnings", "infos");
        out << line;
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
            std::snprintf(line, sizeof line, "%-*s  %-8s %6zu %8zu %6zu\n", static_cast<int>(width), name.c_str(), verdict, e,
                          w, i);
            out << line;
        }
        out << results.size() << " files: " << passed << " passed, " << results.size() - passed << " failed\n";
        doc = out.str();
    }
    if (!sink.write(doc) || !sink.finish()) return exitcode::kOutputFailed;
    // Each unreadable file's one error line, on stderr whatever the format.
    for (const FileResult& r : results) {
        if (!r.imported) cmd::printError(r.error);
    }

    // The sheet: a section per file, in the report's order; written when any file was imported.
    if (!o.sheet.empty() && std::any_of(results.begin(), results.end(), [](const FileResult& r) { return r.imported; })) {
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
        if (const int rc = writeContactSheet(entries, o.sheet); rc != exitcode::kOk) return rc;
    }
    if (worst == 3) return exitcode::kBadInput;
    return worst == 2 ? exitcode::kCheckFailed : exitcode::kOk;
}

}  // namespace rig
