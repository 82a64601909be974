#include "support/gltf_writer.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>

#include <nlohmann/json.hpp>

namespace rig::testing::gltf {

namespace {

using nlohmann::json;

constexpr int kFloat = 5126, kUShort = 5123, kUInt = 5125;
constexpr int kArrayBuffer = 34962, kElementArrayBuffer = 34963;

// One buffer; every accessor gets its own buffer view, 4-byte aligned.
class Builder {
public:
    json accessors = json::array();
    json views = json::array();
    std::vector<uint8_t> bytes;

    int add(const void* data, size_t size, int componentType, size_t count, const char* type, int target,
            const json& min = nullptr, const json& max = nullptr) {
        while (bytes.size() % 4) bytes.push_back(0);
        const size_t offset = bytes.size();
        const auto* p = static_cast<const uint8_t*>(data);
        bytes.insert(bytes.end(), p, p + size);
        json view = {{"buffer", 0}, {"byteOffset", offset}, {"byteLength", size}};
        if (target) view["target"] = target;
        views.push_back(view);
        json acc = {{"bufferView", views.size() - 1},
                    {"componentType", componentType},
                    {"count", count},
                    {"type", type}};
        if (!min.is_null()) acc["min"] = min;
        if (!max.is_null()) acc["max"] = max;
        accessors.push_back(acc);
        return static_cast<int>(accessors.size() - 1);
    }

