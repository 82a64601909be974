#include "import/iqm/iqm.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <new>
#include <optional>
#include <string_view>
#include <vector>

#include <glm/gtc/constants.hpp>

#include "util/text.h"

namespace rig {

namespace {

constexpr size_t kHeaderBytes = 16 + 27 * 4;
constexpr size_t kMeshBytes = 6 * 4;
constexpr size_t kVertexArrayBytes = 5 * 4;
constexpr size_t kTriangleBytes = 3 * 4;
constexpr size_t kJointBytes = 2 * 4 + 10 * 4;
constexpr size_t kPoseBytes = 2 * 4 + 20 * 4;
constexpr size_t kAnimBytes = 5 * 4;
constexpr size_t kMaxExamples = 10;
constexpr uint32_t kLoopFlag = 1;
constexpr float kDefaultFps = 25.0f;

enum ArrayType : uint32_t { kPosition = 0, kTexcoord = 1, kNormal = 2, kTangent = 3, kBlendIndexes = 4, kBlendWeights = 5, kColor = 6 };
enum Format : uint32_t { kByte = 0, kUByte, kShort, kUShort, kInt, kUInt, kHalf, kFloat, kDouble, kFormatCount };
constexpr uint32_t kFormatBytes[kFormatCount] = {1, 1, 2, 2, 4, 4, 2, 4, 8};

struct Header {
    uint32_t version, filesize, flags;
    uint32_t num_text, ofs_text;
    uint32_t num_meshes, ofs_meshes;
    uint32_t num_vertexarrays, num_vertexes, ofs_vertexarrays;
    uint32_t num_triangles, ofs_triangles, ofs_adjacency;
    uint32_t num_joints, ofs_joints;
    uint32_t num_poses, ofs_poses;
    uint32_t num_anims, ofs_anims;
    uint32_t num_frames, num_framechannels, ofs_frames, ofs_bounds;
    uint32_t num_comment, ofs_comment, num_extensions, ofs_extensions;
};

// Little-endian reads from a buffer whose bounds the caller has checked.
uint32_t u32(const uint8_t* p) {
    return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}
int32_t i32(const uint8_t* p) { return static_cast<int32_t>(u32(p)); }
float f32(const uint8_t* p) {
    const uint32_t bits = u32(p);
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}
uint16_t u16(const uint8_t* p) { return static_cast<uint16_t>(p[0] | p[1] << 8); }

float halfToFloat(uint16_t h) {
    const int sign = (h >> 15) ? -1 : 1;
    const int exp = (h >> 10) & 0x1f;
    const int mant = h & 0x3ff;
    if (exp == 0) return sign * std::ldexp(static_cast<float>(mant), -24);
    if (exp == 31) return mant ? std::nanf("") : sign * INFINITY;
    return sign * std::ldexp(static_cast<float>(mant | 0x400), exp - 25);
}

// Component `c` of vertex `v` of an array, as a number; integer formats are scaled to [-1, 1] /
// [0, 1] when `normalized`.
double component(const uint8_t* base, uint32_t format, uint32_t size, size_t v, uint32_t c, bool normalized) {
    const uint8_t* p = base + (v * size + c) * kFormatBytes[format];
    switch (format) {
        case kByte: return normalized ? static_cast<int8_t>(p[0]) / 127.0 : static_cast<int8_t>(p[0]);
        case kUByte: return normalized ? p[0] / 255.0 : p[0];
        case kShort: return normalized ? static_cast<int16_t>(u16(p)) / 32767.0 : static_cast<int16_t>(u16(p));
        case kUShort: return normalized ? u16(p) / 65535.0 : u16(p);
        case kInt: return normalized ? i32(p) / 2147483647.0 : i32(p);
        case kUInt: return normalized ? u32(p) / 4294967295.0 : u32(p);
        case kHalf: return halfToFloat(u16(p));
        case kFloat: return f32(p);
        default: {
            const uint64_t bits = uint64_t(u32(p)) | uint64_t(u32(p + 4)) << 32;
            double d;
            std::memcpy(&d, &bits, 8);
            return d;
        }
    }
}

struct VertexArray {
    const uint8_t* data = nullptr;  // null: absent
    uint32_t format = 0, size = 0;
    double get(size_t v, uint32_t c, bool normalized = false) const {
        return component(data, format, size, v, c, normalized);
    }
};

struct Joint {
    uint32_t name;
    int32_t parent;
    float channel[10];
};

struct Pose {
    int32_t parent;
    uint32_t mask;
    float offset[10], scale[10];
};

bool finite(const glm::vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

// Transform from the 10 channel values: translation, rotation (x, y, z, w), scale.
Transform channelsToTransform(const float* c) {
    Transform t;
    t.translation = glm::vec3(c[0], c[1], c[2]);
    glm::quat q(c[6], c[3], c[4], c[5]);
    const float len = std::sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
    t.rotation = len > 0.0f && std::isfinite(len) ? q / len : glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
    t.scale = glm::vec3(c[7], c[8], c[9]);
    return t;
}

glm::dmat4 toDoubleMatrix(const Transform& t) { return glm::dmat4(toMatrix(t)); }

class Parser {
public:
    Parser(const uint8_t* data, size_t size, const std::string& path) : d_(data), size_(size), path_(path) {}

    Result<Model> run() {
        if (auto e = header()) return *e;
        if (auto e = text()) return *e;
        if (auto e = joints()) return *e;
        if (auto e = vertexArrays()) return *e;
        if (auto e = meshes()) return *e;
        if (auto e = anims()) return *e;
        if (model_.meshes.empty() && h_.num_joints == 0) {
            return Error{path_ + ": the IQM file holds no meshes and no joints"};
        }
        model_.path = path_;
        return std::move(model_);
    }

    // An animation-only file (poses, no joints) read onto the joints of its IQM model, whose
    // file `model` parses: the model's skeleton as run() builds it, and the clips.
    Result<Model> runAnimationOnly(Parser& model) {
        if (auto e = header()) return *e;
        if (auto e = text()) return *e;
        if (h_.num_joints != 0 || h_.num_poses == 0) {
            return fail("not an animation-only file (" + std::to_string(h_.num_joints) + " joints, " +
                        std::to_string(h_.num_poses) + " poses)");
        }
        if (auto e = model.header()) return *e;
        if (auto e = model.text()) return *e;
        if (auto e = model.joints()) return *e;
        joints_ = model.joints_;
        nodeOfJoint_ = model.nodeOfJoint_;
        model_.skeleton = model.model_.skeleton;
        modelPath_ = &model.path_;
        if (auto e = anims()) return *e;
        model_.materials.emplace_back();  // a model without meshes, as a joints-only file gives
        model_.path = path_;
        return std::move(model_);
    }

private:
    using MaybeError = std::optional<Error>;

    Error fail(const std::string& what) const { return Error{path_ + ": IQM: " + what}; }

    // `count` elements of `bytes` each at `offset` lie inside the file.
    MaybeError range(const char* what, uint64_t offset, uint64_t count, uint64_t bytes) const {
        const uint64_t total = count * bytes;  // count < 2^32, bytes < 2^32: no overflow
        if (offset > size_ || total > size_ - offset) {
            return fail(std::string(what) + " (" + std::to_string(count) + " x " + std::to_string(bytes) +
                        " bytes at offset " + std::to_string(offset) + ") run past the end of the file (" +
                        std::to_string(size_) + " bytes)");
        }
        return std::nullopt;
    }

    MaybeError header() {
        if (size_ < kHeaderBytes) {
            return Error{path_ + ": too small for an IQM header (" + std::to_string(size_) + " bytes, " +
                         std::to_string(kHeaderBytes) + " needed)"};
        }
        if (std::memcmp(d_, "INTERQUAKEMODEL\0", 16) != 0) return Error{path_ + ": not an IQM file (no INTERQUAKEMODEL magic)"};
        uint32_t v[27];
        for (int i = 0; i < 27; ++i) v[i] = u32(d_ + 16 + 4 * i);
        static_assert(sizeof(Header) == sizeof(v));
        std::memcpy(&h_, v, sizeof(v));
        if (h_.version != 2) {
            return fail("version " + std::to_string(h_.version) + " is not supported (only version 2; re-export with a current IQM tool)");
        }
        if (h_.filesize > size_) {
            return fail("truncated: the header says " + std::to_string(h_.filesize) + " bytes, the file has " +
                        std::to_string(size_));
        }
        return std::nullopt;
    }

    MaybeError text() {
        if (auto e = range("text", h_.ofs_text, h_.num_text, 1)) return e;
        return std::nullopt;
    }

    // The NUL-terminated string at `offset` in the text block.
    Result<std::string> str(uint32_t offset, const std::string& what) const {
        if (h_.num_text == 0 && offset == 0) return std::string();
        if (offset >= h_.num_text) {
            return fail(what + " name offset " + std::to_string(offset) + " is outside the text block (" +
                        std::to_string(h_.num_text) + " bytes)");
        }
        const char* s = reinterpret_cast<const char*>(d_ + h_.ofs_text + offset);
        const size_t max = h_.num_text - offset;
        return std::string(s, strnlen(s, max));
    }

    MaybeError joints() {
        const uint32_t n = h_.num_joints;
        if (auto e = range("joints", h_.ofs_joints, n, kJointBytes)) return e;
        joints_.resize(n);
        for (uint32_t j = 0; j < n; ++j) {
            const uint8_t* p = d_ + h_.ofs_joints + size_t(j) * kJointBytes;
            Joint& jt = joints_[j];
            jt.name = u32(p);
            jt.parent = i32(p + 4);
            for (int c = 0; c < 10; ++c) {
                jt.channel[c] = f32(p + 8 + 4 * c);
                if (!std::isfinite(jt.channel[c])) return fail("joint " + std::to_string(j) + " has a non-finite transform");
            }
            if (jt.parent < -1 || jt.parent >= static_cast<int64_t>(n) || jt.parent == static_cast<int32_t>(j)) {
                return fail("joint " + std::to_string(j) + " has parent " + std::to_string(jt.parent) + " (" +
                            std::to_string(n) + " joints)");
            }
        }
        // Parent-first order: keep the file's when it already is; else order by depth (stable).
        std::vector<uint32_t> order(n);
        for (uint32_t j = 0; j < n; ++j) order[j] = j;
        bool sorted = true;
        for (uint32_t j = 0; j < n; ++j) sorted = sorted && joints_[j].parent < static_cast<int32_t>(j);
        if (!sorted) {
            std::vector<uint32_t> depth(n, 0);
            std::vector<uint8_t> state(n, 0);  // 0 unvisited, 1 on the current walk, 2 done
            std::vector<uint32_t> walk;
            for (uint32_t j = 0; j < n; ++j) {
                uint32_t k = j;
                walk.clear();
                for (;;) {
                    if (state[k] == 2) break;
                    if (state[k] == 1) return fail("the joint hierarchy has a cycle at joint " + std::to_string(k));
                    state[k] = 1;
                    walk.push_back(k);
                    if (joints_[k].parent < 0) break;
                    k = static_cast<uint32_t>(joints_[k].parent);
                }
                // Unwind: the top of the walk is a root or below a joint already done.
                for (size_t w = walk.size(); w-- > 0;) {
                    const uint32_t x = walk[w];
                    depth[x] = joints_[x].parent < 0 ? 0 : depth[joints_[x].parent] + 1;
                    state[x] = 2;
                }
            }
            std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return depth[a] < depth[b]; });
        }
        nodeOfJoint_.assign(n, -1);
        for (uint32_t i = 0; i < n; ++i) nodeOfJoint_[order[i]] = static_cast<int32_t>(i + 1);

        Skeleton& sk = model_.skeleton;
        sk.names.push_back("<IQMRoot>");
        sk.parent.push_back(-1);
        Transform root;
        root.rotation = glm::angleAxis(-glm::half_pi<float>(), glm::vec3(1.0f, 0.0f, 0.0f));
        glm::mat4 rootMatrix(1.0f);  // exact: (x, y, z) -> (x, z, -y)
        rootMatrix[1] = glm::vec4(0.0f, 0.0f, -1.0f, 0.0f);
        rootMatrix[2] = glm::vec4(0.0f, 1.0f, 0.0f, 0.0f);
        sk.bindLocal.push_back(rootMatrix);
        sk.bindLocalSqt.push_back(root);
        for (uint32_t i = 0; i < n; ++i) {
            const Joint& jt = joints_[order[i]];
            auto name = str(jt.name, "joint " + std::to_string(order[i]));
            if (!name) return name.error();
            sk.names.push_back(*name);
            sk.parent.push_back(jt.parent < 0 ? 0 : nodeOfJoint_[jt.parent]);
            const Transform t = channelsToTransform(jt.channel);
            sk.bindLocalSqt.push_back(t);
            sk.bindLocal.push_back(toMatrix(t));
        }
        sk.computeBindModel();
        // Inverse bind matrices: base-pose model space (below the root node) in double.
        std::vector<glm::dmat4> model(n + 1, glm::dmat4(1.0));
        inverseBind_.resize(n);
        for (uint32_t i = 0; i < n; ++i) {
            const uint32_t node = i + 1;
            model[node] = model[sk.parent[node]] * toDoubleMatrix(sk.bindLocalSqt[node]);
            const uint32_t j = order[i];
            const double det = glm::determinant(glm::dmat3(model[node]));
            if (!(std::fabs(det) > 1e-18) || !std::isfinite(det)) {
                return fail("joint " + std::to_string(j) + " '" + text::forTerminal(sk.names[node]) + "' has a singular base pose (zero scale)");
            }
            inverseBind_[j] = glm::mat4(glm::inverse(model[node]));
        }
        return std::nullopt;
    }

