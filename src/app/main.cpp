// rigview: the command line. Builds the subcommands and their options from the one option table
// (app/options.cpp), then hands over to the subcommands (app/<name>_command.cpp).
// Every error leaves as one line on stderr and an exit code.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <new>
#include <string>

#include <CLI/CLI.hpp>

#include "app/commands.h"
#include "app/completions.h"
#include "app/exit_codes.h"
#include "app/man_page.h"
#include "app/memory_limit.h"
#include "app/options.h"
#include "app/version_text.h"
#include "app/viewer_entry.h"
#include "import/import.h"
#include "util/paths.h"
#include "util/text.h"
#include "util/version.h"
#include "platform/import_worker.h"

namespace {

// Standard streams started closed are opened on devices, so that no file rigview opens later
// can take their numbers (a report written into an output file): stdin and stderr on
// /dev/null, stdout on /dev/full, so that a report written to a closed stdout fails like any
// other write and is reported instead of lost.
void occupyClosedStandardStreams() {
    const char* devices[3] = {"/dev/null", "/dev/full", "/dev/null"};
    for (int fd = 0; fd < 3; ++fd) {
        if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
        const int opened = ::open(devices[fd], fd == 0 ? O_RDONLY : O_WRONLY);
        if (opened >= 0 && opened != fd) {
            ::dup2(opened, fd);
            ::close(opened);
        }
    }
}

// The command's exit code, or kOutputFailed with one line when what it wrote on stdout (a
// report, JSON) did not all reach it: a full device, a closed pipe or stream.
int checkedStdout(int code) {
    errno = 0;
    std::cout.flush();
    const bool flushed = std::fflush(stdout) == 0;
    const int err = errno;
    if (std::cout && flushed && !std::ferror(stdout)) return code;
    std::cerr << "rigview: standard output: could not write the output"
              << (err ? std::string(" (") + std::strerror(err) + ")" : std::string()) << "\n";
    return code == rig::exitcode::kOk || code == rig::exitcode::kCheckFailed ? rig::exitcode::kOutputFailed : code;
}

}  // namespace

