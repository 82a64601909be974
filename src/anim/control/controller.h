// Controller: one instance's animation state on top of a shared, immutable Model (seed 001's
// "per-instance state" apart from "shared data"): clocks, cross-fades, blend spaces,
// partial-skeleton and additive layers, root motion and events. Configuration calls (blend
// spaces, layers, markers) may allocate; requests (play, crossFadeTo, parameters, weights)
// and the per-tick path (update, computePose, evaluate, events) allocate nothing and look up
// no names: every buffer is sized at construction or configuration time.
//
// Time: each motion plays a clip over its keys, [clip.startTime, clip.duration] on the
// clip's own timeline (the file's; the two are the same for clips starting at 0). A clip
// clock counts seconds from startTime (0 .. length, length = duration - startTime); a blend
// space's clock counts normalized time (phase 0..1) shared by all its clips, so clips of
// different lengths stay in step: at phase p every clip is sampled at startTime + p * length.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <glm/glm.hpp>

#include "anim/control/blend_space.h"
#include "anim/control/ease.h"
#include "anim/control/joint_mask.h"
#include "anim/runtime/blend.h"
#include "anim/control/layer_clock.h"
#include "anim/runtime/model.h"
#include "anim/runtime/pose.h"

namespace rig {

// ---------------------------------------------------------------------------------------
// Controller

// A marker crossed during the last update.
struct AnimEvent {
    std::string_view name;  // the marker's name, owned by the controller (valid until the
                            // clip's markers are set again)
    int32_t clip = -1;
    uint32_t marker = 0;    // index in the clip's markers, sorted by time
    float time = 0.0f;      // the marker's time on the clip's timeline
    float weight = 0.0f;    // the clip's share of its motion times the motion's weight
    int8_t direction = 1;   // +1 playing forward, -1 backward
    int16_t layer = -1;     // -1: the base motion (either side of a cross-fade); else a layer
};

enum class FadeMode : uint8_t {
    Smooth,  // both clocks run during the fade
    Frozen,  // the outgoing motion's clock stops where it was
};

enum class RootMotion : uint8_t {
    Travel,   // the root moves as the clip says
    InPlace,  // the root's travel in the ground plane is removed (vertical motion kept)
};

enum class LayerBlend : uint8_t { Override, Additive };

// How a motion's clock plays.
struct ClipTiming {
    static constexpr double kStartNow = -std::numeric_limits<double>::infinity();

    float rate = 1.0f;               // negative plays backwards
    LoopMode mode = LoopMode::Loop;  // Loop, Once or PingPong
    uint32_t loopCount = 0;          // Loop / PingPong: passes before stopping; 0 = forever
    // Controller time (see Controller::time()) at which the clock starts running; until then
    // the motion holds its start pose. A time in the past starts the clock as if it had been
    // running since then (without events). kStartNow: at the request.
    double startAt = kStartNow;
    // Where the clock starts, as a phase in [0, 1]; negative: 0 for a forward rate, 1 for a
    // backward one.
    float startPhase = -1.0f;
    // Start at the phase of the motion this one replaces (keeps a walk and a run in step
    // across a cross-fade); overrides startPhase.
    bool syncPhase = false;
};

// What a motion plays: the bind pose, one clip, or a blend space (by the id addBlendSpace
// returned). A two-clip blend is a 1D space (BlendSpace1D::twoClip).
struct MotionSource {
    enum class Kind : uint8_t { None, Clip, BlendSpace };
    Kind kind = Kind::None;
    int32_t index = -1;

    static MotionSource bindPose() { return {}; }
    static MotionSource clip(int32_t clip) { return {Kind::Clip, clip}; }
    static MotionSource blendSpace(int32_t space) { return {Kind::BlendSpace, space}; }
};

struct ControllerOptions {
    size_t eventCapacity = 64;  // events kept per update; more are counted as dropped
    RotationBlend rotationBlend = RotationBlend::Slerp;
};

class Controller {
public:
    explicit Controller(const Model& model, const ControllerOptions& options = {});