    MaybeError vertexArrays() {
        if (auto e = range("vertex arrays", h_.ofs_vertexarrays, h_.num_vertexarrays, kVertexArrayBytes)) return e;
        for (uint32_t a = 0; a < h_.num_vertexarrays; ++a) {
            const uint8_t* p = d_ + h_.ofs_vertexarrays + size_t(a) * kVertexArrayBytes;
            const uint32_t type = u32(p), format = u32(p + 8), size = u32(p + 12), offset = u32(p + 16);
            if (type > kColor) continue;  // custom arrays
            const std::string what = "vertex array " + std::to_string(a);
            if (format >= kFormatCount) return fail(what + " has unknown format " + std::to_string(format));
            if (size == 0 || size > 16) return fail(what + " has " + std::to_string(size) + " components per vertex");
            const uint32_t need = type == kPosition || type == kNormal || type == kColor ? 3 : type == kTexcoord ? 2 : 1;
            if (size < need) {
                return fail(what + " has " + std::to_string(size) + " components per vertex, " + std::to_string(need) + " needed");
            }
            if (auto e = range(what.c_str(), offset, h_.num_vertexes, uint64_t(size) * kFormatBytes[format])) return e;
            VertexArray& va = arrays_[type];
            if (va.data) continue;  // the first of a type counts
            va.data = d_ + offset;
            va.format = format;
            va.size = size;
        }
        return std::nullopt;
    }

