#include "import/assimp/scene_repair.h"

#include <assimp/scene.h>

#include <algorithm>
#include <cstdio>

namespace rig {

namespace {

// Assimp's validator allows keys up to this far past the duration.
constexpr double kValidatorSlack = 0.001;

std::string animName(const aiAnimation& a, unsigned index) {
    return "clip " + std::to_string(index) + (a.mName.length ? " '" + std::string(a.mName.C_Str()) + "'" : std::string());
}

std::string count(unsigned n, const char* what) { return std::to_string(n) + " " + what + (n == 1 ? "" : "s"); }

std::string ticks(double t) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%g", t);
    return buf;
}

template <typename Key>
void lastKey(const Key* keys, unsigned count, double duration, double& last, unsigned& past) {
    if (!keys) return;
    for (unsigned k = 0; k < count; ++k) {
        last = std::max(last, keys[k].mTime);
        if (keys[k].mTime > duration + kValidatorSlack) ++past;
    }
}

// Drop null entries and those `empty` says hold nothing (deleting them, and the array when none
// is left); returns how many went.
template <typename T, typename Empty>
unsigned compact(T**& items, unsigned& count, Empty empty) {
    if (!items) {
        const unsigned n = count;
        count = 0;
        return n;
    }
    unsigned kept = 0, dropped = 0;
    for (unsigned i = 0; i < count; ++i) {
        T* item = items[i];
        if (!item || empty(*item)) {
            delete item;
            ++dropped;
            continue;
        }
        items[kept++] = item;
    }
    count = kept;
    if (kept == 0) {
        // Assimp's destructors free an array only while its count is non-zero.
        delete[] items;
        items = nullptr;
    }
    return dropped;
}

}  // namespace

unsigned alignRotationKeys(aiScene& scene) {
    unsigned turned = 0;
    for (unsigned a = 0; a < scene.mNumAnimations; ++a) {
        const aiAnimation* anim = scene.mAnimations ? scene.mAnimations[a] : nullptr;
        if (!anim || !anim->mChannels) continue;
        for (unsigned c = 0; c < anim->mNumChannels; ++c) {
            aiNodeAnim* ch = anim->mChannels[c];
            if (!ch || !ch->mRotationKeys) continue;
            for (unsigned k = 1; k < ch->mNumRotationKeys; ++k) {
                const aiQuaternion& p = ch->mRotationKeys[k - 1].mValue;
                aiQuaternion& q = ch->mRotationKeys[k].mValue;
                if (p.x * q.x + p.y * q.y + p.z * q.z + p.w * q.w < 0.0f) {
                    q = aiQuaternion(-q.w, -q.x, -q.y, -q.z);
                    ++turned;
                }
            }
        }
    }
    return turned;
}

void dropLightsAndCameras(aiScene& scene) {
    for (unsigned i = 0; scene.mLights && i < scene.mNumLights; ++i) delete scene.mLights[i];
    delete[] scene.mLights;
    scene.mLights = nullptr;
    scene.mNumLights = 0;
    for (unsigned i = 0; scene.mCameras && i < scene.mNumCameras; ++i) delete scene.mCameras[i];
    delete[] scene.mCameras;
    scene.mCameras = nullptr;
    scene.mNumCameras = 0;
}