    // --- Configuration (may allocate) ----------------------------------------------------
    // A blend space over the model's clips; returns its id, or -1 when a point names no
    // clip. Its parameter starts at 0 (or (0, 0)).
    int32_t addBlendSpace(BlendSpace1D space);
    int32_t addBlendSpace(BlendSpace2D space);
    // Markers of one clip (sorted by time here), in place of the clip's own (Clip::markers,
    // which a new Controller starts with). False for a bad clip index.
    bool setMarkers(int32_t clip, std::vector<Marker> markers);
    // A layer applied over the base motion, in the order added. Override layers replace the
    // pose by their own where the mask says (weight x mask per joint); additive layers add a
    // difference clip. An empty mask means the whole skeleton. Returns the layer's index.
    int32_t addLayer(LayerBlend blend, JointMask mask = {});
    // Play the clips `set` holds from their compressed form (anim/runtime/compressed_clip_set.h;
    // null: every clip plain): every motion, layer and blend space samples them compressed, and
    // everything after sampling (blends, root motion, events, morph weights from the plain
    // clips) is unchanged. `set` must be built for this model and outlive its use. Allocates
    // (each motion's sampler): call at load or configuration time.
    void setCompressedClips(const CompressedClipSet* set);
    const CompressedClipSet* compressedClips() const { return compressedClips_; }
    // Bytes this Controller holds to play compressed (its motions' samplers; 0 when plain).
    size_t compressedStateBytes() const;
    // Root motion for every clip sampled from now on. `up` is the model-space up axis; the
    // ground plane is perpendicular to it.
    void setRootMotion(RootMotion mode, glm::vec3 up = glm::vec3(0.0f, 1.0f, 0.0f));

    // --- Requests (no allocation) ---------------------------------------------------------
    // Switch the base motion at once (any cross-fade ends). False (nothing changes) for an
    // unknown clip or blend space.
    bool play(MotionSource motion, const ClipTiming& timing = {});
    // Cross-fade the base motion to `motion` over `duration` seconds: the incoming weight is
    // ease(elapsed / duration). A cross-fade started during another one fades from the
    // pose the first had reached, frozen. duration <= 0 is play().
    bool crossFadeTo(MotionSource motion, float duration, FadeMode mode = FadeMode::Smooth,
                     Ease ease = {}, const ClipTiming& timing = {});
    // A blend space's parameter (x for 1D spaces, (x, y) for 2D ones).
    bool setBlendParameter(int32_t space, float x, float y = 0.0f);
    // What an Override layer plays.
    bool playLayer(int32_t layer, MotionSource motion, const ClipTiming& timing = {});
    // Cross-fade what an Override layer plays to `motion` over `duration` seconds: inside the
    // layer (under its mask and weight) the incoming motion's share is ease(elapsed /
    // duration), the outgoing one keeps playing (Smooth) or holds where it was (Frozen: its
    // clock stops) until the fade ends. A cross-fade started during another one drops the
    // older outgoing motion. duration <= 0, or a layer playing nothing, is playLayer(). No
    // allocation.
    bool crossFadeLayer(int32_t layer, MotionSource motion, float duration, Ease ease = {},
                        const ClipTiming& timing = {});
    bool crossFadeLayer(int32_t layer, MotionSource motion, float duration, FadeMode mode,
                        Ease ease = {}, const ClipTiming& timing = {});
    // The incoming motion's share inside a layer's cross-fade (1 when none).
    float layerFadeWeight(int32_t layer) const;
    // What an Additive layer adds: difference(source, reference) with the two clips sampled
    // at the same phase (GEA asks for equal lengths; different lengths are stretched to the
    // source's phase). The clock runs over the source clip.
    bool playAdditive(int32_t layer, int32_t sourceClip, int32_t referenceClip,
                      const ClipTiming& timing = {});
    // Cross-fade what an Additive layer adds to difference(sourceClip, referenceClip) over
    // `duration` seconds: with w = ease(elapsed / duration), the layer adds the blend of the
    // two differences, (1 - w) x outgoing + w x incoming per joint (translation and scale
    // lerped, rotation slerped: blendTransforms), under its mask and weight. The outgoing
    // difference keeps playing (Smooth) or holds where it was (Frozen) until the fade ends.
    // A cross-fade started during another one drops the older outgoing difference.
    // duration <= 0, or a layer adding nothing, is playAdditive(). No allocation.
    bool crossFadeAdditive(int32_t layer, int32_t sourceClip, int32_t referenceClip, float duration,
                           FadeMode mode = FadeMode::Smooth, Ease ease = {}, const ClipTiming& timing = {});
    // Move a layer's weight (in [0, 1]) to `weight` linearly over `seconds` (0: at once).
    bool setLayerWeight(int32_t layer, float weight, float seconds = 0.0f);
    bool stopLayer(int32_t layer);
    // The base motion's clock (the incoming one during a fade).
    void pause();
    void resume();
    void setRate(float rate);
    void seekPhase(float phase);