    MaybeError meshes() {
        if (auto e = range("meshes", h_.ofs_meshes, h_.num_meshes, kMeshBytes)) return e;
        if (auto e = range("triangles", h_.ofs_triangles, h_.num_triangles, kTriangleBytes)) return e;
        if (h_.num_meshes > 0 && !arrays_[kPosition].data) return fail("the file has meshes but no position array");
        const bool skinned = h_.num_joints > 0 && arrays_[kBlendIndexes].data && arrays_[kBlendWeights].data;
        // Meshes may share vertex and triangle ranges: bound what they expand to, as for clips.
        uint64_t expanded = 0;
        const uint64_t budget = std::min(kMaxIqmKeyValues, std::max(kMinIqmKeyBudget, kIqmKeyValuesPerByte * size_));
        for (uint32_t m = 0; m < h_.num_meshes; ++m) {
            const uint8_t* p = d_ + h_.ofs_meshes + size_t(m) * kMeshBytes;
            expanded += uint64_t(u32(p + 12)) * 16 + uint64_t(u32(p + 20)) * 3 + (skinned ? uint64_t(h_.num_joints) * 17 : 0);
            if (expanded > budget) return fail("the meshes expand to more than " + std::to_string(budget) + " values");
        }
        std::map<std::string, uint32_t> materials;
        for (uint32_t m = 0; m < h_.num_meshes; ++m) {
            const uint8_t* p = d_ + h_.ofs_meshes + size_t(m) * kMeshBytes;
            const uint32_t nameOfs = u32(p), materialOfs = u32(p + 4);
            const uint64_t firstVertex = u32(p + 8), numVertexes = u32(p + 12);
            const uint64_t firstTriangle = u32(p + 16), numTriangles = u32(p + 20);
            const std::string what = "mesh " + std::to_string(m);
            if (firstVertex + numVertexes > h_.num_vertexes) {
                return fail(what + " uses vertices " + std::to_string(firstVertex) + ".." +
                            std::to_string(firstVertex + numVertexes) + " of " + std::to_string(h_.num_vertexes));
            }
            if (firstTriangle + numTriangles > h_.num_triangles) {
                return fail(what + " uses triangles " + std::to_string(firstTriangle) + ".." +
                            std::to_string(firstTriangle + numTriangles) + " of " + std::to_string(h_.num_triangles));
            }
            auto name = str(nameOfs, what);
            if (!name) return name.error();
            auto material = str(materialOfs, what + " material");
            if (!material) return material.error();
            if (numTriangles == 0 || numVertexes == 0) {
                ++model_.stats.skippedMeshes;
                continue;
            }
            Mesh mesh;
            mesh.name = name->empty() ? "mesh" + std::to_string(m) : *name;
            mesh.node = 0;
            auto [it, added] = materials.emplace(*material, static_cast<uint32_t>(model_.materials.size()));
            if (added) {
                Material mat;
                mat.name = *material;
                mat.baseColorTexture.path = *material;
                mat.origin = "IQM material";  // its name, read as the base-colour texture
                model_.materials.push_back(std::move(mat));
            }
            mesh.material = it->second;
            const size_t nv = numVertexes;
            mesh.positions.resize(nv);
            for (size_t v = 0; v < nv; ++v) {
                const size_t fv = firstVertex + v;
                const VertexArray& a = arrays_[kPosition];
                mesh.positions[v] = glm::vec3(a.get(fv, 0), a.get(fv, 1), a.get(fv, 2));
                if (!finite(mesh.positions[v])) ++model_.stats.nonFiniteVertices;
            }
            if (const VertexArray& a = arrays_[kTexcoord]; a.data) {
                mesh.uvs.resize(nv);
                for (size_t v = 0; v < nv; ++v) {
                    mesh.uvs[v] = glm::vec2(a.get(firstVertex + v, 0), 1.0 - a.get(firstVertex + v, 1));
                }
            }
            if (const VertexArray& a = arrays_[kColor]; a.data) {
                mesh.colors.resize(nv);
                for (size_t v = 0; v < nv; ++v) {
                    const size_t fv = firstVertex + v;
                    mesh.colors[v] = glm::vec4(a.get(fv, 0, true), a.get(fv, 1, true), a.get(fv, 2, true),
                                               a.size > 3 ? a.get(fv, 3, true) : 1.0);
                }
            }
            mesh.indices.reserve(numTriangles * 3);
            for (uint64_t t = 0; t < numTriangles; ++t) {
                const uint8_t* tp = d_ + h_.ofs_triangles + (firstTriangle + t) * kTriangleBytes;
                uint32_t idx[3];
                for (int k = 0; k < 3; ++k) {
                    const uint64_t vi = u32(tp + 4 * k);
                    if (vi < firstVertex || vi >= firstVertex + numVertexes) {
                        return fail(what + " '" + text::forTerminal(mesh.name) + "' triangle " + std::to_string(firstTriangle + t) +
                                    " uses vertex " + std::to_string(vi) + ", outside the mesh's vertices " +
                                    std::to_string(firstVertex) + ".." + std::to_string(firstVertex + numVertexes - 1));
                    }
                    idx[k] = static_cast<uint32_t>(vi - firstVertex);
                }
                // IQM winds front faces clockwise: reverse to counter-clockwise.
                mesh.indices.insert(mesh.indices.end(), {idx[0], idx[2], idx[1]});
            }
            readNormals(mesh, firstVertex);
            if (skinned) {
                if (auto e = readSkin(mesh, firstVertex, what)) return e;
            }
            model_.meshes.push_back(std::move(mesh));
        }
        if (model_.materials.empty()) model_.materials.emplace_back();
        return std::nullopt;
    }

