// The headless subcommands. Each returns a process exit code (app/exit_codes.h) and writes
// its one-line errors to stderr.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "app/ik_options.h"
#include "app/playblast.h"
#include "import/import_options.h"
#include "render/view_options.h"

namespace rig {

struct InfoOptions {
    std::vector<std::string> anims;  // --anim: clips of other files, bound by joint name
    ImportOptions import;            // --units, --amc-fps (main fills it)
    std::string model;
    bool json = false;
};

struct PoseOptions {
    std::vector<std::string> anims;  // --anim: clips of other files, bound by joint name
    ImportOptions import;            // --units, --amc-fps (main fills it)
    std::string model;
    std::string output;      // .json or .obj
    std::string clip;        // name or index; empty: the first clip (bind pose if none)
    double time = 0.0;
    bool bindPose = false;   // the skins' bind pose (inverse bind matrices)
    bool filePose = false;   // the file's default node transforms
    std::string machine;     // --machine: a state machine file run from 0 to `time`
    std::vector<std::string> sets;  // --set NAME=VALUE (or NAME for a trigger), with --machine
    IkOptions ik;            // --ik-*: a two-bone chain solved before skinning
    std::string compressed;  // --compressed MM: the clips played compressed at MM millimetres
    int influences = 4;      // --influences: blended per vertex, 4 or 8 (anim/runtime/skinning.h)
};

struct CheckOptions {
    std::vector<std::string> anims;  // --anim: clips of other files, bound by joint name
    ImportOptions import;            // --units, --amc-fps (main fills it)
    std::vector<std::string> paths;  // files, or folders searched recursively for models
    bool json = false;
    bool strict = false;
    std::string sheet;               // contact sheet PNG: a section per model (app/contact_sheet.h)
    int jobs = 0;                    // 0: all cores
    bool jsonLines = false;          // one JSON object per file as it finishes, then the summary
    std::string shard;               // "I/N": every N-th file of the sorted list, from the I-th
    bool listCodes = false;          // --list-codes: print the table of finding codes, check nothing
    int influences = 4;              // --influences: what too-many-influences measures (4 or 8 kept)
    bool listFiles = false;          // --list-files: print the files it would check (NUL-ended), check nothing
    std::string format;              // --format: text, json, json-lines, sarif or junit (empty: text, or --json's)
    std::string output;              // -o: the report's file ("-" or empty: stdout)
    std::string config;              // --config: the project configuration (empty: rigview-check.json found upward)
    bool noConfig = false;           // --no-config: no configuration file at all
    std::string filesFrom;           // --files-from: more files, NUL-ended, from a file ("-": stdin)
};

struct BenchOptions {
    std::vector<std::string> anims;  // --anim: clips of other files, bound by joint name
    ImportOptions import;            // --units, --amc-fps (main fills it)
    std::string model;
    std::string clip;
    int64_t ticks = 6000;
    bool json = false;
    int64_t instances = 0;  // --instances N: a crowd of N sharing the model (0: one Animator)
    int64_t threads = 1;    // --threads T: workers of the crowd, the caller included
    std::string compressed; // --compressed MM: the clips played compressed at MM millimetres
};

struct RenderOptions {
    std::vector<std::string> anims;  // --anim: clips of other files, bound by joint name
    ImportOptions import;            // --units, --amc-fps (main fills it)
    std::string model;
    std::string output;          // .png; a playblast: .mp4, .gif or a PNG sequence (out_%04d.png)
    std::string clip;            // name or index; empty: the first clip
    double time = 0.0;
    bool timeGiven = false;      // --time given (a playblast takes --from/--to instead)
    RangeRequest range;          // --from, --to, --fps: a playblast's frames (app/playblast.h)
    bool bindPose = false;   // the skins' bind pose (inverse bind matrices)
    bool filePose = false;   // the file's default node transforms
    std::string machine;     // --machine: a state machine file run from 0 to `time`
    std::vector<std::string> sets;  // --set NAME=VALUE (or NAME for a trigger), with --machine
    std::string size = "800x600";
    ViewOptions view = renderViewDefaults();  // the view option table's flags (render/view_options.h)
    float azimuth = 30.0f;
    float elevation = 15.0f;
    std::string up = "y";    // --up y|z|auto: the model's up axis (auto: guessed as the viewer does)
    int samples = 4;
    bool samplesGiven = false;  // --msaa given (else none with --camera, as the reference renders, or on a software renderer)
    // --camera EX,EY,EZ,TX,TY,TZ,FOV: eye, target (world space, Y up) and vertical field of view
    // in degrees; near/far from the posed scene's bounding sphere as three.js sets them.
    std::string camera;
    std::string background;  // --background R,G,B: 0-255 display values; empty: the view's colour
    int64_t instances = 0;   // --instances N: a crowd of N on a grid, instanced draws
    bool instancesGiven = false;  // false: one model, no crowd
    float spacing = 0.0f;    // --spacing: grid step in metres (0: from the model's size)
    IkOptions ik;            // --ik-*: a two-bone chain solved before skinning
    std::string compressed;  // --compressed MM: the clips played compressed at MM millimetres
};

struct ExportOptions {
    std::vector<std::string> anims;
    ImportOptions import;            // --units, --amc-fps (main fills it)
    std::string model;
    std::string output;      // .bvh, .gltf or .glb
    std::string clip;        // name or index; empty: BVH the first clip, glTF every clip
    double from = -1.0, to = -1.0;  // trim range in seconds (negative: the whole clip)
    double fps = 0.0;        // --fps: frames per second, (0, 1000]
    bool fpsGiven = false;   // false: the clip's own sample rate
    IkOptions ik;            // --ik-*: a two-bone chain solved on every frame and baked into the clips
};

struct CompressOptions {
    std::vector<std::string> anims;  // --anim: clips of other files, bound by joint name
    ImportOptions import;            // --units, --amc-fps (main fills it)
    std::string model;
    std::string output;          // .gltf or .glb
    double toleranceMm = 0.1;    // --tolerance: millimetres at joints and skinned vertices
    bool delta = true;           // delta blocks where smaller (--no-delta: plain codes only)
    bool json = false;
};

// `diff A B` (its library options are rig::DiffOptions, check/rig_diff.h).
struct DiffCommandOptions {
    std::vector<std::string> anims;  // --anim: clips of other files, added to both versions
    ImportOptions import;            // --units, --amc-fps (main fills it)
    std::string modelA, modelB;      // the earlier and the later version
    double toleranceMm = 0.01;       // --tolerance: lengths up to this are equal (angles: 0.01 degrees)
    bool json = false;
};

// `thumbnail MODEL OUT.png --size N`: a preview for file managers (the .thumbnailer file runs
// it): an N x N PNG of the first clip's first frame (the bind pose without clips), framed, on a
// transparent background; the model imported as every command imports it.
struct ThumbnailOptions {
    ImportOptions import;  // --units, --amc-fps (main fills it)
    std::string model;
    std::string output;    // a PNG whatever its name (file managers pass temporary names)
    int size = 256;        // --size: the image's side in pixels
};

int runInfo(const InfoOptions& o);
int runCompress(const CompressOptions& o);
// What runCompress does without printing: the compressed model written to o.output and, in
// `report`, the document `compress --json` prints. Same checks, error lines and exit codes.
int compressModel(const CompressOptions& o, nlohmann::json& report);
int runExport(const ExportOptions& o);
int runRender(const RenderOptions& o);
// What runRender draws, in memory: `width` x `height` RGBA8 pixels, top row first (o.output
// is not written; when given, it is still refused if it is one of the inputs). Same checks,
// error lines and exit codes as runRender.
int renderPixels(const RenderOptions& o, std::vector<uint8_t>& rgba, int& width, int& height);
// A playblast (o.output a .mp4, .gif or PNG sequence): every frame of the range drawn with one
// camera and the look of one-frame renders, written as it is drawn (app/render_clip.cpp).
int runRenderClip(const RenderOptions& o, BlastFormat format);
int runPose(const PoseOptions& o);
int runCheck(const CheckOptions& o);
int runBench(const BenchOptions& o);
int runDiff(const DiffCommandOptions& o);
int runThumbnail(const ThumbnailOptions& o);

}  // namespace rig
