#include "app/pose_json.h"
#include "app/schema_versions.h"

#include <vector>

#include "anim/runtime/skinning.h"
#include "util/version.h"

namespace rig {

void posedMeshPositions(const Model& model, const Animator& anim, size_t m, std::vector<glm::vec3>& skinned,
                        std::vector<glm::vec3>& normals, glm::vec3* out, SkinningMethod method, int influences) {
    const Mesh& mesh = model.meshes[m];
    skinned.resize(mesh.vertexCount());
    normals.resize(mesh.vertexCount());
    skinMesh(mesh, anim.palette().data() + anim.paletteOffset(m), anim.meshMorphWeights(m), skinned.data(), normals.data(),
             method, influences);
    const glm::mat4& world = anim.skinToModel(m);
    for (size_t v = 0; v < skinned.size(); ++v) out[v] = glm::vec3(world * glm::vec4(skinned[v], 1.0f));
}

std::string poseJson(const Model& model, const Animator& anim, int32_t clip, float time, jsonout::Stats& st, int influences) {
    std::string out = "{\"clip\":";
    if (clip >= 0) {
        jsonout::appendString(out, model.clips[clip].name, st);
    } else {
        out += "null";
    }
    // What stands still when there is no clip: the skins' bind pose or the file's node pose.
    out += std::string(",\"pose\":\"") + (clip >= 0 ? "clip" : clip == kFilePose ? "file" : "bind") + "\"";
    out += ",\"time\":";
    jsonout::appendNumber(out, time, st);
    out += ",\"meshes\":[";
    std::vector<glm::vec3> skinned, nrm, pos;
    for (size_t m = 0; m < model.meshes.size(); ++m) {
        const Mesh& mesh = model.meshes[m];
        pos.resize(mesh.vertexCount());
        posedMeshPositions(model, anim, m, skinned, nrm, pos.data(), SkinningMethod::Linear, influences);
        out += m ? ",{\"name\":" : "{\"name\":";
        jsonout::appendString(out, mesh.name, st);
        out += mesh.skinned ? ",\"skinned\":true,\"positions\":[" : ",\"skinned\":false,\"positions\":[";
        for (size_t v = 0; v < pos.size(); ++v) {
            const glm::vec3& p = pos[v];
            if (v) out += ',';
            jsonout::appendNumber(out, p.x, st);
            out += ',';
            jsonout::appendNumber(out, p.y, st);
            out += ',';
            jsonout::appendNumber(out, p.z, st);
        }
        out += "]}";
    }
    out += "],\"joints\":[";
    const std::vector<int32_t> joints = model.jointNodes();
    for (size_t k = 0; k < joints.size(); ++k) {
        const glm::mat4& w = anim.world()[joints[k]];
        out += k ? ",{\"name\":" : "{\"name\":";
        jsonout::appendString(out, model.skeleton.names[joints[k]], st);
        out += ",\"world\":[";
        for (int c = 0; c < 4; ++c) {
            for (int r = 0; r < 4; ++r) {
                if (c || r) out += ',';
                jsonout::appendNumber(out, w[c][r], st);
            }
        }
        out += "]}";
    }
    out += "],\"rigview_version\":";
    jsonout::appendString(out, rigviewVersion(), st);
    out += ",\"schema\":\"";
    out += kPoseSchema;
    out += "\"";
    out += "}\n";
    return out;
}

}  // namespace rig
