#include "import/assimp/collada_skins.h"

#include <assimp/scene.h>

#include <cctype>
#include <cmath>
#include <charconv>
#include <map>
#include <optional>

#include "import/assimp/scene_repair.h"

namespace rig::scene {

namespace {

// A start tag: its name and attribute text, and where the scan goes on.
struct Tag {
    std::string_view name;
    std::string_view attributes;
    bool closing = false;      // </name>
    bool selfClosing = false;  // <name ... />
    size_t end = 0;            // just past '>'
};

// The next tag at or after `from` (comments, declarations and processing instructions skipped).
std::optional<Tag> nextTag(std::string_view xml, size_t from) {
    size_t at = from;
    while (true) {
        at = xml.find('<', at);
        if (at == std::string_view::npos) return std::nullopt;
        if (xml.compare(at, 4, "<!--") == 0) {
            const size_t close = xml.find("-->", at + 4);
            if (close == std::string_view::npos) return std::nullopt;
            at = close + 3;
            continue;
        }
        if (at + 1 < xml.size() && (xml[at + 1] == '!' || xml[at + 1] == '?')) {
            const size_t close = xml.find('>', at + 2);
            if (close == std::string_view::npos) return std::nullopt;
            at = close + 1;
            continue;
        }
        break;
    }
    const size_t close = xml.find('>', at + 1);
    if (close == std::string_view::npos) return std::nullopt;
    Tag t;
    size_t p = at + 1;
    if (p < close && xml[p] == '/') {
        t.closing = true;
        ++p;
    }
    const size_t nameStart = p;
    while (p < close && !std::isspace(static_cast<unsigned char>(xml[p])) && xml[p] != '/') ++p;
    t.name = xml.substr(nameStart, p - nameStart);
    // A namespace prefix is not part of the element's name here.
    if (const size_t colon = t.name.find(':'); colon != std::string_view::npos) t.name.remove_prefix(colon + 1);
    t.selfClosing = close > at && xml[close - 1] == '/';
    t.attributes = xml.substr(p, close - p - (t.selfClosing ? 1 : 0));
    t.end = close + 1;
    return t;
}

// The value of attribute `name` in a tag's attribute text ("" if absent).
std::string_view attribute(std::string_view attrs, std::string_view name) {
    size_t p = 0;
    while (p < attrs.size()) {
        while (p < attrs.size() && std::isspace(static_cast<unsigned char>(attrs[p]))) ++p;
        const size_t keyStart = p;
        while (p < attrs.size() && attrs[p] != '=' && !std::isspace(static_cast<unsigned char>(attrs[p]))) ++p;
        const std::string_view key = attrs.substr(keyStart, p - keyStart);
        while (p < attrs.size() && std::isspace(static_cast<unsigned char>(attrs[p]))) ++p;
        if (p >= attrs.size() || attrs[p] != '=') {
            if (p == keyStart) ++p;
            continue;
        }
        ++p;
        while (p < attrs.size() && std::isspace(static_cast<unsigned char>(attrs[p]))) ++p;
        if (p >= attrs.size() || (attrs[p] != '"' && attrs[p] != '\'')) return {};
        const char quote = attrs[p++];
        const size_t valueEnd = attrs.find(quote, p);
        if (valueEnd == std::string_view::npos) return {};
        if (key == name) return attrs.substr(p, valueEnd - p);
        p = valueEnd + 1;
    }
    return {};
}

std::string_view localRef(std::string_view uri) {
    if (!uri.empty() && uri.front() == '#') uri.remove_prefix(1);
    return uri;
}

// Sixteen numbers of element text, or false.
bool readMatrix(std::string_view text, std::array<float, 16>& out) {
    size_t p = 0;
    for (float& v : out) {
        while (p < text.size() && std::isspace(static_cast<unsigned char>(text[p]))) ++p;
        if (p >= text.size()) return false;
        const char* begin = text.data() + p;
        const char* end = text.data() + text.size();
        if (*begin == '+') ++begin;
        const auto [next, ec] = std::from_chars(begin, end, v);
        if (ec != std::errc() || !std::isfinite(v)) return false;
        p = static_cast<size_t>(next - text.data());
    }
    return true;
}

}  // namespace

std::vector<ColladaController> scanColladaControllers(std::string_view xml) {
    std::vector<ColladaController> out;
    size_t at = 0;
    while (auto tag = nextTag(xml, at)) {
        at = tag->end;
        if (tag->closing || tag->selfClosing || tag->name != "controller") continue;
        ColladaController c;
        c.id = std::string(attribute(tag->attributes, "id"));
        // The controller's first element of interest: <skin> or <morph>, then a skin's
        // <bind_shape_matrix>, before </controller>.
        bool kindKnown = false, done = false;
        while (!done) {
            auto inner = nextTag(xml, at);
            if (!inner) break;
            at = inner->end;
            if (inner->closing) {
                if (inner->name == "controller" || (kindKnown && (inner->name == "skin" || inner->name == "morph"))) done = true;
                continue;
            }
            if (!kindKnown && (inner->name == "skin" || inner->name == "morph")) {
                c.kind = inner->name == "skin" ? ColladaController::Kind::Skin : ColladaController::Kind::Morph;
                c.source = std::string(localRef(attribute(inner->attributes, "source")));
                kindKnown = true;
                if (inner->selfClosing) done = true;
            } else if (kindKnown && c.kind == ColladaController::Kind::Skin && inner->name == "bind_shape_matrix" &&
                       !inner->selfClosing) {
                const size_t close = xml.find('<', at);
                if (close == std::string_view::npos) break;
                c.hasBindShape = readMatrix(xml.substr(at, close - at), c.bindShape);
                at = close;
            }
        }
        if (kindKnown && !c.id.empty()) out.push_back(std::move(c));
    }
    return out;
}

std::string skinOverMorph(const std::vector<ColladaController>& controllers) {
    std::map<std::string_view, const ColladaController*> byId;
    for (const ColladaController& c : controllers) byId.emplace(c.id, &c);
    for (const ColladaController& c : controllers) {
        if (c.kind != ColladaController::Kind::Skin) continue;
        const auto it = byId.find(c.source);
        if (it == byId.end() || it->second->kind != ColladaController::Kind::Morph) continue;
        return "COLLADA controller '" + c.id + "' skins the morph controller '" + c.source +
               "' (skin -> morph -> geometry), a mesh Assimp 5.2.5 cannot read: refused rather than shown without it "
               "(export the skin over the geometry, or the character as FBX or glTF)";
    }
    return {};
}

namespace {

aiMatrix4x4 rowMajor(const std::array<float, 16>& m) {
    return aiMatrix4x4(m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8], m[9], m[10], m[11], m[12], m[13], m[14], m[15]);
}

void nodeWorlds(const aiNode* node, const aiMatrix4x4& parent, std::map<unsigned, std::vector<aiMatrix4x4>>& meshWorlds) {
    const aiMatrix4x4 world = parent * node->mTransformation;
    for (unsigned k = 0; k < node->mNumMeshes; ++k)
        if (node->mMeshes) meshWorlds[node->mMeshes[k]].push_back(world);
    for (unsigned c = 0; c < node->mNumChildren; ++c)
        if (node->mChildren && node->mChildren[c]) nodeWorlds(node->mChildren[c], world, meshWorlds);
}

}  // namespace

