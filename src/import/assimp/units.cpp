#include "import/assimp/units.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "import/assimp/scene_convert.h"

namespace rig::scene {

namespace {

bool metaNumber(const aiMetadata* md, const char* key, double& out) {
    if (!md) return false;
    for (unsigned i = 0; i < md->mNumProperties; ++i) {
        if (std::strcmp(md->mKeys[i].C_Str(), key) != 0 || !md->mValues[i].mData) continue;
        const aiMetadataEntry& e = md->mValues[i];
        switch (e.mType) {
            case AI_FLOAT: out = *static_cast<const float*>(e.mData); return true;
            case AI_DOUBLE: out = *static_cast<const double*>(e.mData); return true;
            case AI_INT32: out = *static_cast<const int32_t*>(e.mData); return true;
            default: return false;
        }
    }
    return false;
}

std::string metaString(const aiMetadata* md, const char* key) {
    if (!md) return {};
    for (unsigned i = 0; i < md->mNumProperties; ++i) {
        if (std::strcmp(md->mKeys[i].C_Str(), key) != 0 || !md->mValues[i].mData) continue;
        if (md->mValues[i].mType == AI_AISTRING) return static_cast<const aiString*>(md->mValues[i].mData)->C_Str();
    }
    return {};
}

std::string fmtNumber(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

// A readable name for a length unit given in metres.
std::string unitName(double metres) {
    struct Named { double m; const char* name; };
    static const Named known[] = {{1.0, "metre"},     {0.01, "centimetre"}, {0.001, "millimetre"},
                                  {0.0254, "inch"},   {0.3048, "foot"},     {0.9144, "yard"},
                                  {1000.0, "kilometre"}, {0.1, "decimetre"}};
    for (const Named& n : known) {
        if (std::fabs(metres - n.m) <= 1e-6 * n.m) return n.name;
    }
    return fmtNumber(metres) + " m";
}

// COLLADA's <asset><unit meter="..."/>: Assimp 5.2.5 reads it but only multiplies the root
// node's matrix by it (so every joint matrix carries the scale). Read it here to undo that and
// bake it instead. Returns false when the file has no <unit> (COLLADA's default is 1 metre).
bool readColladaUnit(std::string_view file, double& meter, std::string& name) {
    const std::string_view head = file.substr(0, size_t(1) << 20);
    const size_t assetEnd = head.find("</asset>");
    size_t at = head.find("<unit");
    if (at == std::string::npos || (assetEnd != std::string::npos && at > assetEnd)) return false;
    const size_t close = head.find('>', at);
    if (close == std::string::npos) return false;
    const std::string tag(head.substr(at, close - at));
    auto attribute = [&](const char* key) -> std::string {
        const std::string k = std::string(key) + "=";
        const size_t p = tag.find(k);
        if (p == std::string::npos || p + k.size() >= tag.size()) return {};
        const char quote = tag[p + k.size()];
        const size_t end = tag.find(quote, p + k.size() + 1);
        if (end == std::string::npos) return {};
        return tag.substr(p + k.size() + 1, end - p - k.size() - 1);
    };
    const std::string m = attribute("meter");
    name = attribute("name");
    char* end = nullptr;
    const double v = m.empty() ? 1.0 : std::strtod(m.c_str(), &end);
    if (!(v > 0.0) || !std::isfinite(v)) return false;
    meter = v;
    return true;
}

void scaleTranslation(aiMatrix4x4& m, ai_real s) {
    m.a4 *= s;
    m.b4 *= s;
    m.c4 *= s;
}

// Multiply every length of the scene by s without putting a scale into any matrix: node and
// offset-matrix translations, vertex positions (morph targets too) and translation keys. For a
// uniform S, S * M * S^-1 is M with its translation scaled, so every world matrix becomes
// S * W * S^-1 and every skinned or rigid vertex lands at S times where it was: the same
// picture in other units, with joint matrices as rigid as in the file.
void bakeUnitScale(aiScene* scene, ai_real s) {
    std::vector<aiNode*> stack{scene->mRootNode};
    std::unordered_set<aiNode*> seen;
    while (!stack.empty()) {
        aiNode* n = stack.back();
        stack.pop_back();
        if (!n || !seen.insert(n).second) continue;
        scaleTranslation(n->mTransformation, s);
        for (unsigned c = 0; c < n->mNumChildren; ++c) stack.push_back(n->mChildren[c]);
    }
    for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
        aiMesh* am = scene->mMeshes[m];
        if (!am) continue;
        if (am->mVertices) {
            for (unsigned v = 0; v < am->mNumVertices; ++v) am->mVertices[v] *= s;
        }
        for (unsigned k = 0; k < am->mNumAnimMeshes; ++k) {
            aiAnimMesh* morph = am->mAnimMeshes ? am->mAnimMeshes[k] : nullptr;
            if (!morph || !morph->mVertices) continue;
            for (unsigned v = 0; v < morph->mNumVertices; ++v) morph->mVertices[v] *= s;
        }
        for (unsigned b = 0; b < am->mNumBones; ++b) {
            if (am->mBones && am->mBones[b]) scaleTranslation(am->mBones[b]->mOffsetMatrix, s);
        }
    }
    for (unsigned a = 0; a < scene->mNumAnimations; ++a) {
        aiAnimation* anim = scene->mAnimations[a];
        if (!anim) continue;
        for (unsigned c = 0; c < anim->mNumChannels; ++c) {
            aiNodeAnim* na = anim->mChannels ? anim->mChannels[c] : nullptr;
            if (!na || !na->mPositionKeys) continue;
            for (unsigned k = 0; k < na->mNumPositionKeys; ++k) na->mPositionKeys[k].mValue *= s;
        }
    }
}

// Mean |log10| of the uniform scale of the skin joints' world matrices (every node's below the
// root in a file without skins; file pose, file numbers) when the whole scene is scaled by
// `top` at the root: how far from rigid they are.
double jointScaleError(const aiScene* scene, double top) {
    std::unordered_set<std::string> bones;
    for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
        const aiMesh* am = scene->mMeshes[m];
        for (unsigned b = 0; am && am->mBones && b < am->mNumBones; ++b) {
            if (am->mBones[b]) bones.insert(am->mBones[b]->mName.C_Str());
        }
    }
    struct Item { const aiNode* node; aiMatrix4x4 parent; size_t depth; };
    std::vector<Item> stack{{scene->mRootNode, aiMatrix4x4(), 0}};
    double sum = 0.0;
    size_t count = 0;
    while (!stack.empty()) {
        const Item it = stack.back();
        stack.pop_back();
        if (!it.node || it.depth > kMaxDepth) continue;
        const aiMatrix4x4 world = it.parent * it.node->mTransformation;
        if (bones.empty() ? it.depth > 0 : bones.count(it.node->mName.C_Str()) > 0) {
            const double det = std::fabs(static_cast<double>(world.Determinant()));
            if (det > 0.0 && std::isfinite(det)) {
                sum += std::fabs(std::log10(top * std::cbrt(det)));
                ++count;
            }
        }
        for (unsigned c = 0; c < it.node->mNumChildren; ++c) stack.push_back({it.node->mChildren[c], world, it.depth + 1});
    }
    return count ? sum / static_cast<double>(count) : 0.0;
}

bool rootIsAnimated(const aiScene* scene) {
    for (unsigned a = 0; a < scene->mNumAnimations; ++a) {
        const aiAnimation* anim = scene->mAnimations[a];
        for (unsigned c = 0; anim && anim->mChannels && c < anim->mNumChannels; ++c) {
            if (anim->mChannels[c] && anim->mChannels[c]->mNodeName == scene->mRootNode->mName) return true;
        }
    }
    return false;
}

}  // namespace

