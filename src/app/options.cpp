// The command line's one table (app/options.h) and what is built from it: CLI11's parser and
// the Markdown option reference.
#include "app/options.h"

#include <cmath>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <type_traits>

namespace rig::cli {

namespace {

// The field of Settings an option writes, as a function (a table entry names it once).
#define RIG_FIELD(path) [](Settings& s) -> Field { return &s.path; }

constexpr Command V = Command::Viewer, Info = Command::Info, Pose = Command::Pose, Check = Command::Check,
                  Render = Command::Render, Export = Command::Export, Bench = Command::Bench,
                  Compress = Command::Compress, Diff = Command::Diff, Thumb = Command::Thumbnail,
                  Worker = Command::ImportWorker;

struct CommandSpec {
    const char* name;
    const char* description;
};
// Indexed by Command.
constexpr CommandSpec kCommandSpecs[] = {
    {"", "rigview: a viewer for rigged, animated 3D models (FBX, glTF, COLLADA, .X, BVH...)"},
    {"info", "Meshes, vertices, triangles, joints, influences and clips of a model"},
    {"pose", "Write the CPU-skinned, world-space posed mesh at a clip time"},
    {"check", "Rig diagnostics; the exit code tells the worst severity"},
    {"render", "Draw one frame headless (EGL, no X server) and write a PNG, or a clip's frames (--from, --to, --fps) as MP4, GIF or numbered PNGs"},
    {"export", "Write the model and its clips (trimmed, resampled) as glTF (.gltf/.glb), or one clip as BVH"},
    {"bench", "Time the per-tick palette update (sample, local->model, palette)"},
    {"compress", "Compress every clip (key reduction within a tolerance, quantization), print sizes and errors, write glTF"},
    {"diff", "What changed between two versions of a rig: joints, bind pose, weights, meshes, clips; exit 1 if anything did"},
    {"thumbnail", "Write a square PNG preview of a model (the first clip's first frame, framed, transparent background), as file managers ask"},
    {"__import-worker", "The import worker process, started by rigview itself"},
};
static_assert(std::size(kCommandSpecs) == std::size(kCommands));

const char* kIsolationGroup = "Isolation (before the subcommand)";

// A number that is finite: CLI::Range lets nan through (every comparison with nan is false).
const CLI::Validator kFinite(
    [](std::string& text) -> std::string {
        char* end = nullptr;
        const double v = std::strtod(text.c_str(), &end);
        if (end == text.c_str() || !std::isfinite(v)) return "must be a finite number, not " + text;
        return "";
    },
    "", "FINITE");
const char* kMachineHelp = "A state machine file (*.machine.json) run from 0 to --time at 60 ticks per second; replaces --clip";
const char* kClipHelp = "Clip name or index (default: the first clip)";

// Where `render`'s flag of view option `o` writes: its member of RenderOptions::view.
std::function<Field(Settings&)> viewOptionField(const ViewOptionSpec& o) {
    switch (o.type) {
        case ViewOptionType::Flag: return [&o](Settings& s) -> Field { return &(s.render.view.*o.flag); };
        case ViewOptionType::Number: return [&o](Settings& s) -> Field { return &(s.render.view.*o.number); };
        case ViewOptionType::Choice: return [&o](Settings& s) -> Field { return ViewChoiceField{&o, &s.render.view}; };
        case ViewOptionType::Color: break;
    }
    throw std::logic_error(std::string("view option ") + o.key + ": a colour takes no command-line flag");
}

// The viewer and every user-facing subcommand, all writing `field`.
std::vector<Target> everywhere(Field (*field)(Settings&)) {
    std::vector<Target> out;
    for (Command c : kCommands) {
        if (c != Command::ImportWorker) out.push_back({c, field});
    }
    return out;
}

std::vector<OptionSpec> makeTable() {
    std::vector<OptionSpec> t;
    // Positionals.
    t.push_back({"model", "Model file", "", {}, {},
                 {{V, RIG_FIELD(viewer.model), "Model to open in the interactive viewer (default: the bundled demo)"},
                  {Info, RIG_FIELD(info.model), nullptr, true},
                  {Pose, RIG_FIELD(pose.model), nullptr, true},
                  {Render, RIG_FIELD(render.model), nullptr, true},
                  {Export, RIG_FIELD(exportOpts.model), nullptr, true},
                  {Bench, RIG_FIELD(bench.model), nullptr, true},
                  {Compress, RIG_FIELD(compress.model), nullptr, true},
                  {Thumb, RIG_FIELD(thumbnail.model), "The model to preview", true}},
                 kModelFiles});
    t.push_back({"a", "The earlier version of the model", "", {}, {}, {{Diff, RIG_FIELD(diff.modelA), nullptr, true}}, kModelFiles});
    t.push_back({"b", "The later version of the model", "", {}, {}, {{Diff, RIG_FIELD(diff.modelB), nullptr, true}}, kModelFiles});
    t.push_back({"image", "The PNG to write (any name: file managers pass temporary ones)", "", {}, {},
                 {{Thumb, RIG_FIELD(thumbnail.output), nullptr, true}}, "png"});
    t.push_back({"paths", "Model files, or folders searched recursively for models", "", {}, {},
                 {{Check, RIG_FIELD(check.paths)}}, kModelFilesOrFolders});
    // Shared by several subcommands.
    t.push_back({"-o,--output", "Output file, - for stdout (pose: .json or .obj; render: .png, or .mp4, .gif, out_%04d.png; export: .bvh, .gltf or .glb; compress: .gltf or .glb; check: the report)", "", {}, {},
                 {{Pose, RIG_FIELD(pose.output), "Output file: .json (positions + joint matrices) or .obj", true, "json obj"},
                  {Render, RIG_FIELD(render.output),
                   "Output .png (one frame), or a playblast of the clip's frames: .mp4 (H.264), .gif, or a PNG sequence whose name holds %d or %0Nd (out_%04d.png: frame 0 is out_0000.png)",
                   true, "png mp4 gif"},
                  {Export, RIG_FIELD(exportOpts.output), "Output .bvh, .gltf or .glb", true, "bvh gltf glb"},
                  {Compress, RIG_FIELD(compress.output), "Output .gltf or .glb (the key-reduced, quantized clips)", true, "gltf glb"},
                  {Check, RIG_FIELD(check.output), "Write the report to this file instead of stdout (- : stdout)"}}});
    t.push_back({"--clip", kClipHelp, "", {}, {},
                 {{V, RIG_FIELD(viewer.clip), "Clip to start with (name or index)"},
                  {Pose, RIG_FIELD(pose.clip)},
                  {Render, RIG_FIELD(render.clip)},
                  {Export, RIG_FIELD(exportOpts.clip), "Clip name or index (default: BVH the first clip, glTF every clip)"},
                  {Bench, RIG_FIELD(bench.clip)}}});
    t.push_back({"--anim", "Add the clips of another file, bound to the model's joints by name (IQM animation-only files: by index) (repeatable)", "", {}, {},
                 {{V, RIG_FIELD(viewer.anims)},
                  {Info, RIG_FIELD(info.anims)},
                  {Pose, RIG_FIELD(pose.anims)},
                  {Check, RIG_FIELD(check.anims)},
                  {Render, RIG_FIELD(render.anims)},
                  {Export, RIG_FIELD(exportOpts.anims)},
                  {Bench, RIG_FIELD(bench.anims)},
                  {Compress, RIG_FIELD(compress.anims)},
                  {Diff, RIG_FIELD(diff.anims), "Add the clips of another file to both versions, bound by joint name (repeatable)"},
                  {Worker, RIG_FIELD(workerAnims)}},
                 kModelFiles});
    t.push_back({"--time", "Seconds on the clip's timeline; past its end time wraps", "", {}, {},
                 {{Pose, RIG_FIELD(pose.time)}, {Render, RIG_FIELD(render.time), "Seconds on the clip's timeline (one frame); past its end time wraps"}}});
    t.push_back({"--bind-pose", "Ignore clips: the bind pose, the pose the skin was bound in (from its inverse bind matrices)", "", {}, {},
                 {{Pose, RIG_FIELD(pose.bindPose)},
                  {Render, RIG_FIELD(render.bindPose), "Draw the bind pose, the pose the skin was bound in (from its inverse bind matrices)"}}});
    t.push_back({"--file-pose", "Ignore clips: the file pose, the nodes' default transforms", "", {}, {"--bind-pose"},
                 {{Pose, RIG_FIELD(pose.filePose)},
                  {Render, RIG_FIELD(render.filePose), "Draw the file pose, the nodes' default transforms"}}});
    t.push_back({"--machine", kMachineHelp, "", {}, {"--bind-pose"},
                 {{V, RIG_FIELD(viewer.machine),
                   "A state machine file (*.machine.json) driving the model from the start "
                   "(default: <model>.machine.json beside the model is loaded, not driving)"},
                  {Pose, RIG_FIELD(pose.machine)},
                  {Render, RIG_FIELD(render.machine)}},
                 "machine.json"});
    t.push_back({"--set", "With --machine: a parameter's value at the start, NAME=VALUE (NAME alone for a trigger; repeatable)", "", {}, {},
                 {{Pose, RIG_FIELD(pose.sets)}, {Render, RIG_FIELD(render.sets)}}});
    t.push_back({"--json", "Print JSON (check: one report for all files)", "", {}, {},
                 {{Info, RIG_FIELD(info.json), "Print JSON"},
                  {Check, RIG_FIELD(check.json), "Print the report as JSON (one report for all files)"},
                  {Bench, RIG_FIELD(bench.json), "Print {\"joints\", \"ns_per_tick\", \"ns_per_joint\", \"isa\"}"},
                  {Compress, RIG_FIELD(compress.json), "Print the table as JSON"},
                  {Diff, RIG_FIELD(diff.json), "Print the differences as JSON"}}});
    t.push_back({"--instances", "A crowd of N sharing the model (render: 1..100000 on a grid, instanced draws; bench: updated together each frame)", "", {}, {},
                 {{Render, RIG_FIELD(render.instances),
                   "Draw a crowd of N (1..100000) on a grid, phases spread over the clip, with instanced draws"},
                  {Bench, RIG_FIELD(bench.instances), "Time N instances sharing the model, updated together each frame (a crowd)"}}});
    // The viewer's own.
    t.push_back({"--screenshot", "Run the viewer some frames, save the window as PNG and exit", "", {}, {},
                 {{V, RIG_FIELD(viewer.screenshot)}}, "png"});
    t.push_back({"--frames", "Frames to run before --screenshot", "", {}, {}, {{V, RIG_FIELD(viewer.frames)}}});
    t.push_back({"--window", "Window width (height follows at 16:10)", "", {CLI::Range(320, 8192)}, {},
                 {{V, RIG_FIELD(viewer.width)}}});
    t.push_back({"!--no-watch", "Do not re-import the model when its file changes", "", {}, {},
                 {{V, RIG_FIELD(viewer.watch)}}});
    t.push_back({"--compare", "Another version of the model, drawn as a ghost over it at the same time, the model coloured by how far each vertex is from it (as diff compares them)", "", {}, {},
                 {{V, RIG_FIELD(viewer.compare)}}, kModelFiles});
    t.push_back({"--reset-layout", "Start with the default panel layout (the saved one is replaced on quit)", "", {}, {},
                 {{V, RIG_FIELD(viewer.resetLayout)}}});
    t.push_back({"--help-markdown", "Print this option reference as a Markdown table (README.md's) and exit", "", {}, {},
                 {{V, RIG_FIELD(helpMarkdown)}}});
    t.push_back({"--help-man", "Print the manual page (roff, what man rigview shows) made from this option reference and exit", "", {}, {},
                 {{V, RIG_FIELD(helpMan)}}});
    t.push_back({"--completion", "Print the completion script of SHELL (bash, zsh or fish) and exit: subcommands, options, their values and file types", "",
                 {CLI::IsMember({"bash", "zsh", "fish"})}, {}, {{V, RIG_FIELD(completion)}}});
    t.push_back({"--version", "Print rigview's version and Assimp's and exit", "", {}, {}, {{V, RIG_FIELD(version)}}});
    t.push_back({"--verbose", "With --version: also the versions of Dear ImGui and GLFW, the OpenGL renderer a headless render uses (EGL) and the data folder", "",
                 {}, {}, {{V, RIG_FIELD(verbose)}}});
    // check.
    t.push_back({"--json-lines", "Print one JSON object per file as each finishes (flushed), then {\"summary\":...}", "", {}, {"--json"},
                 {{Check, RIG_FIELD(check.jsonLines)}}});
    t.push_back({"--format", "Report format: text, json (one object, the same shape for any number of files), json-lines, sarif (SARIF 2.1.0, for code scanning) or junit (JUnit XML)", "",
                 {CLI::IsMember({"text", "json", "json-lines", "sarif", "junit"})}, {"--json", "--json-lines"},
                 {{Check, RIG_FIELD(check.format)}}});
    t.push_back({"--config", "The project's check configuration (ignored codes, severities, tolerances; default: the nearest rigview-check.json above each file)", "", {}, {},
                 {{Check, RIG_FIELD(check.config)}}, "json"});
    t.push_back({"--no-config", "Use no check configuration file", "", {}, {"--config"}, {{Check, RIG_FIELD(check.noConfig)}}});
    t.push_back({"--files-from", "Also check the files listed in FILE (- : standard input), each ended by a NUL byte as --list-files and find -print0 write them", "", {}, {},
                 {{Check, RIG_FIELD(check.filesFrom)}}});
    t.push_back({"--shard", "Check only shard I of N (1-based): files I, I+N, I+2N... of the sorted file list", "", {}, {},
                 {{Check, RIG_FIELD(check.shard)}}});
    t.push_back({"--strict", "Warnings fail too (exit 1)", "", {}, {}, {{Check, RIG_FIELD(check.strict)}}});
    t.push_back({"--sheet", "Also render a contact sheet PNG: a section per model (up to 60), a row of frames per clip, problem vertices tinted", "", {}, {},
                 {{Check, RIG_FIELD(check.sheet)}}, "png"});
    t.push_back({"--jobs", "Import worker processes at once (0: all cores)", "", {CLI::Range(0, 1024)}, {},
                 {{Check, RIG_FIELD(check.jobs)}}});
    t.push_back({"--list-codes", "Print the finding codes (code, severity, meaning) as a Markdown table and exit", "", {}, {},
                 {{Check, RIG_FIELD(check.listCodes)}}});
    t.push_back({"--list-files",
                 "Print the files it would check (folders searched, sorted, --shard applied), each ended by a NUL byte as find -print0 does, and check nothing",
                 "", {}, {}, {{Check, RIG_FIELD(check.listFiles)}}});
    // render.
    t.push_back({"--size", "Image size (render: WIDTHxHEIGHT; thumbnail: the side N of the square, 8..4096)", "", {}, {},
                 {{Render, RIG_FIELD(render.size), "Image size WIDTHxHEIGHT"},
                  {Thumb, RIG_FIELD(thumbnail.size), "The side of the square image in pixels (8..4096)"}}});
    t.push_back({"--camera",
                 "Camera EX,EY,EZ,TX,TY,TZ,FOV: eye and target in world space (Y up), vertical field of view in degrees (replaces the framing; no MSAA unless --msaa)",
                 "", {}, {"--azimuth", "--elevation", "--instances"}, {{Render, RIG_FIELD(render.camera)}}});
    t.push_back({"--env", "Environment lighting: an equirectangular Radiance .hdr (default: the bundled studio)", "", {}, {},
                 {{Render, RIG_FIELD(render.view.environment)}}, "hdr"});
    t.push_back({"--background", "Background colour R,G,B as 0-255 display values (the cleared pixel is exactly that)", "",
                 {}, {}, {{Render, RIG_FIELD(render.background)}}});
    // The view options that have a flag, from the view option table (render/view_options.h).
    for (const ViewOptionSpec& o : viewOptionTable()) {
        if (o.cliFlag) t.push_back({o.cliFlag, o.help, "", {}, {}, {{Render, viewOptionField(o)}}});
    }
    t.push_back({"--azimuth", "Camera azimuth in degrees around the up axis", "", {}, {}, {{Render, RIG_FIELD(render.azimuth)}}});
    t.push_back({"--elevation", "Camera elevation in degrees", "", {}, {}, {{Render, RIG_FIELD(render.elevation)}}});
    t.push_back({"--up", "The model's up axis: y, z, or auto (as the viewer does: the axis the format defines, glTF +Y, FBX UpAxis, COLLADA up_axis; else guessed from the bind pose)", "",
                 {CLI::IsMember({"y", "z", "auto"})}, {}, {{Render, RIG_FIELD(render.up)}}});
    t.push_back({"--msaa", "Multisample count (0 = off; when not given: 4 on a GPU, 0 on a software renderer such as llvmpipe and with --camera)",
                 "", {}, {}, {{Render, RIG_FIELD(render.samples)}}});
    t.push_back({"--spacing", "Crowd grid step (0: 1.25 x the model's footprint)", "", {}, {}, {{Render, RIG_FIELD(render.spacing)}}});
    // export.
    t.push_back({"--from", "Export: trim, first second to keep (the result starts at 0; negative: the clip's start); render: a playblast's first second", "", {}, {},
                 {{Export, RIG_FIELD(exportOpts.from)},
                  {Render, RIG_FIELD(render.range.from), "Playblast: the first second drawn, on the clip's timeline (default 0)"}}});
    t.push_back({"--to", "Export: trim, last second to keep (negative: the clip's end); render: a playblast's end", "", {}, {},
                 {{Export, RIG_FIELD(exportOpts.to)},
                  {Render, RIG_FIELD(render.range.to), "Playblast: the end of the range in seconds (default: the clip's end); frames at --from + i/--fps before it"}}});
    t.push_back({"--fps", "Frames per second of the output (export: at most 1000; default BVH the clip's rate, glTF the keys as they are; render: a playblast's rate)", "", {}, {},
                 {{Export, RIG_FIELD(exportOpts.fps)},
                  {Render, RIG_FIELD(render.range.fps), "Playblast: frames per second, 0.1 to 240, at most 50 for a GIF (default: the clip's own rate, else 30)"}}});
    // bench.
    t.push_back({"--ticks", "Ticks to time at 60 ticks per second", "", {}, {}, {{Bench, RIG_FIELD(bench.ticks)}}});
    t.push_back({"--threads", "Threads updating the crowd, this one included (with --instances)", "", {}, {},
                 {{Bench, RIG_FIELD(bench.threads)}}});
    // Compressed playback (pose, render, bench).
    t.push_back({"--compressed", "Play the clips compressed at this tolerance in millimetres (as compress --tolerance)", "", {}, {"--machine"},
                 {{Pose, RIG_FIELD(pose.compressed)}, {Render, RIG_FIELD(render.compressed)}, {Bench, RIG_FIELD(bench.compressed)}}});
    // compress.
    t.push_back({"--tolerance", "Millimetres: compress, the largest error at joints and skinned vertices (default 0.1); diff, the most that counts as no change (default 0.01)", "", {}, {},
                 {{Compress, RIG_FIELD(compress.toleranceMm), "Largest error in millimetres at joints and skinned vertices"},
                  {Diff, RIG_FIELD(diff.toleranceMm),
                   "Millimetres up to which lengths count as equal (default 0.01; bind-pose angles: 0.01 degrees)"}}});
    t.push_back({"!--no-delta", "Keys as plain codes only, no delta blocks (larger; sampled faster where every channel moves every frame)", "",
                 {}, {}, {{Compress, RIG_FIELD(compress.delta)}}});
    // Influences blended per vertex (pose, render, check): render's is a view option (the View panel's toggle).
    t.push_back({"--influences",
                 "Influences blended per vertex: 4 (the 4 strongest, renormalized) or 8 (files with more, e.g. Blender's FBX, then pose as Blender does)",
                 "", {CLI::IsMember({4, 8})}, {},
                 {{Pose, RIG_FIELD(pose.influences)},
                  {Render, RIG_FIELD(render.view.influences)},
                  {Check, RIG_FIELD(check.influences),
                   "Influences kept per vertex that too-many-influences measures against: 4 (the default) or 8"}}});
    // IK (pose, render, export): one two-bone chain solved before skinning, or baked into the
    // exported clips (app/ik_options.h, anim/runtime/ik.h, anim/offline/ik_bake.h).
    t.push_back({"--ik-two-bone", "IK chain START,MID,END (joint names or node indices), e.g. LeftUpLeg,LeftLeg,LeftFoot", "",
                 {}, {}, {{Pose, RIG_FIELD(pose.ik.twoBone)}, {Render, RIG_FIELD(render.ik.twoBone)}, {Export, RIG_FIELD(exportOpts.ik.twoBone)}}});
    t.push_back({"--ik-target", "IK target X,Y,Z in model space (the space `pose` writes)", "", {}, {},
                 {{Pose, RIG_FIELD(pose.ik.target)}, {Render, RIG_FIELD(render.ik.target)}, {Export, RIG_FIELD(exportOpts.ik.target)}}});
    t.push_back({"--ik-pole", "IK pole direction X,Y,Z: the side the mid joint bends to (default: the pose's own bend)", "",
                 {}, {}, {{Pose, RIG_FIELD(pose.ik.pole)}, {Render, RIG_FIELD(render.ik.pole)}, {Export, RIG_FIELD(exportOpts.ik.pole)}}});
    t.push_back({"--ik-weight", "IK weight in [0, 1]", "", {}, {},
                 {{Pose, RIG_FIELD(pose.ik.weight)}, {Render, RIG_FIELD(render.ik.weight)}, {Export, RIG_FIELD(exportOpts.ik.weight)}}});
    t.push_back({"--ik-soft", "Fraction of the chain length where the reach starts to soften, in [0, 1] (1: none)", "",
                 {}, {}, {{Pose, RIG_FIELD(pose.ik.soft)}, {Render, RIG_FIELD(render.ik.soft)}, {Export, RIG_FIELD(exportOpts.ik.soft)}}});
    // Global: the viewer and (--units, --allow-external-paths) every subcommand, either side of its name.
    t.push_back({"--units", "metres (default: convert FBX, COLLADA... to metres) or file (keep the file's own numbers)", "",
                 {CLI::IsMember({"metres", "meters", "m", "file"})}, {},
                 everywhere(RIG_FIELD(units))});
    t.push_back({"--allow-external-paths",
                 "Read files a model refers to (buffers, textures) even outside the model's folder (default: refused)", "", {}, {},
                 everywhere(RIG_FIELD(allowExternalPaths))});
    t.push_back({"--amc-fps", "Frames per second of AMC motion files (120 as CMU's)", kImportGroup,
                 {kFinite, CLI::Range(1.0f, 10000.0f)}, {}, {{V, RIG_FIELD(amcFps)}}});
    t.push_back({"--import-timeout", "Seconds an import may take before its worker process is killed", kIsolationGroup,
                 {kFinite, CLI::Range(0.1, 1e6)}, {}, {{V, RIG_FIELD(isolation.timeoutSeconds)}}});
    t.push_back({"--no-isolation", "Import in this process, not in a worker process (for debugging: a crashing file crashes rigview)",
                 kIsolationGroup, {}, {}, {{V, RIG_FIELD(noIsolation)}}});
    // The hidden import worker's.
    t.push_back({"--model", "The model to import", "", {}, {}, {{Worker, RIG_FIELD(workerModel), nullptr, true}}});
    t.push_back({"--result-fd", "File descriptor the result is written to", "", {}, {}, {{Worker, RIG_FIELD(workerFd)}}});
    t.push_back({"--parent", "Process id of the rigview that started the worker", "", {}, {},
                 {{Worker, RIG_FIELD(workerParent)}}});
    t.push_back({"--stages", "Write a frame as each stage of the import begins, before the result (for a progress display)", "",
                 {}, {}, {{Worker, RIG_FIELD(workerStages)}}});
    t.push_back({"--no-images", "Do not decode the model's textures", "", {}, {}, {{Worker, RIG_FIELD(workerNoImages)}}});
    t.push_back({"--environment", "Decode --model as an environment map (Radiance .hdr) instead of importing it", "", {}, {},
                 {{Worker, RIG_FIELD(workerEnvironment)}}});
    return t;
}

#undef RIG_FIELD

template <class T> std::string formatValue(const T& v) {
    std::ostringstream out;
    out << v;
    return out.str();
}

}  // namespace

const char* commandName(Command c) { return kCommandSpecs[static_cast<int>(c)].name; }

const char* commandDescription(Command c) { return kCommandSpecs[static_cast<int>(c)].description; }

bool hidden(Command c) { return c == Command::ImportWorker; }

const std::vector<OptionSpec>& optionTable() {
    static const std::vector<OptionSpec> table = makeTable();
    return table;
}

std::string primaryName(const OptionSpec& spec) {
    std::string best;
    std::stringstream names(spec.names);
    for (std::string n; std::getline(names, n, ',');) {
        if (!n.empty() && n[0] == '!') n.erase(0, 1);
        if (best.empty() || n.rfind("--", 0) == 0) best = n;
    }
    return best;
}

std::string helpFor(const OptionSpec& spec, const Target& t) { return t.help != nullptr ? std::string(t.help) : spec.help; }

const char* filesFor(const OptionSpec& spec, const Target& t) { return t.files != nullptr ? t.files : spec.files; }

std::vector<std::string> choicesOf(const OptionSpec& spec, const Target& t) {
    Settings scratch;
    const Field field = t.field(scratch);
    std::vector<std::string> out;
    if (const auto* choice = std::get_if<ViewChoiceField>(&field)) {
        for (const ViewChoice& c : choice->option->choices) out.push_back(c.name);
        return out;
    }
    // CLI::IsMember describes itself as "{a,b,c}".
    for (const CLI::Validator& v : spec.checks) {
        const std::string d = v.get_description();
        if (d.size() < 2 || d.front() != '{' || d.back() != '}') continue;
        std::stringstream in(d.substr(1, d.size() - 2));
        for (std::string item; std::getline(in, item, ',');) out.push_back(item);
    }
    return out;
}

std::string defaultText(const Field& field) {
    return std::visit(
        [](auto p) -> std::string {
            using T = std::remove_pointer_t<decltype(p)>;
            if constexpr (std::is_same_v<T, ViewChoiceField>) {
                return p.option->choices[static_cast<size_t>(p.option->choiceOf(*p.view))].name;
            } else if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, std::vector<std::string>>) {
                return "";  // flags and lists start off or empty
            } else if constexpr (std::is_same_v<T, std::string>) {
                return *p;
            } else {
                return formatValue(*p);
            }
        },
        field);
}

