// ViewerState: what the interactive viewer shows and what the person asked for. The UI
// reads it and posts Requests; the viewer's update step applies the requests once per frame
// (time belongs to the controller, not to the panels).
#pragma once

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "anim/control/clock.h"
#include "anim/runtime/model.h"
#include "anim/runtime/pose.h"
#include "check/diagnostics.h"
#include "render/camera.h"
#include "render/gpu_model.h"
#include "render/view_options.h"
#include "ui/crowd_state.h"
#include "ui/layout.h"
#include "ui/machine_state.h"
#include "ui/playblast_state.h"
#include "ui/ik_state.h"

namespace rig {

class Controller;

// The Blend panel: the animation controller (anim/control/controller.h) driving the pose instead of
// the single-clip timeline.
struct BlendState {
    bool active = false;
    int fadeTarget = 0;
    float fadeSeconds = 0.5f;
    int fadeMode = 0;            // 0 smooth (both clocks run), 1 frozen (the old one stops)
    int ease = 1;                // EaseCurve
    int blendA = 0, blendB = 1;  // two-clip / 1D blend, phase-synced
    float blendParam = 0.5f;
    int blendSpace = -1;         // its id in the controller while playing
    int maskClip = 0;            // partial-skeleton layer: clip on the selected joint's subtree
    float maskWeight = 1.0f;
    int maskJoint = -1;          // subtree root in use
    int addSource = 0, addReference = 0;  // additive layer: difference source - reference
    float addWeight = 1.0f;
    bool inPlace = false;        // root motion removed in the ground plane
    bool showRootPath = false;
    std::vector<glm::vec3> rootPath;
    std::vector<std::string> eventLog;  // last events, newest first
    // What the controller plays now, for the timeline: one row per motion / layer.
    struct Row {
        std::string label;
        float phase = 0.0f, weight = 0.0f;
    };
    std::vector<Row> rows;
};

// Requests from the Blend panel, applied by the viewer's update step.
struct BlendRequests {
    bool start = false, stop = false;
    bool crossFade = false, blend = false, mask = false, maskOff = false;
    bool additive = false, additiveOff = false, rootMotion = false;
    bool addMarker = false;
    std::optional<float> blendParam, maskWeight, addWeight;
};

// A morph slider moved or released: hold target `target` of mesh `mesh` at `weight` (NaN:
// let the clip drive it again).
struct MorphRequest {
    int mesh = -1, target = -1;
    float weight = 0.0f;
};

// A Timeline marker edit (Blend's "Marker at current time" too) on the markers of `clip`
// (ViewerState::clipMarkers): add one at the playhead (the time of the clip that plays),
// move marker `index` to `time`, rename it to `name`, or delete it.
struct MarkerEdit {
    enum class Kind { Add, Move, Rename, Delete };
    Kind kind = Kind::Add;
    int clip = -1;
    int index = -1;
    float time = 0.0f;
    std::string name;
};

struct ViewerRequests {
    int selectClip = -1;            // clip index to play
    std::optional<double> seek;     // seconds on the timeline of what plays
    int step = 0;                   // frames (+/-)
    int key = 0;                    // keys (+/-): N presses of Up / Down in one frame move N keys
                                    // (the selected joint's, else any joint's)
    bool togglePlay = false;
    bool jumpStart = false, jumpEnd = false;  // the ends of the preview range, else of the motion
    std::optional<std::pair<double, double>> previewRange;  // seconds
    bool clearPreviewRange = false;
    std::optional<LoopMode> loopMode;
    bool cycleLoopMode = false;
    std::optional<float> rate;
    bool frameModel = false;
    bool resetCamera = false;
    std::string open;               // a path to import (in the background); during a load it
                                    // replaces the load (the newest Open wins)
    bool cancelLoad = false;        // stop the running load (Cancel in its notice, Esc): its worker
                                    // is killed, the model on screen stays
    std::string addAnim;            // a file whose clips join the model on screen (--anim)
    int focusFinding = -1;          // index into checks.report.findings: select / frame it
    BlendRequests blend;
    std::vector<MarkerEdit> markerEdits;  // applied in order
    bool saveMarkers = false;       // write the markers file beside the model (Ctrl+S)
    std::optional<MorphRequest> morph;
    bool releaseMorphs = false;     // every morph override off
    MachineRequests machine;        // the State Machine panel
    int nextFile = 0;               // files (+/-): open the Nth next / previous model file in the folder
    bool screenshot = false;        // write the next frame to a PNG (F12)
    std::string compare;            // a path to import (in the background) and compare with
    bool stopCompare = false;
    bool quit = false;              // close the window (File > Quit, Ctrl+Q)
    std::optional<bool> zUp;        // the model file's up axis (true: Z), kept for that file
    // The Environment section, the file browser or a dropped .hdr: the environment map to light
    // with (ViewOptions::environment; "" the bundled studio). The renderer loads it; a file
    // that fails is reported in the strip (ViewerState::environmentError), the last good kept.
    std::optional<std::string> environment;
};

struct PanelVisibility {
    bool clips = true, timeline = true, hierarchy = true, view = true, stats = true, open = true, checks = true, blend = false;
    bool morphs = false;  // opened when a model with morph targets loads
    bool machine = false;  // State Machine: opened when a machine file loads with the model
    bool ik = false;
};

// The Morphs panel: which mesh's targets it shows, which target's weight curve it plots,
// and that curve sampled over the current clip (recomputed when any of these changes).
struct MorphPanelState {
    int mesh = -1;
    int target = 0;
    std::vector<float> curve;
    std::vector<float> scratch;      // one weight per target while sampling the curve
    int curveForMesh = -2, curveForTarget = -2, curveForClip = -2;
    const Model* curveForModel = nullptr;
};


// What the vertex colours show (issue "rig sanity checks").
// Deviation: while comparing, each vertex's distance to its match in the compared model.
enum class ColorView { None, JointWeight, InfluenceCount, WeightSum, Unweighted, TruncationError, Deviation };

// The viewer's rig-check tools: colour views, ghosts, onion skin, range of motion, findings.
struct CheckViewState {
    ColorView colorView = ColorView::None;
    bool bindGhost = false;        // the bind pose drawn translucent over the animated one
    bool onion = false;            // faint poses before and after the current time
    int onionCount = 2;            // ghosts on each side
    float onionStep = 0.1f;        // seconds between ghosts
    bool rom = false;              // range-of-motion sweep of the selected joint
    bool romAll = false;           // ... or of every joint, one after another
    float romDegrees = 60.0f;      // amplitude on each axis
    float romPeriod = 1.5f;        // seconds per axis
    double romTime = 0.0;
    int romJoint = -1;             // the joint being swept now
    int romAxis = 0;               // 0 X, 1 Y, 2 Z (its own axes)
    Report report;                 // `rigview check` findings for the model on screen
    int hoverMesh = -1, hoverVertex = -1;
    // What the uploaded colours were computed for (recomputed when any of it changes).
    ColorView colorsFor = ColorView::None;
    int colorsForJoint = -2, colorsForClip = -2;
    const Model* colorsForModel = nullptr;
    float truncationMax = 0.0f;    // largest truncation error shown (model units)
};

// Compressed playback (the Clips panel's "Compressed" toggle and tolerance): the panel sets the
// request fields, app/compressed_view.h builds the compressed clips off the UI path, hands them
// to the playback and fills in what plays.
struct CompressionViewState {
    bool enabled = false;          // request: play the clips compressed
    float toleranceMm = 0.1f;      // request: at this tolerance (millimetres, as compress --tolerance)
    bool building = false;         // a set is being compressed
    bool active = false;           // the playback samples a compressed set
    float activeToleranceMm = 0.0f;
    size_t plainBytes = 0, compressedBytes = 0;  // of the clips that play compressed
    double maxErrorMm = 0.0;       // the compressor's measured maximum
    std::string error;
};

// Compare mode (`--compare B`, "Compare with..."): model B drawn as a ghost over the model on
// screen (A), posed at A's time in the clip of the same name, and A coloured by how far each
// vertex is from its match in B. The viewer fills it in; panels read it and post requests.
struct CompareState {
    std::string path;               // of B ("" = not comparing)
    bool loading = false;
    std::string loadingPath;
    std::string clip;               // B's clip posed now ("" = its bind pose)
    // The largest deviation at the current pose (mm), where, and the vertices with no match.
    double maxMm = 0.0;
    std::string maxMesh, maxJoint;  // of A
    int maxVertex = -1;
    size_t unmatched = 0;
    std::vector<std::vector<float>> deviationMm;  // per mesh of A, per vertex (-1: no match)
    // diffModels(A, B), computed once when B loads: counts of what changed.
    bool differs = false;
    size_t jointsAdded = 0, jointsRemoved = 0, jointsRenamed = 0, jointsReparented = 0;
    size_t bindPosesMoved = 0, weightsChanged = 0, meshesChanged = 0, clipsAdded = 0, clipsRemoved = 0;
    size_t clipsRetimed = 0, clipsMoving = 0;
    bool active() const { return !path.empty(); }
};

struct ViewerStats {
    float fps = 0.0f;
    float frameMs = 0.0f;
    float paletteUs = 0.0f;   // the last tick's sample -> local->model -> palette
    // The renderer's draw of the model (Renderer::draw): the CPU time of the calls, and the
    // GPU's time for them from a GL_TIME_ELAPSED query read back frames later (-1: none yet).
    float drawCpuMs = 0.0f;
    float drawGpuMs = -1.0f;
    std::string glRenderer;
    bool softwareRenderer = false;  // the GL renderer rasterizes on the CPU (platform/window.h)
    int sceneSamples = 1;           // the scene's samples per pixel this frame (the Anti-aliasing option)
};

// Help, files and polish (issue 11): overlays, the file browser, UI scale, joint names.
struct FileBrowserState {
    std::string dir;                   // folder listed (absolute)
    std::string filter;                // typed part of a name: narrows the list
    struct Entry {
        std::string name;
        bool folder = false;
        unsigned long long size = 0;
    };
    std::vector<Entry> entries;        // of `dir`, folders first, then model files
    std::string listedDir;             // what `entries` was read for ("" = stale)
    std::string listError;
    int cursor = 0;                    // keyboard row
    bool focusFilter = false;
    bool forCompare = false;           // opened by File > Compare with...: a chosen file is compared with
    bool forEnvironment = false;       // opened by the Environment section: lists .hdr files, a chosen
                                       // one becomes the environment
    bool listedFor = false;            // the forEnvironment the entries were listed for
};

struct ViewerUiState {
    bool help = false;                 // F1 / ?: every shortcut
    bool about = false;
    bool fileBrowser = false;          // Ctrl+O
    float uiScale = 1.0f;              // the person's setting, times the monitor's content scale
    float contentScale = 1.0f;         // glfwGetWindowContentScale at start
    float appliedScale = 0.0f;         // what the font atlas was built for
    bool scrollToSelection = false;    // the Hierarchy scrolls to the selected joint once
    float inspectorHeight = 220.0f;    // the Hierarchy's inspector under its splitter (unscaled pixels)
    const void* hierarchyModel = nullptr;  // the model the Hierarchy's tree was last drawn for
    std::string status;                // one line at the bottom (screenshot path, next file)
    double statusUntil = 0.0;
    size_t flaggedVertices = 0;        // drawn as points on top in the colour view
    int namesDrawn = 0;                // joint names on screen last frame
    std::vector<glm::vec4> nameRects;  // their boxes (x0, y0, x1, y1), the selected joint's first
    int materialMesh = -1;             // the mesh whose material the inspector shows (-1: none)
    int materialForNode = -2;          // the selected node it was chosen for
    unsigned thumbnailSampler = 0;     // the GL sampler the Material inspector's thumbnails are
                                       // drawn with (0: not made yet; the GL context frees it)
    FileBrowserState browser;
    Layout layout;                     // the docked panel layout (ui/layout.h)
    // The window's place on the screen (screen coordinates), kept in the settings and restored
    // at the next start (width 0: none yet).
    struct WindowPlacement {
        int x = 0, y = 0, width = 0, height = 0;
    } window;
    // Per model file (absolute path): its up axis as the person chose it in View > Up axis
    // (true: Z up). Files not in it get their format's rule or the guess (app/up_axis.h).
    std::map<std::string, bool> zUpByFile;
    std::string upAxisSource;  // where the open model's up axis came from (the View panel says)
    std::string cameraFile;    // the model file (absolute) the settings' camera was saved for
    char hierarchySearch[64] = "";  // the Hierarchy's search: nodes whose name holds it, listed flat
    int hierarchyMatches = -1;        // nodes the search listed last frame (-1: no search)
};

// What the controller driving the pose plays now, copied from it once per frame (the
// controller owns time; the Timeline, Clips and Blend panels read this and post requests),
// and how the Timeline panel shows it (zoom, pan, dope sheet).
struct TimelineState {
    const Controller* driver = nullptr;  // what plays (read-only here: markers)
    std::string name;               // clip, blend space ("walk | run") or machine state
    int clip = -1;                  // the clip whose keys the timeline shows (-1: none)
    std::vector<float> clipShare;   // per clip: its weight in what plays (Clips highlights)
    bool blendSpace = false;
    double start = 0.0, end = 0.0, time = 0.0;  // seconds on the motion's timeline
    float sampleRate = 30.0f;
    int frame = 0, firstFrame = 0, lastFrame = 0;
    bool playing = false;
    float rate = 1.0f;
    LoopMode mode = LoopMode::Loop;
    float phase = 0.0f;
    bool fading = false;
    float fade = 1.0f;              // the incoming motion's weight
    bool hasRange = false;
    double rangeStart = 0.0, rangeEnd = 0.0;
    // The panel's view: visible seconds [viewStart, viewEnd] (both 0: the whole motion).
    double viewStart = 0.0, viewEnd = 0.0;
    bool dopeSheet = false;         // the selected joint's T / R / S channels, a row per joint
                                    // and per keyed morph target
    float rulerLeft = 0.0f, rulerWidth = 0.0f;  // last drawn ruler, in pixels (tests read it)
    // Shift+drag on the ruler: a preview range being drawn (seconds).
    bool rangeDrag = false;
    double rangeDragFrom = 0.0;
    // A marker's handle being dragged (its index in the clip's markers, -1: none) and where
    // it is now (seconds); the move is posted on release.
    int markerDrag = -1;
    double markerDragTime = 0.0;
    // The marker whose context menu is open, and the one being renamed in place (-1: none).
    int markerMenu = -1;
    int markerRename = -1;
    char markerName[64] = "";
    bool markerRenameFocus = false;
    bool markersModified = false;   // edited since the model loaded or they were saved
    // The dope sheet: joints whose children are folded away, and the rows drawn last frame
    // (tests read them: "joint:<node>" / "morph:<mesh>:<target>").
    std::vector<char> collapsed;    // per skeleton node
    std::vector<std::string> rowsDrawn;
    std::vector<std::string> labelsDrawn;  // the name each drawn row shows (elided in the middle)
    int bandRows = 0;               // rows drawn as a band (keys closer than their diamonds)
    int rowCount = 0;               // rows the dope sheet lists (visible or scrolled away)
    // The Curves view: the selected joints' channels as curves under the ruler (its zoom, pan,
    // playhead and markers), one family at a time; the keys drawn last frame (tests read them).
    bool curves = false;
    int curveFamily = 1;            // 0 location x/y/z, 1 rotation, 2 scale x/y/z
    bool curveQuaternion = false;   // rotation as quaternion x/y/z/w, else Euler x/y/z (degrees)
    struct CurvePoint {
        int component = 0;          // x, y, z (w)
        float time = 0.0f, value = 0.0f;  // the key (value in the family's unit)
        float x = 0.0f, y = 0.0f;   // where it was drawn
        int joint = -1;             // whose key it is (skeleton node)
    };
    std::vector<CurvePoint> curvePoints;  // at most kMaxCurvePoints
    std::vector<std::string> curveLegend; // the legend's entries drawn ("<joint> <component>"), for several joints
    float curveTop = 0.0f, curveBottom = 0.0f, curveMin = 0.0f, curveMax = 0.0f;  // the value axis drawn
    float nameWidth = 90.0f;        // the name column (at UI scale 1), dragged at its edge; saved
    char filter[64] = "";           // the dope sheet's filter: rows whose name holds it
};

// Key times of one clip, for the timeline: per joint (node) every key of its T / R / S
// channels, sorted and unique, and the union over all joints. Built once per model and clip.
struct KeyTimesCache {
    const Model* model = nullptr;
    int clip = -2;
    std::vector<float> all;                       // every joint's keys
    std::vector<std::vector<float>> perNode;      // by node
};

struct ViewerState {
    // The model on screen (shared with the import thread's result; immutable).
    std::shared_ptr<const Model> model;
    std::unique_ptr<Animator> animator;
    std::string path;               // of the model on screen
    int clip = -1;                  // -1: bind pose / no clips
    bool bindPose = false;          // show a still pose instead of the clip:
    bool filePose = false;          //   the file pose (node defaults) if set, else the bind pose
    int32_t stillPose() const { return filePose ? kFilePose : kBindPose; }
    TimelineState timeline;         // what plays (from the controller) and the Timeline's view
    KeyTimesCache keyTimes;
    // Per clip of the model on screen: its markers (events) as edited on the Timeline, sorted
    // by time; the model's own at load. The controller plays these; Ctrl+S saves them to the
    // model's markers file (import/clip_markers.h).
    std::vector<std::vector<Marker>> clipMarkers;
    ViewOptions view;
    OrbitCamera camera;
    Bounds bounds;                  // animated bounds of the current clip
    int selectedJoint = -1;         // skeleton node index
    // Joints selected with it (Ctrl / Shift + click in the Hierarchy), in the order chosen. They
    // go with the selected joint they were chosen with, on that model: a selection made any
    // other way (the viewport, a finding, a plain click) stands alone.
    std::vector<int32_t> moreJoints;
    int moreJointsWith = -1;
    const Model* moreJointsModel = nullptr;
    // The selected joint, then the joints selected with it (empty: none selected).
    std::vector<int32_t> jointSelection() const {
        std::vector<int32_t> out;
        if (selectedJoint < 0 || !model || static_cast<size_t>(selectedJoint) >= model->skeleton.size()) return out;
        out.push_back(selectedJoint);
        if (moreJointsWith != selectedJoint || moreJointsModel != model.get()) return out;
        for (int32_t j : moreJoints) {
            if (j >= 0 && static_cast<size_t>(j) < model->skeleton.size() && std::find(out.begin(), out.end(), j) == out.end()) {
                out.push_back(j);
            }
        }
        return out;
    }
    std::vector<std::vector<int32_t>> children;  // per node, for the hierarchy panel
    std::vector<int32_t> joints;    // model->jointNodes(), computed at load
    // How each material's texture slots loaded on the GPU (GpuModel::textureStatus), at load.
    std::vector<std::vector<GpuModel::TextureStatus>> textureStatus;
    // Each material's textures on the GPU (GpuModel::materials), at load, for the inspector's
    // thumbnails; replaced with the GpuModel that owns them.
    std::vector<GpuMaterial> materialTextures;