    void readNormals(Mesh& mesh, size_t firstVertex) {
        const size_t nv = mesh.positions.size();
        mesh.normals.assign(nv, glm::vec3(0.0f));
        if (const VertexArray& a = arrays_[kNormal]; a.data) {
            for (size_t v = 0; v < nv; ++v) {
                const size_t fv = firstVertex + v;
                mesh.normals[v] = glm::vec3(a.get(fv, 0), a.get(fv, 1), a.get(fv, 2));
                if (!finite(mesh.normals[v])) ++model_.stats.nonFiniteVertices;
            }
        } else {
            // Smooth normals, area-weighted, as Assimp's GenSmoothNormals gives other formats.
            for (size_t i = 0; i + 2 < mesh.indices.size(); i += 3) {
                const uint32_t a = mesh.indices[i], b = mesh.indices[i + 1], c = mesh.indices[i + 2];
                const glm::vec3 n = glm::cross(mesh.positions[b] - mesh.positions[a], mesh.positions[c] - mesh.positions[a]);
                if (!finite(n)) continue;
                mesh.normals[a] += n;
                mesh.normals[b] += n;
                mesh.normals[c] += n;
            }
        }
        for (glm::vec3& n : mesh.normals) {
            const float len = glm::length(n);
            n = len > 0.0f && std::isfinite(len) ? n / len : glm::vec3(0.0f, 0.0f, 1.0f);
        }
    }

