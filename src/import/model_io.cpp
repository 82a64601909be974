#include "import/model_io.h"

#include <cstring>
#include <string>
#include <type_traits>

namespace rig {

namespace {

constexpr char kMagic[8] = {'R', 'I', 'G', 'V', 'M', 'D', 'L', '\0'};
constexpr size_t kHeaderSize = 8 + 4 + 8 + 8;

// Appends fields to a byte buffer.
class Writer {
public:
    std::vector<uint8_t> bytes;

    template <typename T>
    void pod(const T& v) {
        static_assert(std::is_trivially_copyable_v<T>);
        const auto* p = reinterpret_cast<const uint8_t*>(&v);
        bytes.insert(bytes.end(), p, p + sizeof(T));
    }
    void count(size_t n) { pod(static_cast<uint64_t>(n)); }
    void str(const std::string& s) {
        count(s.size());
        bytes.insert(bytes.end(), s.begin(), s.end());
    }
    // A vector of plain numbers (or glm vectors/matrices): count, then the elements as is.
    template <typename T>
    void podVec(const std::vector<T>& v) {
        static_assert(std::is_trivially_copyable_v<T>);
        count(v.size());
        if (v.empty()) return;
        const auto* p = reinterpret_cast<const uint8_t*>(v.data());
        bytes.insert(bytes.end(), p, p + v.size() * sizeof(T));
    }
    void strVec(const std::vector<std::string>& v) {
        count(v.size());
        for (const std::string& s : v) str(s);
    }
};

// Reads fields back; every read is checked against the bytes left, and the first failure
// sticks (later reads return zeros), so decoding code reads straight through and checks once.
class Reader {
public:
    Reader(const uint8_t* p, size_t n) : p_(p), end_(p + n) {}
    bool ok() const { return error_.empty(); }
    const std::string& error() const { return error_; }
    size_t left() const { return static_cast<size_t>(end_ - p_); }
    void fail(const std::string& what) {
        if (error_.empty()) error_ = what;
        p_ = end_;
    }