int main(int argc, char** argv) {
    rig::setRigviewVersion(rig::kBuildVersion);
    occupyClosedStandardStreams();
    CLI::App app{"", "rigview"};
    app.require_subcommand(0, 1);
    // Every option of the viewer and of every subcommand, and their descriptions, come from one
    // table (app/options.cpp).
    rig::cli::Settings settings;
    const rig::cli::Parser cmd = rig::cli::build(app, settings);
    using rig::cli::Command;

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        std::cerr << "rigview: " << rig::text::forTerminal(e.what()) << " (see rigview --help)\n";
        return rig::exitcode::kUsage;
    }

    if (settings.verbose && !settings.version) {
        std::cerr << "rigview: --verbose goes with --version (see rigview --help)\n";
        return rig::exitcode::kUsage;
    }
    if (settings.version) {
        std::cout << rig::versionText(settings.verbose);
        return checkedStdout(rig::exitcode::kOk);
    }
    if (settings.helpMarkdown) {
        std::cout << rig::cli::optionsMarkdown();
        return checkedStdout(rig::exitcode::kOk);
    }
    if (settings.helpMan) {
        std::cout << rig::cli::manPage();
        return checkedStdout(rig::exitcode::kOk);
    }
    if (!settings.completion.empty()) {
        std::cout << rig::cli::completionScript(settings.completion);
        return checkedStdout(rig::exitcode::kOk);
    }
    settings.exportOpts.fpsGiven = cmd[Command::Export]->get_option("--fps")->count() > 0;
    settings.render.instancesGiven = cmd[Command::Render]->get_option("--instances")->count() > 0;
    settings.render.samplesGiven = cmd[Command::Render]->get_option("--msaa")->count() > 0;
    settings.render.timeGiven = cmd[Command::Render]->get_option("--time")->count() > 0;
    settings.render.range.fromGiven = cmd[Command::Render]->get_option("--from")->count() > 0;
    settings.render.range.toGiven = cmd[Command::Render]->get_option("--to")->count() > 0;
    settings.render.range.fpsGiven = cmd[Command::Render]->get_option("--fps")->count() > 0;
    rig::paths::setAllowExternal(settings.allowExternalPaths);
    // A write past the file size limit (ulimit -f) fails with EFBIG and is reported like any
    // failed write (the output keeps its previous content) instead of killing the process.
    std::signal(SIGXFSZ, SIG_IGN);
    rig::IsolationConfig& isolation = settings.isolation;
    isolation.memoryLimitMb = rig::applyMemoryLimit();
    isolation.enabled = !settings.noIsolation;
    // Given on the subcommand or before it: the worker gets it in one place.
    if (settings.allowExternalPaths) isolation.forwardedArgs.push_back("--allow-external-paths");
    rig::setIsolation(isolation);
    // What an import produces: passed to every import (and by it to the import worker).
    rig::ImportOptions import{settings.units == "file" ? rig::UnitMode::File : rig::UnitMode::Metres, settings.amcFps};
    import.decodeImages = !settings.workerNoImages;
    for (rig::ImportOptions* o : {&settings.viewer.import, &settings.info.import, &settings.pose.import, &settings.check.import,
                                  &settings.render.import, &settings.exportOpts.import, &settings.bench.import,
                                  &settings.compress.import, &settings.diff.import, &settings.thumbnail.import}) {
        *o = import;
    }
    // Textures are decoded for the commands that draw them (the viewer, render, thumbnail).
    for (rig::ImportOptions* o : {&settings.info.import, &settings.pose.import, &settings.check.import, &settings.exportOpts.import,
                                  &settings.bench.import, &settings.compress.import, &settings.diff.import}) {
        o->decodeImages = false;
    }
    settings.check.import.decodeImages = !settings.check.sheet.empty();  // the contact sheet draws
    try {
        if (*cmd[Command::ImportWorker] && settings.workerEnvironment) {
            return rig::runEnvironmentWorker(settings.workerModel, settings.workerFd, settings.workerParent);
        }
        if (*cmd[Command::ImportWorker]) {
            return rig::runImportWorker(settings.workerModel, settings.workerAnims, import, settings.workerFd,
                                        settings.workerParent, settings.workerStages);
        }
        if (*cmd[Command::Info]) return checkedStdout(rig::runInfo(settings.info));
        if (*cmd[Command::Pose]) return checkedStdout(rig::runPose(settings.pose));
        if (*cmd[Command::Check]) return checkedStdout(rig::runCheck(settings.check));
        if (*cmd[Command::Bench]) return checkedStdout(rig::runBench(settings.bench));
        if (*cmd[Command::Render]) return checkedStdout(rig::runRender(settings.render));
        if (*cmd[Command::Export]) return checkedStdout(rig::runExport(settings.exportOpts));
        if (*cmd[Command::Compress]) return checkedStdout(rig::runCompress(settings.compress));
        if (*cmd[Command::Diff]) return checkedStdout(rig::runDiff(settings.diff));
        if (*cmd[Command::Thumbnail]) return checkedStdout(rig::runThumbnail(settings.thumbnail));
        rig::ViewerLaunch& viewer = settings.viewer;
        if (viewer.width != 1280) viewer.height = viewer.width * 10 / 16;
        return rig::runViewer(viewer);
    } catch (const std::bad_alloc&) {
        std::cerr << "rigview: out of memory (limit " << rig::memoryLimitMb()
                  << " MiB; set RIGVIEW_MAX_MEMORY_MB to change it, 0 for none)\n";
        return rig::exitcode::kBadInput;
    } catch (const std::exception& e) {
        // Nothing else is expected to get here (JSON output cannot throw, see util/json_out.h);
        // if something does, it is one line and a documented exit code, not an abort.
        std::cerr << "rigview: internal error: " << rig::text::forTerminal(e.what()) << "\n";
        return rig::exitcode::kInternalError;
    } catch (...) {
        std::cerr << "rigview: internal error: an unknown exception\n";
        return rig::exitcode::kInternalError;
    }
}