    // --- The timeline (the viewer's Timeline panel and `bench` drive the base motion) -----
    // Times here are on the base motion's timeline in seconds: a clip's own timeline (the
    // file's: startTime .. duration), a blend space's blended length (0 .. sum of weight x
    // clip length, phase x that length). Frames count from 0 on that timeline at its sample
    // rate (a clip's; a blend space's first clip's).
    struct TimelineInfo {
        double start = 0.0, end = 0.0;  // the motion's first and last time
        double time = 0.0;              // where it is now
        float sampleRate = 30.0f;
        int frame = 0;                  // round(time x sampleRate)
        int lastFrame = 0;              // floor(end x sampleRate)
        bool hasRange = false;          // a preview range plays instead of start .. end
        double rangeStart = 0.0, rangeEnd = 0.0;
    };
    TimelineInfo timeline() const;
    // Jump to `seconds` (wraps / clamps / reflects by the loop mode, as seekPhase). No events.
    void seek(double seconds);
    // Pause and move by `frames` on the frame grid: Loop wraps past either end (after the
    // last frame comes frame 0), the other modes stop at the ends.
    void stepFrames(int frames);
    void setLoopMode(LoopMode mode);
    LoopMode loopMode() const { return current_.clock.mode(); }
    float rate() const { return current_.timing.rate; }
    bool playing() const { return current_.clock.playing(); }
    // Play only [from, to] seconds of the base motion (Once stops, Loop wraps, PingPong
    // bounces at its ends); kept until cleared or another motion plays.
    void setPreviewRange(double from, double to);
    void clearPreviewRange();

    // --- Per tick -------------------------------------------------------------------------
    // Advance the controller's time by dt >= 0 seconds: clocks, fades, layer weights; the
    // markers crossed become this update's events.
    void update(double dt);
    // Sample and blend everything into pose(): base (and its cross-fade), then each layer.
    void computePose();
    // The clip that pose() is a plain sample of, when it is one (one clip playing: no fade, no
    // layer, its root left where the clip puts it); else -1. Animator::evaluatePose's promise.
    int32_t plainClip() const;
    // computePose(), then the animator's local->model->palette from pose(), and its morph
    // weights blended like the base pose (computeMorphs). False (and nothing done) when the
    // animator was made for another model.
    bool evaluate(Animator& animator);
    // The morph weights of the base motion (Animator::morphWeights layout): a clip's, a blend
    // space's clips weighted like their poses, cross-faded like the pose. Layers carry no
    // morph weights (their masks are per joint).
    void computeMorphs();
    const std::vector<float>& morphWeights() const { return morphPose_; }

    // --- Results --------------------------------------------------------------------------
    const Pose& pose() const { return pose_; }
    // Per node: 1 when some clip of the model animates it. Nodes without a 1 hold their bind
    // pose in every pose this controller makes, and Animator::evaluatePose uses their exact
    // bind matrix.
    const std::vector<uint8_t>& animatedNodes() const { return animated_; }
    // Events of the last update, in the order they happened per motion (base incoming,
    // base outgoing, then layers). Copies up to out.size() of them; returns how many.
    size_t events(std::span<AnimEvent> out) const;
    size_t eventCount() const { return eventCount_; }
    uint32_t droppedEvents() const { return droppedEvents_; }

