#include "platform/model_io.h"
#include "platform/huge_pages.h"
#include "import/texture_limits.h"

#include <algorithm>
#include <array>
#include <concepts>
#include <new>
#include <stdexcept>
#include <cstring>
#include <string>
#include <type_traits>

namespace rig {

namespace {

constexpr char kMagic[8] = {'R', 'I', 'G', 'V', 'M', 'D', 'L', '\0'};
constexpr size_t kHeaderSize = 8 + 4 + 8 + 8;

// The format is written once, as one visit function per struct (below) that both archives
// walk: Writer writes each field it is shown (to a measure, a buffer or a sink), Reader fills
// each field it is shown from the bytes (a buffer, or a source as they arrive). Both have the
// same operations:
//   pod(x)        a number, glm vector or matrix, as its bytes
//   flag(b)       a bool as one byte, 0 or 1
//   enumByte(e, max, what)   an enum as one byte, at most `max`
//   str(s)        u64 length, then the characters
//   podVec(v)     u64 count, then the elements' bytes
//   strVec(v)     u64 count, then each string
//   list(v, minBytes, each)  u64 count, then each element as `each` visits it; minBytes is the
//                 least an element can take, so that a reader can bound a forged count

// The payload's checksum (payloadChecksum) taken as its bytes come, in pieces of any size.
class PayloadHasher {
public:
    explicit PayloadHasher(uint32_t version) : words_(version >= 6) {}
    void add(const uint8_t* p, size_t n) {
        if (!words_) {
            for (size_t i = 0; i < n; ++i) step(p[i]);
            return;
        }
        while (carried_ > 0 && carried_ < 8 && n > 0) {
            carry_[carried_++] = *p++;
            --n;
        }
        if (carried_ == 8) {
            word(carry_);
            carried_ = 0;
        }
        for (; n >= 8; p += 8, n -= 8) word(p);
        std::memcpy(carry_, p, n);
        carried_ += n;
    }
    // The checksum of the bytes added so far.
    uint64_t sum() const {
        uint64_t h = h_;
        for (size_t i = 0; i < carried_; ++i) {
            h ^= carry_[i];
            h *= 0x100000001b3ull;
        }
        return h;
    }

private:
    void step(uint8_t b) {
        h_ ^= b;
        h_ *= 0x100000001b3ull;
    }
    // FNV-1a's step over an 8-byte word (host order).
    void word(const uint8_t* p) {
        uint64_t w;
        std::memcpy(&w, p, 8);
        h_ ^= w;
        h_ *= 0x100000001b3ull;
    }
    const bool words_;
    uint64_t h_ = 0xcbf29ce484222325ull;
    uint8_t carry_[8] = {};
    size_t carried_ = 0;  // bytes of an unfinished word (format 6 on)
};

// Where a Writer's bytes go:
//   Measure    counts them and takes their checksum (the header's size and checksum, first);
//   ToVector   appends them to a buffer;
//   ToSink     hands them to a ModelByteSink: small fields gathered in a buffer of 1 MiB, large
//              arrays straight from the model.
struct Measure {
    explicit Measure(uint32_t version) : hasher(version) {}
    size_t size = 0;
    PayloadHasher hasher;
    void put(const uint8_t* p, size_t n) {
        size += n;
        hasher.add(p, n);
    }
};
struct ToVector {
    std::vector<uint8_t>& bytes;
    void put(const uint8_t* p, size_t n) { bytes.insert(bytes.end(), p, p + n); }
};
class ToSink {
public:
    explicit ToSink(const ModelByteSink& sink) : sink_(sink) { buffer_.reserve(kBuffer); }
    void put(const uint8_t* p, size_t n) {
        if (!ok_) return;
        if (buffer_.size() + n <= kBuffer) {
            buffer_.insert(buffer_.end(), p, p + n);
            return;
        }
        flush();
        if (n >= kBuffer / 2) {
            ok_ = ok_ && sink_(p, n);
        } else {
            buffer_.insert(buffer_.end(), p, p + n);
        }
    }
    bool flush() {
        if (ok_ && !buffer_.empty()) ok_ = sink_(buffer_.data(), buffer_.size());
        buffer_.clear();
        return ok_;
    }

private:
    static constexpr size_t kBuffer = size_t(1) << 20;
    const ModelByteSink& sink_;
    std::vector<uint8_t> buffer_;
    bool ok_ = true;
};

// Writes fields to `Out` (above).
template <class Out>
class Writer {
public:
    Writer(Out& out, uint32_t formatVersion) : version(formatVersion), out_(out) {}
    const uint32_t version;  // the current one, or an older one (tests of the reader)

