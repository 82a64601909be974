#include "app/playback.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <random>
#include <span>

#include "anim/control/playback_tick_job.h"
#include "app/ik_setup.h"
#include "import/clip_markers.h"
#include "anim/control/machine_file.h"
#include "ui/timeline_panel.h"

namespace rig {

Playback::~Playback() {
    crowd_.reset();    // its workers stop first
    machine_.reset();  // bound to controller_
}

void Playback::rebuild() {
    // Parameters survive a rebuild (the person set them); a restart resets them afterwards.
    std::vector<float> values;
    if (machine_) {
        for (size_t p = 0; p < machine_->def().params.size(); ++p) values.push_back(machine_->value(static_cast<int32_t>(p)));
    }
    machine_.reset();
    controller_ = std::make_unique<Controller>(*s_.model);
    Controller& c = *controller_;
    maskLayer_ = c.addLayer(LayerBlend::Override);
    additiveLayer_ = c.addLayer(LayerBlend::Additive);
    for (size_t clip = 0; clip < s_.clipMarkers.size() && clip < s_.model->clips.size(); ++clip) {
        c.setMarkers(static_cast<int32_t>(clip), s_.clipMarkers[clip]);
    }
    spaceNames_.clear();
    spaceClips_.clear();
    MachinePanelState& ms = s_.machine;
    if (machineDef_) {
        machine_ = std::make_unique<StateMachine>(*machineDef_, c);
        if (!machine_->ok()) {  // loadMachineFile validates; kept for hand-made definitions
            ms.error = ms.path + ": " + machine_->error();
            machine_.reset();
            ms.active = false;
        } else {
            for (size_t p = 0; p < values.size() && p < machineDef_->params.size(); ++p) {
                const int32_t i = static_cast<int32_t>(p);
                if (machineDef_->params[p].type == ParamType::Bool) machine_->setBool(i, values[p] != 0.0f);
                else if (machineDef_->params[p].type == ParamType::Float) machine_->setFloat(i, values[p]);
            }
        }
    }
    // The machine's layers sit on the same controller, idle (weight 0) until it drives; the
    // timeline's rows show only the layers named here.
    layerNames_.assign(c.layerCount(), std::string());
    layerNames_[maskLayer_] = "mask: off";
    layerNames_[additiveLayer_] = "additive: off";
    ms.runtime = machine_.get();
    ms.controller = controller_.get();
    BlendState& b = s_.blend;
    b.active = false;
    b.blendSpace = -1;
    b.maskJoint = -1;
}

void Playback::rebuildAndPlay(bool driveMachine) {
    rebuild();
    MachinePanelState& ms = s_.machine;
    ms.active = driveMachine && machine_;
    ms.log.clear();
    ms.logSeen = 0;
    if (ms.active) {
        machine_->start();
    } else {
        playTimelineClip(false);
    }
}

void Playback::playTimelineClip(bool crossFade) {
    const Model& m = *s_.model;
    if (s_.clip < 0 || static_cast<size_t>(s_.clip) >= m.clips.size()) return;
    ClipTiming t;
    t.mode = s_.timeline.mode;
    t.rate = s_.timeline.rate;
    if (crossFade) {
        t.syncPhase = false;
        controller_->crossFadeTo(MotionSource::clip(s_.clip), s_.blend.fadeSeconds, FadeMode::Smooth, Ease{}, t);
    } else {
        controller_->play(MotionSource::clip(s_.clip), t);
    }
}

void Playback::setModel(bool reload, double previousTime, LoopMode mode, float rate, const std::string& machineFile,
                        bool given) {
    s_.blend = BlendState{};
    s_.clipMarkers.clear();
    for (const Clip& clip : s_.model->clips) s_.clipMarkers.push_back(clip.markers);
    s_.timeline.markerDrag = s_.timeline.markerMenu = s_.timeline.markerRename = -1;
    s_.timeline.markersModified = false;
    s_.timeline.mode = mode;
    s_.timeline.rate = rate;
    paused_ = false;
    const bool wasActive = s_.machine.active;
    machineFile_ = machineFile;
    machineGiven_ = given;
    loadMachine();
    // The State Machine panel shows for a model with a machine (or a machine file in error);
    // another model without one closes it (the menu opens it again).
    if (!reload && !machineDef_ && s_.machine.error.empty()) s_.panels.machine = false;
    const bool drive = machine_ && (given || (reload && wasActive));
    rebuildAndPlay(drive);
    if (!drive && reload) controller_->seek(previousTime);
    syncTimeline();
}

void Playback::loadMachine() {
    MachinePanelState& ms = s_.machine;
    const std::string& file = machineFile_;
    machine_.reset();
    machineDef_.reset();
    ms = MachinePanelState{};
    std::error_code ec;
    if (file.empty() || (!machineGiven_ && !std::filesystem::exists(file, ec))) return;
    Result<MachineDef> def = loadMachineFile(file, *s_.model);
    if (!def) {
        ms.error = def.error().message;
        s_.error = def.error().message;
        s_.panels.machine = true;
        return;
    }
    machineDef_ = std::make_unique<MachineDef>(std::move(def.value()));
    ms.path = file;
    s_.panels.machine = true;
}

void Playback::applyRequests() {
    if (!s_.model || !controller_) {
        s_.requests.blend = BlendRequests{};
        s_.requests.machine = MachineRequests{};
        s_.requests.markerEdits.clear();
        s_.requests.saveMarkers = false;
        return;
    }
    applyClipRequest();
    applyTimeRequests();
    applyBlendRequests();
    applyMachineRequests();
    applyMarkerEdits();
    // A motion started by a request plays: the pipeline runs again.
    if (paused_ && controller_->playing()) paused_ = false;
}

void Playback::applyClipRequest() {
    ViewerRequests& q = s_.requests;
    const Model& m = *s_.model;
    if (q.selectClip < 0 || static_cast<size_t>(q.selectClip) >= m.clips.size()) return;
    s_.clip = q.selectClip;
    // The Clips panel sets what the controller plays (and takes it back from the machine).
    if (machineDriving()) {
        rebuildAndPlay(false);
    } else {
        playTimelineClip(s_.blend.active);
    }
    s_.machine.active = false;
    s_.bindPose = false;
}

void Playback::applyTimeRequests() {
    ViewerRequests& q = s_.requests;
    Controller& c = *controller_;
    if (q.togglePlay) {
        if (c.playing() && !paused_) {
            c.pause();
            paused_ = true;
        } else {
            c.resume();  // Once at the end: from the start again
            paused_ = false;
        }
    }
    if (q.loopMode) c.setLoopMode(*q.loopMode);
    if (q.cycleLoopMode) c.setLoopMode(static_cast<LoopMode>((static_cast<int>(c.loopMode()) + 1) % 3));
    if (q.rate) c.setRate(*q.rate);
    if (q.previewRange) c.setPreviewRange(q.previewRange->first, q.previewRange->second);
    if (q.clearPreviewRange) c.clearPreviewRange();
    if (q.seek) c.seek(*q.seek);
    const Controller::TimelineInfo info = c.timeline();
    if (q.jumpStart) c.seek(info.hasRange ? info.rangeStart : info.start);
    if (q.jumpEnd) c.seek(info.hasRange ? info.rangeEnd : info.end);
    if (q.step != 0) {
        c.stepFrames(q.step);
        paused_ = true;
    }
    if (q.key != 0) {
        // The next / previous key of the selected joint (or of any joint), on the clip shown.
        refreshKeyTimes(s_);
        const KeyTimesCache& k = s_.keyTimes;
        const int j = s_.selectedJoint;
        const std::vector<float>& keys =
            j >= 0 && static_cast<size_t>(j) < k.perNode.size() && !k.perNode[j].empty() ? k.perNode[j] : k.all;
        // One key per press: N taps in one frame move N keys (stopping at the first / last).
        double t = std::numeric_limits<double>::quiet_NaN();
        const int dir = q.key > 0 ? 1 : -1;
        for (int n = 0; n < std::abs(q.key); ++n) {
            const double next = adjacentKey(keys, std::isfinite(t) ? t : info.time, dir);
            if (!std::isfinite(next)) break;
            t = next;
        }
        if (std::isfinite(t)) {
            c.pause();
            c.seek(t);
            paused_ = true;
        }
    }
}

void Playback::applyBlendRequests() {
    BlendRequests& q = s_.requests.blend;
    BlendState& b = s_.blend;
    if (q.start && machineDriving()) {
        // The Blend panel takes the controller back from the machine.
        rebuildAndPlay(false);
    }
    Controller& c = *controller_;
    const Model& m = *s_.model;
    const int32_t nclips = static_cast<int32_t>(m.clips.size());
    auto validClip = [&](int clip) { return clip >= 0 && clip < nclips; };
    if (q.start && validClip(s_.clip)) {
        b.active = true;
        // The controller already plays the timeline's clip: the Blend panel goes on from there.
        if (c.currentMotion().kind != MotionSource::Kind::Clip || c.currentMotion().index != s_.clip) playTimelineClip(false);
        b.fadeTarget = b.blendA = s_.clip;
        b.blendB = (s_.clip + 1) % nclips;
        b.rootPath = rootMotionPath(m, s_.clip, 200);
    }
    if (q.stop && b.active) {
        b.active = false;
        // Back to the timeline's clip, in step with what played.
        if (validClip(s_.clip)) {
            ClipTiming t;
            t.mode = s_.timeline.mode;
            t.rate = s_.timeline.rate;
            t.syncPhase = true;
            c.play(MotionSource::clip(s_.clip), t);
        }
    }
    if (q.start && b.active) s_.machine.active = false;  // one driver at a time
    if (b.active) {
        if (q.crossFade && validClip(b.fadeTarget)) {
            Ease ease;
            ease.curve = static_cast<EaseCurve>(std::clamp(b.ease, 0, 4));
            ClipTiming t;
            t.syncPhase = true;
            c.crossFadeTo(MotionSource::clip(b.fadeTarget), b.fadeSeconds, b.fadeMode == 1 ? FadeMode::Frozen : FadeMode::Smooth,
                          ease, t);
            b.rootPath = rootMotionPath(m, b.fadeTarget, 200);
        }
        if (q.blend && validClip(b.blendA) && validClip(b.blendB)) {
            b.blendSpace = c.addBlendSpace(BlendSpace1D::twoClip(b.blendA, b.blendB));
            if (b.blendSpace >= 0) {
                spaceNames_.resize(static_cast<size_t>(b.blendSpace) + 1);
                spaceClips_.resize(static_cast<size_t>(b.blendSpace) + 1);
                spaceNames_[b.blendSpace] = m.clips[b.blendA].name + " | " + m.clips[b.blendB].name;
                spaceClips_[b.blendSpace] = {b.blendA, b.blendB};
            }
            c.setBlendParameter(b.blendSpace, b.blendParam);
            ClipTiming t;
            t.syncPhase = true;
            Ease smooth;
            smooth.curve = EaseCurve::SmoothStep;
            c.crossFadeTo(MotionSource::blendSpace(b.blendSpace), 0.3f, FadeMode::Smooth, smooth, t);
        }
        if (q.blendParam && b.blendSpace >= 0) c.setBlendParameter(b.blendSpace, *q.blendParam);
        if (q.mask && validClip(b.maskClip) && s_.selectedJoint >= 0) {
            // A new mask is a new layer (configuration, may allocate); the old one fades out.
            if (b.maskJoint >= 0) c.setLayerWeight(maskLayer_, 0.0f, 0.2f);
            maskLayer_ = c.addLayer(LayerBlend::Override, maskFromSubtree(m.skeleton, s_.selectedJoint));
            layerNames_.resize(c.layerCount());
            layerNames_[maskLayer_] = "mask: " + m.clips[b.maskClip].name + " on " + m.skeleton.names[s_.selectedJoint];
            c.playLayer(maskLayer_, MotionSource::clip(b.maskClip));
            c.setLayerWeight(maskLayer_, 0.0f);
            c.setLayerWeight(maskLayer_, b.maskWeight, 0.3f);
            b.maskJoint = s_.selectedJoint;
        }
        if (q.maskWeight && b.maskJoint >= 0) c.setLayerWeight(maskLayer_, *q.maskWeight, 0.1f);
        if (q.maskOff) {
            c.setLayerWeight(maskLayer_, 0.0f, 0.3f);
            b.maskJoint = -1;
        }
        if (q.additive && validClip(b.addSource) && validClip(b.addReference)) {
            c.playAdditive(additiveLayer_, b.addSource, b.addReference);
            layerNames_[additiveLayer_] = "additive: " + m.clips[b.addSource].name + " - " + m.clips[b.addReference].name;
            c.setLayerWeight(additiveLayer_, b.addWeight, 0.3f);
        }
        if (q.addWeight) c.setLayerWeight(additiveLayer_, *q.addWeight, 0.1f);
        if (q.additiveOff) c.setLayerWeight(additiveLayer_, 0.0f, 0.3f);
        if (q.rootMotion) c.setRootMotion(b.inPlace ? RootMotion::InPlace : RootMotion::Travel);
        if (q.addMarker) s_.requests.markerEdits.push_back(MarkerEdit{});
    }
    q = BlendRequests{};
}

void Playback::applyMarkerEdits() {
    std::vector<MarkerEdit>& edits = s_.requests.markerEdits;
    const bool save = s_.requests.saveMarkers;
    s_.requests.saveMarkers = false;
    if (edits.empty() && !save) return;
    Controller& c = *controller_;
    const size_t clips = s_.model->clips.size();
    s_.clipMarkers.resize(clips);
    bool changed = false;
    for (MarkerEdit& e : edits) {
        int clip = e.clip;
        if (e.kind == MarkerEdit::Kind::Add && clip < 0) {
            // At the playhead: of the clip that plays.
            if (c.currentMotion().kind != MotionSource::Kind::Clip) continue;
            clip = c.currentMotion().index;
        }
        if (clip < 0 || static_cast<size_t>(clip) >= clips) continue;
        std::vector<Marker>& list = s_.clipMarkers[clip];
        const bool valid = e.index >= 0 && static_cast<size_t>(e.index) < list.size();
        switch (e.kind) {
            case MarkerEdit::Kind::Add: {
                const float t = c.currentMotion().kind == MotionSource::Kind::Clip && c.currentMotion().index == clip
                                    ? c.clipTime(clip)
                                    : e.time;
                if (!std::isfinite(t) || t < 0.0f) continue;
                // "marker N": the first N no marker of the clip is named after.
                std::string name;
                for (size_t n = list.size() + 1;; ++n) {
                    name = "marker " + std::to_string(n);
                    if (std::none_of(list.begin(), list.end(), [&](const Marker& m) { return m.name == name; })) break;
                }
                list.push_back({name, t});
                break;
            }
            case MarkerEdit::Kind::Move:
                if (!valid || !std::isfinite(e.time)) continue;
                list[e.index].time = e.time;
                break;
            case MarkerEdit::Kind::Rename:
                if (!valid || e.name.empty()) continue;
                list[e.index].name = e.name;
                break;
            case MarkerEdit::Kind::Delete:
                if (!valid) continue;
                list.erase(list.begin() + e.index);
                break;
        }
        sortMarkers(list);
        c.setMarkers(clip, list);
        changed = true;
    }
    edits.clear();
    if (changed) {
        s_.timeline.markersModified = true;
        markersSaved_ = "markers changed: Ctrl+S saves them beside the model";
    }
    if (!save) return;
    if (s_.path.empty()) {
        markersSaved_ = "markers not saved: no model file";
        return;
    }
    std::vector<std::string> names;
    for (const Clip& clip : s_.model->clips) names.push_back(clip.name);
    std::string error;
    if (writeMarkersFile(s_.path, names, s_.clipMarkers, error)) {
        s_.timeline.markersModified = false;
        markersSaved_ = "markers saved to " + markersFilePath(s_.path);
    } else {
        markersSaved_ = "markers not saved: " + error;
    }
}

void Playback::applyMachineRequests() {
    MachineRequests& q = s_.requests.machine;
    MachinePanelState& ms = s_.machine;
    if (q.reload) {
        // The definition is read again: the controller it was bound to is made again too.
        const bool driving = machineDriving();
        const double time = controller_->timeline().time;
        loadMachine();
        rebuildAndPlay(driving);
        if (!ms.active) controller_->seek(time);
        if (paused_) controller_->pause();  // re-reading a file is no Play
    }
    if (machine_) {
        StateMachine& sm = *machine_;
        for (const auto& [param, value] : q.values) {
            if (param < 0 || static_cast<size_t>(param) >= sm.def().params.size()) continue;
            if (sm.def().params[param].type == ParamType::Bool) sm.setBool(param, value != 0.0f);
            else sm.setFloat(param, value);
        }
        for (int32_t t : q.triggers) sm.setTrigger(t);
        if (q.restart) {
            // A fresh runtime: parameters back to their defaults (on a fresh controller when it drives).
            if (machineDriving()) {
                machine_->resetParameters();
                rebuildAndPlay(true);
            } else {
                machine_->resetParameters();
                ms.log.clear();
                ms.logSeen = 0;
            }
        }
        if (q.drive && !machineDriving()) rebuildAndPlay(true);
    }
    if (q.stop && machineDriving()) rebuildAndPlay(false);
    q = MachineRequests{};
}

void Playback::advance(double dt) {
    if (!s_.model || !s_.animator || !controller_) return;
    step_ = paused_ || !(dt > 0.0) || !std::isfinite(dt) ? 0.0 : dt;
    // The Clips panel's compressed toggle: the one Controller (a new one too) and the crowd
    // play the set it holds.
    compressedView_.update(s_, {controller_.get()});
    sweepRangeOfMotion();
    const bool driving = machineDriving();
    PlaybackTickJob tick;
    tick.dt = step_;
    tick.controller = controller_.get();
    tick.machine = driving ? machine_.get() : nullptr;
    tick.ik = prepareIkStage(s_);
    tick.animator = s_.animator.get();
    tick.stillPose = s_.bindPose ? s_.stillPose() : 0;
    const auto t0 = std::chrono::steady_clock::now();
    tick.run();
    const auto t1 = std::chrono::steady_clock::now();
    s_.stats.paletteUs = std::chrono::duration<float, std::micro>(t1 - t0).count();
    if (driving) {
        afterMachineTick();
    } else {
        afterControllerTick();
    }
    syncTimeline();
    updateCrowd();
}

void Playback::afterControllerTick() {
    Controller& c = *controller_;
    const size_t n = c.events(std::span<AnimEvent>(events_.data(), events_.size()));
    auto& log = s_.blend.eventLog;
    for (size_t i = 0; i < n; ++i) {
        const AnimEvent& e = events_[i];
        char line[160];
        std::snprintf(line, sizeof line, "%.2f s  %.*s  (%s, %s)", c.time(), static_cast<int>(e.name.size()), e.name.data(),
                      s_.model->clips[e.clip].name.c_str(), e.direction > 0 ? "forward" : "backward");
        log.insert(log.begin(), line);
    }
    if (log.size() > 8) log.resize(8);
    // Rows for the timeline: the base motion (and the one fading out), then the Blend panel's layers.
    auto& rows = s_.blend.rows;
    size_t named = 0;
    for (size_t l = 0; l < c.layerCount(); ++l) named += l < layerNames_.size() && !layerNames_[l].empty() ? 1 : 0;
    rows.resize(1 + named);
    const MotionSource cur = c.currentMotion();
    rows[0].label = motionName(cur);
    if (c.fading()) rows[0].label += " (fading in)";
    rows[0].phase = c.phase();
    rows[0].weight = c.fadeWeight();
    size_t r = 1;
    for (size_t l = 0; l < c.layerCount(); ++l) {
        if (l >= layerNames_.size() || layerNames_[l].empty()) continue;  // the machine's, idle
        const LayerClock* lc = c.layerClock(static_cast<int32_t>(l));
        rows[r].label = layerName(l);
        rows[r].phase = lc ? static_cast<float>(lc->phase()) : 0.0f;
        rows[r].weight = c.layerWeight(static_cast<int32_t>(l));
        ++r;
    }
}

void Playback::afterMachineTick() {
    const StateMachine& sm = *machine_;
    const Controller& c = *controller_;
    MachinePanelState& ms = s_.machine;
    // New log entries, newest first (the ring keeps the last StateMachine::kLogSize).
    const uint64_t fired = sm.transitionsFired();
    const size_t kept = sm.logCount();
    const uint64_t firstKept = fired - kept;
    for (uint64_t n = std::max(ms.logSeen, firstKept); n < fired; ++n) {
        const TransitionLogEntry& e = sm.logEntry(static_cast<size_t>(n - firstKept));
        const MachineDef& def = sm.def();
        const SubMachine& m = def.machines[e.machine];
        auto name = [&](int32_t st) -> std::string {
            if (st == MachineTransition::kExit) return "exit";
            return st >= 0 && static_cast<size_t>(st) < m.states.size() ? m.states[st].name : "-";
        };
        char line[256];
        std::snprintf(line, sizeof line, "%7.2f s  %s: %s -> %s  (%s)", e.time, def.layers[e.layer].name.c_str(),
                      name(e.from).c_str(), name(e.to).c_str(), transitionWhyName(e.why));
        ms.log.insert(ms.log.begin(), line);
    }
    ms.logSeen = fired;
    if (ms.log.size() > 12) ms.log.resize(12);
    // Rows for the timeline (as the Blend panel's): each layer's playing state.
    auto& rows = s_.blend.rows;
    rows.resize(sm.layerCount());
    for (size_t l = 0; l < sm.layerCount(); ++l) {
        const MachineLayer& L = sm.def().layers[l];
        const MachineState& st = sm.activeStateDef(l);
        rows[l].label = L.name + ": " + st.name;
        if (L.base && c.fading()) rows[l].label += " (fading in)";
        rows[l].phase = static_cast<float>(sm.normalizedTime(l) - std::floor(sm.normalizedTime(l)));
        rows[l].weight = L.base ? c.fadeWeight() : c.layerWeight(sm.controllerLayer(l));
    }
}

std::string Playback::motionName(MotionSource m) const {
    const Model& model = *s_.model;
    if (m.kind == MotionSource::Kind::Clip && m.index >= 0 && static_cast<size_t>(m.index) < model.clips.size()) {
        return model.clips[m.index].name;
    }
    if (m.kind == MotionSource::Kind::BlendSpace && m.index >= 0 && static_cast<size_t>(m.index) < spaceNames_.size() &&
        !spaceNames_[m.index].empty()) {
        return spaceNames_[m.index];
    }
    return m.kind == MotionSource::Kind::None ? "bind pose" : "blend space";
}

std::string Playback::layerName(size_t layer) const {
    return layer < layerNames_.size() && !layerNames_[layer].empty() ? layerNames_[layer] : "layer (unused)";
}

void Playback::syncTimeline() {
    TimelineState& tl = s_.timeline;
    const Controller* c = controller_.get();
    const Model* m = s_.model.get();
    if (!c || !m) {
        tl.driver = nullptr;
        tl.name.clear();
        tl.clip = -1;
        tl.start = tl.end = tl.time = 0.0;
        tl.frame = tl.firstFrame = tl.lastFrame = 0;
        tl.playing = false;
        tl.hasRange = false;
        return;
    }
    const bool driving = machineDriving();
    const Controller::TimelineInfo info = c->timeline();
    const MotionSource cur = c->currentMotion();
    tl.driver = c;
    tl.start = info.start;
    tl.end = info.end;
    tl.time = info.time;
    tl.sampleRate = info.sampleRate;
    tl.frame = info.frame;
    tl.firstFrame = static_cast<int>(std::ceil(info.start * info.sampleRate - 1e-4));
    tl.lastFrame = info.lastFrame;
    tl.playing = c->playing();
    tl.rate = c->rate();
    tl.mode = c->loopMode();
    tl.phase = c->phase();
    tl.fading = c->fading();
    tl.fade = c->fadeWeight();
    tl.hasRange = info.hasRange;
    tl.rangeStart = info.rangeStart;
    tl.rangeEnd = info.rangeEnd;
    tl.blendSpace = cur.kind == MotionSource::Kind::BlendSpace;
    tl.clipShare.assign(m->clips.size(), 0.0f);
    if (cur.kind == MotionSource::Kind::Clip) {
        tl.clip = cur.index;
        tl.clipShare[cur.index] = 1.0f;
    } else if (cur.kind == MotionSource::Kind::BlendSpace) {
        const std::vector<float>& w = c->blendWeights(cur.index);
        tl.clip = -1;
        float best = -1.0f;
        // The Blend panel's blend space's clips by their weights; the heaviest one's keys on the ruler.
        if (!driving && cur.index >= 0 && static_cast<size_t>(cur.index) < spaceClips_.size()) {
            const std::vector<int32_t>& clips = spaceClips_[cur.index];
            for (size_t i = 0; i < clips.size() && i < w.size(); ++i) {
                tl.clipShare[clips[i]] += w[i];
                if (w[i] > best) {
                    best = w[i];
                    tl.clip = clips[i];
                }
            }
        }
    } else {
        tl.clip = -1;
    }
    if (driving) {
        const StateMachine& sm = *machine_;
        tl.name = sm.layerCount() > 0 ? sm.def().layers[0].name + ": " + sm.activeStateDef(0).name : "state machine";
    } else {
        tl.name = motionName(cur);
    }
    if (tl.fading) tl.name += " (fading in)";
    // The Clips panel highlights what plays.
    if (cur.kind == MotionSource::Kind::Clip && !driving) s_.clip = cur.index;
}

void Playback::sweepRangeOfMotion() {
    CheckViewState& c = s_.checks;
    Animator& anim = *s_.animator;
    if (!c.rom) {
        c.romJoint = -1;
        anim.setRotationOverride(-1, glm::quat(1, 0, 0, 0));
        return;
    }
    // The sweep is a motion of the pipeline's clock: it moves by the frame's step.
    c.romTime += step_;
    const double period = std::max(0.2f, c.romPeriod);
    const int step = static_cast<int>(std::floor(c.romTime / period));
    c.romAxis = step % 3;
    if (c.romAll) {
        const std::vector<int32_t>& joints = s_.joints;
        c.romJoint = joints.empty() ? -1 : joints[static_cast<size_t>(step / 3) % joints.size()];
    } else {
        c.romJoint = s_.selectedJoint;
    }
    const double phase = wrapTime(c.romTime, period) / period;
    const float angle = glm::radians(c.romDegrees) * static_cast<float>(std::sin(2.0 * 3.14159265358979 * phase));
    glm::vec3 axis(0.0f);
    axis[c.romAxis] = 1.0f;
    anim.setRotationOverride(c.romJoint, glm::angleAxis(angle, axis));
}

void Playback::updateCrowd() {
    CrowdState& c = s_.crowd;
    if (!c.enabled) return;
    const int32_t clip = s_.bindPose ? s_.stillPose() : s_.clip;
    if (!crowd_ || crowdModel_ != s_.model || crowdInstances_ != c.instances || crowdThreads_ != c.threads ||
        crowdClip_ != clip || crowdClips_ != c.clips || crowdPhaseSpread_ != c.phaseSpread ||
        crowdRateSpread_ != c.rateSpread) {
        rebuildCrowd(clip);
    }
    if (crowd_->compressedClips() != compressedView_.playing()) crowd_->setCompressedClips(compressedView_.playing());
    // The crowd follows the controller's clock: each instance at its phase + rate x that time.
    const auto t0 = std::chrono::steady_clock::now();
    // The viewer's frame budget (app/crowd_view.h) poses only the instances it draws.
    if (c.limit == 0) c.limit = kCrowdFirstLimit;
    crowd_->update(motionTime(*controller_), c.budgeted ? c.limit : SIZE_MAX);
    c.posed = crowd_->posed();
    c.updateMs = std::chrono::duration<float, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

void Playback::rebuildCrowd(int32_t clip) {
    CrowdState& c = s_.crowd;
    const Model& model = *s_.model;
    const size_t n = static_cast<size_t>(std::clamp(c.instances, 1, 10000));
    if (!crowd_ || crowdModel_ != s_.model || crowdInstances_ != c.instances || crowdThreads_ != c.threads) {
        crowd_.reset();  // its workers stop before the new ones start
        crowd_ = std::make_unique<Crowd>(model, n, clip, static_cast<unsigned>(std::clamp(c.threads, 1, 16)));
    }
    // Clips, phases and rates: deterministic per instance (the same seed every rebuild).
    std::mt19937 random(12345u);
    const int clipCount = static_cast<int>(model.clips.size());
    for (size_t i = 0; i < n; ++i) {
        int32_t ci = clip;
        if (!s_.bindPose && clipCount > 0 && c.clips == CrowdClips::Cycle) ci = static_cast<int32_t>(i % static_cast<size_t>(clipCount));
        if (!s_.bindPose && clipCount > 0 && c.clips == CrowdClips::Random) ci = static_cast<int32_t>(random() % static_cast<unsigned>(clipCount));
        const double length = ci >= 0 ? std::max(0.0, static_cast<double>(model.clips[ci].duration) - model.clips[ci].startTime) : 0.0;
        const double phase = length * c.phaseSpread * static_cast<double>(i) / static_cast<double>(n);
        const double u = static_cast<double>(random() % 10001u) / 10000.0;  // 0..1
        crowd_->setInstance(i, ci, phase, 1.0 + c.rateSpread * (u - 0.5));
    }
    crowdModel_ = s_.model;
    crowdInstances_ = c.instances;
    crowdThreads_ = c.threads;
    crowdClip_ = clip;
    crowdClips_ = c.clips;
    crowdPhaseSpread_ = c.phaseSpread;
    crowdRateSpread_ = c.rateSpread;
}

}  // namespace rig