    MaybeError readSkin(Mesh& mesh, size_t firstVertex, const std::string& what) {
        const VertexArray& ai = arrays_[kBlendIndexes];
        const VertexArray& aw = arrays_[kBlendWeights];
        const uint32_t slots = std::min(ai.size, aw.size);
        const size_t nv = mesh.positions.size();
        const uint32_t nj = h_.num_joints;
        mesh.skinned = true;
        mesh.skin.joints.assign(nodeOfJoint_.begin(), nodeOfJoint_.end());
        mesh.skin.inverseBind = inverseBind_;
        mesh.skin.offsetComputed.assign(nj, 0);
        const uint16_t rigid = static_cast<uint16_t>(mesh.skin.rigidSlot());
        mesh.joints.assign(nv, {rigid, rigid, rigid, rigid});
        mesh.weights.assign(nv, glm::vec4(0.0f));
        mesh.originalInfluenceCount.assign(nv, 0);
        mesh.originalWeightSum.assign(nv, 0.0f);
        WeightStats& ws = mesh.weightStats;
        const bool intWeights = aw.format != kHalf && aw.format != kFloat && aw.format != kDouble;
        std::vector<std::pair<uint32_t, float>> inf;
        for (size_t v = 0; v < nv; ++v) {
            const size_t fv = firstVertex + v;
            inf.clear();
            for (uint32_t s = 0; s < slots; ++s) {
                const double jd = ai.get(fv, s);
                if (!(jd >= 0.0 && jd < nj) || jd != std::floor(jd)) {
                    return fail(what + " vertex " + std::to_string(v) + " has blend index " + std::to_string(jd) +
                                ", not one of the " + std::to_string(nj) + " joints");
                }
                const float w = static_cast<float>(aw.get(fv, s, intWeights));
                if (!std::isfinite(w) || w < 0.0f) {
                    ++ws.invalidWeights;
                    continue;
                }
                if (w == 0.0f) continue;
                const uint32_t j = static_cast<uint32_t>(jd);
                auto same = std::find_if(inf.begin(), inf.end(), [j](const auto& x) { return x.first == j; });
                if (same != inf.end()) same->second += w;
                else inf.emplace_back(j, w);
            }
            const uint32_t vi = static_cast<uint32_t>(v);
            ws.maxInfluences = std::max<uint32_t>(ws.maxInfluences, static_cast<uint32_t>(inf.size()));
            mesh.originalInfluenceCount[v] = static_cast<uint8_t>(std::min<size_t>(inf.size(), 255));
            if (inf.empty()) {
                ++ws.unweightedVertices;
                if (ws.unweightedExamples.size() < kMaxExamples) ws.unweightedExamples.push_back(vi);
                mesh.weights[v] = glm::vec4(1.0f, 0.0f, 0.0f, 0.0f);  // rigid slot: follows the node
                continue;
            }
            double sum = 0.0;
            for (const auto& x : inf) sum += x.second;
            mesh.originalWeightSum[v] = static_cast<float>(sum);
            const float err = static_cast<float>(std::fabs(sum - 1.0));
            ws.worstSumError = std::max(ws.worstSumError, err);
            // Quantized weights (bytes) sum to 1 within rounding: 1/255 per slot.
            const float tolerance = intWeights ? std::max(1e-3f, static_cast<float>(slots) / 255.0f) : 1e-3f;
            if (err > tolerance) {
                ++ws.unnormalizedVertices;
                if (ws.unnormalizedExamples.size() < kMaxExamples) ws.unnormalizedExamples.push_back(vi);
            }
            std::stable_sort(inf.begin(), inf.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
            if (inf.size() > static_cast<size_t>(kMaxInfluences)) {
                ++ws.truncatedVertices;
                if (ws.truncatedExamples.size() < kMaxExamples) ws.truncatedExamples.push_back(vi);
                FullInfluences full;
                full.vertex = vi;
                for (const auto& x : inf) full.influences.emplace_back(static_cast<uint16_t>(x.first), x.second);
                mesh.truncated.push_back(std::move(full));
                inf.resize(kMaxInfluences);
            }
            float kept = 0.0f;
            for (const auto& x : inf) kept += x.second;
            for (size_t k = 0; k < static_cast<size_t>(kMaxInfluences); ++k) {
                const bool has = k < inf.size();
                mesh.joints[v][k] = static_cast<uint16_t>(has ? inf[k].first : inf[0].first);
                mesh.weights[v][static_cast<int>(k)] = has ? inf[k].second / kept : 0.0f;
            }
        }
        return std::nullopt;
    }

    MaybeError anims() {
        if (h_.num_anims == 0) return std::nullopt;
        if (auto e = range("anims", h_.ofs_anims, h_.num_anims, kAnimBytes)) return e;
        const uint32_t nj = static_cast<uint32_t>(joints_.size());
        if (h_.num_poses != nj) {
            if (modelPath_) {
                return Error{path_ + ": " + std::to_string(h_.num_poses) + " poses, the model " + *modelPath_ + " has " +
                             std::to_string(nj) + " joints"};
            }
            if (h_.num_joints == 0) {
                return fail("an animation-only file (" + std::to_string(h_.num_poses) +
                            " poses, no joints): it plays on the joints of its model, as in rigview MODEL.iqm --anim " +
                            path_);
            }
            return fail(std::to_string(h_.num_poses) + " poses for " + std::to_string(nj) + " joints");
        }
        if (auto e = range("poses", h_.ofs_poses, h_.num_poses, kPoseBytes)) return e;
        const uint32_t np = h_.num_poses;
        std::vector<Pose> poses(np);
        uint64_t channels = 0;
        for (uint32_t i = 0; i < np; ++i) {
            const uint8_t* p = d_ + h_.ofs_poses + size_t(i) * kPoseBytes;
            Pose& pose = poses[i];
            pose.parent = i32(p);
            pose.mask = u32(p + 4) & 0x3ffu;
            for (int c = 0; c < 10; ++c) {
                pose.offset[c] = f32(p + 8 + 4 * c);
                pose.scale[c] = f32(p + 48 + 4 * c);
                if (!std::isfinite(pose.offset[c]) || !std::isfinite(pose.scale[c])) {
                    return fail("pose " + std::to_string(i) + " has a non-finite channel offset or scale");
                }
            }
            if (pose.parent != joints_[i].parent && modelPath_) {
                return Error{path_ + ": pose " + std::to_string(i) + "'s parent is " + std::to_string(pose.parent) +
                             ", joint " + std::to_string(i) + " ('" + text::forTerminal(model_.skeleton.names[nodeOfJoint_[i]]) +
                             "')'s parent in " + *modelPath_ + " is " + std::to_string(joints_[i].parent)};
            }
            if (pose.parent != joints_[i].parent) {
                return fail("pose " + std::to_string(i) + " has parent " + std::to_string(pose.parent) + ", its joint has " +
                            std::to_string(joints_[i].parent));
            }
            for (int c = 0; c < 10; ++c) channels += (pose.mask >> c) & 1u;
        }
        if (channels != h_.num_framechannels) {
            return fail("the poses animate " + std::to_string(channels) + " channels, the header says " +
                        std::to_string(h_.num_framechannels) + " per frame");
        }
        if (auto e = range("frames", h_.ofs_frames, uint64_t(h_.num_frames) * h_.num_framechannels, 2)) return e;

        const uint64_t budget = std::min(kMaxIqmKeyValues, std::max(kMinIqmKeyBudget, kIqmKeyValuesPerByte * size_));
        uint64_t values = 0;
        for (uint32_t a = 0; a < h_.num_anims; ++a) {
            const uint8_t* p = d_ + h_.ofs_anims + size_t(a) * kAnimBytes;
            const uint64_t first = u32(p + 4), count = u32(p + 8);
            if (first + count > h_.num_frames) {
                return fail("anim " + std::to_string(a) + " uses frames " + std::to_string(first) + ".." +
                            std::to_string(first + count) + " of " + std::to_string(h_.num_frames));
            }
            values += (count + 1) * (uint64_t(np) * 10 + 1);
            if (values > budget) {
                return fail("the animations expand to more than " + std::to_string(budget) + " key values");
            }
        }
        for (uint32_t a = 0; a < h_.num_anims; ++a) {
            const uint8_t* p = d_ + h_.ofs_anims + size_t(a) * kAnimBytes;
            auto name = str(u32(p), "anim " + std::to_string(a));
            if (!name) return name.error();
            model_.clips.push_back(buildClip(poses, name->empty() ? "clip" + std::to_string(a) : *name, u32(p + 4),
                                             u32(p + 8), f32(p + 12), u32(p + 16)));
        }
        return std::nullopt;
    }

    Clip buildClip(const std::vector<Pose>& poses, const std::string& name, uint32_t first, uint32_t count, float fps,
                   uint32_t flags) {
        const Skeleton& sk = model_.skeleton;
        Clip clip;
        clip.name = name;
        // A rate under one frame per 1000 s is no rate (and 1/fps would overflow float key
        // times): read like a missing one.
        if (!(fps >= 1e-3f) || !std::isfinite(fps)) {
            fps = kDefaultFps;
            clip.ticksPerSecondFromFile = false;
            ++model_.stats.clipsWithoutTicksPerSecond;
        }
        clip.ticksPerSecond = fps;
        clip.sampleRate = std::min(fps, 1000.0f);
        clip.trackOfNode.assign(sk.size(), -1);
        if (count == 0) return clip;
        const bool loop = (flags & kLoopFlag) && count >= 2;
        const uint32_t keys = count + (loop ? 1 : 0);
        std::vector<float> times(keys);
        for (uint32_t k = 0; k < keys; ++k) times[k] = static_cast<float>(static_cast<double>(k) / fps);
        const uint32_t timesRun = clip.addTimes(times.data(), keys);
        clip.startTime = 0.0f;
        clip.duration = times.back();

        // Channel values of every pose at every frame (frame-major), from the packed data.
        const uint32_t np = static_cast<uint32_t>(poses.size());
        std::vector<float> values(size_t(keys) * np * 10);
        for (uint32_t k = 0; k < keys; ++k) {
            const uint32_t frame = first + (k < count ? k : 0);
            const uint8_t* fp = d_ + h_.ofs_frames + size_t(frame) * h_.num_framechannels * 2;
            float* out = values.data() + size_t(k) * np * 10;  // none when the clip has no poses
            for (uint32_t j = 0; j < np; ++j) {
                const Pose& pose = poses[j];
                for (int c = 0; c < 10; ++c) {
                    float v = pose.offset[c];
                    if (pose.mask & (1u << c)) {
                        v += u16(fp) * pose.scale[c];
                        fp += 2;
                    }
                    out[j * 10 + c] = v;
                }
            }
        }
        // One track per joint, in node order; components with no masked channel get one key.
        std::vector<uint32_t> jointOfNode(sk.size(), 0);
        for (uint32_t j = 0; j < np; ++j) jointOfNode[nodeOfJoint_[j]] = j;
        for (size_t node = 1; node < sk.size(); ++node) {
            const uint32_t j = jointOfNode[node];
            const Pose& pose = poses[j];
            Track tr;
            tr.node = static_cast<int32_t>(node);
            auto channel = [&](uint32_t maskBits, auto& keysOut, auto value) {
                Channel ch;
                ch.times = timesRun;
                ch.count = (pose.mask & maskBits) ? keys : 1;
                ch.values = static_cast<uint32_t>(keysOut.size());
                for (uint32_t k = 0; k < ch.count; ++k) {
                    keysOut.push_back(value(channelsToTransform(&values[(size_t(k) * np + j) * 10])));
                }
                return ch;
            };
            tr.translation = channel(0x007u, clip.vec3Keys, [](const Transform& t) { return t.translation; });
            tr.rotation = channel(0x078u, clip.quatKeys, [](const Transform& t) { return t.rotation; });
            tr.scale = channel(0x380u, clip.vec3Keys, [](const Transform& t) { return t.scale; });
            clip.trackOfNode[node] = static_cast<int32_t>(clip.tracks.size());
            clip.tracks.push_back(tr);
        }
        return clip;
    }

    const uint8_t* d_;
    size_t size_;
    const std::string& path_;
    Header h_{};
    std::vector<Joint> joints_;
    std::vector<int32_t> nodeOfJoint_;     // file joint index -> skeleton node
    std::vector<glm::mat4> inverseBind_;   // per file joint
    VertexArray arrays_[kColor + 1];
    Model model_;
    const std::string* modelPath_ = nullptr;  // an animation-only file's model (runAnimationOnly)
};

Result<std::vector<uint8_t>> readIqmFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) return Error{path + ": cannot open the file"};
    const std::streamoff size = in.tellg();
    if (size < 0) return Error{path + ": cannot read the file"};
    if (static_cast<uint64_t>(size) > kMaxIqmBytes) {
        return Error{path + ": IQM: the file is larger than " + std::to_string(kMaxIqmBytes >> 20) + " MiB"};
    }
    std::vector<uint8_t> bytes;
    try {
        bytes.resize(static_cast<size_t>(size));
    } catch (const std::bad_alloc&) {
        return Error{path + ": out of memory while reading the IQM file (see RIGVIEW_MAX_MEMORY_MB)"};
    }
    in.seekg(0);
    if (size > 0 && !in.read(reinterpret_cast<char*>(bytes.data()), size)) return Error{path + ": cannot read the file"};
    return bytes;
}

}  // namespace

