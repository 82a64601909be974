#include "anim/control/controller.h"

#include "anim/runtime/local_to_model_job.h"

#include <algorithm>
#include <cmath>

namespace rig {

namespace {

float clampWeight(float w) {
    if (!(w > 0.0f)) return 0.0f;
    return w < 1.0f ? w : 1.0f;
}

}  // namespace

// ---------------------------------------------------------------------------------------
// Markers crossed by one motion's clock, turned into events.

// The marker pass over one advance of a motion's clock (ozz's TrackTriggeringJob): the
// unwrapped range the clock reported, piece by piece in the order it was travelled, and in
// each piece every clip of the motion with its markers in clock units (seconds from the
// clip's start, or phase for a blend space's clips).
void Controller::triggerMotionMarkers(const MotionState& m, const ClockAdvance& a, float weight, int16_t layer) {
    if (!(weight > 0.0f) || !a.moved) return;
    if (m.source.kind == MotionSource::Kind::Clip && markers_[m.source.index].empty()) return;  // nothing to find
    auto scan = [&](const ClockSegment& seg, int32_t clip, bool normalized, float w) {
        const std::vector<Marker>& list = markers_[clip];
        if (list.empty()) return;
        const double start = model_->clips[clip].startTime;
        const double length = clipLength(clip);
        if (normalized && !(length > 0.0)) return;
        markersInSegment(
            seg, static_cast<uint32_t>(list.size()),
            [&](uint32_t k) {
                const double u = static_cast<double>(list[k].time) - start;
                return normalized ? u / length : u;
            },
            [&](uint32_t k, int direction) {
                AnimEvent e;
                e.name = list[k].name;
                e.clip = clip;
                e.marker = k;
                e.time = list[k].time;
                e.weight = w;
                e.direction = static_cast<int8_t>(direction);
                e.layer = layer;
                pushEvent(e);
            });
    };
    forEachSegment(a, [&](const ClockSegment& seg) {
        if (m.source.kind == MotionSource::Kind::Clip) {
            scan(seg, m.source.index, false, weight);
        } else if (m.source.kind == MotionSource::Kind::BlendSpace) {
            const SpaceState& s = spaces_[m.source.index];
            for (size_t i = 0; i < s.clips.size(); ++i) {
                if (s.weights[i] > 0.0f) scan(seg, s.clips[i], true, s.weights[i] * weight);
            }
        }
    });
}

// ---------------------------------------------------------------------------------------
// Controller: configuration

Controller::Controller(const Model& model, const ControllerOptions& options)
    : model_(&model), options_(options) {
    const Skeleton& sk = model.skeleton;
    const size_t n = sk.size();
    const size_t nc = model.clips.size();

    cursorOffset_.resize(nc);
    uint32_t off = 0;
    for (size_t c = 0; c < nc; ++c) {
        cursorOffset_[c] = off;
        off += 3 * static_cast<uint32_t>(model.clips[c].tracks.size());
    }
    cursorCount_ = off;
    untrackedOffset_.assign(nc + 1, 0);
    for (size_t c = 0; c < nc; ++c) {
        const std::vector<int32_t>& trackOf = model.clips[c].trackOfNode;
        for (size_t i = 0; i < n; ++i) {
            if (i >= trackOf.size() || trackOf[i] < 0) untracked_.push_back(static_cast<int32_t>(i));
        }
        untrackedOffset_[c + 1] = static_cast<uint32_t>(untracked_.size());
    }
    plans_.reserve(nc);
    for (size_t c = 0; c < nc; ++c) plans_.push_back(buildSamplingPlan(model.clips[c], n));

    animated_.assign(n, 0);
    rootNode_.assign(nc, -1);
    rootStart_.assign(nc, glm::vec3(0.0f));
    rootParent_.assign(nc, glm::mat3(1.0f));
    rootParentInv_.assign(nc, glm::mat3(1.0f));
    for (size_t c = 0; c < nc; ++c) {
        const Clip& clip = model.clips[c];
        for (const Track& tr : clip.tracks) {
            if (tr.node >= 0 && static_cast<size_t>(tr.node) < n) animated_[tr.node] = 1;
        }
        const int32_t r = rootMotionNode(clip);
        if (r < 0 || static_cast<size_t>(r) >= n) continue;
        rootNode_[c] = r;
        for (const Track& tr : clip.tracks) {
            if (tr.node == r && tr.translation.count) {
                uint32_t cursor = 0;
                rootStart_[c] = sampleVec3(clip, tr.translation, clip.startTime, cursor);
                break;
            }
        }
        const int32_t p = sk.parent[r];
        if (p >= 0 && static_cast<size_t>(p) < sk.bindModel.size()) {
            const glm::mat3 m(sk.bindModel[p]);
            const float det = glm::determinant(m);
            if (std::isfinite(det) && std::fabs(det) > 1e-20f) {
                rootParent_[c] = m;
                rootParentInv_[c] = glm::inverse(m);
            }
        }
    }

    markers_.resize(nc);
    for (size_t c = 0; c < nc; ++c) {
        if (!model.clips[c].markers.empty()) setMarkers(static_cast<int32_t>(c), model.clips[c].markers);
    }
    pose_ = sk.bindLocalSqt;
    pose_.resize(n);
    bufA_ = pose_;
    bufB_ = pose_;
    bufC_ = pose_;
    snapshot_ = pose_;
    morphPose_.assign(morphWeightCount(model), 0.0f);
    morphA_ = morphB_ = morphSnapshot_ = morphPose_;
    size_t morphTracks = 0;
    for (const Clip& clip : model.clips) morphTracks = std::max(morphTracks, clip.morphTracks.size());
    morphCursors_.assign(morphTracks, 0u);
    current_.cursors.assign(cursorCount_, 0u);
    previous_.cursors.assign(cursorCount_, 0u);
    events_.resize(options_.eventCapacity);
}

float Controller::clipLength(int32_t clip) const {
    const Clip& c = model_->clips[clip];
    const float len = c.duration - c.startTime;
    return len > 0.0f && std::isfinite(len) ? len : 0.0f;
}

void Controller::refreshSpace(SpaceState& s) {
    if (s.is2D) s.space2.weights(s.parameter, s.weights);
    else s.space1.weights(s.parameter.x, s.weights);
    float len = 0.0f;
    for (size_t i = 0; i < s.clips.size(); ++i) len += s.weights[i] * clipLength(s.clips[i]);
    s.blendedLength = len;
}

int32_t Controller::addBlendSpace(BlendSpace1D space) {
    SpaceState s;
    for (const auto& p : space.points()) {
        if (p.clip < 0 || static_cast<size_t>(p.clip) >= model_->clips.size()) return -1;
        s.clips.push_back(p.clip);
    }
    s.space1 = std::move(space);
    s.weights.assign(s.clips.size(), 0.0f);
    refreshSpace(s);
    spaces_.push_back(std::move(s));
    return static_cast<int32_t>(spaces_.size() - 1);
}

int32_t Controller::addBlendSpace(BlendSpace2D space) {
    SpaceState s;
    s.is2D = true;
    for (const auto& p : space.points()) {
        if (p.clip < 0 || static_cast<size_t>(p.clip) >= model_->clips.size()) return -1;
        s.clips.push_back(p.clip);
    }
    s.space2 = std::move(space);
    s.weights.assign(s.clips.size(), 0.0f);
    refreshSpace(s);
    spaces_.push_back(std::move(s));
    return static_cast<int32_t>(spaces_.size() - 1);
}

bool Controller::setMarkers(int32_t clip, std::vector<Marker> markers) {
    if (clip < 0 || static_cast<size_t>(clip) >= model_->clips.size()) return false;
    markers.erase(std::remove_if(markers.begin(), markers.end(),
                                 [](const Marker& m) { return !std::isfinite(m.time); }),
                  markers.end());
    std::stable_sort(markers.begin(), markers.end(),
                     [](const Marker& a, const Marker& b) { return a.time < b.time; });
    markers_[clip] = std::move(markers);
    return true;
}

int32_t Controller::addLayer(LayerBlend blend, JointMask mask) {
    const size_t n = model_->skeleton.size();
    Layer l;
    l.blend = blend;
    if (mask.weights.empty()) {
        l.mask.assign(n, 1.0f);
    } else {
        l.mask = std::move(mask.weights);
        l.mask.resize(n, 0.0f);
        for (float& w : l.mask) w = clampWeight(w);
    }
    l.motion.cursors.assign(cursorCount_, 0u);
    l.previous.cursors.assign(cursorCount_, 0u);
    l.motion.compressed.reset(compressedClips_, kCompressedSlots);
    l.previous.compressed.reset(compressedClips_, kCompressedSlots);
    layers_.push_back(std::move(l));
    return static_cast<int32_t>(layers_.size() - 1);
}

void Controller::setCompressedClips(const CompressedClipSet* set) {
    compressedClips_ = set && set->skeletonSize == model_->skeleton.size() ? set : nullptr;
    for (MotionState* m : {&current_, &previous_}) m->compressed.reset(compressedClips_, kCompressedSlots);
    for (Layer& l : layers_) {
        l.motion.compressed.reset(compressedClips_, kCompressedSlots);
        l.previous.compressed.reset(compressedClips_, kCompressedSlots);
    }
}

size_t Controller::compressedStateBytes() const {
    size_t n = current_.compressed.byteSize() + previous_.compressed.byteSize();
    for (const Layer& l : layers_) n += l.motion.compressed.byteSize() + l.previous.compressed.byteSize();
    return n;
}

void Controller::setRootMotion(RootMotion mode, glm::vec3 up) {
    rootMotion_ = mode;
    const float len = glm::length(up);
    up_ = len > 0.0f && std::isfinite(len) ? up / len : glm::vec3(0.0f, 1.0f, 0.0f);
}

// ---------------------------------------------------------------------------------------
// Controller: requests

bool Controller::validMotion(MotionSource m) const {
    switch (m.kind) {
        case MotionSource::Kind::None: return true;
        case MotionSource::Kind::Clip: return m.index >= 0 && static_cast<size_t>(m.index) < model_->clips.size();
        case MotionSource::Kind::BlendSpace: return m.index >= 0 && static_cast<size_t>(m.index) < spaces_.size();
    }
    return false;
}

void Controller::startMotion(MotionState& m, MotionSource source, const ClipTiming& timing, double syncPhase) {
    m.source = source;
    m.timing = timing;
    m.referenceClip = -1;
    double duration = 0.0;
    float rate = timing.rate;
    if (source.kind == MotionSource::Kind::Clip) {
        duration = clipLength(source.index);
    } else if (source.kind == MotionSource::Kind::BlendSpace) {
        duration = 1.0;  // normalized time
        const float len = spaces_[source.index].blendedLength;
        rate = len > 0.0f ? timing.rate / len : 0.0f;
    }
    double phase = timing.rate < 0.0f ? 1.0 : 0.0;
    if (timing.syncPhase && syncPhase >= 0.0) phase = syncPhase;
    else if (timing.startPhase >= 0.0f) phase = std::min(timing.startPhase, 1.0f);
    m.clock.start(duration, phase * duration, rate, timing.mode, timing.loopCount);
    m.startAt = std::isfinite(timing.startAt) ? timing.startAt : time_;
    if (m.startAt < time_) m.clock.advance(time_ - m.startAt);  // started in the past: no events
    std::fill(m.cursors.begin(), m.cursors.end(), 0u);
}

bool Controller::play(MotionSource motion, const ClipTiming& timing) {
    if (!validMotion(motion)) return false;
    const double sync = current_.source.kind != MotionSource::Kind::None ? current_.clock.phase() : -1.0;
    fading_ = false;
    snapshotActive_ = false;
    previous_.source = {};
    fadeWeight_ = 1.0f;
    startMotion(current_, motion, timing, sync);
    return true;
}

bool Controller::crossFadeTo(MotionSource motion, float duration, FadeMode mode, Ease ease,
                             const ClipTiming& timing) {
    if (!validMotion(motion)) return false;
    if (!(duration > 0.0f) || !std::isfinite(duration)) return play(motion, timing);
    const double sync = current_.source.kind != MotionSource::Kind::None ? current_.clock.phase() : -1.0;
    if (fading_) {
        // Interrupted fade: freeze the pose (and morph weights) it had reached and fade from that.
        evalMotion(current_, bufA_.data(), bufB_.data());
        if (!snapshotActive_) evalMotion(previous_, snapshot_.data(), bufB_.data());
        blendPoses(snapshot_, bufA_, fadeWeight_, snapshot_);
        evalMotionMorphs(current_, morphA_.data(), morphB_.data());
        if (!snapshotActive_) evalMotionMorphs(previous_, morphSnapshot_.data(), morphB_.data());
        for (size_t i = 0; i < morphSnapshot_.size(); ++i) {
            morphSnapshot_[i] += (morphA_[i] - morphSnapshot_[i]) * fadeWeight_;
        }
        snapshotActive_ = true;
        previous_.source = {};
    } else {
        std::swap(current_, previous_);  // moves buffers, allocates nothing
        snapshotActive_ = false;
        if (mode == FadeMode::Frozen) previous_.clock.pause();
    }
    startMotion(current_, motion, timing, sync);
    fading_ = true;
    fadeMode_ = mode;
    fadeEase_ = ease;
    fadeDuration_ = duration;
    fadeElapsed_ = 0.0f;
    fadeWeight_ = applyEase(ease, 0.0f);
    return true;
}

bool Controller::setBlendParameter(int32_t space, float x, float y) {
    if (space < 0 || static_cast<size_t>(space) >= spaces_.size()) return false;
    SpaceState& s = spaces_[space];
    s.parameter = glm::vec2(x, y);
    refreshSpace(s);
    return true;
}

bool Controller::playLayer(int32_t layer, MotionSource motion, const ClipTiming& timing) {
    if (layer < 0 || static_cast<size_t>(layer) >= layers_.size()) return false;
    Layer& l = layers_[layer];
    if (l.blend != LayerBlend::Override || !validMotion(motion)) return false;
    startMotion(l.motion, motion, timing, current_.source.kind != MotionSource::Kind::None ? current_.clock.phase() : -1.0);
    return true;
}

void Controller::beginLayerFade(Layer& l, float duration, FadeMode mode, Ease ease) {
    // The outgoing motion keeps its clock and cursors (same sizes: no allocation).
    l.previous.source = l.motion.source;
    l.previous.referenceClip = l.motion.referenceClip;
    l.previous.timing = l.motion.timing;
    l.previous.startAt = l.motion.startAt;
    l.previous.clock = l.motion.clock;
    if (mode == FadeMode::Frozen) l.previous.clock.pause();
    std::copy(l.motion.cursors.begin(), l.motion.cursors.end(), l.previous.cursors.begin());
    l.crossFading = true;
    l.crossElapsed = 0.0f;
    l.crossDuration = duration;
    l.crossEase = ease;
    l.crossWeight = applyEase(ease, 0.0f);
}

bool Controller::crossFadeLayer(int32_t layer, MotionSource motion, float duration, Ease ease,
                                const ClipTiming& timing) {
    return crossFadeLayer(layer, motion, duration, FadeMode::Smooth, ease, timing);
}

bool Controller::crossFadeLayer(int32_t layer, MotionSource motion, float duration, FadeMode mode,
                                Ease ease, const ClipTiming& timing) {
    if (layer < 0 || static_cast<size_t>(layer) >= layers_.size()) return false;
    Layer& l = layers_[layer];
    if (l.blend != LayerBlend::Override || !validMotion(motion)) return false;
    const bool playing = l.motion.source.kind != MotionSource::Kind::None;
    if (!(duration > 0.0f) || !std::isfinite(duration) || !playing) {
        l.crossFading = false;
        return playLayer(layer, motion, timing);
    }
    beginLayerFade(l, duration, mode, ease);
    return playLayer(layer, motion, timing);
}

float Controller::layerFadeWeight(int32_t layer) const {
    if (layer < 0 || static_cast<size_t>(layer) >= layers_.size()) return 1.0f;
    const Layer& l = layers_[layer];
    return l.crossFading ? l.crossWeight : 1.0f;
}

bool Controller::additiveArgumentsValid(int32_t layer, int32_t sourceClip, int32_t referenceClip) const {
    if (layer < 0 || static_cast<size_t>(layer) >= layers_.size()) return false;
    const size_t nc = model_->clips.size();
    return layers_[layer].blend == LayerBlend::Additive && sourceClip >= 0 && static_cast<size_t>(sourceClip) < nc &&
           referenceClip >= 0 && static_cast<size_t>(referenceClip) < nc;
}

bool Controller::playAdditive(int32_t layer, int32_t sourceClip, int32_t referenceClip,
                              const ClipTiming& timing) {
    if (!additiveArgumentsValid(layer, sourceClip, referenceClip)) return false;
    Layer& l = layers_[layer];
    startMotion(l.motion, MotionSource::clip(sourceClip), timing,
                current_.source.kind != MotionSource::Kind::None ? current_.clock.phase() : -1.0);
    l.motion.referenceClip = referenceClip;
    return true;
}

bool Controller::crossFadeAdditive(int32_t layer, int32_t sourceClip, int32_t referenceClip, float duration,
                                   FadeMode mode, Ease ease, const ClipTiming& timing) {
    if (!additiveArgumentsValid(layer, sourceClip, referenceClip)) return false;
    Layer& l = layers_[layer];
    const bool playing = l.motion.source.kind == MotionSource::Kind::Clip && l.motion.referenceClip >= 0;
    if (!(duration > 0.0f) || !std::isfinite(duration) || !playing) {
        l.crossFading = false;
        return playAdditive(layer, sourceClip, referenceClip, timing);
    }
    beginLayerFade(l, duration, mode, ease);
    return playAdditive(layer, sourceClip, referenceClip, timing);
}

bool Controller::setLayerWeight(int32_t layer, float weight, float seconds) {
    if (layer < 0 || static_cast<size_t>(layer) >= layers_.size()) return false;
    Layer& l = layers_[layer];
    weight = clampWeight(weight);
    if (seconds > 0.0f && std::isfinite(seconds)) {
        l.fadeFrom = l.weight;
        l.fadeTo = weight;
        l.fadeSeconds = seconds;
        l.fadeElapsed = 0.0f;
    } else {
        l.weight = weight;
        l.fadeSeconds = 0.0f;
    }
    return true;
}

bool Controller::stopLayer(int32_t layer) {
    if (layer < 0 || static_cast<size_t>(layer) >= layers_.size()) return false;
    layers_[layer].motion.source = {};
    layers_[layer].crossFading = false;
    return true;
}

void Controller::pause() { current_.clock.pause(); }
void Controller::resume() { current_.clock.resume(); }

void Controller::setRate(float rate) {
    if (!std::isfinite(rate)) return;
    current_.timing.rate = rate;
    if (current_.source.kind == MotionSource::Kind::Clip) current_.clock.setRate(rate);
    // Blend spaces: the clock's rate is rate / blended length, set at every update.
}

void Controller::seekPhase(float phase) {
    current_.clock.seek(static_cast<double>(phase) * current_.clock.duration());
}

Controller::TimelineInfo Controller::timeline() const {
    TimelineInfo info;
    const MotionSource m = current_.source;
    double start = 0.0, unit = 1.0;
    if (m.kind == MotionSource::Kind::Clip) {
        const Clip& c = model_->clips[m.index];
        start = c.startTime;
        info.sampleRate = c.sampleRate;
    } else if (m.kind == MotionSource::Kind::BlendSpace) {
        const SpaceState& sp = spaces_[m.index];
        unit = sp.blendedLength;
        if (!sp.clips.empty()) info.sampleRate = model_->clips[sp.clips.front()].sampleRate;
    } else {
        return info;
    }
    if (!(info.sampleRate > 0.0f) || !std::isfinite(info.sampleRate)) info.sampleRate = 30.0f;
    const LayerClock& k = current_.clock;
    info.start = start;
    info.end = start + k.duration() * unit;
    info.time = start + k.time() * unit;
    info.frame = static_cast<int>(std::lround(info.time * info.sampleRate));
    info.lastFrame = static_cast<int>(std::floor(info.end * info.sampleRate + 1e-4));
    info.hasRange = k.hasRange();
    info.rangeStart = start + k.rangeStart() * unit;
    info.rangeEnd = start + k.rangeEnd() * unit;
    return info;
}

namespace {
// The base motion's timeline seconds -> its clock units.
double toClock(const Controller::TimelineInfo& info, double clockDuration, double seconds) {
    const double span = info.end - info.start;
    if (!(span > 0.0)) return 0.0;
    return (seconds - info.start) / span * clockDuration;
}
}  // namespace

void Controller::seek(double seconds) {
    if (current_.source.kind == MotionSource::Kind::None || !std::isfinite(seconds)) return;
    current_.clock.seek(toClock(timeline(), current_.clock.duration(), seconds));
}

void Controller::stepFrames(int frames) {
    if (current_.source.kind == MotionSource::Kind::None) return;
    current_.clock.pause();
    const TimelineInfo info = timeline();
    const double rate = info.sampleRate;
    const double firstFrame = std::ceil(info.start * rate - 1e-4);
    double f = std::round(info.time * rate) + frames;
    if (current_.clock.mode() == LoopMode::Loop) {
        const double lo = info.hasRange ? std::ceil(info.rangeStart * rate - 1e-4) : firstFrame;
        const double hi = info.hasRange ? std::floor(info.rangeEnd * rate + 1e-4) : info.lastFrame;
        const double n = std::max(1.0, hi - lo + 1.0);
        f = lo + wrapTime(f - lo, n);
    }
    double t = std::clamp(f / rate, info.start, info.end);
    current_.clock.seek(toClock(info, current_.clock.duration(), t));
}

void Controller::setLoopMode(LoopMode mode) {
    current_.timing.mode = mode;
    current_.clock.setMode(mode);
}

void Controller::setPreviewRange(double from, double to) {
    if (current_.source.kind == MotionSource::Kind::None) return;
    const TimelineInfo info = timeline();
    const double d = current_.clock.duration();
    current_.clock.setRange(toClock(info, d, std::min(from, to)), toClock(info, d, std::max(from, to)));
}

void Controller::clearPreviewRange() { current_.clock.clearRange(); }

// ---------------------------------------------------------------------------------------
// Controller: per tick

void Controller::pushEvent(const AnimEvent& e) {
    if (eventCount_ < events_.size()) events_[eventCount_++] = e;
    else ++droppedEvents_;
}

void Controller::advanceMotion(MotionState& m, double t0, double dt, float weight, int16_t layer) {
    if (m.source.kind == MotionSource::Kind::None) return;
    if (t0 + dt <= m.startAt) return;  // not started yet
    const double local = t0 < m.startAt ? t0 + dt - m.startAt : dt;
    if (m.source.kind == MotionSource::Kind::BlendSpace) {
        // Phase sync: normalized time advances at rate / (sum of weight x clip length).
        const float len = spaces_[m.source.index].blendedLength;
        m.clock.setRate(len > 0.0f ? m.timing.rate / len : 0.0f);
    }
    const ClockAdvance a = m.clock.advance(local);
    triggerMotionMarkers(m, a, weight, layer);
}

void Controller::update(double dt) {
    eventCount_ = 0;
    droppedEvents_ = 0;
    if (!(dt > 0.0) || !std::isfinite(dt)) return;
    const double t0 = time_;
    time_ += dt;

    if (fading_) {
        fadeElapsed_ += static_cast<float>(dt);
        if (fadeElapsed_ >= fadeDuration_) {
            fading_ = false;
            snapshotActive_ = false;
            previous_.source = {};
            fadeWeight_ = 1.0f;
        } else {
            fadeWeight_ = applyEase(fadeEase_, fadeElapsed_ / fadeDuration_);
        }
    }
    advanceMotion(current_, t0, dt, fading_ ? fadeWeight_ : 1.0f, -1);
    if (fading_ && !snapshotActive_ && fadeMode_ == FadeMode::Smooth) {
        advanceMotion(previous_, t0, dt, 1.0f - fadeWeight_, -1);
    }
    for (size_t i = 0; i < layers_.size(); ++i) {
        Layer& l = layers_[i];
        if (l.fadeSeconds > 0.0f) {
            l.fadeElapsed += static_cast<float>(dt);
            const float a = std::min(1.0f, l.fadeElapsed / l.fadeSeconds);
            l.weight = l.fadeFrom + (l.fadeTo - l.fadeFrom) * a;
            if (a >= 1.0f) {
                l.weight = l.fadeTo;
                l.fadeSeconds = 0.0f;
            }
        }
        if (l.crossFading) {
            l.crossElapsed += static_cast<float>(dt);
            if (l.crossElapsed >= l.crossDuration) {
                l.crossFading = false;
                l.crossWeight = 1.0f;
            } else {
                l.crossWeight = applyEase(l.crossEase, l.crossElapsed / l.crossDuration);
                advanceMotion(l.previous, t0, dt, l.weight * (1.0f - l.crossWeight), static_cast<int16_t>(i));
            }
        }
        advanceMotion(l.motion, t0, dt, l.crossFading ? l.weight * l.crossWeight : l.weight, static_cast<int16_t>(i));
    }
}

void Controller::sampleClipInto(MotionState& m, int32_t clip, float t, Transform* out, bool keyedOnly) {
    // As samplePose(), with the bind pose copied only where the clip has no track.
    const Transform* bind = model_->skeleton.bindLocalSqt.data();
    if (keyedOnly && !compressedClips_ && plans_[clip].validFor(model_->clips[clip])) {
        sampleClipKeyed(plans_[clip], t, out, m.cursors.data() + cursorOffset_[clip], options_.rotationBlend);
        return;
    }
    for (uint32_t k = untrackedOffset_[clip], e = untrackedOffset_[clip + 1]; k < e; ++k) out[untracked_[k]] = bind[untracked_[k]];
    const size_t n = model_->skeleton.size();
    if (!compressedClips_ ||
        !m.compressed.sample(clip, t, {bind, n}, {out, n}, options_.rotationBlend)) {
        uint32_t* cursors = m.cursors.data() + cursorOffset_[clip];
        const Clip& c = model_->clips[clip];
        if (plans_[clip].validFor(c)) {
            sampleClip(plans_[clip], t, bind, out, cursors, options_.rotationBlend);
        } else {
            sampleClip(c, t, bind, out, cursors, options_.rotationBlend);
        }
    }
    if (rootMotion_ != RootMotion::InPlace) return;
    const int32_t r = rootNode_[clip];
    if (r < 0) return;
    // Remove the travel since the first frame, measured in model space, in the ground plane.
    glm::vec3& tr = out[r].translation;
    const glm::vec3 travel = rootParent_[clip] * (tr - rootStart_[clip]);
    const glm::vec3 horizontal = travel - up_ * glm::dot(travel, up_);
    tr -= rootParentInv_[clip] * horizontal;
}

template <class Sample, class Mix, class Rest>
void Controller::evalSource(const MotionState& m, Sample&& sample, Mix&& mix, Rest&& rest) const {
    switch (m.source.kind) {
        case MotionSource::Kind::None:
            rest();
            return;
        case MotionSource::Kind::Clip: {
            const int32_t c = m.source.index;
            const double t = static_cast<double>(model_->clips[c].startTime) + m.clock.time();
            sample(c, static_cast<float>(t), false);
            return;
        }
        case MotionSource::Kind::BlendSpace: {
            const SpaceState& s = spaces_[m.source.index];
            const double phase = m.clock.phase();
            float total = 0.0f;
            for (size_t i = 0; i < s.clips.size(); ++i) {
                const float w = s.weights[i];
                if (!(w > 0.0f)) continue;
                const int32_t c = s.clips[i];
                const float t = static_cast<float>(model_->clips[c].startTime + phase * clipLength(c));
                if (total == 0.0f) {
                    sample(c, t, false);
                    total = w;
                } else {
                    // Running blend: after k clips the result holds each with weight w_i / total.
                    sample(c, t, true);
                    total += w;
                    mix(w / total);
                }
            }
            if (total == 0.0f) rest();
            return;
        }
    }
}

void Controller::evalMotion(MotionState& m, Transform* out, Transform* scratch, int32_t keyedClip) {
    const Skeleton& sk = model_->skeleton;
    const size_t n = sk.size();
    evalSource(
        m,
        [&](int32_t c, float t, bool toScratch) {
            sampleClipInto(m, c, t, toScratch ? scratch : out, !toScratch && c == keyedClip);
        },
        [&](float f) {
            blendPoses(std::span<const Transform>(out, n), std::span<const Transform>(scratch, n), f,
                       std::span<Transform>(out, n));
        },
        [&] { std::copy(sk.bindLocalSqt.begin(), sk.bindLocalSqt.begin() + static_cast<std::ptrdiff_t>(n), out); });
}

void Controller::evalDifference(MotionState& m, Transform* out, Transform* scratch) {
    const size_t n = model_->skeleton.size();
    const int32_t src = m.source.index, ref = m.referenceClip;
    const double ts = static_cast<double>(model_->clips[src].startTime) + m.clock.time();
    const double tr = static_cast<double>(model_->clips[ref].startTime) + m.clock.phase() * clipLength(ref);
    sampleClipInto(m, src, static_cast<float>(ts), out);
    sampleClipInto(m, ref, static_cast<float>(tr), scratch);
    makeDifference(std::span<const Transform>(out, n), std::span<const Transform>(scratch, n), std::span<Transform>(out, n));
}

void Controller::evalMotionMorphs(const MotionState& m, float* out, float* scratch) {
    const size_t n = morphPose_.size();
    uint32_t* cursors = morphCursors_.data();
    evalSource(
        m, [&](int32_t c, float t, bool toScratch) { sampleMorphWeights(*model_, c, t, cursors, toScratch ? scratch : out); },
        [&](float f) {
            for (size_t k = 0; k < n; ++k) out[k] += (scratch[k] - out[k]) * f;
        },
        [&] { sampleMorphWeights(*model_, -1, 0.0f, cursors, out); });
}

void Controller::computeMorphs() {
    if (morphPose_.empty()) return;
    evalMotionMorphs(current_, morphPose_.data(), morphA_.data());
    if (!fading_) return;
    const float* from = morphSnapshot_.data();
    if (!snapshotActive_) {
        evalMotionMorphs(previous_, morphB_.data(), morphA_.data());
        from = morphB_.data();
    }
    for (size_t i = 0; i < morphPose_.size(); ++i) morphPose_[i] = from[i] + (morphPose_[i] - from[i]) * fadeWeight_;
}

void Controller::computePose() {
    Transform* a = bufA_.data();
    Transform* b = bufB_.data();
    const int32_t held = poseHolds_;
    poseHolds_ = -1;
    if (fading_) {
        if (!snapshotActive_) evalMotion(previous_, a, b);
        evalMotion(current_, pose_.data(), b);
        blendPoses(snapshotActive_ ? snapshot_ : bufA_, pose_, fadeWeight_, pose_);
    } else {
        // One clip alone by its plan: what never changes in it stays in pose_ from tick to tick.
        const int32_t c = plainClip();
        const bool byPlan = c >= 0 && !compressedClips_ && plans_[c].validFor(model_->clips[c]);
        evalMotion(current_, pose_.data(), b, byPlan && held == c ? c : -1);
        if (byPlan) poseHolds_ = c;
    }
    for (Layer& l : layers_) {
        if (l.motion.source.kind == MotionSource::Kind::None || !(l.weight > 0.0f)) continue;
        if (l.blend == LayerBlend::Override) {
            evalMotion(l.motion, a, b);
            if (l.crossFading) {
                // Inside the layer: outgoing -> incoming by the fade's eased weight.
                evalMotion(l.previous, bufC_.data(), b);
                blendPoses(bufC_, bufA_, l.crossWeight, bufA_);
            }
            blendPosesMasked(pose_, bufA_, l.mask, pose_, l.weight);
            continue;
        }
        // Additive: difference of source and reference at the same phase.
        if (l.motion.source.kind != MotionSource::Kind::Clip || l.motion.referenceClip < 0) continue;
        evalDifference(l.motion, a, b);
        if (l.crossFading && l.previous.source.kind == MotionSource::Kind::Clip && l.previous.referenceClip >= 0) {
            // Inside the layer: outgoing difference -> incoming one by the fade's eased weight.
            evalDifference(l.previous, bufC_.data(), b);
            blendPoses(bufC_, bufA_, l.crossWeight, bufA_);
        }
        applyAdditiveMasked(pose_, bufA_, l.mask, pose_, l.weight);
    }
}

int32_t Controller::plainClip() const {
    if (fading_ || current_.source.kind != MotionSource::Kind::Clip || rootMotion_ == RootMotion::InPlace) return -1;
    for (const Layer& l : layers_) {
        if (l.motion.source.kind != MotionSource::Kind::None && l.weight > 0.0f) return -1;
    }
    return current_.source.index;
}

bool Controller::evaluate(Animator& animator) {
    if (&animator.model() != model_) return false;
    computePose();
    const int32_t steady = plainClip();
    const CompressedClipSet* from = steady >= 0 && compressedClips_ && compressedClips_->clip(steady) ? compressedClips_ : nullptr;
    animator.evaluatePose(pose_, &animated_, steady, from);
    computeMorphs();
    if (morphPose_.size() == animator.morphWeights().size()) animator.setMorphWeights(morphPose_.data());
    return true;
}

size_t Controller::events(std::span<AnimEvent> out) const {
    const size_t n = std::min(out.size(), eventCount_);
    std::copy(events_.begin(), events_.begin() + static_cast<std::ptrdiff_t>(n), out.begin());
    return n;
}

// ---------------------------------------------------------------------------------------
// Controller: state

float Controller::clipTime(int32_t clip) const {
    if (clip < 0 || static_cast<size_t>(clip) >= model_->clips.size()) return -1.0f;
    const float start = model_->clips[clip].startTime;
    if (current_.source.kind == MotionSource::Kind::Clip && current_.source.index == clip) {
        return static_cast<float>(start + current_.clock.time());
    }
    if (current_.source.kind == MotionSource::Kind::BlendSpace) {
        for (int32_t c : spaces_[current_.source.index].clips) {
            if (c == clip) return static_cast<float>(start + current_.clock.phase() * clipLength(clip));
        }
    }
    return -1.0f;
}

const std::vector<Marker>& Controller::markers(int32_t clip) const {
    static const std::vector<Marker> kNone;
    if (clip < 0 || static_cast<size_t>(clip) >= markers_.size()) return kNone;
    return markers_[clip];
}

const std::vector<float>& Controller::blendWeights(int32_t space) const {
    static const std::vector<float> kNone;
    if (space < 0 || static_cast<size_t>(space) >= spaces_.size()) return kNone;
    return spaces_[space].weights;
}

float Controller::layerWeight(int32_t layer) const {
    if (layer < 0 || static_cast<size_t>(layer) >= layers_.size()) return 0.0f;
    return layers_[layer].weight;
}

const LayerClock* Controller::layerClock(int32_t layer) const {
    if (layer < 0 || static_cast<size_t>(layer) >= layers_.size()) return nullptr;
    return &layers_[layer].motion.clock;
}

int32_t Controller::rootNode(int32_t clip) const {
    if (clip < 0 || static_cast<size_t>(clip) >= rootNode_.size()) return -1;
    return rootNode_[clip];
}

// ---------------------------------------------------------------------------------------
// Root motion helpers

int32_t rootMotionNode(const Clip& clip) {
    int32_t best = -1;
    for (const Track& tr : clip.tracks) {
        if (tr.translation.count && tr.node >= 0 && (best < 0 || tr.node < best)) best = tr.node;
    }
    return best;
}

std::vector<glm::vec3> rootMotionPath(const Model& model, int32_t clipIndex, uint32_t samples) {
    std::vector<glm::vec3> path;
    if (clipIndex < 0 || static_cast<size_t>(clipIndex) >= model.clips.size()) return path;
    const Clip& clip = model.clips[clipIndex];
    const Skeleton& sk = model.skeleton;
    const int32_t r = rootMotionNode(clip);
    if (r < 0 || static_cast<size_t>(r) >= sk.size()) return path;
    samples = std::max(samples, 2u);
    std::vector<uint8_t> animated(sk.size(), 0);
    for (const Track& tr : clip.tracks) {
        if (tr.node >= 0 && static_cast<size_t>(tr.node) < sk.size()) animated[tr.node] = 1;
    }
    Pose local(sk.size());
    std::vector<uint32_t> cursors(3 * clip.tracks.size(), 0u);
    std::vector<glm::mat4> world(static_cast<size_t>(r) + 1);
    const double start = clip.startTime;
    const double length = std::max(0.0, static_cast<double>(clip.duration) - start);
    path.reserve(samples);
    for (uint32_t k = 0; k < samples; ++k) {
        const float t = static_cast<float>(start + length * k / (samples - 1));
        samplePose(clip, t, sk, cursors.data(), local);
        // Parents come first: nodes 0..r hold every ancestor of r.
        LocalToModelJob job;
        job.parent = sk.parent;
        job.local = local;
        job.bindLocal = sk.bindLocal;
        job.useLocal = animated;
        job.count = static_cast<size_t>(r) + 1;
        job.model = world;
        if (!job.run()) return {};
        path.push_back(glm::vec3(world[r][3]));
    }
    return path;
}

}  // namespace rig