    int addFloats(const std::vector<float>& f, size_t components, const char* type, int target, bool minMax) {
        const size_t count = components ? f.size() / components : 0;
        json mn = nullptr, mx = nullptr;
        if (minMax && count) {
            mn = json::array();
            mx = json::array();
            for (size_t c = 0; c < components; ++c) {
                float lo = std::numeric_limits<float>::infinity(), hi = -lo;
                for (size_t k = 0; k < count; ++k) {
                    const float v = f[k * components + c];
                    if (!std::isfinite(v)) continue;  // JSON cannot hold NaN or infinity
                    lo = std::min(lo, v);
                    hi = std::max(hi, v);
                }
                if (lo > hi) lo = hi = 0.0f;  // nothing finite
                mn.push_back(lo);
                mx.push_back(hi);
            }
        }
        return add(f.data(), f.size() * sizeof(float), kFloat, count, type, target, mn, mx);
    }
};

json trsOrMatrix(const Node& n) {
    json j = json::object();
    if (!n.name.empty()) j["name"] = n.name;
    if (n.useMatrix) {
        json m = json::array();
        for (int c = 0; c < 4; ++c)
            for (int r = 0; r < 4; ++r) m.push_back(n.matrix[c][r]);
        j["matrix"] = m;
    } else {
        j["translation"] = {n.translation.x, n.translation.y, n.translation.z};
        j["rotation"] = {n.rotation.x, n.rotation.y, n.rotation.z, n.rotation.w};
        j["scale"] = {n.scale.x, n.scale.y, n.scale.z};
    }
    if (!n.children.empty()) j["children"] = n.children;
    if (n.mesh >= 0) j["mesh"] = n.mesh;
    if (n.skin >= 0) j["skin"] = n.skin;
    return j;
}

}  // namespace

std::string base64(const std::vector<uint8_t>& in) {
    static const char* tbl = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    out.reserve((in.size() + 2) / 3 * 4);
    size_t i = 0;
    for (; i + 2 < in.size(); i += 3) {
        const uint32_t v = (uint32_t(in[i]) << 16) | (uint32_t(in[i + 1]) << 8) | in[i + 2];
        out += tbl[(v >> 18) & 63];
        out += tbl[(v >> 12) & 63];
        out += tbl[(v >> 6) & 63];
        out += tbl[v & 63];
    }
    if (i + 1 == in.size()) {
        const uint32_t v = uint32_t(in[i]) << 16;
        out += tbl[(v >> 18) & 63];
        out += tbl[(v >> 12) & 63];
        out += "==";
    } else if (i + 2 == in.size()) {
        const uint32_t v = (uint32_t(in[i]) << 16) | (uint32_t(in[i + 1]) << 8);
        out += tbl[(v >> 18) & 63];
        out += tbl[(v >> 12) & 63];
        out += tbl[(v >> 6) & 63];
        out += '=';
    }
    return out;
}

std::vector<uint8_t> fromBase64(const std::string& in) {
    std::vector<uint8_t> out;
    uint32_t bits = 0;
    int have = 0;
    for (char c : in) {
        const char* tbl = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        const char* at = c ? std::strchr(tbl, c) : nullptr;
        if (!at) continue;  // padding
        bits = (bits << 6) | static_cast<uint32_t>(at - tbl);
        have += 6;
        if (have >= 8) {
            have -= 8;
            out.push_back(static_cast<uint8_t>((bits >> have) & 0xff));
        }
    }
    return out;
}


void appendVec3(std::vector<float>& values, const glm::vec3& v) {
    values.insert(values.end(), {v.x, v.y, v.z});
}

void appendQuat(std::vector<float>& values, const glm::quat& q) {
    values.insert(values.end(), {q.x, q.y, q.z, q.w});
}

glm::mat4 localMatrix(const Node& n) {
    if (n.useMatrix) return n.matrix;
    glm::mat4 t(1.0f);
    t[3] = glm::vec4(n.translation, 1.0f);
    glm::mat4 r = glm::mat4_cast(n.rotation);
    glm::mat4 s(1.0f);
    s[0][0] = n.scale.x;
    s[1][1] = n.scale.y;
    s[2][2] = n.scale.z;
    return t * r * s;
}

glm::mat4 worldMatrix(const Document& doc, int node) {
    glm::mat4 m = localMatrix(doc.nodes[node]);
    int cur = node;
    for (size_t guard = 0; guard < doc.nodes.size(); ++guard) {
        int parent = -1;
        for (size_t p = 0; p < doc.nodes.size() && parent < 0; ++p) {
            const auto& ch = doc.nodes[p].children;
            if (std::find(ch.begin(), ch.end(), cur) != ch.end()) parent = static_cast<int>(p);
        }
        if (parent < 0) break;
        m = localMatrix(doc.nodes[parent]) * m;
        cur = parent;
    }
    return m;
}

std::vector<glm::mat4> inverseBindFromNodes(const Document& doc, const std::vector<int>& joints) {
    std::vector<glm::mat4> out;
    for (int j : joints) out.push_back(glm::inverse(worldMatrix(doc, j)));
    return out;
}

std::string toJson(const Document& doc) {
    Builder b;
    json root;
    root["asset"] = {{"version", "2.0"}, {"generator", "rigview tests/support/gltf_writer"}};

    json nodes = json::array();
    for (const Node& n : doc.nodes) nodes.push_back(trsOrMatrix(n));
    root["nodes"] = nodes;

    std::vector<int> roots = doc.sceneRoots;
    if (roots.empty()) {
        std::vector<uint8_t> isChild(doc.nodes.size(), 0);
        for (const Node& n : doc.nodes)
            for (int c : n.children)
                if (c >= 0 && static_cast<size_t>(c) < isChild.size()) isChild[c] = 1;
        for (size_t i = 0; i < doc.nodes.size(); ++i)
            if (!isChild[i]) roots.push_back(static_cast<int>(i));
    }
    root["scene"] = 0;
    root["scenes"] = json::array({{{"nodes", roots}}});

    json meshes = json::array();
    for (const Mesh& m : doc.meshes) {
        json attrs = json::object();
        std::vector<float> f;
        for (const glm::vec3& p : m.positions) appendVec3(f, p);
        attrs["POSITION"] = b.addFloats(f, 3, "VEC3", kArrayBuffer, true);
        if (!m.normals.empty()) {
            f.clear();
            for (const glm::vec3& n : m.normals) appendVec3(f, n);
            attrs["NORMAL"] = b.addFloats(f, 3, "VEC3", kArrayBuffer, false);
        }
        if (!m.uvs.empty()) {
            f.clear();
            for (const glm::vec2& uv : m.uvs) f.insert(f.end(), {uv.x, uv.y});
            attrs["TEXCOORD_0"] = b.addFloats(f, 2, "VEC2", kArrayBuffer, false);
        }
        if (!m.influences.empty()) {
            size_t most = 1;
            for (const Influences& inf : m.influences) most = std::max(most, inf.size());
            const size_t sets = (most + 3) / 4;
            for (size_t s = 0; s < sets; ++s) {
                std::vector<uint16_t> joints;
                std::vector<float> weights;
                for (const Influences& inf : m.influences) {
                    for (size_t k = 4 * s; k < 4 * s + 4; ++k) {
                        joints.push_back(k < inf.size() ? inf[k].first : 0);
                        weights.push_back(k < inf.size() ? inf[k].second : 0.0f);
                    }
                }
                attrs["JOINTS_" + std::to_string(s)] =
                    b.add(joints.data(), joints.size() * 2, kUShort, m.influences.size(), "VEC4", kArrayBuffer);
                attrs["WEIGHTS_" + std::to_string(s)] = b.addFloats(weights, 4, "VEC4", kArrayBuffer, false);
            }
        }
        json prim = {{"attributes", attrs}, {"mode", 4}};
        if (!m.indices.empty()) {
            uint32_t most = 0;
            for (uint32_t i : m.indices) most = std::max(most, i);
            if (most < 65535) {
                std::vector<uint16_t> idx(m.indices.begin(), m.indices.end());
                prim["indices"] = b.add(idx.data(), idx.size() * 2, kUShort, idx.size(), "SCALAR", kElementArrayBuffer);
            } else {
                prim["indices"] =
                    b.add(m.indices.data(), m.indices.size() * 4, kUInt, m.indices.size(), "SCALAR", kElementArrayBuffer);
            }
        }
        if (m.material >= 0) prim["material"] = m.material;
        json targetNames = json::array();
        bool named = !m.targets.empty();
        for (const MorphTarget& t : m.targets) {
            json target = json::object();
            f.clear();
            for (const glm::vec3& p : t.positions) appendVec3(f, p);
            target["POSITION"] = b.addFloats(f, 3, "VEC3", kArrayBuffer, true);
            if (!t.normals.empty()) {
                f.clear();
                for (const glm::vec3& n : t.normals) appendVec3(f, n);
                target["NORMAL"] = b.addFloats(f, 3, "VEC3", kArrayBuffer, false);
            }
            prim["targets"].push_back(target);
            targetNames.push_back(t.name);
            named = named && !t.name.empty();
        }
        json mesh = {{"primitives", json::array({prim})}};
        if (!m.name.empty()) mesh["name"] = m.name;
        if (!m.weights.empty()) mesh["weights"] = m.weights;
        if (named) mesh["extras"] = {{"targetNames", targetNames}};
        meshes.push_back(mesh);
    }
    if (!meshes.empty()) root["meshes"] = meshes;

    json skins = json::array();
    for (const Skin& s : doc.skins) {
        json skin = {{"joints", s.joints}};
        if (!s.inverseBind.empty()) {
            std::vector<float> f;
            for (const glm::mat4& m : s.inverseBind)
                for (int c = 0; c < 4; ++c)
                    for (int r = 0; r < 4; ++r) f.push_back(m[c][r]);
            skin["inverseBindMatrices"] = b.addFloats(f, 16, "MAT4", 0, false);
        }
        skins.push_back(skin);
    }
    if (!skins.empty()) root["skins"] = skins;

    json materials = json::array(), textures = json::array(), images = json::array();
    for (const Material& m : doc.materials) {
        json pbr = {{"baseColorFactor", {m.baseColor.r, m.baseColor.g, m.baseColor.b, m.baseColor.a}},
                    {"metallicFactor", 0.0},
                    {"roughnessFactor", 1.0}};
        if (!m.textureUri.empty()) {
            images.push_back({{"uri", m.textureUri}});
            textures.push_back({{"source", images.size() - 1}});
            pbr["baseColorTexture"] = {{"index", textures.size() - 1}};
        }
        json mat = {{"pbrMetallicRoughness", pbr}};
        if (!m.name.empty()) mat["name"] = m.name;
        materials.push_back(mat);
    }
    if (!materials.empty()) root["materials"] = materials;
    if (!images.empty()) {
        root["images"] = images;
        root["textures"] = textures;
    }

    json animations = json::array();
    bool quantized = false;
    for (const Animation& a : doc.animations) {
        json channels = json::array(), samplers = json::array();
        for (const Channel& c : a.channels) {
            const bool rot = c.path == "rotation", weights = c.path == "weights";
            const int in = b.addFloats(c.times, 1, "SCALAR", 0, true);
            int out = -1;
            if (rot && (c.componentType == 5122 || c.componentType == 5120)) {
                const bool shorts = c.componentType == 5122;
                std::vector<int16_t> s;
                std::vector<int8_t> y;
                for (float v : c.values) {
                    s.push_back(static_cast<int16_t>(std::lround(v * 32767.0f)));
                    y.push_back(static_cast<int8_t>(std::lround(v * 127.0f)));
                }
                out = shorts ? b.add(s.data(), s.size() * 2, 5122, s.size() / 4, "VEC4", 0)
                             : b.add(y.data(), y.size(), 5120, y.size() / 4, "VEC4", 0);
                b.accessors[out]["normalized"] = true;
                quantized = true;
            } else {
                out = weights ? b.addFloats(c.values, 1, "SCALAR", 0, false)
                              : b.addFloats(c.values, rot ? 4 : 3, rot ? "VEC4" : "VEC3", 0, false);
            }
            samplers.push_back({{"input", in}, {"output", out}, {"interpolation", c.interpolation}});
            channels.push_back({{"sampler", samplers.size() - 1}, {"target", {{"node", c.node}, {"path", c.path}}}});
        }
        json anim = {{"channels", channels}, {"samplers", samplers}};
        if (!a.name.empty()) anim["name"] = a.name;
        animations.push_back(anim);
    }
    if (!animations.empty()) root["animations"] = animations;
    if (quantized) {
        root["extensionsUsed"] = {"KHR_mesh_quantization"};
        root["extensionsRequired"] = {"KHR_mesh_quantization"};
    }

    if (!b.bytes.empty()) {
        root["buffers"] = json::array(
            {{{"byteLength", b.bytes.size()}, {"uri", "data:application/octet-stream;base64," + base64(b.bytes)}}});
        root["bufferViews"] = b.views;
        root["accessors"] = b.accessors;
    }
    return root.dump(1);
}

bool write(const Document& doc, const std::string& path) {
    std::ofstream out(path, std::ios::binary);
    if (!out) return false;
    out << toJson(doc);
    return static_cast<bool>(out);
}

}  // namespace rig::testing::gltf