Parser build(CLI::App& app, Settings& settings) {
    Parser parser;
    for (Command c : kCommands) {
        const CommandSpec& spec = kCommandSpecs[static_cast<int>(c)];
        if (c == Command::Viewer) {
            app.description(spec.description);
            parser.subcommands[static_cast<int>(c)] = &app;
            continue;
        }
        CLI::App* sub = app.add_subcommand(spec.name, spec.description);
        if (hidden(c)) sub->group("");
        parser.subcommands[static_cast<int>(c)] = sub;
    }
    for (const OptionSpec& spec : optionTable()) {
        for (const Target& t : spec.targets) {
            CLI::App* a = parser[t.command];
            const std::string help = helpFor(spec, t);
            const Field field = t.field(settings);
            const std::string shown = defaultText(field);
            CLI::Option* opt = std::visit(
                [&](auto p) -> CLI::Option* {
                    using T = std::remove_pointer_t<decltype(p)>;
                    if constexpr (std::is_same_v<T, ViewChoiceField>) {
                        std::vector<std::string> names;
                        for (const ViewChoice& c : p.option->choices) names.push_back(c.name);
                        CLI::Option* o = a->add_option_function<std::string>(
                            spec.names, [p](const std::string& name) { p.option->setChoice(*p.view, choiceIndex(*p.option, name)); },
                            help);
                        return o->check(CLI::IsMember(names).description(""));  // the help names the choices
                    } else if constexpr (std::is_same_v<T, bool>) {
                        return a->add_flag(spec.names, *p, help);
                    } else {
                        CLI::Option* o = a->add_option(spec.names, *p, help);
                        if constexpr (std::is_same_v<T, std::vector<std::string>>) {
                            if (spec.names[0] == '-') o->allow_extra_args(false);  // --anim A --anim B, not --anim A B
                        }
                        return o;
                    }
                },
                field);
            if (!shown.empty()) opt->default_str(shown);
            if (!spec.group.empty()) opt->group(spec.group);
            for (const CLI::Validator& v : spec.checks) opt->check(v);
            if (t.required) opt->required();
        }
    }
    // Exclusions, once both sides are declared on a subcommand.
    for (const OptionSpec& spec : optionTable()) {
        for (const Target& t : spec.targets) {
            CLI::App* a = parser[t.command];
            CLI::Option* opt = a->get_option_no_throw(primaryName(spec));
            for (const std::string& other : spec.excludes) {
                if (CLI::Option* o = a->get_option_no_throw(other)) opt->excludes(o);
            }
        }
    }
    return parser;
}