    // --- State ----------------------------------------------------------------------------
    const Model& model() const { return *model_; }
    double time() const { return time_; }
    MotionSource currentMotion() const { return current_.source; }
    // The base motion's clock and phase (the incoming motion during a fade).
    const LayerClock& clock() const { return current_.clock; }
    float phase() const { return static_cast<float>(current_.clock.phase()); }
    bool finished() const { return current_.clock.finished(); }
    bool fading() const { return fading_; }
    float fadeWeight() const { return fading_ ? fadeWeight_ : 1.0f; }  // the incoming side's
    // Clip time (the clip's timeline) at which `clip` is sampled by the base motion now, or
    // a negative value when it is not part of it.
    float clipTime(int32_t clip) const;
    const std::vector<float>& blendWeights(int32_t space) const;
    // A clip's markers (sorted by time); empty for a bad index.
    const std::vector<Marker>& markers(int32_t clip) const;
    size_t layerCount() const { return layers_.size(); }
    float layerWeight(int32_t layer) const;
    const LayerClock* layerClock(int32_t layer) const;
    // The root-motion node of a clip (rootMotionNode), cached.
    int32_t rootNode(int32_t clip) const;

private:
    // The layer exists, is additive, and both clips exist.
    bool additiveArgumentsValid(int32_t layer, int32_t sourceClip, int32_t referenceClip) const;
    struct SpaceState {
        bool is2D = false;
        BlendSpace1D space1;
        BlendSpace2D space2;
        glm::vec2 parameter{0.0f};
        std::vector<int32_t> clips;   // per point
        std::vector<float> weights;   // per point, at `parameter`
        float blendedLength = 0.0f;   // sum of weight x clip length
    };
    struct MotionState {
        MotionSource source;
        ClipTiming timing;
        double startAt = 0.0;
        LayerClock clock;
        int32_t referenceClip = -1;     // additive layers
        std::vector<uint32_t> cursors;  // 3 per track of every clip, at cursorOffset_[clip]
        CompressedSampler compressed;   // its clips' decoded segments when playing compressed
    };
    struct Layer {
        LayerBlend blend = LayerBlend::Override;
        std::vector<float> mask;
        MotionState motion;
        float weight = 1.0f, fadeFrom = 1.0f, fadeTo = 1.0f;
        float fadeSeconds = 0.0f, fadeElapsed = 0.0f;
        // A cross-fade inside the layer (crossFadeLayer, crossFadeAdditive): `previous` fades
        // out (its clock paused for a Frozen fade).
        MotionState previous;
        bool crossFading = false;
        float crossElapsed = 0.0f, crossDuration = 0.0f, crossWeight = 1.0f;
        Ease crossEase;
    };
    // The markers the motion's last advance crossed, as events (the marker pass).
    void triggerMotionMarkers(const MotionState& m, const ClockAdvance& a, float weight, int16_t layer);

    bool validMotion(MotionSource m) const;
    void refreshSpace(SpaceState& s);
    void startMotion(MotionState& m, MotionSource source, const ClipTiming& timing, double syncPhase);
    void advanceMotion(MotionState& m, double t0, double dt, float weight, int16_t layer);
    // The morph weights of one motion into `out` (`scratch`: a second buffer for blend spaces).
    // A motion source's values (a pose, morph weights): its clip, or its blend space's clips
    // as a running blend, or the rest values; the three callables say how for each kind of value.
    template <class Sample, class Mix, class Rest>
    void evalSource(const MotionState& m, Sample&& sample, Mix&& mix, Rest&& rest) const;
    void evalMotionMorphs(const MotionState& m, float* out, float* scratch);
    // keyedClip: a clip whose components that never change `out` holds from its last full
    // sample by plan (sampleClipInto's keyedOnly), or -1.
    void evalMotion(MotionState& m, Transform* out, Transform* scratch, int32_t keyedClip = -1);
    // An additive motion's difference, source x reference^-1 at its clock, into `out`.
    void evalDifference(MotionState& m, Transform* out, Transform* scratch);
    // The layer's motion becomes the outgoing side of a cross-fade inside the layer.
    void beginLayerFade(Layer& l, float duration, FadeMode mode, Ease ease);
    // Clip `clip` of motion `m` at time t into `out`: from compressedClips_ where it holds the
    // clip, else the plain clip (through m's cursors). keyedOnly: `out` holds the clip's
    // components that never change (untracked nodes, one-key and steady channels) as the
    // last sample of it by its plan left them; only the others are written.
    void sampleClipInto(MotionState& m, int32_t clip, float t, Transform* out, bool keyedOnly = false);
    float clipLength(int32_t clip) const;
    void pushEvent(const AnimEvent& e);