    template <typename T>
    T pod() {
        static_assert(std::is_trivially_copyable_v<T>);
        T v{};
        if (left() < sizeof(T)) {
            fail("truncated");
            return v;
        }
        std::memcpy(&v, p_, sizeof(T));
        p_ += sizeof(T);
        return v;
    }
    // A count of elements of at least `minBytes` bytes each: never more than the bytes left
    // could hold, so a forged count cannot make us allocate.
    size_t count(size_t minBytes) {
        const uint64_t n = pod<uint64_t>();
        if (!ok()) return 0;
        if (minBytes > 0 && n > left() / minBytes) {
            fail("a count of " + std::to_string(n) + " exceeds the data left");
            return 0;
        }
        if (minBytes == 0 && n > (uint64_t{1} << 32)) {
            fail("a count of " + std::to_string(n) + " is implausible");
            return 0;
        }
        return static_cast<size_t>(n);
    }
    // A bool written as one byte: 0 or 1, anything else is a forgery (reading it as "not zero"
    // would accept bytes that do not write back the same).
    bool flag() {
        const uint8_t v = pod<uint8_t>();
        if (v > 1) fail("a flag is neither 0 nor 1");
        return v == 1;
    }
    std::string str() {
        const size_t n = count(1);
        std::string s(reinterpret_cast<const char*>(p_), n);
        p_ += n;
        return s;
    }
    template <typename T>
    void podVec(std::vector<T>& v) {
        const size_t n = count(sizeof(T));
        v.resize(n);
        if (n == 0) return;
        std::memcpy(v.data(), p_, n * sizeof(T));
        p_ += n * sizeof(T);
    }
    void strVec(std::vector<std::string>& v) {
        const size_t n = count(8);  // each string has at least its 8-byte length
        v.resize(n);
        for (std::string& s : v) s = str();
    }

private:
    const uint8_t* p_;
    const uint8_t* end_;
    std::string error_;
};

// ---- one writer and one reader per struct of anim/model.h, fields in declaration order ----

void write(Writer& w, const Skeleton& s) {
    w.strVec(s.names);
    w.podVec(s.parent);
    w.podVec(s.bindLocal);
    w.podVec(s.bindLocalSqt);
    w.podVec(s.bindModel);
    w.podVec(s.restLocal);
    w.podVec(s.restLocalSqt);
    w.podVec(s.restModel);
}
void read(Reader& r, Skeleton& s) {
    r.strVec(s.names);
    r.podVec(s.parent);
    r.podVec(s.bindLocal);
    r.podVec(s.bindLocalSqt);
    r.podVec(s.bindModel);
    r.podVec(s.restLocal);
    r.podVec(s.restLocalSqt);
    r.podVec(s.restModel);
}

void write(Writer& w, const WeightStats& s) {
    w.pod(s.maxInfluences);
    w.pod(s.truncatedVertices);
    w.pod(s.unweightedVertices);
    w.pod(s.unnormalizedVertices);
    w.pod(s.invalidWeights);
    w.podVec(s.truncatedExamples);
    w.podVec(s.unweightedExamples);
    w.podVec(s.unnormalizedExamples);
    w.pod(s.worstSumError);
}
void read(Reader& r, WeightStats& s) {
    s.maxInfluences = r.pod<uint32_t>();
    s.truncatedVertices = r.pod<uint32_t>();
    s.unweightedVertices = r.pod<uint32_t>();
    s.unnormalizedVertices = r.pod<uint32_t>();
    s.invalidWeights = r.pod<uint32_t>();
    r.podVec(s.truncatedExamples);
    r.podVec(s.unweightedExamples);
    r.podVec(s.unnormalizedExamples);
    s.worstSumError = r.pod<float>();
}

void write(Writer& w, const Mesh& m) {
    w.str(m.name);
    w.pod(m.node);
    w.pod(m.material);
    w.podVec(m.positions);
    w.podVec(m.normals);
    w.podVec(m.uvs);
    w.podVec(m.colors);
    w.podVec(m.indices);
    w.pod(static_cast<uint8_t>(m.skinned));
    w.podVec(m.skin.joints);
    w.podVec(m.skin.inverseBind);
    w.podVec(m.skin.offsetComputed);
    w.podVec(m.joints);
    w.podVec(m.weights);
    write(w, m.weightStats);
    w.podVec(m.originalInfluenceCount);
    w.podVec(m.originalWeightSum);
    w.count(m.truncated.size());
    for (const FullInfluences& f : m.truncated) {
        w.pod(f.vertex);
        w.count(f.influences.size());
        for (const auto& [slot, weight] : f.influences) {
            w.pod(slot);
            w.pod(weight);
        }
    }
    w.strVec(m.missingBones);
    w.count(m.morphTargets.size());
    for (const MorphTarget& t : m.morphTargets) {
        w.str(t.name);
        w.podVec(t.positionDeltas);
        w.podVec(t.normalDeltas);
    }
    w.podVec(m.morphDefaultWeights);
}
void read(Reader& r, Mesh& m) {
    m.name = r.str();
    m.node = r.pod<int32_t>();
    m.material = r.pod<uint32_t>();
    r.podVec(m.positions);
    r.podVec(m.normals);
    r.podVec(m.uvs);
    r.podVec(m.colors);
    r.podVec(m.indices);
    m.skinned = r.flag();
    r.podVec(m.skin.joints);
    r.podVec(m.skin.inverseBind);
    r.podVec(m.skin.offsetComputed);
    r.podVec(m.joints);
    r.podVec(m.weights);
    read(r, m.weightStats);
    r.podVec(m.originalInfluenceCount);
    r.podVec(m.originalWeightSum);
    m.truncated.resize(r.count(4 + 8));
    for (FullInfluences& f : m.truncated) {
        f.vertex = r.pod<uint32_t>();
        f.influences.resize(r.count(2 + 4));
        for (auto& [slot, weight] : f.influences) {
            slot = r.pod<uint16_t>();
            weight = r.pod<float>();
        }
    }
    r.strVec(m.missingBones);
    m.morphTargets.resize(r.count(3 * 8));  // a name and two arrays, each at least its length
    for (MorphTarget& t : m.morphTargets) {
        t.name = r.str();
        r.podVec(t.positionDeltas);
        r.podVec(t.normalDeltas);
    }
    r.podVec(m.morphDefaultWeights);
}

void write(Writer& w, const Channel& c) {
    w.pod(c.times);
    w.pod(c.values);
    w.pod(c.count);
    w.pod(static_cast<uint8_t>(c.interpolation));
}
void read(Reader& r, Channel& c) {
    c.times = r.pod<uint32_t>();
    c.values = r.pod<uint32_t>();
    c.count = r.pod<uint32_t>();
    const uint8_t mode = r.pod<uint8_t>();
    if (mode > static_cast<uint8_t>(Interpolation::Step)) r.fail("unknown interpolation mode " + std::to_string(mode));
    c.interpolation = static_cast<Interpolation>(mode);
}

void write(Writer& w, const Clip& c) {
    w.str(c.name);
    w.pod(c.duration);
    w.pod(c.startTime);
    w.pod(c.sampleRate);
    w.pod(c.ticksPerSecond);
    w.pod(static_cast<uint8_t>(c.ticksPerSecondFromFile));
    w.count(c.tracks.size());
    for (const Track& t : c.tracks) {
        w.pod(t.node);
        write(w, t.translation);
        write(w, t.rotation);
        write(w, t.scale);
    }
    w.podVec(c.times);
    w.podVec(c.vec3Keys);
    w.podVec(c.quatKeys);
    w.podVec(c.trackOfNode);
    w.count(c.morphTracks.size());
    for (const MorphTrack& t : c.morphTracks) {
        w.pod(t.mesh);
        w.pod(t.targets);
        w.pod(t.times);
        w.pod(t.values);
        w.pod(t.count);
        w.pod(static_cast<uint8_t>(t.interpolation));
    }
    w.podVec(c.morphKeys);
    w.pod(c.curveStats.nonUnitRotationKeys);
    w.pod(c.curveStats.duplicateKeyTimes);
    w.pod(c.curveStats.unsortedChannels);
    w.pod(c.curveStats.nonFiniteKeys);
    w.strVec(c.curveStats.examples);
}
void read(Reader& r, Clip& c) {
    c.name = r.str();
    c.duration = r.pod<float>();
    c.startTime = r.pod<float>();
    c.sampleRate = r.pod<float>();
    c.ticksPerSecond = r.pod<double>();
    c.ticksPerSecondFromFile = r.flag();
    c.tracks.resize(r.count(4 + 3 * 13));
    for (Track& t : c.tracks) {
        t.node = r.pod<int32_t>();
        read(r, t.translation);
        read(r, t.rotation);
        read(r, t.scale);
    }
    r.podVec(c.times);
    r.podVec(c.vec3Keys);
    r.podVec(c.quatKeys);
    r.podVec(c.trackOfNode);
    c.morphTracks.resize(r.count(4 * 5 + 1));
    for (MorphTrack& t : c.morphTracks) {
        t.mesh = r.pod<int32_t>();
        t.targets = r.pod<uint32_t>();
        t.times = r.pod<uint32_t>();
        t.values = r.pod<uint32_t>();
        t.count = r.pod<uint32_t>();
        const uint8_t mode = r.pod<uint8_t>();
        if (mode > static_cast<uint8_t>(WeightInterpolation::CubicSpline)) r.fail("unknown morph interpolation " + std::to_string(mode));
        t.interpolation = static_cast<WeightInterpolation>(mode);
    }
    r.podVec(c.morphKeys);
    c.curveStats.nonUnitRotationKeys = r.pod<uint32_t>();
    c.curveStats.duplicateKeyTimes = r.pod<uint32_t>();
    c.curveStats.unsortedChannels = r.pod<uint32_t>();
    c.curveStats.nonFiniteKeys = r.pod<uint32_t>();
    r.strVec(c.curveStats.examples);
}

void write(Writer& w, const ImportStats& s) {
    w.pod(s.skippedChannels);
    w.strVec(s.skippedChannelNames);
    w.pod(s.duplicateChannels);
    w.pod(s.unsortedKeyChannels);
    w.pod(s.nonFiniteKeys);
    w.pod(s.nonFiniteVertices);
    w.pod(s.skippedMeshes);
    w.pod(s.clipsWithoutTicksPerSecond);
    w.strVec(s.retargetNotes);
    w.count(s.repairs.size());
    for (const ImportRepair& rep : s.repairs) {
        w.str(rep.code);
        w.str(rep.what);
    }
    w.str(s.formatLimitation);
    w.strVec(s.refusedPaths);
    w.count(s.nameBindings.size());
    for (const NameBinding& b : s.nameBindings) {
        w.str(b.name);
        w.str(b.usedBy);
        w.podVec(b.candidates);
        w.pod(b.chosen);
        w.str(b.rule);
        w.pod(static_cast<uint8_t>(b.safe));
    }
}
void read(Reader& r, ImportStats& s) {
    s.skippedChannels = r.pod<uint32_t>();
    r.strVec(s.skippedChannelNames);
    s.duplicateChannels = r.pod<uint32_t>();
    s.unsortedKeyChannels = r.pod<uint32_t>();
    s.nonFiniteKeys = r.pod<uint32_t>();
    s.nonFiniteVertices = r.pod<uint32_t>();
    s.skippedMeshes = r.pod<uint32_t>();
    s.clipsWithoutTicksPerSecond = r.pod<uint32_t>();
    r.strVec(s.retargetNotes);
    s.repairs.resize(r.count(8 + 8));  // two strings, each at least its 8-byte length
    for (ImportRepair& rep : s.repairs) {
        rep.code = r.str();
        rep.what = r.str();
    }
    s.formatLimitation = r.str();
    r.strVec(s.refusedPaths);
    s.nameBindings.resize(r.count(8 + 8 + 8 + 4 + 8 + 1));  // strings and vector lengths, chosen, safe
    for (NameBinding& b : s.nameBindings) {
        b.name = r.str();
        b.usedBy = r.str();
        r.podVec(b.candidates);
        b.chosen = r.pod<int32_t>();
        b.rule = r.str();
        b.safe = r.flag();
    }
}

void write(Writer& w, const Model& m) {
    w.str(m.path);
    w.str(m.units.file);
    w.pod(m.units.metresPerUnit);
    w.pod(m.units.scaleApplied);
    w.pod(static_cast<uint8_t>(m.units.appliedAtRoot));
    w.str(m.units.source);
    write(w, m.skeleton);
    w.count(m.meshes.size());
    for (const Mesh& mesh : m.meshes) write(w, mesh);
    w.count(m.materials.size());
    for (const Material& mat : m.materials) {
        w.str(mat.name);
        w.pod(mat.baseColor);
        w.str(mat.baseColorTexture);
    }
    w.count(m.textures.size());
    for (const EmbeddedTexture& t : m.textures) {
        w.str(t.name);
        w.pod(t.width);
        w.pod(t.height);
        w.podVec(t.data);
    }
    w.count(m.clips.size());
    for (const Clip& c : m.clips) write(w, c);
    write(w, m.stats);
}
void read(Reader& r, Model& m) {
    m.path = r.str();
    m.units.file = r.str();
    m.units.metresPerUnit = r.pod<double>();
    m.units.scaleApplied = r.pod<double>();
    m.units.appliedAtRoot = r.flag();
    m.units.source = r.str();
    read(r, m.skeleton);
    // Minimum encoded sizes (all strings and vectors empty) bound the counts.
    m.meshes.resize(r.count(150));
    for (Mesh& mesh : m.meshes) read(r, mesh);
    m.materials.resize(r.count(8 + 16 + 8));
    for (Material& mat : m.materials) {
        mat.name = r.str();
        mat.baseColor = r.pod<glm::vec4>();
        mat.baseColorTexture = r.str();
    }
    m.textures.resize(r.count(8 + 4 + 4 + 8));
    for (EmbeddedTexture& t : m.textures) {
        t.name = r.str();
        t.width = r.pod<uint32_t>();
        t.height = r.pod<uint32_t>();
        r.podVec(t.data);
    }
    m.clips.resize(r.count(8 + 12 + 8 + 1 + 8 * 5 + 16));
    for (Clip& c : m.clips) read(r, c);
    read(r, m.stats);
}

std::string indexError(const std::string& what, int64_t value, size_t limit) {
    return what + " " + std::to_string(value) + " out of range (" + std::to_string(limit) + ")";
}

}  // namespace

uint64_t fnv1a64(const uint8_t* data, size_t size) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < size; ++i) {
        h ^= data[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

std::vector<uint8_t> serializeModel(const Model& model) {
    Writer w;
    w.bytes.resize(kHeaderSize);
    write(w, model);
    const uint64_t size = w.bytes.size() - kHeaderSize;
    const uint64_t sum = fnv1a64(w.bytes.data() + kHeaderSize, size);
    uint8_t* h = w.bytes.data();
    std::memcpy(h, kMagic, 8);
    std::memcpy(h + 8, &kModelFormatVersion, 4);
    std::memcpy(h + 12, &size, 8);
    std::memcpy(h + 20, &sum, 8);
    return std::move(w.bytes);
}

Result<Model> deserializeModel(std::span<const uint8_t> bytes) {
    if (bytes.size() < kHeaderSize || std::memcmp(bytes.data(), kMagic, 8) != 0) {
        return Error{"not a serialized model (bad magic)"};
    }
    uint32_t version = 0;
    uint64_t size = 0, sum = 0;
    std::memcpy(&version, bytes.data() + 8, 4);
    std::memcpy(&size, bytes.data() + 12, 8);
    std::memcpy(&sum, bytes.data() + 20, 8);
    if (version != kModelFormatVersion) {
        return Error{"serialized model format " + std::to_string(version) + ", expected " +
                     std::to_string(kModelFormatVersion)};
    }
    if (size != bytes.size() - kHeaderSize) {
        return Error{"serialized model truncated (" + std::to_string(bytes.size() - kHeaderSize) + " of " +
                     std::to_string(size) + " bytes)"};
    }
    const uint8_t* payload = bytes.data() + kHeaderSize;
    if (fnv1a64(payload, size) != sum) return Error{"serialized model damaged (checksum mismatch)"};
    Reader r(payload, size);
    Model m;
    read(r, m);
    if (!r.ok()) return Error{"serialized model malformed: " + r.error()};
    if (r.left() != 0) return Error{"serialized model malformed: " + std::to_string(r.left()) + " bytes left over"};
    Result<bool> valid = validateModel(m);
    if (!valid) return Error{"serialized model invalid: " + valid.error().message};
    return m;
}

Result<bool> validateModel(const Model& m) {
    const Skeleton& s = m.skeleton;
    const size_t nodes = s.parent.size();
    if (s.names.size() != nodes || s.bindLocal.size() != nodes || s.bindLocalSqt.size() != nodes ||
        s.bindModel.size() != nodes) {
        return Error{"skeleton arrays of different sizes"};
    }
    const size_t rest = s.restLocal.size();
    if ((rest != 0 && rest != nodes) || s.restLocalSqt.size() != rest || s.restModel.size() != rest) {
        return Error{"bind-pose arrays of different sizes"};
    }
    for (const NameBinding& b : m.stats.nameBindings) {
        if (b.chosen < -1 || b.chosen >= static_cast<int64_t>(nodes)) return Error{indexError("name binding", b.chosen, nodes)};
        for (int32_t c : b.candidates) {
            if (c < 0 || c >= static_cast<int64_t>(nodes)) return Error{indexError("name binding candidate", c, nodes)};
        }
    }
    for (size_t i = 0; i < nodes; ++i) {
        if (s.parent[i] < -1 || s.parent[i] >= static_cast<int64_t>(i)) {
            return Error{"node " + std::to_string(i) + ": parent " + std::to_string(s.parent[i]) + " not before it"};
        }
    }
    for (size_t k = 0; k < m.meshes.size(); ++k) {
        const Mesh& mesh = m.meshes[k];
        const std::string at = "mesh " + std::to_string(k) + ": ";
        const size_t nv = mesh.positions.size();
        if (mesh.node < -1 || mesh.node >= static_cast<int64_t>(nodes)) return Error{at + indexError("node", mesh.node, nodes)};
        if (!m.materials.empty() && mesh.material >= m.materials.size()) {
            return Error{at + indexError("material", mesh.material, m.materials.size())};
        }
        auto perVertex = [&](size_t n) { return n == 0 || n == nv; };
        if (!perVertex(mesh.normals.size()) || !perVertex(mesh.uvs.size()) || !perVertex(mesh.colors.size()) ||
            !perVertex(mesh.joints.size()) || !perVertex(mesh.weights.size()) ||
            !perVertex(mesh.originalInfluenceCount.size()) || !perVertex(mesh.originalWeightSum.size())) {
            return Error{at + "a per-vertex array does not match the vertex count"};
        }
        if (mesh.joints.size() != mesh.weights.size()) return Error{at + "joints and weights of different sizes"};
        if (mesh.indices.size() % 3 != 0) return Error{at + "index count not a multiple of 3"};
        for (uint32_t i : mesh.indices) {
            if (i >= nv) return Error{at + indexError("vertex index", i, nv)};
        }
        const Skin& skin = mesh.skin;
        if (skin.inverseBind.size() != skin.joints.size()) return Error{at + "inverse bind matrices do not match the joints"};
        if (!skin.offsetComputed.empty() && skin.offsetComputed.size() != skin.joints.size()) {
            return Error{at + "offset flags do not match the joints"};
        }
        for (int32_t j : skin.joints) {
            if (j < 0 || j >= static_cast<int64_t>(nodes)) return Error{at + indexError("joint node", j, nodes)};
        }
        if (mesh.skinned && mesh.joints.size() != nv) return Error{at + "skinned without per-vertex joints"};
        for (const auto& slots : mesh.joints) {
            for (uint16_t slot : slots) {
                if (slot >= skin.paletteSize()) return Error{at + indexError("joint slot", slot, skin.paletteSize())};
            }
        }
        for (const FullInfluences& f : mesh.truncated) {
            if (f.vertex >= nv) return Error{at + indexError("truncated vertex", f.vertex, nv)};
        }
        for (const MorphTarget& t : mesh.morphTargets) {
            if (t.positionDeltas.size() != nv || !perVertex(t.normalDeltas.size())) {
                return Error{at + "morph target '" + t.name + "' does not have one delta per vertex"};
            }
        }
        if (mesh.morphDefaultWeights.size() != mesh.morphTargets.size()) return Error{at + "one default weight per morph target expected"};
    }
    for (size_t k = 0; k < m.clips.size(); ++k) {
        const Clip& c = m.clips[k];
        const std::string at = "clip " + std::to_string(k) + ": ";
        if (c.trackOfNode.size() != nodes) return Error{at + "track table does not match the skeleton"};
        for (int32_t t : c.trackOfNode) {
            if (t < -1 || t >= static_cast<int64_t>(c.tracks.size())) return Error{at + indexError("track", t, c.tracks.size())};
        }
        auto runOk = [&](const Channel& ch, size_t values) {
            if (ch.count == 0) return true;
            return uint64_t{ch.times} + ch.count <= c.times.size() && uint64_t{ch.values} + ch.count <= values;
        };
        for (const Track& t : c.tracks) {
            if (t.node < 0 || t.node >= static_cast<int64_t>(nodes)) return Error{at + indexError("track node", t.node, nodes)};
            if (!runOk(t.translation, c.vec3Keys.size()) || !runOk(t.rotation, c.quatKeys.size()) ||
                !runOk(t.scale, c.vec3Keys.size())) {
                return Error{at + "a channel's keys run past the key arrays"};
            }
        }
        int64_t lastMesh = -1;
        for (const MorphTrack& t : c.morphTracks) {
            if (t.mesh < 0 || t.mesh >= static_cast<int64_t>(m.meshes.size())) return Error{at + indexError("morph track mesh", t.mesh, m.meshes.size())};
            if (t.mesh <= lastMesh) return Error{at + "morph tracks not sorted by mesh, one per mesh"};
            lastMesh = t.mesh;
            if (t.targets != m.meshes[static_cast<size_t>(t.mesh)].morphTargets.size()) return Error{at + "a morph track's target count differs from its mesh's"};
            const uint64_t stride = uint64_t{t.targets} * (t.interpolation == WeightInterpolation::CubicSpline ? 3 : 1);
            if (t.count > 0 && (uint64_t{t.times} + t.count > c.times.size() || uint64_t{t.values} + stride * t.count > c.morphKeys.size())) {
                return Error{at + "a morph track's keys run past the key arrays"};
            }
        }
    }
    for (const EmbeddedTexture& t : m.textures) {
        if (t.height != 0 && uint64_t{t.width} * t.height * 4 != t.data.size()) {
            return Error{"texture '" + t.name + "': size does not match its texels"};
        }
    }
    return true;
}

}  // namespace rig
