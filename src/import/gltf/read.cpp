#include "import/gltf/read.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <glm/gtc/type_ptr.hpp>

#include "import/gltf/accessors.h"
#include "import/gltf/clips.h"
#include "import/gltf/document.h"
#include "import/gltf/markers.h"
#include "import/gltf/materials.h"
#include "import/gltf/morphs.h"
#include "import/gltf/primitives.h"
#include "import/gltf/ranges.h"
#include "import/source_files.h"
#include "import/texture_limits.h"

namespace rig::gltf {

namespace {

constexpr size_t kMaxDepth = 100000;  // deepest node hierarchy read

const json* member(const json& o, const char* key) {
    if (!o.is_object()) return nullptr;
    const auto it = o.find(key);
    return it == o.end() ? nullptr : &*it;
}

// Members of the wrong type where the reader relies on them: "<where>.<key> is not <what>".
std::string structureError(const json& doc) {
    auto check = [](const json& o, const char* key, bool (json::*is)() const noexcept, const char* what,
                    const std::string& where) -> std::string {
        const json* v = member(o, key);
        return v && !(v->*is)() ? where + "." + key + " is not " + what : "";
    };
    std::string e;
    auto each = [&](const char* array, auto&& per) {
        const json* a = member(doc, array);
        if (!e.empty() || !a) return;
        if (!a->is_array()) {
            e = std::string(array) + " is not an array";
            return;
        }
        for (size_t i = 0; i < a->size() && e.empty(); ++i) {
            const std::string where = std::string(array) + "[" + std::to_string(i) + "]";
            if (!(*a)[i].is_object()) {
                e = where + " is not an object";
                return;
            }
            per((*a)[i], where);
        }
    };
    if (const json* s = member(doc, "scene"); s && !s->is_number_unsigned()) return "scene is not an index";
    each("scenes", [&](const json& o, const std::string& w) {
        e = check(o, "nodes", &json::is_array, "an array", w);
        if (e.empty()) e = check(o, "name", &json::is_string, "a string", w);
    });
    each("nodes", [&](const json& o, const std::string& w) {
        for (const char* k : {"children", "matrix", "translation", "rotation", "scale", "weights"}) {
            if (e.empty()) e = check(o, k, &json::is_array, "an array", w);
        }
        for (const char* k : {"mesh", "skin"}) {
            if (e.empty()) e = check(o, k, &json::is_number_unsigned, "an index", w);
        }
        if (e.empty()) e = check(o, "name", &json::is_string, "a string", w);
    });
    each("meshes", [&](const json& o, const std::string& w) {
        e = check(o, "primitives", &json::is_array, "an array", w);
        if (e.empty()) e = check(o, "name", &json::is_string, "a string", w);
        const json* prims = member(o, "primitives");
        for (size_t p = 0; e.empty() && prims && p < prims->size(); ++p) {
            const std::string pw = w + ".primitives[" + std::to_string(p) + "]";
            const json& prim = (*prims)[p];
            if (!prim.is_object()) e = pw + " is not an object";
            if (e.empty()) e = check(prim, "attributes", &json::is_object, "an object", pw);
            if (e.empty()) e = check(prim, "targets", &json::is_array, "an array", pw);
            for (const char* k : {"indices", "material", "mode"}) {
                if (e.empty()) e = check(prim, k, &json::is_number_unsigned, "an index", pw);
            }
        }
    });
    each("skins", [&](const json& o, const std::string& w) {
        e = check(o, "joints", &json::is_array, "an array", w);
        if (e.empty()) e = check(o, "inverseBindMatrices", &json::is_number_unsigned, "an index", w);
    });
    each("animations", [&](const json& o, const std::string& w) {
        e = check(o, "channels", &json::is_array, "an array", w);
        if (e.empty()) e = check(o, "samplers", &json::is_array, "an array", w);
        if (e.empty()) e = check(o, "name", &json::is_string, "a string", w);
    });
    // A material's texture references: an object with an index, its numbers numbers, its
    // extensions objects.
    auto textureInfo = [&](const json& o, const char* key, const std::string& w) {
        const json* info = member(o, key);
        if (!e.empty() || !info) return;
        const std::string at = w + "." + key;
        if (!info->is_object()) {
            e = at + " is not an object";
            return;
        }
        for (const char* k : {"index", "texCoord"}) {
            if (e.empty()) e = check(*info, k, &json::is_number_unsigned, "an index", at);
        }
        for (const char* k : {"scale", "strength"}) {
            if (e.empty()) e = check(*info, k, &json::is_number, "a number", at);
        }
        if (e.empty()) e = check(*info, "extensions", &json::is_object, "an object", at);
        if (const json* ext = member(*info, "extensions"); e.empty() && ext) {
            e = check(*ext, "KHR_texture_transform", &json::is_object, "an object", at + ".extensions");
        }
    };
    each("materials", [&](const json& o, const std::string& w) {
        e = check(o, "name", &json::is_string, "a string", w);
        if (e.empty()) e = check(o, "pbrMetallicRoughness", &json::is_object, "an object", w);
        if (e.empty()) e = check(o, "extensions", &json::is_object, "an object", w);
        for (const char* k : {"normalTexture", "occlusionTexture", "emissiveTexture"}) textureInfo(o, k, w);
        if (const json* pbr = member(o, "pbrMetallicRoughness")) {
            for (const char* k : {"baseColorTexture", "metallicRoughnessTexture"}) textureInfo(*pbr, k, w + ".pbrMetallicRoughness");
        }
    });
    return e;
}

// glTF 1.0 (asset.version "1.x", or a version 1 .glb container): Assimp's.
bool isGltf1(const Document& doc) {
    if (doc.glb().isGlb) return doc.glb().version == 1;
    const json* asset = doc.valid() ? member(doc.json(), "asset") : nullptr;
    const json* version = asset ? member(*asset, "version") : nullptr;
    if (version && version->is_string()) return version->get<std::string>().rfind("1", 0) == 0;
    if (version && version->is_number()) return version->get<double>() < 2.0;
    return false;
}

// Draco-compressed meshes (KHR_draco_mesh_compression): Assimp's, which decodes them.
bool usesDraco(const Document& doc) {
    const json* used = doc.valid() ? member(doc.json(), "extensionsUsed") : nullptr;
    if (!used || !used->is_array()) return false;
    return std::any_of(used->begin(), used->end(), [](const json& e) { return e == "KHR_draco_mesh_compression"; });
}

glm::mat4 nodeMatrix(const json& node) {
    auto numbers = [&](const char* key, float* out, size_t n) {
        const json* v = member(node, key);
        if (!v || !v->is_array() || v->size() != n) return false;
        for (size_t i = 0; i < n; ++i) {
            if (!(*v)[i].is_number()) return false;
        }
        for (size_t i = 0; i < n; ++i) out[i] = (*v)[i].get<float>();
        return true;
    };
    float m[16];
    if (numbers("matrix", m, 16)) return glm::make_mat4(m);  // column-major, as glm stores it
    float t[3] = {0, 0, 0}, r[4] = {0, 0, 0, 1}, s[3] = {1, 1, 1};
    numbers("translation", t, 3);
    numbers("rotation", r, 4);
    numbers("scale", s, 3);
    const glm::mat4 rotation = glm::mat4_cast(glm::quat(r[3], r[0], r[1], r[2]));
    glm::mat4 out = rotation;
    for (int c = 0; c < 3; ++c) out[c] *= s[c];
    out[3] = glm::vec4(t[0], t[1], t[2], 1.0f);
    return out;
}

// The default scene's node tree, flattened parents first (pre-order, children in file order): one
// root node is the tree's root; several hang from a node "ROOT".
std::string flattenScene(const json& doc, Skeleton& sk, std::vector<int32_t>& nodeOfJson, std::vector<int32_t>& jsonOfNode) {
    const json* nodes = member(doc, "nodes");
    const json* scenes = member(doc, "scenes");
    const size_t nodeCount = nodes ? nodes->size() : 0;
    nodeOfJson.assign(nodeCount, -1);
    if (!scenes || scenes->empty()) return "no scene";
    const size_t si = member(doc, "scene") ? member(doc, "scene")->get<size_t>() : 0;
    if (si >= scenes->size()) return "scene " + std::to_string(si) + " does not exist";
    std::vector<size_t> roots;
    if (const json* list = member((*scenes)[si], "nodes")) {
        for (const json& r : *list) {
            if (!r.is_number_unsigned() || r.get<size_t>() >= nodeCount) return "scenes[" + std::to_string(si) + "] names a node that does not exist";
            roots.push_back(r.get<size_t>());
        }
    }
    if (roots.empty()) return "";
    struct Item {
        int64_t json;  // -1: the "ROOT" above several roots
        int32_t parent;
        size_t depth;
    };
    std::vector<Item> stack;
    if (roots.size() == 1) {
        stack.push_back({static_cast<int64_t>(roots[0]), -1, 0});
    } else {
        sk.names.emplace_back("ROOT");
        sk.parent.push_back(-1);
        sk.bindLocal.emplace_back(1.0f);
        jsonOfNode.push_back(-1);
        for (size_t k = roots.size(); k-- > 0;) stack.push_back({static_cast<int64_t>(roots[k]), 0, 1});
    }
    while (!stack.empty()) {
        const Item it = stack.back();
        stack.pop_back();
        const size_t j = static_cast<size_t>(it.json);
        if (nodeOfJson[j] >= 0) return "node hierarchy has a cycle or a shared node at nodes[" + std::to_string(j) + "] ('" + nodeName(*nodes, j) + "')";
        if (it.depth > kMaxDepth) return "node hierarchy is too deep";
        const int32_t index = static_cast<int32_t>(sk.names.size());
        nodeOfJson[j] = index;
        jsonOfNode.push_back(static_cast<int32_t>(j));
        sk.names.push_back(nodeName(*nodes, j));
        sk.parent.push_back(it.parent);
        sk.bindLocal.push_back(nodeMatrix((*nodes)[j]));
        if (const json* children = member((*nodes)[j], "children")) {
            for (size_t c = children->size(); c-- > 0;) {
                const json& child = (*children)[c];
                if (!child.is_number_unsigned() || child.get<size_t>() >= nodeCount) {
                    return "nodes[" + std::to_string(j) + "].children names a node that does not exist";
                }
                stack.push_back({static_cast<int64_t>(child.get<size_t>()), index, it.depth + 1});
            }
        }
    }
    sk.bindLocalSqt.resize(sk.size());
    for (size_t i = 0; i < sk.size(); ++i) decompose(sk.bindLocal[i], sk.bindLocalSqt[i]);
    sk.computeBindModel();
    return "";
}

// skins[k] bound to the skeleton (joints by node index, inverse bind matrices, identity where the
// file gives none).
std::string readSkin(const Document& document, const json& skin, size_t k, const json& nodes,
                     const std::vector<int32_t>& nodeOfJson, SkinBinding& out) {
    if (const json* joints = member(skin, "joints")) {
        for (const json& j : *joints) {
            const bool ok = j.is_number_unsigned() && j.get<size_t>() < nodeOfJson.size();
            out.joints.push_back(ok ? nodeOfJson[j.get<size_t>()] : -1);
            out.jointNames.push_back(ok ? nodeName(nodes, j.get<size_t>()) : "joint" + std::to_string(out.jointNames.size()));
        }
    }
    // A vertex names its joint's palette slot in 16 bits (the last slot is the rigid one).
    if (out.joints.size() > 65534) {
        return "skins[" + std::to_string(k) + "] has " + std::to_string(out.joints.size()) + " joints; rigview reads at most 65,534 in one skin";
    }
    out.inverseBind.assign(out.joints.size(), glm::mat4(1.0f));
    out.offsetComputed.assign(out.joints.size(), 0);
    const json* ibm = member(skin, "inverseBindMatrices");
    if (!ibm) return "";
    AccessorData acc;
    if (!resolveAccessor(document, ibm->get<size_t>(), acc) || acc.components != 16) {
        return "accessors[" + std::to_string(ibm->get<size_t>()) + "] (inverse bind matrices of skins[" + std::to_string(k) + "]) cannot be read";
    }
    std::vector<glm::mat4> matrices(acc.count);
    if (acc.count) decodeFloats(acc, 16, glm::value_ptr(matrices[0]));
    std::copy_n(matrices.begin(), std::min(matrices.size(), out.inverseBind.size()), out.inverseBind.begin());
    return "";
}

bool finiteMatrix(const glm::mat4& m) {
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r)
            if (!std::isfinite(m[c][r])) return false;
    return true;
}

// The images a glTF holds itself (a bufferView or a data: URI), in image order, as embedded
// textures "*0", "*1"...
void readEmbeddedImages(const Document& document, Model& model) {
    const json* images = arrayMember(document, "images");
    const json* views = arrayMember(document, "bufferViews");
    for (size_t i = 0; images && i < images->size(); ++i) {
        const json& image = (*images)[i];
        const json* uri = member(image, "uri");
        const json* view = member(image, "bufferView");
        const bool dataUri = uri && uri->is_string() && uri->get<std::string>().rfind("data:", 0) == 0;
        if (!dataUri && !view) continue;
        EmbeddedTexture et;
        if (const json* name = member(image, "name"); name && name->is_string()) et.name = name->get<std::string>();
        std::string_view bytes;
        std::string decoded;
        if (dataUri) {
            const std::string& text = uri->get_ref<const std::string&>();
            const size_t comma = text.find(',');
            if (comma != std::string::npos && text.find(";base64") < comma &&
                decodeBase64(std::string_view(text).substr(comma + 1), decoded)) {
                bytes = decoded;
            }
        } else if (view->is_number_unsigned() && views && view->get<size_t>() < views->size()) {
            const json& v = (*views)[view->get<size_t>()];
            const std::string_view* buffer = document.buffer(unsignedOr(v, "buffer", SIZE_MAX));
            const size_t offset = unsignedOr(v, "byteOffset", 0), length = unsignedOr(v, "byteLength", SIZE_MAX);
            if (buffer && offset <= buffer->size() && length <= buffer->size() - offset) bytes = buffer->substr(offset, length);
        }
        et.width = static_cast<uint32_t>(std::min<size_t>(bytes.size(), UINT32_MAX));
        // An image over the limits keeps its size but none of its bytes (render/texture_image.h).
        if (bytes.size() <= kMaxTextureBytes) et.data.assign(bytes.begin(), bytes.end());
        model.textures.push_back(std::move(et));
    }
}

// Every buffer loaded once, before anything reads one: a missing, refused or short buffer is
// named here rather than as an accessor that cannot be read.
Result<bool> loadBuffers(const Document& document, const SourceFiles& files) {
    const json* buffers = arrayMember(document, "buffers");
    const std::string& path = document.path();
    for (size_t b = 0; buffers && b < buffers->size(); ++b) {
        const json& buf = (*buffers)[b];
        const std::string_view* data = document.buffer(b);
        const json* uri = member(buf, "uri");
        const std::string name = "buffers[" + std::to_string(b) + "]" +
                                 (uri && uri->is_string() && uri->get<std::string>().rfind("data:", 0) != 0 ? " ('" + uri->get<std::string>() + "')" : "");
        if (!data && !files.refused().empty()) return refusedFileError(path, files);
        if (!data) {
            return Error{path + ": " + name + " cannot be read" +
                         (uri ? " (a missing file, or a data: URI that is not base64)" : " (a .glb without its BIN chunk)")};
        }
        const size_t declared = unsignedOr(buf, "byteLength", 0);
        if (data->size() < declared) {
            return Error{path + ": " + name + " holds " + std::to_string(data->size()) + " bytes; its byteLength says " + std::to_string(declared)};
        }
    }
    return true;
}

// Names (and texture paths) as the file's bytes where its JSON held bytes that are not UTF-8
// (Document::hadInvalidUtf8), before anything names a file by them.
void restoreFileBytes(Model& model) {
    for (std::string& n : model.skeleton.names) restoreBytes(n);
    for (Mesh& mesh : model.meshes) {
        restoreBytes(mesh.name);
        for (std::string& n : mesh.missingBones) restoreBytes(n);
        for (MorphTarget& t : mesh.morphTargets) restoreBytes(t.name);
    }
    for (Material& m : model.materials) {
        restoreBytes(m.name);
        for (TextureRef* t : {&m.baseColorTexture, &m.metallicRoughnessTexture, &m.normalTexture, &m.occlusionTexture,
                              &m.emissiveTexture, &m.clearcoatTexture, &m.clearcoatRoughnessTexture, &m.clearcoatNormalTexture}) {
            restoreBytes(t->path);
        }
    }
    for (EmbeddedTexture& t : model.textures) restoreBytes(t.name);
    for (Clip& c : model.clips) {
        restoreBytes(c.name);
        for (Marker& m : c.markers) restoreBytes(m.name);
        for (std::string& e : c.curveStats.examples) restoreBytes(e);
    }
    for (NameBinding& b : model.stats.nameBindings) {
        restoreBytes(b.name);
        restoreBytes(b.usedBy);
    }
    for (std::string& n : model.stats.skippedChannelNames) restoreBytes(n);
}

Result<Model> readDocument(const Document& document, SourceFiles& files, const ImportOptions& options) {
    const std::string& path = document.path();
    if (!document.valid()) {
        // A .glb whose header or chunks are cut short is named by the range check.
        if (Result<bool> ranges = checkRanges(document); !ranges) return ranges.error();
        return Error{path + ": not glTF: " + std::string(document.glb().isGlb ? "its JSON chunk is missing or not a JSON object" : "not a JSON object")};
    }
    const json& doc = document.json();
    if (const std::string e = structureError(doc); !e.empty()) return Error{path + ": " + e};
    // Extensions that change how vertex data is stored cannot be read past; those of materials
    // (KHR_technique_webgl, KHR_materials_*) leave the geometry as it is and are read as far as
    // gltf/materials goes.
    if (const json* required = member(doc, "extensionsRequired"); required && required->is_array()) {
        for (const json& e : *required) {
            const std::string name = e.is_string() ? e.get<std::string>() : "";
            if (name == "EXT_meshopt_compression" || name == "KHR_meshopt_compression" || name == "EXT_mesh_gpu_instancing") {
                return Error{path + ": requires the glTF extension " + name + ", which rigview does not read"};
            }
        }
    }
    if (Result<bool> ranges = checkRanges(document); !ranges) return ranges.error();
    if (Result<bool> buffers = loadBuffers(document, files); !buffers) return buffers.error();

    reportStage(options, ImportStage::Converting);
    Model model;
    model.path = path;
    model.units.file = "metre";
    model.units.metresPerUnit = 1.0;
    model.units.source = "glTF (always metres)";
    std::vector<int32_t> nodeOfJson, jsonOfNode;
    if (const std::string e = flattenScene(doc, model.skeleton, nodeOfJson, jsonOfNode); !e.empty()) return Error{path + ": " + e};
    const Skeleton& sk = model.skeleton;
    NodesByName byName;
    for (size_t i = 0; i < sk.size(); ++i) byName[sk.names[i]].push_back(static_cast<int32_t>(i));

    // Materials in file order, then glTF's default material for primitives that name none.
    const json* materials = arrayMember(document, "materials");
    for (size_t m = 0; materials && m < materials->size(); ++m) model.materials.push_back(readMaterial(doc, (*materials)[m]));
    const uint32_t defaultMaterial = static_cast<uint32_t>(model.materials.size());
    readEmbeddedImages(document, model);

    static const json kNoNodes = json::array();
    const json& nodes = member(doc, "nodes") ? *member(doc, "nodes") : kNoNodes;
    const json* meshes = arrayMember(document, "meshes");
    const json* skins = arrayMember(document, "skins");
    std::vector<std::optional<SkinBinding>> skinOf(skins ? skins->size() : 0);
    // Primitives first counted, so the meshes are reserved once.
    size_t primitiveCount = 0;
    for (size_t n = 0; n < sk.size(); ++n) {
        const json* m = jsonOfNode[n] >= 0 ? member(nodes[jsonOfNode[n]], "mesh") : nullptr;
        if (m && meshes && m->get<size_t>() < meshes->size()) {
            if (const json* prims = member((*meshes)[m->get<size_t>()], "primitives")) primitiveCount += prims->size();
        }
    }
    model.meshes.reserve(primitiveCount);
    for (size_t n = 0; n < sk.size(); ++n) {
        if (jsonOfNode[n] < 0) continue;
        const json& node = nodes[jsonOfNode[n]];
        const json* meshIndex = member(node, "mesh");
        if (!meshIndex) continue;
        const size_t gm = meshIndex->get<size_t>();
        if (!meshes || gm >= meshes->size()) return Error{path + ": nodes[" + std::to_string(jsonOfNode[n]) + "].mesh names a mesh that does not exist"};
        const json& gmesh = (*meshes)[gm];
        const json* prims = member(gmesh, "primitives");
        const json* nameJson = member(gmesh, "name");
        const std::string meshName = nameJson && !nameJson->get<std::string>().empty() ? nameJson->get<std::string>() : "meshes[" + std::to_string(gm) + "]";
        // The node's skin, bound once per mesh node (an unusable inverse bind matrix is worked out
        // from the bind pose relative to this node).
        std::optional<SkinBinding> binding;
        if (const json* skinIndex = member(node, "skin"); skinIndex && skins && skinIndex->get<size_t>() < skins->size()) {
            const size_t k = skinIndex->get<size_t>();
            if (!skinOf[k]) {
                skinOf[k].emplace();
                if (const std::string e = readSkin(document, (*skins)[k], k, nodes, nodeOfJson, *skinOf[k]); !e.empty()) return Error{path + ": " + e};
            }
            if (!skinOf[k]->joints.empty()) {
                binding = *skinOf[k];
                for (size_t j = 0; j < binding->joints.size(); ++j) {
                    const glm::mat4& m = binding->inverseBind[j];
                    if (binding->joints[j] >= 0 && (!finiteMatrix(m) || !(std::fabs(glm::determinant(glm::mat3(m))) > 1e-12f))) {
                        binding->inverseBind[j] = sk.offsetFromBindPose(binding->joints[j], static_cast<int32_t>(n));
                        binding->offsetComputed[j] = 1;
                    }
                }
            }
        }
        for (size_t p = 0; prims && p < prims->size(); ++p) {
            const json& prim = (*prims)[p];
            if (!drawsTriangles(unsignedOr(prim, "mode", 4))) {
                ++model.stats.skippedMeshes;
                continue;
            }
            Mesh mesh;
            mesh.name = prims->size() > 1 ? meshName + "-" + std::to_string(p) : meshName;
            mesh.node = static_cast<int32_t>(n);
            const size_t material = unsignedOr(prim, "material", SIZE_MAX);
            mesh.material = material < defaultMaterial ? static_cast<uint32_t>(material) : defaultMaterial;
            const std::string e = decodePrimitive(document, prim, binding ? &*binding : nullptr, member(gmesh, "weights"), sk, mesh, model.stats);
            if (!e.empty()) return Error{path + ": meshes[" + std::to_string(gm) + "].primitives[" + std::to_string(p) + "]: " + e};
            if (mesh.indices.empty()) {
                return Error{path + ": meshes[" + std::to_string(gm) + "].primitives[" + std::to_string(p) +
                             "] has no triangle whose corners are all among its " + std::to_string(mesh.positions.size()) + " vertices"};
            }
            if (mesh.material == defaultMaterial && model.materials.size() == defaultMaterial) model.materials.push_back(defaultGltfMaterial());
            const std::string label = "bone of mesh '" + mesh.name + "'";
            for (int32_t j : mesh.skin.joints) noteSharedName(sk, byName, j, label, "glTF skin.joints", model.stats);
            model.meshes.push_back(std::move(mesh));
        }
    }
    if (model.materials.empty()) model.materials.push_back(defaultGltfMaterial());

    const json* anims = arrayMember(document, "animations");
    for (size_t a = 0; anims && a < anims->size(); ++a) model.clips.push_back(readClip(document, (*anims)[a], a, nodeOfJson, byName, model));
    applyMorphs(document, model);  // target names and weight channels
    applyMarkers(document, model);
    if (document.hadInvalidUtf8()) restoreFileBytes(model);

    model.stats.refusedPaths = files.refused();
    model.stats.filesRead = files.opened();
    confineTextures(model);
    for (Clip& c : model.clips) shareTimeRuns(c);
    computeSkinBindPose(model);
    if (model.meshes.empty() && model.clips.empty() && model.skeleton.size() <= 1) {
        return Error{path + ": the file holds no meshes, no skeleton and no animation"};
    }
    return model;
}

}  // namespace

std::optional<Result<Model>> importGltf(const std::string& path, const ImportOptions& options) {
    SourceFiles files(path);
    reportStage(options, ImportStage::Reading);
    const std::string* bytes = files.read(path);
    if (!bytes) return Result<Model>(Error{path + ": " + (files.error().empty() ? "cannot be read" : files.error())});
    reportStage(options, ImportStage::Parsing);
    const Document document(path, *bytes, &files);
    if (isGltf1(document) || usesDraco(document)) return std::nullopt;
    return readGltf(document, files, options);
}

Result<Model> readGltf(const Document& document, SourceFiles& files, const ImportOptions& options) {
    // glTF's JSON read where a value has the wrong type makes nlohmann::json throw: one line.
    try {
        return readDocument(document, files, options);
    } catch (const nlohmann::json::exception& e) {
        return Error{document.path() + ": a member has the wrong type (" + std::string(e.what()) + ")"};
    }
}

}  // namespace rig::gltf
