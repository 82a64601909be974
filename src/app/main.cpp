// rigview: the command line. Declares the subcommands and their options, then hands over to
// app/commands.cpp. Every error leaves as one line on stderr and an exit code.
#include <iostream>
#include <new>
#include <string>

#include <CLI/CLI.hpp>

#include "app/commands.h"
#include "app/exit_codes.h"
#include "app/memory_limit.h"
#include "app/viewer_entry.h"
#include "import/import.h"

int main(int argc, char** argv) {
    CLI::App app{"rigview: a viewer for rigged, animated 3D models (FBX, glTF, COLLADA, .X, BVH...)", "rigview"};
    app.require_subcommand(0, 1);
    rig::ViewerLaunch viewer;
    app.add_option("model", viewer.model, "Model to open in the interactive viewer (default: the bundled demo)");
    app.add_option("--clip", viewer.clip, "Clip to start with (name or index)");
    float amcFps = 120.0f;
    app.add_option("--amc-fps", amcFps, "Frames per second of AMC motion files (default 120, as CMU's)")
        ->check(CLI::Range(1.0f, 10000.0f));
    const char* animHelp = "Add the clips of another file, bound to the model's joints by name (repeatable)";
    app.add_option("--anim", viewer.anims, animHelp)->allow_extra_args(false);
    app.add_option("--screenshot", viewer.screenshot, "Run the viewer some frames, save the window as PNG and exit");
    app.add_option("--frames", viewer.frames, "Frames to run before --screenshot (default 90)");
    app.add_option("--window", viewer.width, "Window width (height follows at 16:10)")->check(CLI::Range(320, 8192));
    app.add_flag("!--no-watch", viewer.watch, "Do not re-import the model when its file changes");

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

    rig::CheckOptions check;
    CLI::App* checkCmd = app.add_subcommand("check", "Rig diagnostics; the exit code tells the worst severity");
    checkCmd->add_option("paths", check.paths, "Model files, or folders searched recursively for models")->required();
    checkCmd->add_flag("--json", check.json, "Print the report as JSON (one report for all files)");
    checkCmd->add_flag("--strict", check.strict, "Warnings fail too (exit 1)");
    checkCmd->add_option("--sheet", check.sheet, "Also render a contact sheet PNG (frames across each clip, problem vertices tinted)");
    checkCmd->add_option("--jobs", check.jobs, "Files checked at once (default: all cores)");
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

    rig::ExportOptions exportOpts;
    CLI::App* exportCmd = app.add_subcommand("export", "Write a clip (trimmed, resampled) as BVH: dense mocap made light");
    exportCmd->add_option("model", exportOpts.model, "Model file")->required();
    exportCmd->add_option("-o,--output", exportOpts.output, "Output .bvh")->required();
    exportCmd->add_option("--clip", exportOpts.clip, "Clip name or index (default: the first clip)");
    exportCmd->add_option("--from", exportOpts.from, "Trim: first second to keep (the result starts at 0)");
    exportCmd->add_option("--to", exportOpts.to, "Trim: last second to keep");
    exportCmd->add_option("--fps", exportOpts.fps, "Frames per second of the output (default: the clip's)");
    exportCmd->add_option("--anim", exportOpts.anims, animHelp)->allow_extra_args(false);

    rig::BenchOptions bench;
    CLI::App* benchCmd = app.add_subcommand("bench", "Time the per-tick palette update (sample, local->model, palette)");
    benchCmd->add_option("model", bench.model, "Model file")->required();
    benchCmd->add_option("--clip", bench.clip, "Clip name or index (default: the first clip)");
    benchCmd->add_option("--ticks", bench.ticks, "Ticks to time at 60 ticks per second");
    benchCmd->add_flag("--json", bench.json, "Print {\"joints\", \"ns_per_tick\", \"ns_per_joint\"}");
    benchCmd->add_option("--anim", bench.anims, animHelp)->allow_extra_args(false);

    for (CLI::App* sub : {infoCmd, poseCmd, checkCmd, renderCmd, exportCmd, benchCmd}) addUnits(sub);

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        std::cerr << "rigview: " << e.what() << " (see rigview --help)\n";
        return rig::exitcode::kUsage;
    }

    rig::applyMemoryLimit();
    rig::setAmcFramesPerSecond(amcFps);
    rig::setUnitMode(units == "file" ? rig::UnitMode::File : rig::UnitMode::Metres);
    try {
        if (*infoCmd) return rig::runInfo(info);
        if (*poseCmd) return rig::runPose(pose);
        if (*checkCmd) return rig::runCheck(check);
        if (*benchCmd) return rig::runBench(bench);
        if (*renderCmd) return rig::runRender(render);
        if (*exportCmd) return rig::runExport(exportOpts);
        if (viewer.width != 1280) viewer.height = viewer.width * 10 / 16;
        return rig::runViewer(viewer);
    } catch (const std::bad_alloc&) {
        std::cerr << "rigview: out of memory (limit " << rig::memoryLimitMb()
                  << " MiB; set RIGVIEW_MAX_MEMORY_MB to change it, 0 for none)\n";
        return rig::exitcode::kBadInput;
    }
}