Units applyUnits(aiScene* scene, std::string_view file, const std::string& ext, UnitMode mode) {
    Units u;
    const aiMetadata* md = scene->mMetaData;
    double factor = 0.0;
    const bool fbx = ext == ".fbx" || metaString(md, "SourceAsset_Format").find("FBX") != std::string::npos;
    if (fbx && metaNumber(md, "UnitScaleFactor", factor) && factor > 0.0 && std::isfinite(factor)) {
        // UnitScaleFactor: centimetres per unit of the file's numbers.
        u.metresPerUnit = factor / 100.0;
        u.file = unitName(u.metresPerUnit);
        u.source = "FBX UnitScaleFactor " + fmtNumber(factor);
        double original = 0.0;
        if (metaNumber(md, "OriginalUnitScaleFactor", original) && original > 0.0 && original != factor) {
            u.source += " (authored in " + unitName(original / 100.0) + ", OriginalUnitScaleFactor " +
                        fmtNumber(original) + ")";
        }
    } else if (ext == ".dae") {
        double meter = 1.0;
        std::string name;
        const bool given = readColladaUnit(file, meter, name);
        if (std::fabs(meter - 1.0) > 1e-12 && scene->mRootNode) {
            const ai_real inv = static_cast<ai_real>(1.0 / meter);
            scene->mRootNode->mTransformation *= aiMatrix4x4(inv, 0, 0, 0, 0, inv, 0, 0, 0, 0, inv, 0, 0, 0, 0, 1);
        }
        u.metresPerUnit = meter;
        u.file = unitName(meter);
        u.source = given ? "COLLADA <unit meter=\"" + fmtNumber(meter) + "\"" + (name.empty() ? "" : " name=\"" + name + "\"") + ">"
                         : "COLLADA, no <unit> (1 metre)";
    } else if (ext == ".gltf" || ext == ".glb") {
        u.metresPerUnit = 1.0;
        u.file = "metre";
        u.source = "glTF (always metres)";
    }
    if (mode == UnitMode::Metres && u.metresPerUnit > 0.0 && std::fabs(u.metresPerUnit - 1.0) > 1e-12) {
        const ai_real s = static_cast<ai_real>(u.metresPerUnit);
        const bool atRoot = scene->mRootNode && !rootIsAnimated(scene) &&
                            jointScaleError(scene, u.metresPerUnit) + 1e-3 < jointScaleError(scene, 1.0);
        if (atRoot) {
            scene->mRootNode->mTransformation = aiMatrix4x4(s, 0, 0, 0, 0, s, 0, 0, 0, 0, s, 0, 0, 0, 0, 1) *
                                                scene->mRootNode->mTransformation;
        } else {
            bakeUnitScale(scene, s);
        }
        u.scaleApplied = u.metresPerUnit;
        u.appliedAtRoot = atRoot;
    }
    return u;
}

}  // namespace rig::scene