    template <typename T>
    void pod(const T& v) {
        static_assert(std::is_trivially_copyable_v<T>);
        append(&v, sizeof(T));
    }
    void flag(bool b) { pod(static_cast<uint8_t>(b)); }
    template <typename E>
    void enumByte(E e, E, const char*) {
        pod(static_cast<uint8_t>(e));
    }
    void str(const std::string& s) {
        count(s.size());
        append(s.data(), s.size());
    }
    // A vector of plain numbers (or glm vectors/matrices): count, then the elements as is.
    template <typename T>
    void podVec(const std::vector<T>& v) {
        static_assert(std::is_trivially_copyable_v<T>);
        count(v.size());
        if (v.empty()) return;
        append(v.data(), v.size() * sizeof(T));
    }
    void strVec(const std::vector<std::string>& v) {
        count(v.size());
        for (const std::string& s : v) str(s);
    }
    template <typename T, typename Each>
    void list(const std::vector<T>& v, size_t, Each each) {
        count(v.size());
        for (const T& x : v) each(x);
    }

private:
    void count(size_t n) { pod(static_cast<uint64_t>(n)); }
    void append(const void* data, size_t n) { out_.put(static_cast<const uint8_t*>(data), n); }
    Out& out_;
};

// Where a Reader's bytes come from: a whole buffer (FromSpan), or a ModelByteSource as they
// arrive (FromSource: the checksum taken on the way). Either way `left()` is what the payload
// has left by its stated size, which bounds every count.
class FromSpan {
public:
    FromSpan(const uint8_t* p, size_t n) : p_(p), end_(p + n) {}
    size_t left() const { return static_cast<size_t>(end_ - p_); }
    bool take(void* to, size_t n) {
        if (n > left()) return false;
        if (n) std::memcpy(to, p_, n);
        p_ += n;
        return true;
    }
    void stop() { p_ = end_; }

private:
    const uint8_t* p_;
    const uint8_t* end_;
};
class FromSource {
public:
    FromSource(const ModelByteSource& source, uint64_t size, uint32_t version)
        : source_(source), left_(size), hasher(version) {}
    size_t left() const { return static_cast<size_t>(left_); }
    bool take(void* to, size_t n) {
        if (n > left_ || (n && !source_(to, n))) return false;
        hasher.add(static_cast<const uint8_t*>(to), n);
        left_ -= n;
        return true;
    }
    void stop() { left_ = 0; }

private:
    const ModelByteSource& source_;
    uint64_t left_;

public:
    PayloadHasher hasher;
};

// Reads fields back from `In`; every read is checked against the bytes left, and the first
// failure sticks (later reads give zeros and empty containers), so decoding reads straight
// through and checks once. Arrays and strings grow as their bytes arrive and lists one element
// at a time, so a forged count takes no more memory than the bytes that came.
template <class In>
class Reader {
public:
    Reader(In& in, uint32_t formatVersion) : version(formatVersion), in_(in) {}
    const uint32_t version;  // the buffer's format version: fields added later are absent before it
    bool ok() const { return error_.empty(); }
    const std::string& error() const { return error_; }
    size_t left() const { return in_.left(); }