    const Model* model_;
    ControllerOptions options_;
    double time_ = 0.0;

    // Shared-by-clip tables, built at construction.
    std::vector<uint32_t> cursorOffset_;  // per clip
    // Per clip, the nodes it has no track for (they take the bind pose): untracked_[k] for k
    // in [untrackedOffset_[c], untrackedOffset_[c + 1]).
    std::vector<uint32_t> untrackedOffset_;
    std::vector<int32_t> untracked_;
    std::vector<SamplingPlan> plans_;  // per clip (buildSamplingPlan for the skeleton's nodes)
    const CompressedClipSet* compressedClips_ = nullptr;
    // Clips each motion keeps decoded at once: an additive layer's source and reference, or a
    // blend space's two heaviest points (a third is rebound when sampled).
    static constexpr size_t kCompressedSlots = 2;
    uint32_t cursorCount_ = 0;
    std::vector<uint8_t> animated_;
    std::vector<int32_t> rootNode_;        // per clip
    std::vector<glm::vec3> rootStart_;     // per clip: root translation at the first frame
    std::vector<glm::mat3> rootParent_;    // per clip: parent's bind to-root (rotation/scale)
    std::vector<glm::mat3> rootParentInv_;
    RootMotion rootMotion_ = RootMotion::Travel;
    glm::vec3 up_{0.0f, 1.0f, 0.0f};

    std::vector<std::vector<Marker>> markers_;  // per clip, sorted by time
    std::vector<SpaceState> spaces_;
    std::vector<Layer> layers_;

    // Base motion and cross-fade.
    MotionState current_, previous_;
    bool fading_ = false, snapshotActive_ = false;
    FadeMode fadeMode_ = FadeMode::Smooth;
    Ease fadeEase_;
    float fadeDuration_ = 0.0f, fadeElapsed_ = 0.0f, fadeWeight_ = 1.0f;

    // Pose buffers (skeleton-sized).
    Pose pose_, bufA_, bufB_, bufC_, snapshot_;
    // The clip whose still components pose_ holds from a full sample by its plan that nothing
    // wrote over since (computePose then samples only its keyed components); -1: none.
    int32_t poseHolds_ = -1;
    // Morph weight buffers (all meshes' targets), and one cursor per morph track of a clip.
    std::vector<float> morphPose_, morphA_, morphB_, morphSnapshot_;
    std::vector<uint32_t> morphCursors_;

    std::vector<AnimEvent> events_;  // capacity options_.eventCapacity
    size_t eventCount_ = 0;
    uint32_t droppedEvents_ = 0;
};

// ---------------------------------------------------------------------------------------
// Root motion helpers

// The root-motion node of a clip: the first node (in node order) with a translation track;
// -1 when no track moves a node.
int32_t rootMotionNode(const Clip& clip);
// The root-motion node's model-space (to-root) position at `samples` (>= 2) evenly spaced
// times over the clip's keys, travel included: the path to draw under the model. Empty when
// the clip has no root-motion node or `clip` is out of range.
std::vector<glm::vec3> rootMotionPath(const Model& model, int32_t clip, uint32_t samples);

}  // namespace rig
