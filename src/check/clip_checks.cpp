// Animation: the model's clip list (missing nodes, duplicate channels, empty and zero-length
// clips) and, per clip, its curves (key order and times, rotations, scale keys), sudden
// rotation jumps, static clips, redundant keys and loop seams.
#include <algorithm>
#include <cctype>
#include <cmath>

#include "anim/offline/compress.h"
#include "anim/runtime/pose.h"
#include "check/check_context.h"
#include "check/posed_shape.h"

namespace rig {

bool clipMeantToLoop(const std::string& name, const CheckSettings& settings) {
    std::string lower = name;
    for (char& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    for (const std::string& hint : settings.loopNameHints) {
        std::string h = hint;
        for (char& ch : h) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        if (!h.empty() && lower.find(h) != std::string::npos) return true;
    }
    return false;
}

namespace checks {

namespace {

void checkClipList(Context& cx) {
    const Model& model = cx.model;
    const ImportStats& s = model.stats;
    if (s.skippedChannels) {
        add(cx, makeFinding(CheckCode::ChannelMissingNode,
                            std::to_string(s.skippedChannels) + " animation channels name a node that does not exist; skipped",
                            s.skippedChannels, "channels", {}, s.skippedChannelNames));
    }
    if (s.duplicateChannels) {
        add(cx, makeFinding(CheckCode::DuplicateChannel,
                            std::to_string(s.duplicateChannels) +
                                " channels animate a node that another channel of the same clip already animates; the first is used",
                            s.duplicateChannels, "channels", {}, {}));
    }
    uint32_t unsortedInClips = 0;
    for (const Clip& c : model.clips) unsortedInClips += c.curveStats.unsortedChannels;
    if (s.unsortedKeyChannels && !unsortedInClips) {
        add(cx, makeFinding(CheckCode::KeysOutOfOrder,
                            std::to_string(s.unsortedKeyChannels) + " channels have keys out of time order; sorted",
                            s.unsortedKeyChannels, "channels", {}, {}));
    }
    std::vector<int64_t> empty, zero, noTps;
    std::vector<std::string> emptyNames, zeroNames, noTpsNames;
    for (size_t i = 0; i < model.clips.size(); ++i) {
        const Clip& c = model.clips[i];
        if (c.tracks.empty() && c.morphTracks.empty()) {  // morph weights alone are an animation
            empty.push_back(static_cast<int64_t>(i));
            emptyNames.push_back(c.name);
        } else if (!(c.duration > c.startTime)) {
            zero.push_back(static_cast<int64_t>(i));
            zeroNames.push_back(c.name);
        }
        if (!c.ticksPerSecondFromFile) {
            noTps.push_back(static_cast<int64_t>(i));
            noTpsNames.push_back(c.name);
        }
    }
    auto clipFinding = [&](CheckCode code, const std::string& msg, const std::vector<int64_t>& idx,
                           const std::vector<std::string>& names) {
        Finding f = makeFinding(code, msg, idx.size(), "clips", idx, names);
        f.clip = idx.empty() ? -1 : static_cast<int32_t>(idx.front());
        add(cx, std::move(f));
    };
    if (!empty.empty()) {
        clipFinding(CheckCode::ClipWithoutChannels,
                    std::to_string(empty.size()) + " clips animate no node of the model (e.g. '" + emptyNames.front() + "')",
                    empty, emptyNames);
    }
    if (!zero.empty()) {
        clipFinding(CheckCode::ClipZeroLength,
                    std::to_string(zero.size()) + " clips have zero duration, all keys at one time (e.g. '" +
                        zeroNames.front() + "')",
                    zero, zeroNames);
    }
    if (!noTps.empty()) {
        clipFinding(CheckCode::ClipNoTicksPerSecond,
                    std::to_string(noTps.size()) + " clips give no ticks per second; 25 ticks per second assumed",
                    noTps, noTpsNames);
    }
}

// One rotation channel of a clip: its track's node.
struct RotChannel {
    int32_t node;
    const Channel* ch;
};

void checkCurves(Context& cx, const Clip& c, size_t ci) {
    const Model& model = cx.model;
    const std::string label = clipLabel(c, ci);
    const int32_t clipIndex = static_cast<int32_t>(ci);
    const CurveStats& cs = c.curveStats;

    if (cs.unsortedChannels) {
        Finding f = makeFinding(CheckCode::KeysOutOfOrder,
                                label + ": " + std::to_string(cs.unsortedChannels) + " channels have keys out of time order; sorted on import",
                                cs.unsortedChannels, label + " channels (examples: channels with any curve problem)", {}, cs.examples);
        f.clip = clipIndex;
        add(cx, std::move(f));
    }

    // Duplicate key times, non-unit and sign-flipped rotation keys, scale keys: from the keys.
    uint64_t dupKeys = 0, nonUnit = 0, flips = 0;
    Examples dupEx{cx.s.maxExamples}, nonUnitEx{cx.s.maxExamples}, flipEx{cx.s.maxExamples};
    uint64_t flipChannels = 0;
    Examples degEx{cx.s.maxExamples}, nonUniEx{cx.s.maxExamples}, negEx{cx.s.maxExamples};
    uint64_t nDeg = 0, nNonUni = 0, nNeg = 0;
    float worstRatio = 1.0f;
    int32_t worstRatioNode = -1;
    const char* paths[3] = {"translation", "rotation", "scale"};
    for (const Track& tr : c.tracks) {
        const std::string& nn = nodeName(model, tr.node);
        const Channel* chs[3] = {&tr.translation, &tr.rotation, &tr.scale};
        for (int p = 0; p < 3; ++p) {
            const Channel& ch = *chs[p];
            if (ch.times + ch.count > c.times.size()) continue;
            uint32_t d = 0;
            for (uint32_t k = 1; k < ch.count; ++k) d += c.times[ch.times + k] == c.times[ch.times + k - 1];
            if (d) {
                dupKeys += d;
                dupEx.add(tr.node);
                dupEx.addName(nn + "." + paths[p]);
            }
        }
        const Channel& R = tr.rotation;
        if (R.values + R.count <= c.quatKeys.size()) {
            uint32_t f = 0, nu = 0;
            for (uint32_t k = 0; k < R.count; ++k) {
                const glm::quat& q = c.quatKeys[R.values + k];
                if (isNonUnitRotation(q.x, q.y, q.z, q.w)) ++nu;
                if (k && glm::dot(c.quatKeys[R.values + k - 1], q) < 0.0f) ++f;
            }
            if (nu) {
                nonUnit += nu;
                nonUnitEx.add(tr.node);
                nonUnitEx.addName(nn + ".rotation");
            }
            if (f) {
                flips += f;
                ++flipChannels;
                flipEx.add(tr.node);
                flipEx.addName(nn + ".rotation");
            }
        }
        const Channel& S = tr.scale;
        if (S.values + S.count <= c.vec3Keys.size()) {
            bool deg = false, negative = false, nonUni = false;
            for (uint32_t k = 0; k < S.count; ++k) {
                const glm::vec3& v = c.vec3Keys[S.values + k];
                const glm::vec3 a = glm::abs(v);
                const float lo = std::min({a.x, a.y, a.z}), hi = std::max({a.x, a.y, a.z});
                if (!(lo > cx.s.degenerateScale)) {
                    deg = true;
                    continue;
                }
                if (v.x * v.y * v.z < 0.0f) negative = true;
                const float ratio = hi / lo;
                if (ratio - 1.0f > cx.s.scaleTolerance) {
                    nonUni = true;
                    if (ratio > worstRatio) {
                        worstRatio = ratio;
                        worstRatioNode = tr.node;
                    }
                }
            }
            if (deg) {
                ++nDeg;
                degEx.add(tr.node);
                degEx.addName(nn);
            }
            if (negative) {
                ++nNeg;
                negEx.add(tr.node);
                negEx.addName(nn);
            }
            if (nonUni) {
                ++nNonUni;
                nonUniEx.add(tr.node);
                nonUniEx.addName(nn);
            }
        }
    }
    auto clipFinding = [&](CheckCode code, const std::string& msg, uint64_t count, const std::string& subject,
                           const Examples& ex, double value = 0.0, int32_t joint = -2) {
        Finding f = makeFinding(code, label + ": " + msg, count, subject, ex.indices, ex.names);
        f.clip = clipIndex;
        f.joint = joint != -2 ? joint : ex.indices.empty() ? -1 : static_cast<int32_t>(ex.indices.front());
        f.value = value;
        add(cx, std::move(f));
    };
    if (dupKeys) {
        clipFinding(CheckCode::DuplicateKeyTimes,
                    std::to_string(dupKeys) + " neighbouring keys share their time (e.g. '" + dupEx.names.front() +
                        "'); the curve jumps there",
                    dupKeys, label + " keys (examples: skeleton nodes)", dupEx);
    }
    const uint64_t nonUnitCount = std::max<uint64_t>(nonUnit, cs.nonUnitRotationKeys);
    if (nonUnitCount) {
        Examples ex = nonUnitEx;
        for (const std::string& n : cs.examples) {
            if (n.size() > 9 && n.compare(n.size() - 9, 9, ".rotation") == 0) ex.addName(n);
        }
        clipFinding(CheckCode::NonUnitRotationKeys,
                    std::to_string(nonUnitCount) + " rotation keys are not unit quaternions" +
                        (ex.names.empty() ? std::string() : " (e.g. '" + ex.names.front() + "')") +
                        "; normalized on import, other tools may scale the mesh",
                    nonUnitCount, label + " keys (examples: skeleton nodes)", ex);
    }
    if (flips) {
        clipFinding(CheckCode::QuaternionSignFlip,
                    std::to_string(flips) + " neighbouring rotation keys in " + std::to_string(flipChannels) +
                        " channels have a negative dot product (e.g. '" + flipEx.names.front() +
                        "'); rigview takes the short way, a naive lerp would spin the long way round",
                    flips, label + " key pairs (examples: skeleton nodes)", flipEx);
    }
    if (nDeg) {
        clipFinding(CheckCode::DegenerateScaleKeys,
                    std::to_string(nDeg) + " joints have scale keys with a zero or near-zero axis (e.g. '" +
                        degEx.names.front() + "'); what hangs below collapses",
                    nDeg, label + " joints (skeleton nodes)", degEx);
    }
    if (nNonUni) {
        clipFinding(CheckCode::NonUniformScale,
                    std::to_string(nNonUni) + " joints have non-uniform scale keys (worst '" +
                        nodeName(model, worstRatioNode) + "', axes " + fmt(worstRatio) + " : 1)",
                    nNonUni, label + " joints (skeleton nodes)", nonUniEx, worstRatio, worstRatioNode);
    }
    if (nNeg) {
        clipFinding(CheckCode::NegativeScale,
                    std::to_string(nNeg) + " joints have negative scale keys (e.g. '" + negEx.names.front() +
                        "'); the mesh turns inside out below them",
                    nNeg, label + " joints (skeleton nodes)", negEx);
    }
}

// Local rotation of every rotation channel, sampled at the clip's sample rate: a joint turning
// more than the threshold between consecutive samples. Not a jump: two samples on either side of
// a gap in the keys between two of the clip's ranges (keyGaps: a game plays them apart), nor a
// turn the mesh does not show (the posed vertices before and after form the same shape: a
// symmetric part turned onto itself).
void checkJumps(Context& cx, Animator& anim, const Clip& c, size_t ci) {
    const Model& model = cx.model;
    std::vector<RotChannel> rc;
    for (const Track& tr : c.tracks) {
        const Channel& R = tr.rotation;
        if (R.count >= 2 && R.times + R.count <= c.times.size() && R.values + R.count <= c.quatKeys.size()) {
            rc.push_back({tr.node, &R});
        }
    }
    const float t0 = std::min(c.startTime, c.duration), t1 = c.duration;
    if (rc.empty() || !(t1 > t0)) return;
    const float rate = c.sampleRate > 0.0f && std::isfinite(c.sampleRate) ? c.sampleRate : 30.0f;
    const double dt = 1.0 / rate;
    const int64_t frames = static_cast<int64_t>(std::min(1e15, std::floor((t1 - t0) / dt + 1e-4))) + 1;
    // Sample times: t0 + k dt, then t1 if the grid stops short of it.
    const bool tail = t0 + static_cast<double>(frames - 1) * dt < t1 - 1e-6;
    const int64_t samples = frames + (tail ? 1 : 0);
    auto timeAt = [&](int64_t k) {
        return k >= frames ? t1 : static_cast<float>(t0 + static_cast<double>(k) * dt);
    };
    const float threshold = cx.s.rotationJumpDegrees;
    struct Worst {
        float deg = 0.0f;
        float time = 0.0f;
        float before = 0.0f;
    };
    std::vector<Worst> worst(rc.size());
    const std::vector<std::pair<float, float>> gaps = keyGaps(c);
    const double work = static_cast<double>(samples) * static_cast<double>(rc.size());
    for (size_t i = 0; i < rc.size(); ++i) {
        const Channel& ch = *rc[i].ch;
        uint32_t cursor = 0;
        float ta = timeAt(0);
        auto consider = [&](const glm::quat& a, const glm::quat& b, float tb) {
            const float from = ta;
            ta = tb;
            for (const auto& [g0, g1] : gaps)
                if (from < g1 && tb > g0) return;
            const float d = angleDegrees(a, b);
            if (d > worst[i].deg) worst[i] = {d, tb, from};
        };
        if (work <= static_cast<double>(cx.s.maxRotationSamplesPerClip)) {
            glm::quat prev = sampleQuat(c, ch, timeAt(0), cursor, RotationBlend::Slerp);
            for (int64_t k = 1; k < samples; ++k) {
                const float t = timeAt(k);
                const glm::quat q = sampleQuat(c, ch, t, cursor, RotationBlend::Slerp);
                consider(prev, q, t);
                prev = q;
            }
        } else if (samples >= 2) {
            // Too long to walk every frame: pairs of consecutive frames spread over the clip.
            const int64_t pairs = std::max<int64_t>(2, cx.s.maxRotationSamplesPerClip / (2 * static_cast<int64_t>(rc.size())));
            for (int64_t p = 0; p < pairs; ++p) {
                const int64_t k = static_cast<int64_t>(static_cast<double>(samples - 2) * static_cast<double>(p) /
                                                       static_cast<double>(pairs - 1));
                const glm::quat a = sampleQuat(c, ch, timeAt(k), cursor, RotationBlend::Slerp);
                const glm::quat b = sampleQuat(c, ch, timeAt(k + 1), cursor, RotationBlend::Slerp);
                ta = timeAt(k);
                consider(a, b, timeAt(k + 1));
            }
        }
    }
    // A turn the mesh does not show: the posed shapes before and after are the same.
    const bool posable = !model.meshes.empty() && c.trackOfNode.size() >= model.skeleton.size();
    const float shapeTol = cx.s.loopPositionTolerance * cx.rigSize;
    std::vector<glm::vec3> before, after;
    int shapeChecks = 0;
    for (size_t i = 0; i < rc.size() && posable; ++i) {
        if (!(worst[i].deg > threshold) || ++shapeChecks > 16) continue;
        anim.evaluate(static_cast<int32_t>(ci), worst[i].before);
        posedVertices(model, anim, 1, before);
        anim.evaluate(static_cast<int32_t>(ci), worst[i].time);
        posedVertices(model, anim, 1, after);
        if (sameShape(before, after, shapeTol, glm::vec3(0.0f))) worst[i].deg = 0.0f;
    }
    Examples ex{cx.s.maxExamples};
    uint64_t count = 0;
    size_t w = 0;
    for (size_t i = 0; i < rc.size(); ++i) {
        if (!(worst[i].deg > threshold)) continue;
        ++count;
        ex.add(rc[i].node);
        ex.addName(nodeName(model, rc[i].node));
        if (worst[i].deg > worst[w].deg || !(worst[w].deg > threshold)) w = i;
    }
    if (!count) return;
    const std::string label = clipLabel(c, ci);
    Finding f = makeFinding(CheckCode::SuddenRotationJump,
                            label + ": " + std::to_string(count) + " joints turn more than " + fmt(threshold) +
                                " degrees between two frames at " + fmt(rate) + " fps (worst '" + nodeName(model, rc[w].node) + "': " +
                                fmt(worst[w].deg) + " degrees just before " + fmt(worst[w].time) + " s)",
                            count, label + " joints (skeleton nodes)", ex.indices, ex.names);
    f.clip = static_cast<int32_t>(ci);
    f.joint = rc[w].node;
    f.value = worst[w].deg;
    add(cx, std::move(f));
}

// Nothing moves over the whole clip: every channel's keys stay at its first key. Where that one
// pose is the bind pose (every joint where the skin was bound: a rest or T-pose clip, made on
// purpose), an info.
void checkStatic(Context& cx, Animator& anim, const std::vector<int32_t>& joints, const Clip& c, size_t ci) {
    if (c.tracks.empty() || !(c.duration > std::min(c.startTime, c.duration))) return;
    const float posTol = cx.s.staticPositionTolerance * cx.rigSize;
    for (const Track& tr : c.tracks) {
        const Channel& T = tr.translation;
        for (uint32_t k = 1; k < T.count && T.values + T.count <= c.vec3Keys.size(); ++k) {
            if (glm::length(c.vec3Keys[T.values + k] - c.vec3Keys[T.values]) > posTol) return;
        }
        const Channel& R = tr.rotation;
        for (uint32_t k = 1; k < R.count && R.values + R.count <= c.quatKeys.size(); ++k) {
            if (angleDegrees(c.quatKeys[R.values], c.quatKeys[R.values + k]) > cx.s.staticRotationDegrees) return;
        }
        const Channel& S = tr.scale;
        for (uint32_t k = 1; k < S.count && S.values + S.count <= c.vec3Keys.size(); ++k) {
            const glm::vec3 d = glm::abs(c.vec3Keys[S.values + k] - c.vec3Keys[S.values]);
            if (std::max({d.x, d.y, d.z}) > 1e-4f) return;
        }
    }
    bool bindPose = false;
    if (c.trackOfNode.size() >= cx.model.skeleton.size() && !joints.empty() && !cx.model.meshes.empty()) {
        anim.evaluate(kBindPose, 0.0f);
        const std::vector<glm::mat4> bind = anim.world();
        anim.evaluate(static_cast<int32_t>(ci), std::min(c.startTime, c.duration));
        bindPose = true;
        for (int32_t j : joints) {
            const glm::mat4& a = bind[static_cast<size_t>(j)];
            const glm::mat4& b = anim.world()[static_cast<size_t>(j)];
            const float turn = angleDegrees(glm::quat_cast(glm::mat3(a)), glm::quat_cast(glm::mat3(b)));
            if (glm::length(glm::vec3(a[3]) - glm::vec3(b[3])) > posTol || turn > cx.s.staticRotationDegrees) {
                bindPose = false;
                break;
            }
        }
    }
    const std::string label = clipLabel(c, ci);
    Finding f = makeFinding(bindPose ? CheckCode::ClipStaticBindPose : CheckCode::ClipStatic,
                            label + ": nothing moves over the whole clip (" + std::to_string(c.tracks.size()) +
                                " animated nodes hold one pose from " + fmt(c.startTime) + " s to " + fmt(c.duration) + " s)" +
                                (bindPose ? "; that pose is the bind pose (a rest or T-pose clip)" : ""),
                            c.tracks.size(), label, {}, {c.name});
    f.clip = static_cast<int32_t>(ci);
    add(cx, std::move(f));
}

// Keys that interpolating their neighbours restores within redundantKeyTolerance, measured
// in model space at the points each joint carries (anim/offline/compress's key reduction,
// without quantization).
void checkRedundantKeys(Context& cx, const Clip& c, size_t ci) {
    const RedundancyStats st = findRedundantKeys(cx.model, c, cx.s.redundantKeyTolerance);
    if (st.keys == 0 || st.redundant < cx.s.redundantKeyMinimum ||
        static_cast<double>(st.redundant) < cx.s.redundantKeyFraction * static_cast<double>(st.keys)) {
        return;
    }
    const std::string label = clipLabel(c, ci);
    std::string msg = label + ": " + std::to_string(st.redundant) + " of " + std::to_string(st.keys) + " keys (" +
                      fmt(100.0 * double(st.redundant) / double(st.keys)) + "%) are redundant: their neighbours restore them within " +
                      fmt(cx.s.redundantKeyTolerance * 1e3) + " mm at every joint and vertex";
    if (st.constantChannels) msg += "; " + std::to_string(st.constantChannels) + " channels hold one value on every key";
    msg += " (most in '" + st.exampleChannel + "'); `rigview compress` drops them";
    Finding f = makeFinding(CheckCode::RedundantKeys, msg, st.redundant, label + " keys", {}, {c.name});
    f.clip = static_cast<int32_t>(ci);
    f.value = double(st.redundant) / double(st.keys);
    add(cx, std::move(f));
}

bool isAncestorOrSelf(const Skeleton& sk, int32_t a, int32_t n) {
    while (n >= 0) {
        if (n == a) return true;
        n = n < static_cast<int32_t>(sk.parent.size()) ? sk.parent[n] : -1;
    }
    return false;
}

// First and last pose of a clip. Looping playback goes from the last pose straight to the
// first, so a seam is a jump there that is both over the tolerance and clearly bigger than
// an ordinary frame step at the clip's ends (exporters that leave out the closing frame,
// which repeats the first, make the wrap an ordinary one-frame step: no seam).
void checkLoopSeam(Context& cx, Animator& anim, const std::vector<int32_t>& joints, const Clip& c, size_t ci) {
    const Model& model = cx.model;
    const Skeleton& sk = model.skeleton;
    const float t0 = std::min(c.startTime, c.duration), t1 = c.duration;
    if (c.tracks.empty() || !(t1 > t0)) return;
    // A clip whose keys leave gaps between ranges is played a range at a time: its end never
    // leads into its start.
    if (!keyGaps(c).empty()) return;
    // Root motion: the top-most node with a translation channel that moves, if every other
    // animated node hangs below it.
    const float posTol = cx.s.loopPositionTolerance * cx.rigSize;
    int32_t rootMotion = -1;
    for (const Track& tr : c.tracks) {
        const Channel& T = tr.translation;
        bool moves = false;
        for (uint32_t k = 1; k < T.count && T.values + T.count <= c.vec3Keys.size() && !moves; ++k) {
            moves = glm::length(c.vec3Keys[T.values + k] - c.vec3Keys[T.values]) > posTol;
        }
        if (moves) {
            rootMotion = tr.node;
            break;  // tracks are in node order: the first is the top-most
        }
    }
    if (rootMotion >= 0) {
        // Every node that moves hangs below it (a track holding one value on every key is still).
        auto trackMoves = [&](const Track& tr) {
            const Channel& T = tr.translation;
            for (uint32_t k = 1; k < T.count && T.values + T.count <= c.vec3Keys.size(); ++k)
                if (glm::length(c.vec3Keys[T.values + k] - c.vec3Keys[T.values]) > posTol) return true;
            const Channel& R = tr.rotation;
            for (uint32_t k = 1; k < R.count && R.values + R.count <= c.quatKeys.size(); ++k)
                if (angleDegrees(c.quatKeys[R.values + k], c.quatKeys[R.values]) > cx.s.staticRotationDegrees) return true;
            const Channel& S = tr.scale;
            for (uint32_t k = 1; k < S.count && S.values + S.count <= c.vec3Keys.size(); ++k)
                if (glm::length(c.vec3Keys[S.values + k] - c.vec3Keys[S.values]) > 1e-4f) return true;
            return false;
        };
        for (const Track& tr : c.tracks) {
            if (!isAncestorOrSelf(sk, rootMotion, tr.node) && trackMoves(tr)) {
                rootMotion = -1;
                break;
            }
        }
    }
    // Nodes compared: the joints and every animated node (positions); animated nodes with a
    // rotation channel (local rotations).
    std::vector<int32_t> nodes = joints;
    for (const Track& tr : c.tracks) nodes.push_back(tr.node);
    std::sort(nodes.begin(), nodes.end());
    nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
    std::vector<int32_t> rotNodes;
    for (const Track& tr : c.tracks)
        if (tr.rotation.count >= 2) rotNodes.push_back(tr.node);

    struct Pose {
        std::vector<glm::vec3> pos;
        std::vector<glm::quat> rot;
    };
    const int32_t clip = static_cast<int32_t>(ci);
    auto poseAt = [&](float t) {
        anim.evaluate(clip, t);
        Pose p;
        const glm::vec3 root = rootMotion >= 0 ? glm::vec3(anim.world()[rootMotion][3]) : glm::vec3(0.0f);
        p.pos.reserve(nodes.size());
        for (int32_t n : nodes) p.pos.push_back(glm::vec3(anim.world()[n][3]) - root);
        p.rot.reserve(rotNodes.size());
        for (int32_t n : rotNodes) p.rot.push_back(anim.local()[n].rotation);
        return p;
    };
    const float rate = c.sampleRate > 0.0f && std::isfinite(c.sampleRate) ? c.sampleRate : 30.0f;
    const float dt = std::min(1.0f / rate, 0.5f * (t1 - t0));
    const Pose first = poseAt(t0), afterFirst = poseAt(t0 + dt), beforeLast = poseAt(t1 - dt), last = poseAt(t1);

    const float rotTol = cx.s.loopRotationDegrees;
    const float factor = cx.s.loopSeamStepFactor;
    float worstPos = 0.0f, worstRot = 0.0f, stepPos = 0.0f, stepRot = 0.0f;
    int32_t worstPosNode = -1, worstRotNode = -1;
    for (size_t i = 0; i < nodes.size(); ++i) {
        const float seam = glm::length(last.pos[i] - first.pos[i]);
        const float step = std::max(glm::length(afterFirst.pos[i] - first.pos[i]), glm::length(last.pos[i] - beforeLast.pos[i]));
        if (seam > posTol && seam > factor * step && seam > worstPos) {
            worstPos = seam;
            stepPos = step;
            worstPosNode = nodes[i];
        }
    }
    for (size_t i = 0; i < rotNodes.size(); ++i) {
        const float seam = angleDegrees(first.rot[i], last.rot[i]);
        const float step = std::max(angleDegrees(first.rot[i], afterFirst.rot[i]), angleDegrees(beforeLast.rot[i], last.rot[i]));
        if (seam > rotTol && seam > factor * step && seam > worstRot) {
            worstRot = seam;
            stepRot = step;
            worstRotNode = rotNodes[i];
        }
    }
    if (worstPosNode < 0 && worstRotNode < 0) return;
    // A seam the mesh does not show (a symmetric part turned onto itself: a gun barrel's 60
    // degree turn per loop) is none: the first and last posed shapes, root motion taken out.
    if (!model.meshes.empty()) {
        std::vector<glm::vec3> shapeFirst, shapeLast;
        anim.evaluate(clip, t0);
        const glm::vec3 rootFirst = rootMotion >= 0 ? glm::vec3(anim.world()[rootMotion][3]) : glm::vec3(0.0f);
        posedVertices(model, anim, 1, shapeFirst);
        anim.evaluate(clip, t1);
        const glm::vec3 rootLast = rootMotion >= 0 ? glm::vec3(anim.world()[rootMotion][3]) : glm::vec3(0.0f);
        posedVertices(model, anim, 1, shapeLast);
        if (!shapeFirst.empty() && sameShape(shapeFirst, shapeLast, posTol, rootFirst - rootLast)) return;
    }
    const bool loops = clipMeantToLoop(c.name, cx.s);
    const std::string label = clipLabel(c, ci);
    std::string what;
    if (worstPosNode >= 0) {
        what = "'" + nodeName(model, worstPosNode) + "' is " + fmt(worstPos) + " units away (a frame moves it " +
               fmt(stepPos) + ")";
    }
    if (worstRotNode >= 0) {
        what += (what.empty() ? "" : "; ") + std::string("'") + nodeName(model, worstRotNode) + "' is turned " +
                fmt(worstRot) + " degrees (a frame turns it " + fmt(stepRot) + ")";
    }
    const int32_t joint = worstPosNode >= 0 ? worstPosNode : worstRotNode;
    Finding f = makeFinding(loops ? CheckCode::LoopSeam : CheckCode::LoopSeamUnnamed,
                            label + ": the last pose does not lead back into the first: " + what + "; " +
                                (loops ? "the clip is named as a loop and pops at the seam"
                                       : "it pops if played as a loop (its name does not say it loops)"),
                            1, label, {}, {nodeName(model, joint)});
    f.clip = clip;
    f.joint = joint;
    f.value = worstPos;
    add(cx, std::move(f));
}

}  // namespace

void checkClips(Context& cx) {
    checkClipList(cx);
    const Model& model = cx.model;
    if (model.clips.empty()) return;
    Animator anim(model);
    const std::vector<int32_t> joints = model.jointNodes();
    for (size_t ci = 0; ci < model.clips.size(); ++ci) {
        const Clip& c = model.clips[ci];
        checkCurves(cx, c, ci);
        checkJumps(cx, anim, c, ci);
        checkStatic(cx, anim, joints, c, ci);
        checkRedundantKeys(cx, c, ci);
        // Posing needs the node -> track map (models built by hand may lack it).
        if (c.trackOfNode.size() >= model.skeleton.size()) {
            checkLoopSeam(cx, anim, joints, c, ci);
            if (!model.meshes.empty()) checkExplodes(cx, anim, joints, c, ci);
        }
    }
}

}  // namespace checks
}  // namespace rig