    template <typename T>
    void pod(T& v) {
        static_assert(std::is_trivially_copyable_v<T>);
        v = T{};
        if (!ok()) return;
        if (left() < sizeof(T) || !in_.take(&v, sizeof(T))) {
            v = T{};
            fail("truncated");
        }
    }
    // A bool written as one byte: 0 or 1, anything else is a forgery (reading it as "not zero"
    // would accept bytes that do not write back the same).
    void flag(bool& b) {
        uint8_t v = 0;
        pod(v);
        if (v > 1) fail("a flag is neither 0 nor 1");
        b = v == 1;
    }
    template <typename E>
    void enumByte(E& e, E max, const char* what) {
        uint8_t v = 0;
        pod(v);
        if (v > static_cast<uint8_t>(max)) fail(what + std::to_string(v));
        e = static_cast<E>(v);
    }
    void str(std::string& s) {
        s.clear();
        grow(s, count(1));
    }
    template <typename T>
    void podVec(std::vector<T>& v) {
        const size_t n = count(sizeof(T));
        v.clear();
        grow(v, n);
    }
    void strVec(std::vector<std::string>& v) {
        const size_t n = count(8);  // each string has at least its 8-byte length
        v.clear();
        for (size_t i = 0; i < n && ok(); ++i) str(v.emplace_back());
    }
    template <typename T, typename Each>
    void list(std::vector<T>& v, size_t minBytes, Each each) {
        const size_t n = count(minBytes);
        v.clear();
        for (size_t i = 0; i < n && ok(); ++i) each(v.emplace_back());
    }

private:
    void fail(const std::string& what) {
        if (error_.empty()) error_ = what;
        in_.stop();
    }
    // A count of elements of at least `minBytes` bytes each: never more than the bytes left
    // could hold, so a forged count cannot make us allocate.
    size_t count(size_t minBytes) {
        uint64_t n = 0;
        pod(n);
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
    // `n` elements appended to the empty `v` (a string or a vector of plain values), 8 MiB at
    // a time. Room is reserved at most 64 MiB ahead of the bytes that came (then twice what it
    // was), so a stated size that the bytes do not bear out takes no memory: a model's arrays
    // up to 64 MiB are allocated once, advised as huge pages.
    template <class V>
    void grow(V& v, size_t n) {
        using T = typename V::value_type;
        const size_t chunk = (size_t(8) << 20) / sizeof(T) + 1;
        const size_t ahead = (size_t(64) << 20) / sizeof(T) + 1;
        if constexpr (std::is_same_v<V, std::string>) {
            v.reserve(std::min(n, ahead));
        } else {
            reserveHugePages(v, std::min(n, ahead));
        }
        for (size_t done = 0; done < n && ok();) {
            const size_t k = std::min(n - done, chunk);
            if (v.capacity() < done + k) v.reserve(std::min(n, std::max(done + ahead, 2 * v.capacity())));
            v.resize(done + k);
            if (!in_.take(v.data() + done, k * sizeof(T))) {
                fail("truncated");
                break;
            }
            done += k;
        }
    }

    In& in_;
    std::string error_;
};

// `S` is `T` (read into) or `const T` (written from).
template <typename S, typename T>
concept Of = std::same_as<std::remove_const_t<S>, T>;

// ---- one visit per struct of anim/runtime/model.h, fields in declaration order ----

template <typename Ar, Of<Skeleton> S>
void visit(Ar& ar, S& s) {
    ar.strVec(s.names);
    ar.podVec(s.parent);
    ar.podVec(s.bindLocal);
    ar.podVec(s.bindLocalSqt);
    ar.podVec(s.bindModel);
    ar.podVec(s.restLocal);
    ar.podVec(s.restLocalSqt);
    ar.podVec(s.restModel);
}

template <typename Ar, Of<WeightStats> S>
void visit(Ar& ar, S& s) {
    ar.pod(s.maxInfluences);
    ar.pod(s.truncatedVertices);
    ar.pod(s.unweightedVertices);
    ar.pod(s.unnormalizedVertices);
    ar.pod(s.invalidWeights);
    ar.podVec(s.truncatedExamples);
    ar.podVec(s.unweightedExamples);
    ar.podVec(s.unnormalizedExamples);
    ar.pod(s.worstSumError);
}

template <typename Ar, Of<Mesh> M>
void visit(Ar& ar, M& m) {
    ar.str(m.name);
    ar.pod(m.node);
    ar.pod(m.material);
    ar.podVec(m.positions);
    ar.podVec(m.normals);
    ar.podVec(m.uvs);
    if (ar.version >= 5) {
        ar.podVec(m.uvs1);
        ar.podVec(m.tangents);
    }
    ar.podVec(m.colors);
    ar.podVec(m.indices);
    ar.flag(m.skinned);
    ar.podVec(m.skin.joints);
    ar.podVec(m.skin.inverseBind);
    ar.podVec(m.skin.offsetComputed);
    ar.podVec(m.joints);
    ar.podVec(m.weights);
    if (ar.version >= 4) {
        ar.podVec(m.joints2);
        ar.podVec(m.weights2);
    }
    visit(ar, m.weightStats);
    ar.podVec(m.originalInfluenceCount);
    ar.podVec(m.originalWeightSum);
    ar.list(m.truncated, 4 + 8, [&](auto& f) {
        ar.pod(f.vertex);
        ar.list(f.influences, 2 + 4, [&](auto& influence) {
            ar.pod(influence.first);   // joint slot
            ar.pod(influence.second);  // weight
        });
    });
    if constexpr (!std::is_const_v<M>) {
        if (ar.version < 4) fillSecondInfluenceSet(m);  // what import makes of the same mesh
    }
    ar.strVec(m.missingBones);
    ar.list(m.morphTargets, 3 * 8, [&](auto& t) {  // a name and two arrays, each at least its length
        ar.str(t.name);
        ar.podVec(t.positionDeltas);
        ar.podVec(t.normalDeltas);
    });
    ar.podVec(m.morphDefaultWeights);
}

template <typename Ar, Of<TextureRef> T>
void visit(Ar& ar, T& t) {
    ar.str(t.path);
    if (ar.version < 5) return;
    ar.pod(t.texCoord);
    ar.pod(t.offset);
    ar.pod(t.rotation);
    ar.pod(t.scale);
    ar.pod(t.wrapS);
    ar.pod(t.wrapT);
    ar.pod(t.magFilter);
    ar.pod(t.minFilter);
}

template <typename Ar, Of<Material> M>
void visit(Ar& ar, M& m) {
    ar.str(m.name);
    ar.pod(m.baseColor);
    visit(ar, m.baseColorTexture);
    if (ar.version < 5) return;  // formats 3 and 4: the base colour and its texture only
    ar.pod(m.metallic);
    ar.pod(m.roughness);
    visit(ar, m.metallicRoughnessTexture);
    visit(ar, m.normalTexture);
    ar.pod(m.normalScale);
    visit(ar, m.occlusionTexture);
    ar.pod(m.occlusionStrength);
    ar.pod(m.emissive);
    ar.pod(m.emissiveStrength);
    visit(ar, m.emissiveTexture);
    ar.enumByte(m.alphaMode, AlphaMode::Blend, "unknown alpha mode ");
    ar.pod(m.alphaCutoff);
    ar.flag(m.doubleSided);
    ar.pod(m.clearcoat);
    ar.pod(m.clearcoatRoughness);
    visit(ar, m.clearcoatTexture);
    visit(ar, m.clearcoatRoughnessTexture);
    visit(ar, m.clearcoatNormalTexture);
    ar.flag(m.unlit);
    ar.str(m.origin);
}

template <typename Ar, Of<Channel> C>
void visit(Ar& ar, C& c) {
    ar.pod(c.times);
    ar.pod(c.values);
    ar.pod(c.count);
    ar.enumByte(c.interpolation, Interpolation::Step, "unknown interpolation mode ");
}

template <typename Ar, Of<Clip> C>
void visit(Ar& ar, C& c) {
    ar.str(c.name);
    ar.pod(c.duration);
    ar.pod(c.startTime);
    ar.pod(c.sampleRate);
    ar.pod(c.ticksPerSecond);
    ar.flag(c.ticksPerSecondFromFile);
    ar.list(c.tracks, 4 + 3 * 13, [&](auto& t) {
        ar.pod(t.node);
        visit(ar, t.translation);
        visit(ar, t.rotation);
        visit(ar, t.scale);
    });
    ar.podVec(c.times);
    ar.podVec(c.vec3Keys);
    ar.podVec(c.quatKeys);
    ar.podVec(c.trackOfNode);
    ar.list(c.morphTracks, 4 * 5 + 1, [&](auto& t) {
        ar.pod(t.mesh);
        ar.pod(t.targets);
        ar.pod(t.times);
        ar.pod(t.values);
        ar.pod(t.count);
        ar.enumByte(t.interpolation, WeightInterpolation::CubicSpline, "unknown morph interpolation ");
    });
    ar.podVec(c.morphKeys);
    ar.list(c.markers, 8 + 4, [&](auto& m) {
        ar.str(m.name);
        ar.pod(m.time);
    });
    ar.pod(c.curveStats.nonUnitRotationKeys);
    ar.pod(c.curveStats.duplicateKeyTimes);
    ar.pod(c.curveStats.unsortedChannels);
    ar.pod(c.curveStats.nonFiniteKeys);
    ar.strVec(c.curveStats.examples);
}

template <typename Ar, Of<ImportStats> S>
void visit(Ar& ar, S& s) {
    ar.pod(s.skippedChannels);
    ar.strVec(s.skippedChannelNames);
    ar.pod(s.duplicateChannels);
    ar.pod(s.unsortedKeyChannels);
    ar.pod(s.nonFiniteKeys);
    ar.pod(s.nonFiniteVertices);
    ar.pod(s.skippedMeshes);
    ar.pod(s.clipsWithoutTicksPerSecond);
    ar.strVec(s.retargetNotes);
    ar.list(s.repairs, 8 + 8, [&](auto& rep) {  // two strings, each at least its 8-byte length
        ar.str(rep.code);
        ar.str(rep.what);
    });
    ar.str(s.formatLimitation);
    ar.strVec(s.refusedPaths);
    ar.list(s.nameBindings, 8 + 8 + 8 + 4 + 8 + 1, [&](auto& b) {  // strings and vector lengths, chosen, safe
        ar.str(b.name);
        ar.str(b.usedBy);
        ar.podVec(b.candidates);
        ar.pod(b.chosen);
        ar.str(b.rule);
        ar.flag(b.safe);
    });
    if (ar.version >= 7) ar.strVec(s.filesRead);
}

template <typename Ar, Of<Model> M>
void visit(Ar& ar, M& m) {
    ar.str(m.path);
    ar.str(m.units.file);
    ar.pod(m.units.metresPerUnit);
    ar.pod(m.units.scaleApplied);
    ar.flag(m.units.appliedAtRoot);
    ar.str(m.units.source);
    visit(ar, m.skeleton);
    // Minimum encoded sizes (all strings and vectors empty) bound the counts.
    ar.list(m.meshes, 150, [&](auto& mesh) { visit(ar, mesh); });
    ar.list(m.materials, 8 + 16 + 8, [&](auto& mat) { visit(ar, mat); });
    ar.list(m.textures, 8 + 4 + 4 + 8, [&](auto& t) {
        ar.str(t.name);
        ar.pod(t.width);
        ar.pod(t.height);
        ar.podVec(t.data);
    });
    ar.list(m.clips, 8 + 12 + 8 + 1 + 8 * 5 + 16, [&](auto& c) { visit(ar, c); });
    visit(ar, m.stats);
    if (ar.version < 7) return;
    ar.list(m.images, 8 + 16 + 8 + 8, [&](auto& image) {
        ar.str(image.ref);
        ar.pod(image.width);
        ar.pod(image.height);
        ar.pod(image.fileWidth);
        ar.pod(image.fileHeight);
        ar.podVec(image.rgba);
        ar.str(image.problem);
    });
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

uint64_t payloadChecksum(uint32_t version, const uint8_t* data, size_t size) {
    PayloadHasher h(version);
    h.add(data, size);
    return h.sum();
}

namespace {

// The header of a payload of `size` bytes with checksum `sum`.
std::array<uint8_t, kHeaderSize> header(uint32_t version, uint64_t size, uint64_t sum) {
    std::array<uint8_t, kHeaderSize> h{};
    std::memcpy(h.data(), kMagic, 8);
    std::memcpy(h.data() + 8, &version, 4);
    std::memcpy(h.data() + 12, &size, 8);
    std::memcpy(h.data() + 20, &sum, 8);
    return h;
}

// The payload's size and checksum, from a first pass over the model.
Measure measure(const Model& model, uint32_t version) {
    Measure m(version);
    Writer<Measure> w(m, version);
    visit(w, model);
    return m;
}

// The header's version and payload size, or why they are not a model's.
Result<bool> readHeader(const uint8_t* h, uint32_t& version, uint64_t& size, uint64_t& sum) {
    if (std::memcmp(h, kMagic, 8) != 0) return Error{"not a serialized model (bad magic)"};
    std::memcpy(&version, h + 8, 4);
    std::memcpy(&size, h + 12, 8);
    std::memcpy(&sum, h + 20, 8);
    if (version < kOldestModelFormatVersion || version > kModelFormatVersion) {
        return Error{"serialized model format " + std::to_string(version) + ", expected " +
                     std::to_string(kOldestModelFormatVersion) + " to " + std::to_string(kModelFormatVersion)};
    }
    return true;
}

// The payload decoded from `in`, then checked: all of it read, the checksum (`sumOk`, asked
// once the bytes are in), validateModel.
template <class In, class SumOk>
Result<Model> decode(In& in, uint32_t version, SumOk sumOk) {
    Model m;
    try {
        Reader<In> r(in, version);
        visit(r, m);
        if (!r.ok()) return Error{"serialized model malformed: " + r.error()};
        if (r.left() != 0) return Error{"serialized model malformed: " + std::to_string(r.left()) + " bytes left over"};
    } catch (const std::bad_alloc&) {
        return Error{"serialized model malformed: a count too large to hold"};
    } catch (const std::length_error&) {
        return Error{"serialized model malformed: a count too large to hold"};
    }
    if (!sumOk()) return Error{"serialized model damaged (checksum mismatch)"};
    Result<bool> valid = validateModel(m);
    if (!valid) return Error{"serialized model invalid: " + valid.error().message};
    return m;
}

}  // namespace

std::vector<uint8_t> serializeModel(const Model& model, uint32_t version) {
    if (version < kOldestModelFormatVersion || version > kModelFormatVersion) version = kModelFormatVersion;
    // A first pass measures the payload and takes its checksum, so the buffer is allocated once.
    const Measure m = measure(model, version);
    const auto h = header(version, m.size, m.hasher.sum());
    std::vector<uint8_t> bytes;
    bytes.reserve(kHeaderSize + m.size);
    bytes.assign(h.begin(), h.end());
    ToVector out{bytes};
    Writer<ToVector> w(out, version);
    visit(w, model);
    return bytes;
}

bool writeModel(const Model& model, const ModelByteSink& sink) {
    const Measure m = measure(model, kModelFormatVersion);
    const auto h = header(kModelFormatVersion, m.size, m.hasher.sum());
    if (!sink(h.data(), h.size())) return false;
    ToSink out(sink);
    Writer<ToSink> w(out, kModelFormatVersion);
    visit(w, model);
    return out.flush();
}

Result<Model> deserializeModel(std::span<const uint8_t> bytes) {
    if (bytes.size() < kHeaderSize) return Error{"not a serialized model (bad magic)"};
    uint32_t version = 0;
    uint64_t size = 0, sum = 0;
    if (Result<bool> h = readHeader(bytes.data(), version, size, sum); !h) return h.error();
    if (size != bytes.size() - kHeaderSize) {
        return Error{"serialized model truncated (" + std::to_string(bytes.size() - kHeaderSize) + " of " +
                     std::to_string(size) + " bytes)"};
    }
    const uint8_t* payload = bytes.data() + kHeaderSize;
    if (payloadChecksum(version, payload, size) != sum) return Error{"serialized model damaged (checksum mismatch)"};
    FromSpan in(payload, size);
    return decode(in, version, [] { return true; });
}

Result<Model> receiveModel(std::span<const uint8_t> start, const ModelByteSource& source) {
    // The header: what the caller took already, the rest from the source.
    std::array<uint8_t, kHeaderSize> h{};
    const size_t have = std::min(start.size(), kHeaderSize);
    if (have) std::memcpy(h.data(), start.data(), have);
    if (have < kHeaderSize && !source(h.data() + have, kHeaderSize - have)) return Error{"not a serialized model (bad magic)"};
    uint32_t version = 0;
    uint64_t size = 0, sum = 0;
    if (Result<bool> r = readHeader(h.data(), version, size, sum); !r) return r.error();
    // Bytes the caller took beyond the header start the payload.
    const std::span<const uint8_t> early = start.size() > kHeaderSize ? start.subspan(kHeaderSize) : std::span<const uint8_t>();
    size_t used = 0;
    const ModelByteSource payload = [&](void* to, size_t n) {
        auto* out = static_cast<uint8_t*>(to);
        const size_t k = std::min(n, early.size() - used);
        if (k) std::memcpy(out, early.data() + used, k);
        used += k;
        return k == n || source(out + k, n - k);
    };
    FromSource in(payload, size, version);
    Result<Model> m = decode(in, version, [&] { return in.hasher.sum() == sum; });
    if (m && used != early.size()) return Error{"serialized model malformed: bytes after its end"};
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
        if (!perVertex(mesh.normals.size()) || !perVertex(mesh.uvs.size()) || !perVertex(mesh.uvs1.size()) ||
            !perVertex(mesh.tangents.size()) || !perVertex(mesh.colors.size()) ||
            !perVertex(mesh.joints.size()) || !perVertex(mesh.weights.size()) ||
            !perVertex(mesh.originalInfluenceCount.size()) || !perVertex(mesh.originalWeightSum.size())) {
            return Error{at + "a per-vertex array does not match the vertex count"};
        }
        if (mesh.joints.size() != mesh.weights.size()) return Error{at + "joints and weights of different sizes"};
        if (mesh.joints2.size() != mesh.weights2.size()) return Error{at + "second joints and weights of different sizes"};
        if (!mesh.joints2.empty() && mesh.joints2.size() != mesh.joints.size()) {
            return Error{at + "a second influence set without a first for every vertex"};
        }
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
        for (const auto* set : {&mesh.joints, &mesh.joints2}) {
            for (const auto& slots : *set) {
                for (uint16_t slot : slots) {
                    if (slot >= skin.paletteSize()) return Error{at + indexError("joint slot", slot, skin.paletteSize())};
                }
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
    for (size_t k = 0; k < m.materials.size(); ++k) {
        bool ok = true;
        m.materials[k].forEachTexture([&](const char*, const TextureRef& t) { ok = ok && t.texCoord <= 1; });
        if (!ok) return Error{"material " + std::to_string(k) + ": a texture reads UV set 2 or later (0 and 1 exist)"};
    }
    // Decoded textures: pixels of the size they state, within the display size and the budget
    // for all of them (import/texture_limits.h), or none and why.
    size_t imageBytes = 0;
    for (const ModelImage& image : m.images) {
        const std::string at = "image '" + image.ref + "': ";
        if (!image.problem.empty()) {
            if (!image.rgba.empty()) return Error{at + "pixels with a problem"};
            continue;
        }
        if (image.width == 0 || image.height == 0 || image.width > uint32_t(kMaxTextureDisplaySide) ||
            image.height > uint32_t(kMaxTextureDisplaySide)) {
            return Error{at + std::to_string(image.width) + "x" + std::to_string(image.height) + " pixels out of range"};
        }
        if (image.rgba.size() != size_t(image.width) * image.height * 4) return Error{at + "size does not match its pixels"};
        imageBytes += image.rgba.size();
        if (imageBytes > modelImageBudget()) return Error{at + "the images together exceed their budget"};
    }
    for (const EmbeddedTexture& t : m.textures) {
        // An image over the limits comes with its size and no bytes (scene_convert).
        const bool leftOut = t.data.empty() && (t.height == 0 ? t.width > kMaxTextureBytes
                                                              : t.width > static_cast<uint32_t>(kMaxTextureSide) ||
                                                                    t.height > static_cast<uint32_t>(kMaxTextureSide));
        if (t.height != 0 && !leftOut && uint64_t{t.width} * t.height * 4 != t.data.size()) {
            return Error{"texture '" + t.name + "': size does not match its texels"};
        }
    }
    return true;
}

}  // namespace rig