    // Loading and errors.
    bool loading = false;
    std::string loadingPath;
    double loadingSince = 0.0;
    int loadingStage = -1;          // the ImportStage it is at (import/import_options.h), -1: none yet
    float loadingFraction = -1.0f;  // of that stage, where known (receiving the model), else -1
    std::string error;              // last import error, shown until dismissed
    std::string errorNote;          // what stays on screen after `error`: a different model
                                    // still shown, or this file's version read before
    std::string warning;            // about the model on screen (what its format cannot give,
                                    // textures not found), one line each, shown until
                                    // dismissed or another model loads
    std::string settingsProblem;    // a settings file that was ignored (defaults used)
    std::string progress;           // work going on while the model is drawn (one line, e.g.
                                    // "Prefiltering environment sky.hdr  40%"), shown in the
                                    // notification strip while it lasts; "" none
    std::string environmentError;   // the environment map that did not load (one line, the
                                    // renderer's Renderer::environmentError), until dismissed

    CheckViewState checks;
    BlendState blend;
    MachinePanelState machine;
    MorphPanelState morphs;
    CrowdState crowd;               // the Crowd panel (app/crowd_view.h draws it)
    IkViewState ik;                   // the IK panel (ui/ik_panel.h)
    CompressionViewState compression;  // compressed playback (ui/compression_panel_section.h)
    CompareState compare;             // compare mode (app/viewer.cpp)
    PlayblastState playblast;         // File > Playblast... (ui/playblast_dialog.h, app/viewer_playblast.h)
    PanelVisibility panels;
    ViewerStats stats;
    ViewerRequests requests;
    std::vector<std::string> recent;  // most recent first
    std::string pathField;            // the Open panel's text field
    ViewerUiState ui;
};

}  // namespace rig
