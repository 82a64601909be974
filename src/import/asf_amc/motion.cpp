// The AMC reader: Acclaim motion frames for a parsed ASF skeleton into one clip (conventions:
// asf_amc.h), and the imports that read ASF and AMC files together.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <new>
#include <unordered_map>
#include <unordered_set>

#include "import/asf_amc/asf_amc.h"
#include "import/asf_amc/common.h"

namespace rig {

namespace {

using namespace acclaim;


Result<Clip> parseAmcImpl(std::string_view text, const AsfSkeleton& asf, const std::string& path, float fps) {
    if (!(fps > 0.0f) || !std::isfinite(fps) || fps > 1e6f) {
        return Error{path + ": frames per second must be positive and at most 1e6"};
    }
    const size_t nb = asf.bones.size();
    const size_t nodes = asf.skeleton.size();
    if (nb == 0 || nodes < nb) return Error{path + ": the skeleton is empty"};
    std::vector<size_t> first(nb + 1, 0);  // each bone's values within a frame's record
    for (size_t b = 0; b < nb; ++b) first[b + 1] = first[b] + asf.bones[b].dofs.size();
    const size_t perFrame = first[nb];
    // Values kept per frame plus keys made per frame (at most a translation and a rotation per node).
    const uint64_t costPerFrame = perFrame + 2 * uint64_t(nodes) + 1;
    // Frames that list few bones carry the others over: bound that amplification by the size
    // of the text too, so that a small file cannot claim gigabytes.
    const uint64_t budget = std::min<uint64_t>(kMaxAmcValues, std::max<uint64_t>(kMinAmcBudget, kAmcValuesPerByte * text.size()));

    std::unordered_map<std::string_view, int32_t> index;
    index.reserve(nb);
    for (size_t b = 0; b < nb; ++b) index.emplace(asf.bones[b].name, static_cast<int32_t>(b));

    bool degrees = asf.degrees;
    std::vector<double> values;        // frames x perFrame
    std::vector<int64_t> frameNumbers;
    std::vector<int64_t> lastFrameOf(nb, -1);  // index of the frame a bone last appeared in
    std::vector<char> seen(nb, 0);

    Lines lines(text);
    std::string_view line;
    while (lines.next(line)) {
        const int ln = lines.number();
        Tokens tk(line);
        std::string_view tok;
        if (!tk.next(tok)) continue;
        if (tok.front() == ':') {
            const bool deg = equalsNoCase(tok, ":DEGREES"), rad = equalsNoCase(tok, ":RADIANS");
            if ((deg || rad) && !frameNumbers.empty()) {
                return errorAt(path, ln, "", quote(tok) + " must come before the first frame");
            }
            if (deg) degrees = true;
            if (rad) degrees = false;
            continue;  // :FULLY-SPECIFIED and other header keywords
        }
        auto frameLabel = [&] { return "frame " + std::to_string(frameNumbers.back()); };
        if (allDigits(tok)) {
            int64_t f = 0;
            const auto r = std::from_chars(tok.data(), tok.data() + tok.size(), f);
            if (r.ec != std::errc() || f > kMaxFrameNumber) return errorAt(path, ln, "", "frame number " + quote(tok) + " is out of range");
            std::string_view extra;
            if (tk.next(extra)) return errorAt(path, ln, "", "unexpected " + quote(extra) + " after frame number " + std::to_string(f));
            if (!frameNumbers.empty() && f <= frameNumbers.back()) {
                return errorAt(path, ln, "", "frame " + std::to_string(f) + " follows frame " +
                                                 std::to_string(frameNumbers.back()) + " (frame numbers must increase)");
            }
            if ((frameNumbers.size() + 1) * costPerFrame > budget) {
                return errorAt(path, ln, "", "too many frames for this skeleton and file size (limit " +
                                                 std::to_string(budget / costPerFrame) + ")");
            }
            frameNumbers.push_back(f);
            // A new frame starts from the previous one: bones it does not list keep their values.
            const size_t old = values.size();
            values.resize(old + perFrame, 0.0);
            if (old >= perFrame) std::copy(values.begin() + (old - perFrame), values.begin() + old, values.begin() + old);
            continue;
        }
        auto it = index.find(tok);
        if (frameNumbers.empty()) {
            return errorAt(path, ln, "", it == index.end() ? "expected a frame number, found " + quote(tok)
                                                           : "bone data before the first frame number");
        }
        if (it == index.end()) return errorAt(path, ln, frameLabel(), "unknown bone " + quote(tok));
        const int32_t b = it->second;
        const int64_t fi = static_cast<int64_t>(frameNumbers.size()) - 1;
        if (lastFrameOf[b] == fi) return errorAt(path, ln, frameLabel(), "bone " + quote(tok) + " appears twice");
        lastFrameOf[b] = fi;
        seen[b] = 1;
        const size_t want = asf.bones[b].dofs.size();
        double* rec = values.data() + size_t(fi) * perFrame + first[b];
        for (size_t i = 0; i < want; ++i) {
            std::string_view v;
            if (!tk.next(v)) {
                return errorAt(path, ln, frameLabel(), "bone " + quote(tok) + " needs " + std::to_string(want) +
                                                         " values, found " + std::to_string(i));
            }
            if (const char* e = parseNumber(v, rec[i])) {
                return errorAt(path, ln, frameLabel(), "bone " + quote(tok) + ": value " + quote(v) + " " + e);
            }
        }
        if (tk.count()) {
            return errorAt(path, ln, frameLabel(), "bone " + quote(tok) + " needs " + std::to_string(want) +
                                                     " values, found " + std::to_string(want + tk.count()));
        }
    }
    if (frameNumbers.empty()) return Error{path + ": no frames (is this an AMC file?)"};

    const size_t nf = frameNumbers.size();
    const double toRad = degrees ? kPi / 180.0 : 1.0;
    const double mult = asf.lengthMultiplier;

    Clip clip;
    clip.name = std::filesystem::path(path).stem().string();
    clip.sampleRate = fps;
    clip.ticksPerSecond = fps;
    clip.ticksPerSecondFromFile = false;
    clip.trackOfNode.assign(nodes, -1);
    std::vector<float> times(nf);
    for (size_t f = 0; f < nf; ++f) times[f] = static_cast<float>(double(frameNumbers[f] - frameNumbers[0]) / fps);
    const uint32_t timesIndex = clip.addTimes(times.data(), static_cast<uint32_t>(nf));
    clip.startTime = 0.0f;
    clip.duration = times.back();

    auto hasDof = [&](size_t b, bool (*pred)(AsfDof)) {
        return std::any_of(asf.bones[b].dofs.begin(), asf.bones[b].dofs.end(), pred);
    };
    auto isL = [](AsfDof d) { return d == AsfDof::L; };
    auto valueOf = [&](size_t f, size_t b, AsfDof d) {
        const std::vector<AsfDof>& dofs = asf.bones[b].dofs;
        for (size_t i = 0; i < dofs.size(); ++i)
            if (dofs[i] == d) return values[f * perFrame + first[b] + i];
        return 0.0;
    };
    auto localTranslation = [&](size_t f, size_t b) {  // tx ty tz of bone b at frame f, scaled
        return glm::dvec3(valueOf(f, b, AsfDof::TX), valueOf(f, b, AsfDof::TY), valueOf(f, b, AsfDof::TZ)) * mult;
    };
    auto motionRotation = [&](size_t f, size_t b) {  // M: dof rotations, first listed applied first
        glm::dquat q(1.0, 0.0, 0.0, 0.0);
        const std::vector<AsfDof>& dofs = asf.bones[b].dofs;
        const double* rec = values.data() + f * perFrame + first[b];
        for (size_t i = 0; i < dofs.size(); ++i) {
            const double a = rec[i] * toRad;
            switch (dofs[i]) {
                case AsfDof::RX: q = glm::angleAxis(a, glm::dvec3(1, 0, 0)) * q; break;
                case AsfDof::RY: q = glm::angleAxis(a, glm::dvec3(0, 1, 0)) * q; break;
                case AsfDof::RZ: q = glm::angleAxis(a, glm::dvec3(0, 0, 1)) * q; break;
                default: break;
            }
        }
        return q;
    };

    // Which bone each node belongs to, and whether it is that bone's end site.
    std::vector<int32_t> nodeBone(nodes, -1);
    std::vector<char> nodeIsEnd(nodes, 0);
    for (size_t b = 0; b < nb; ++b) {
        const AsfBone& bone = asf.bones[b];
        if (bone.node < 0 || size_t(bone.node) >= nodes) return Error{path + ": the skeleton is inconsistent"};
        nodeBone[bone.node] = static_cast<int32_t>(b);
        if (bone.endNode >= 0) {
            if (size_t(bone.endNode) >= nodes) return Error{path + ": the skeleton is inconsistent"};
            nodeBone[bone.endNode] = static_cast<int32_t>(b);
            nodeIsEnd[bone.endNode] = 1;
        }
    }

    for (size_t node = 0; node < nodes; ++node) {
        if (nodeBone[node] < 0) continue;
        const size_t b = static_cast<size_t>(nodeBone[node]);
        const AsfBone& bone = asf.bones[b];
        const bool end = nodeIsEnd[node];
        // The bone whose `l` dof moves this node: the bone itself for its end site, else the parent.
        const int32_t stretcher = end ? static_cast<int32_t>(b) : bone.parent;
        const bool stretched = stretcher >= 0 && seen[stretcher] && hasDof(stretcher, isL);
        const bool rotates = !end && seen[b] && hasDof(b, isRotation);
        const bool moves = !end && seen[b] && hasDof(b, isTranslation);
        if (!rotates && !moves && !stretched) continue;
        const Sqt bind = end ? endBind(asf, b) : boneBind(asf, b);
        Track tr;
        tr.node = static_cast<int32_t>(node);
        if (moves || stretched) {
            tr.translation = {timesIndex, static_cast<uint32_t>(clip.vec3Keys.size()), static_cast<uint32_t>(nf)};
            const glm::dvec3 stretch = stretched ? stretchDirection(asf, stretcher) : glm::dvec3(0.0);
            for (size_t f = 0; f < nf; ++f) {
                glm::dvec3 t = bind.t;
                if (moves) t += b == 0 ? localTranslation(f, b) : bind.r * localTranslation(f, b);
                if (stretched) t += stretch * (valueOf(f, stretcher, AsfDof::L) * mult);
                clip.vec3Keys.push_back(glm::vec3(t));
            }
        }
        if (rotates) {
            tr.rotation = {timesIndex, static_cast<uint32_t>(clip.quatKeys.size()), static_cast<uint32_t>(nf)};
            glm::quat prev(1.0f, 0.0f, 0.0f, 0.0f);
            for (size_t f = 0; f < nf; ++f) {
                glm::quat q = glm::normalize(glm::quat(bind.r * motionRotation(f, b)));
                if (f > 0 && glm::dot(prev, q) < 0.0f) q = -q;
                clip.quatKeys.push_back(q);
                prev = q;
            }
        }
        clip.trackOfNode[node] = static_cast<int32_t>(clip.tracks.size());
        clip.tracks.push_back(tr);
    }
    for (const glm::vec3& v : clip.vec3Keys) {
        if (!std::isfinite(v.x) || !std::isfinite(v.y) || !std::isfinite(v.z)) {
            return Error{path + ": translations are too large"};
        }
    }
    return clip;
}


}  // namespace

Result<Clip> parseAmc(std::string_view text, const AsfSkeleton& asf, const std::string& path, float fps) {
    try {
        return parseAmcImpl(text, asf, path, fps);
    } catch (const std::bad_alloc&) {
        return outOfMemory(path);
    }
}

Result<Clip> importAmc(const std::string& path, const Model& skeleton, float fps) {
    try {
        if (skeleton.path.empty()) return Error{path + ": the skeleton was not imported from an ASF file"};
        Result<std::string> asfText = readFile(skeleton.path, kMaxAsfBytes);
        if (!asfText) return Error{path + ": cannot re-read its skeleton: " + asfText.error().message};
        Result<AsfSkeleton> asf = parseAsf(*asfText, skeleton.path);
        if (!asf) return Error{path + ": its skeleton does not parse as ASF: " + asf.error().message};
        const Skeleton& a = asf->skeleton;
        const Skeleton& b = skeleton.skeleton;
        if (a.names != b.names || a.parent != b.parent || a.bindLocal != b.bindLocal) {
            return Error{path + ": the skeleton no longer matches " + skeleton.path + " (the file changed since it was imported)"};
        }
        Result<std::string> text = readFile(path, kMaxAmcBytes);
        if (!text) return text.error();
        return parseAmc(*text, *asf, path, fps);
    } catch (const std::bad_alloc&) {
        return outOfMemory(path);
    }
}

Result<Model> importAsfAmc(const std::string& asfPath, const std::vector<std::string>& amcPaths, float fps) {
    try {
        Result<std::string> asfText = readFile(asfPath, kMaxAsfBytes);
        if (!asfText) return asfText.error();
        Result<AsfSkeleton> asf = parseAsf(*asfText, asfPath);
        if (!asf) return asf.error();
        std::vector<Clip> clips;
        for (const std::string& amc : amcPaths) {
            Result<std::string> text = readFile(amc, kMaxAmcBytes);
            if (!text) return text.error();
            Result<Clip> clip = parseAmc(*text, *asf, amc, fps);
            if (!clip) return clip.error();
            clips.push_back(std::move(*clip));
        }
        Model m = modelOf(std::move(*asf));
        m.clips = std::move(clips);
        return m;
    } catch (const std::bad_alloc&) {
        return outOfMemory(asfPath);
    }
}

std::string findAsfForAmc(const std::string& amcPath) {
    namespace fs = std::filesystem;
    const fs::path p(amcPath);
    const std::string stem = p.stem().string();
    if (stem.empty()) return "";
    std::vector<std::string> candidates;
    const size_t us = stem.find('_');
    if (us != std::string::npos && us > 0) candidates.push_back(stem.substr(0, us));
    candidates.push_back(stem);
    for (const std::string& c : candidates) {
        for (const char* ext : {".asf", ".ASF"}) {
            const fs::path f = p.parent_path() / (c + ext);
            std::error_code ec;
            if (fs::is_regular_file(f, ec)) return f.string();
        }
    }
    return "";
}

}  // namespace rig