Result<Model> parseIqm(const uint8_t* data, size_t size, const std::string& path) {
    try {
        return Parser(data, size, path).run();
    } catch (const std::bad_alloc&) {
        return Error{path + ": out of memory while reading the IQM file (see RIGVIEW_MAX_MEMORY_MB)"};
    }
}

Result<Model> importIqm(const std::string& path) {
    Result<std::vector<uint8_t>> bytes = readIqmFile(path);
    if (!bytes) return bytes.error();
    return parseIqm(bytes->data(), bytes->size(), path);
}

bool isIqmAnimationOnly(const uint8_t* data, size_t size) {
    return size >= kHeaderBytes && std::memcmp(data, "INTERQUAKEMODEL\0", 16) == 0 && u32(data + 16) == 2 &&
           u32(data + 16 + 4 * 13) == 0 && u32(data + 16 + 4 * 15) > 0;
}

bool isIqmAnimationOnlyFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    uint8_t header[kHeaderBytes];
    return in && in.read(reinterpret_cast<char*>(header), kHeaderBytes) && isIqmAnimationOnly(header, kHeaderBytes);
}

Result<Model> parseIqmAnimations(const uint8_t* anim, size_t animSize, const std::string& animPath, const uint8_t* model,
                                 size_t modelSize, const std::string& modelPath) {
    try {
        Parser modelParser(model, modelSize, modelPath);
        return Parser(anim, animSize, animPath).runAnimationOnly(modelParser);
    } catch (const std::bad_alloc&) {
        return Error{animPath + ": out of memory while reading the IQM file (see RIGVIEW_MAX_MEMORY_MB)"};
    }
}

Result<Model> importIqmAnimations(const std::string& animPath, const std::string& modelPath) {
    Result<std::vector<uint8_t>> anim = readIqmFile(animPath);
    if (!anim) return anim.error();
    Result<std::vector<uint8_t>> model = readIqmFile(modelPath);
    if (!model) return model.error();
    return parseIqmAnimations(anim->data(), anim->size(), animPath, model->data(), model->size(), modelPath);
}

}  // namespace rig