unsigned placeColladaBindShapes(aiScene& scene, const std::vector<ColladaController>& controllers) {
    if (!scene.mRootNode || !scene.mMeshes) return 0;
    // Geometry id -> its skin's bind shape; a geometry two skins bind differently is left alone.
    std::map<std::string, std::optional<aiMatrix4x4>> bindShapeOf;
    for (const ColladaController& c : controllers) {
        if (c.kind != ColladaController::Kind::Skin) continue;
        const aiMatrix4x4 m = c.hasBindShape ? rowMajor(c.bindShape) : aiMatrix4x4();
        auto [it, fresh] = bindShapeOf.emplace(c.source, m);
        if (!fresh && it->second && !it->second->Equal(m)) it->second.reset();
    }
    std::map<unsigned, std::vector<aiMatrix4x4>> meshWorlds;
    nodeWorlds(scene.mRootNode, aiMatrix4x4(), meshWorlds);
    const aiMatrix4x4 root = scene.mRootNode->mTransformation;
    unsigned moved = 0;
    for (unsigned i = 0; i < scene.mNumMeshes; ++i) {
        aiMesh* mesh = scene.mMeshes[i];
        if (!mesh || mesh->mNumBones == 0 || !mesh->mBones) continue;
        const auto shape = bindShapeOf.find(std::string(mesh->mName.C_Str(), mesh->mName.length));
        const auto worlds = meshWorlds.find(i);
        // One node, so one place to express it in.
        if (shape == bindShapeOf.end() || !shape->second || worlds == meshWorlds.end() || worlds->second.size() != 1) continue;
        aiMatrix4x4 meshToRoot = worlds->second.front();
        const float det = meshToRoot.Determinant();
        if (!(std::fabs(det) > 1e-12f) || !std::isfinite(det)) continue;
        aiMatrix4x4 place = meshToRoot;  // X^-1 = inverse(meshToRoot) * root * bind shape
        place.Inverse();
        place = place * root * *shape->second;
        if (place.IsIdentity()) continue;
        aiMatrix4x4 undo = place;  // X
        undo.Inverse();
        transformMeshData(*mesh, place);
        for (unsigned b = 0; b < mesh->mNumBones; ++b)
            if (mesh->mBones[b]) mesh->mBones[b]->mOffsetMatrix = mesh->mBones[b]->mOffsetMatrix * undo;
        ++moved;
    }
    return moved;
}

}  // namespace rig::scene