OptionSummary summarize(const OptionSpec& spec) {
    Settings defaults;
    OptionSummary o;
    o.hidden = true;
    for (const Target& t : spec.targets) {
        if (hidden(t.command)) continue;
        o.hidden = false;
        o.commands.push_back(std::string(t.command == Command::Viewer ? "viewer" : commandName(t.command)) +
                             (t.required ? " (required)" : ""));
        const Field field = t.field(defaults);
        if (o.shown.empty()) o.shown = defaultText(field);
        if (o.value.empty() && !std::holds_alternative<bool*>(field)) {
            if (std::holds_alternative<std::string*>(field) || std::holds_alternative<std::vector<std::string>*>(field) ||
                std::holds_alternative<ViewChoiceField>(field)) {
                o.value = "TEXT";
            } else if (std::holds_alternative<float*>(field) || std::holds_alternative<double*>(field)) {
                o.value = "FLOAT";
            } else {
                o.value = "INT";
            }
            if (std::holds_alternative<std::vector<std::string>*>(field)) o.value += " ...";
        }
    }
    std::stringstream in(spec.names);
    for (std::string n; std::getline(in, n, ',');) {
        if (!n.empty() && n[0] == '!') n.erase(0, 1);
        o.names.push_back(n);
    }
    return o;
}

std::string optionsMarkdown() {
    std::ostringstream md;
    md << "| Option | Value | Default | Commands | Description |\n";
    md << "|---|---|---|---|---|\n";
    for (const OptionSpec& spec : optionTable()) {
        const OptionSummary o = summarize(spec);
        if (o.hidden) continue;  // the import worker's own
        std::string names, commands;
        for (const std::string& n : o.names) names += (names.empty() ? "`" : ", `") + n + "`";
        for (const std::string& c : o.commands) commands += (commands.empty() ? "" : ", ") + c;
        std::string help;
        for (char ch : spec.help) {
            if (ch == '|' || ch == '<' || ch == '>' || ch == '*') help += '\\';
            help += ch;
        }
        md << "| " << names << " | " << o.value << " | " << o.shown << " | " << commands << " | " << help << " |\n";
    }
    return md.str();
}

}  // namespace rig::cli