std::vector<ImportRepair> repairScene(aiScene& scene) {
    std::vector<ImportRepair> repairs;
    if (!scene.mAnimations) return repairs;
    for (unsigned a = 0; a < scene.mNumAnimations; ++a) {
        aiAnimation* anim = scene.mAnimations[a];
        if (!anim) continue;
        const std::string name = animName(*anim, a);
        const unsigned droppedNode = compact(anim->mChannels, anim->mNumChannels, [](const aiNodeAnim& c) {
            return !(c.mNumPositionKeys && c.mPositionKeys) && !(c.mNumRotationKeys && c.mRotationKeys) &&
                   !(c.mNumScalingKeys && c.mScalingKeys);
        });
        const unsigned droppedMorph = compact(anim->mMorphMeshChannels, anim->mNumMorphMeshChannels,
                                              [](const aiMeshMorphAnim& c) { return !(c.mNumKeys && c.mKeys); });
        if (droppedNode + droppedMorph) {
            repairs.push_back({"repaired-channels", name + ": " + count(droppedNode + droppedMorph, "empty animation channel") + " dropped"});
        }
        // Channel arrays with a key count but no keys are what the validator calls nullptr.
        for (unsigned c = 0; c < anim->mNumChannels; ++c) {
            aiNodeAnim* ch = anim->mChannels[c];
            if (!ch->mPositionKeys) ch->mNumPositionKeys = 0;
            if (!ch->mRotationKeys) ch->mNumRotationKeys = 0;
            if (!ch->mScalingKeys) ch->mNumScalingKeys = 0;
        }
        if (anim->mDuration > 0.0) {
            double last = anim->mDuration;
            unsigned past = 0;
            for (unsigned c = 0; c < anim->mNumChannels; ++c) {
                const aiNodeAnim* ch = anim->mChannels[c];
                lastKey(ch->mPositionKeys, ch->mNumPositionKeys, anim->mDuration, last, past);
                lastKey(ch->mRotationKeys, ch->mNumRotationKeys, anim->mDuration, last, past);
                lastKey(ch->mScalingKeys, ch->mNumScalingKeys, anim->mDuration, last, past);
            }
            for (unsigned c = 0; c < anim->mNumMorphMeshChannels; ++c) {
                const aiMeshMorphAnim* ch = anim->mMorphMeshChannels[c];
                lastKey(ch->mKeys, ch->mNumKeys, anim->mDuration, last, past);
            }
            if (past > 0) {
                repairs.push_back({"repaired-keys", name + ": " + count(past, "key") +
                                                        " past its duration of " + ticks(anim->mDuration) +
                                                        " ticks (the last at " + ticks(last) +
                                                        "); duration extended to the last key"});
                anim->mDuration = last;
            }
        }
    }
    const unsigned droppedAnims = compact(scene.mAnimations, scene.mNumAnimations, [](const aiAnimation& a) {
        return a.mNumChannels == 0 && a.mNumMorphMeshChannels == 0 && a.mNumMeshChannels == 0;
    });
    if (droppedAnims) {
        repairs.push_back({"repaired-channels", count(droppedAnims, "clip") + " without any channel dropped"});
    }
    return repairs;
}

void transformMeshData(aiMesh& mesh, const aiMatrix4x4& m) {
    const aiMatrix3x3 linear(m);
    aiMatrix3x3 normalMatrix = linear;
    normalMatrix.Inverse().Transpose();
    auto points = [&](aiVector3D* v, unsigned n) {
        if (v) for (unsigned i = 0; i < n; ++i) v[i] = m * v[i];
    };
    auto dirs = [&](aiVector3D* v, unsigned n, const aiMatrix3x3& d) {
        if (!v) return;
        for (unsigned i = 0; i < n; ++i) {
            v[i] = d * v[i];
            const float len = v[i].Length();
            if (len > 0.0f) v[i] /= len;
        }
    };
    points(mesh.mVertices, mesh.mNumVertices);
    dirs(mesh.mNormals, mesh.mNumVertices, normalMatrix);
    dirs(mesh.mTangents, mesh.mNumVertices, linear);
    dirs(mesh.mBitangents, mesh.mNumVertices, linear);
    for (unsigned a = 0; a < mesh.mNumAnimMeshes; ++a) {
        aiAnimMesh* am = mesh.mAnimMeshes ? mesh.mAnimMeshes[a] : nullptr;
        if (!am) continue;
        points(am->mVertices, am->mNumVertices);
        dirs(am->mNormals, am->mNumVertices, normalMatrix);
        dirs(am->mTangents, am->mNumVertices, linear);
        dirs(am->mBitangents, am->mNumVertices, linear);
    }
}

}  // namespace rig
