// rigview: the command line. Declares the subcommands and their options, then hands over to
// app/commands.cpp. Every error leaves as one line on stderr and an exit code.
#include <csignal>
#include <iostream>
#include <new>
#include <string>

#include <CLI/CLI.hpp>

#include "app/commands.h"
#include "app/exit_codes.h"
#include "app/memory_limit.h"
#include "app/viewer_entry.h"
#include "import/import.h"
#include "util/paths.h"
#include "util/text.h"
#include "platform/import_worker.h"

int main(int argc, char** argv) {
    CLI::App app{"rigview: a viewer for rigged, animated 3D models (FBX, glTF, COLLADA, .X, BVH...)", "rigview"};
    app.require_subcommand(0, 1);
    rig::ViewerLaunch viewer;
    app.add_option("model", viewer.model, "Model to open in the interactive viewer (default: the bundled demo)");
    app.add_option("--clip", viewer.clip, "Clip to start with (name or index)");
    app.add_option("--machine", viewer.machine,
                   "A state machine file (*.machine.json) driving the model from the start "
                   "(default: <model>.machine.json beside the model is loaded, not driving)");
    // Options in this group change what an import produces: they are passed on to the import
    // worker process as given (see forwardedImportArgs), so a new one needs nothing more.
    const std::string importGroup = "Import options (before the subcommand)";
    float amcFps = 120.0f;
    app.add_option("--amc-fps", amcFps, "Frames per second of AMC motion files (default 120, as CMU's)")
        ->check(CLI::Range(1.0f, 10000.0f))
        ->group(importGroup);
    rig::IsolationConfig isolation;
    bool noIsolation = false;
    app.add_option("--import-timeout", isolation.timeoutSeconds,
                   "Seconds an import may take before its worker process is killed (default 120)")
        ->check(CLI::Range(0.1, 1e6))
        ->group("Isolation (before the subcommand)");
    app.add_flag("--no-isolation", noIsolation,
                 "Import in this process, not in a worker process (for debugging: a crashing file crashes rigview)")
        ->group("Isolation (before the subcommand)");
    const char* animHelp = "Add the clips of another file, bound to the model's joints by name (repeatable)";
    app.add_option("--anim", viewer.anims, animHelp)->allow_extra_args(false);
    app.add_option("--screenshot", viewer.screenshot, "Run the viewer some frames, save the window as PNG and exit");
    app.add_option("--frames", viewer.frames, "Frames to run before --screenshot (default 90)");
    app.add_option("--window", viewer.width, "Window width (height follows at 16:10)")->check(CLI::Range(320, 8192));
    app.add_flag("!--no-watch", viewer.watch, "Do not re-import the model when its file changes");
    app.add_flag("--reset-layout", viewer.resetLayout,
                 "Start with the default panel layout (the saved one in ~/.config/rigview is replaced on quit)");

    // --units: a global option, accepted before or after the subcommand.
    std::string units = "metres";
    const char* unitsHelp = "metres (default: convert FBX, COLLADA... to metres) or file (keep the file's own numbers)";
    auto addUnits = [&](CLI::App* a) {
        a->add_option("--units", units, unitsHelp)->check(CLI::IsMember({"metres", "meters", "m", "file"}));
    };
    addUnits(&app);

    rig::InfoOptions info;
    CLI::App* infoCmd = app.add_subcommand("info", "Meshes, vertices, triangles, joints, influences and clips of a model");
    infoCmd->add_option("model", info.model, "Model file")->required();
    infoCmd->add_flag("--json", info.json, "Print JSON");
    infoCmd->add_option("--anim", info.anims, animHelp)->allow_extra_args(false);

    rig::PoseOptions pose;
    CLI::App* poseCmd = app.add_subcommand("pose", "Write the CPU-skinned, world-space posed mesh at a clip time");
    poseCmd->add_option("model", pose.model, "Model file")->required();
    poseCmd->add_option("-o,--output", pose.output, "Output file: .json (positions + joint matrices) or .obj")->required();
    poseCmd->add_option("--clip", pose.clip, "Clip name or index (default: the first clip)");
    poseCmd->add_option("--time", pose.time, "Seconds on the clip's timeline; past its end time wraps");
    auto* poseBind = poseCmd->add_flag("--bind-pose", pose.bindPose,
                                       "Ignore clips: the bind pose, the pose the skin was bound in (from its inverse bind matrices)");
    poseCmd->add_flag("--file-pose", pose.filePose, "Ignore clips: the file pose, the nodes' default transforms")
        ->excludes(poseBind);
    poseCmd->add_option("--anim", pose.anims, animHelp)->allow_extra_args(false);
    poseCmd->add_option("--machine", pose.machine,
                        "A state machine file (*.machine.json) run from 0 to --time at 60 ticks per second; replaces --clip")
        ->excludes(poseBind);
    poseCmd->add_option("--set", pose.sets, "With --machine: a parameter's value at the start, NAME=VALUE (NAME alone for a trigger; repeatable)")
        ->allow_extra_args(false);

    rig::CheckOptions check;
    CLI::App* checkCmd = app.add_subcommand("check", "Rig diagnostics; the exit code tells the worst severity");
    checkCmd->add_option("paths", check.paths, "Model files, or folders searched recursively for models")->required();
    CLI::Option* checkJson = checkCmd->add_flag("--json", check.json, "Print the report as JSON (one report for all files)");
    checkCmd->add_flag("--json-lines", check.jsonLines,
                       "Print one JSON object per file as each finishes (flushed), then {\"summary\":...}")
        ->excludes(checkJson);
    checkCmd->add_option("--shard", check.shard,
                         "Check only shard I of N (1-based): files I, I+N, I+2N... of the sorted file list");
    checkCmd->add_flag("--strict", check.strict, "Warnings fail too (exit 1)");
    checkCmd->add_option("--sheet", check.sheet, "Also render a contact sheet PNG (frames across each clip, problem vertices tinted)");
    checkCmd->add_option("--jobs", check.jobs, "Import worker processes at once (default: all cores)")->check(CLI::Range(0, 1024));
    checkCmd->add_option("--anim", check.anims, animHelp)->allow_extra_args(false);

    rig::RenderOptions render;
    CLI::App* renderCmd = app.add_subcommand("render", "Draw one frame headless (EGL, no X server) and write a PNG");
    renderCmd->add_option("model", render.model, "Model file")->required();
    renderCmd->add_option("-o,--output", render.output, "Output .png")->required();
    renderCmd->add_option("--clip", render.clip, "Clip name or index (default: the first clip)");
    renderCmd->add_option("--time", render.time, "Seconds on the clip's timeline; past its end time wraps");
    auto* renderBind = renderCmd->add_flag("--bind-pose", render.bindPose,
                                           "Draw the bind pose, the pose the skin was bound in (from its inverse bind matrices)");
    renderCmd->add_flag("--file-pose", render.filePose, "Draw the file pose, the nodes' default transforms")
        ->excludes(renderBind);
    renderCmd->add_option("--size", render.size, "Image size WIDTHxHEIGHT (default 800x600)");
    renderCmd->add_option("--skinning", render.skinning, "gpu (vertex shader) or cpu (reference path)");
    renderCmd->add_flag("--bones", render.bones, "Draw the skeleton on top");
    renderCmd->add_flag("--grid", render.grid, "Draw the ground grid");
    renderCmd->add_flag("--wireframe", render.wireframe, "Draw triangles as lines");
    renderCmd->add_option("--azimuth", render.azimuth, "Camera azimuth in degrees around the up axis (default 30)");
    renderCmd->add_option("--elevation", render.elevation, "Camera elevation in degrees (default 15)");
    renderCmd->add_option("--msaa", render.samples, "Multisample count (default 4, 0 = off)");
    renderCmd->add_option("--anim", render.anims, animHelp)->allow_extra_args(false);
    CLI::Option* renderInstances = renderCmd->add_option("--instances", render.instances,
                          "Draw a crowd of N (1..100000) on a grid, phases spread over the clip, with instanced draws");
    renderCmd->add_option("--spacing", render.spacing, "Crowd grid step (default: 1.25 x the model's footprint)");
    renderCmd->add_option("--machine", render.machine,
                          "A state machine file (*.machine.json) run from 0 to --time at 60 ticks per second; replaces --clip")
        ->excludes(renderBind);
    renderCmd->add_option("--set", render.sets, "With --machine: a parameter's value at the start, NAME=VALUE (NAME alone for a trigger; repeatable)")
        ->allow_extra_args(false);

    rig::ExportOptions exportOpts;
    CLI::App* exportCmd = app.add_subcommand("export", "Write the model and its clips (trimmed, resampled) as glTF (.gltf/.glb), or one clip as BVH");
    exportCmd->add_option("model", exportOpts.model, "Model file")->required();
    exportCmd->add_option("-o,--output", exportOpts.output, "Output .bvh, .gltf or .glb")->required();
    exportCmd->add_option("--clip", exportOpts.clip, "Clip name or index (default: BVH the first clip, glTF every clip)");
    exportCmd->add_option("--from", exportOpts.from, "Trim: first second to keep (the result starts at 0)");
    exportCmd->add_option("--to", exportOpts.to, "Trim: last second to keep");
    CLI::Option* exportFps =
        exportCmd->add_option("--fps", exportOpts.fps, "Frames per second of the output, at most 1000 (default: BVH the clip's rate, glTF the keys as they are)");
    exportCmd->add_option("--anim", exportOpts.anims, animHelp)->allow_extra_args(false);

    rig::BenchOptions bench;
    CLI::App* benchCmd = app.add_subcommand("bench", "Time the per-tick palette update (sample, local->model, palette)");
    benchCmd->add_option("model", bench.model, "Model file")->required();
    benchCmd->add_option("--clip", bench.clip, "Clip name or index (default: the first clip)");
    benchCmd->add_option("--ticks", bench.ticks, "Ticks to time at 60 ticks per second");
    benchCmd->add_flag("--json", bench.json, "Print {\"joints\", \"ns_per_tick\", \"ns_per_joint\"}");
    benchCmd->add_option("--instances", bench.instances, "Time N instances sharing the model, updated together each frame (a crowd)");
    benchCmd->add_option("--threads", bench.threads, "Threads updating the crowd, this one included (with --instances; default 1)");
    benchCmd->add_option("--anim", bench.anims, animHelp)->allow_extra_args(false);

    rig::CompressOptions compress;
    CLI::App* compressCmd = app.add_subcommand(
        "compress", "Compress every clip (key reduction within a tolerance, quantization), print sizes and errors, write glTF");
    compressCmd->add_option("model", compress.model, "Model file")->required();
    compressCmd->add_option("-o,--output", compress.output, "Output .gltf or .glb (the key-reduced, quantized clips)")->required();
    compressCmd->add_option("--tolerance", compress.toleranceMm,
                            "Largest error in millimetres at joints and skinned vertices (default 0.1)");
    compressCmd->add_flag("--json", compress.json, "Print the table as JSON");
    compressCmd->add_option("--anim", compress.anims, animHelp)->allow_extra_args(false);

    for (CLI::App* sub : {infoCmd, poseCmd, checkCmd, renderCmd, exportCmd, benchCmd, compressCmd}) addUnits(sub);
    // Inverse kinematics before skinning (anim/ik.h): one two-bone chain.
    auto addIk = [](CLI::App* a, rig::IkOptions& ik) {
        a->add_option("--ik-two-bone", ik.twoBone, "IK chain START,MID,END (joint names or node indices), e.g. LeftUpLeg,LeftLeg,LeftFoot");
        a->add_option("--ik-target", ik.target, "IK target X,Y,Z in model space (the space `pose` writes)");
        a->add_option("--ik-pole", ik.pole, "IK pole direction X,Y,Z: the side the mid joint bends to (default: the pose's own bend)");
        a->add_option("--ik-weight", ik.weight, "IK weight in [0, 1] (default 1)");
        a->add_option("--ik-soft", ik.soft, "Fraction of the chain length where the reach starts to soften, in [0, 1] (default 1: none)");
    };
    addIk(poseCmd, pose.ik);
    addIk(renderCmd, render.ik);
    addIk(exportCmd, exportOpts.ik);
    // Global: on the viewer and on every subcommand (either side of the subcommand's name).
    bool allowExternalPaths = false;
    const char* externalHelp =
        "Read files a model refers to (buffers, textures) even outside the model's folder (default: refused)";
    app.add_flag("--allow-external-paths", allowExternalPaths, externalHelp);
    for (CLI::App* sub : {infoCmd, poseCmd, checkCmd, renderCmd, exportCmd, benchCmd, compressCmd}) {
        sub->add_flag("--allow-external-paths", allowExternalPaths, externalHelp);
    }

    // The import worker (platform/import_worker), started by rigview itself: hidden.
    std::string workerModel;
    std::vector<std::string> workerAnims;
    int workerFd = 3;
    long workerParent = 0;
    CLI::App* workerCmd = app.add_subcommand("__import-worker", "")->group("");
    workerCmd->add_option("--model", workerModel)->required();
    workerCmd->add_option("--anim", workerAnims)->allow_extra_args(false);
    workerCmd->add_option("--result-fd", workerFd);
    workerCmd->add_option("--parent", workerParent);

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

    exportOpts.fpsGiven = exportFps->count() > 0;
    render.instancesGiven = renderInstances->count() > 0;
    rig::paths::setAllowExternal(allowExternalPaths);
    // A write past the file size limit (ulimit -f) fails with EFBIG and is reported like any
    // failed write (the output keeps its previous content) instead of killing the process.
    std::signal(SIGXFSZ, SIG_IGN);
    isolation.memoryLimitMb = rig::applyMemoryLimit();
    rig::setAmcFramesPerSecond(amcFps);
    rig::setUnitMode(units == "file" ? rig::UnitMode::File : rig::UnitMode::Metres);
    isolation.enabled = !noIsolation;
    for (const CLI::Option* opt : app.get_options([&](const CLI::Option* o) { return o->get_group() == importGroup; })) {
        for (size_t n = 0; n < opt->count() && opt->get_expected_min() == 0; ++n) isolation.forwardedArgs.push_back(opt->get_name());
        if (opt->get_expected_min() == 0) continue;
        for (const std::string& v : opt->results()) isolation.forwardedArgs.push_back(opt->get_name() + "=" + v);
    }
    // Given on the subcommand or before it: the worker gets it in one place.
    if (allowExternalPaths) isolation.forwardedArgs.push_back("--allow-external-paths");
    if (units == "file") isolation.forwardedArgs.push_back("--units=file");
    rig::setIsolation(isolation);
    try {
        if (*workerCmd) return rig::runImportWorker(workerModel, workerAnims, workerFd, workerParent);
        if (*infoCmd) return rig::runInfo(info);
        if (*poseCmd) return rig::runPose(pose);
        if (*checkCmd) return rig::runCheck(check);
        if (*benchCmd) return rig::runBench(bench);
        if (*renderCmd) return rig::runRender(render);
        if (*exportCmd) return rig::runExport(exportOpts);
        if (*compressCmd) return rig::runCompress(compress);
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
