// `rigview pose`: the posed model as JSON (joints and world-space vertices) or OBJ.
#include "app/commands.h"

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "anim/runtime/pose.h"
#include "anim/runtime/skinning.h"
#include "app/command_util.h"
#include "app/exit_codes.h"
#include "app/machine_run.h"
#include "app/pose_json.h"
#include "util/json_out.h"
#include "util/text.h"
#include "util/paths.h"

namespace rig {

namespace {

using cmd::fmt;
using cmd::load;
using cmd::printError;
using cmd::resolveClip;
using cmd::term;
using cmd::warnNonFinite;
using cmd::writeFile;

}  // namespace

int runPose(const PoseOptions& o) {
    const std::string ext = paths::lowerExtension(o.output);
    const bool asObj = ext == ".obj";
    const bool asJson = ext == ".json" || (!asObj && cmd::isStreamOutput(o.output));  // "-", /dev/stdout: JSON
    if (!asJson && !asObj) {
        printError(o.output + ": output must end in .json or .obj (or be - for JSON on stdout)");
        return exitcode::kUsage;
    }
    if (!cmd::outputIsNotAnInput(o.output, o.model, o.anims, o.machine)) return exitcode::kUsage;
    Model model;
    if (!load(o.model, o.anims, o.import, model)) return exitcode::kBadInput;
    if (!cmd::outputIsNotAResource(o.output, model)) return exitcode::kUsage;
    int32_t clip = o.filePose ? kFilePose : kBindPose;
    if (!o.sets.empty() && o.machine.empty()) {
        printError("--set needs --machine");
        return exitcode::kUsage;
    }
    if (!o.machine.empty() && (!o.clip.empty() || o.filePose)) {
        printError("--machine decides what plays: it excludes --clip, --bind-pose and --file-pose");
        return exitcode::kUsage;
    }
    if (o.machine.empty() && !o.bindPose && !o.filePose && !resolveClip(model, o.clip, clip)) return exitcode::kUsage;
    if (!std::isfinite(o.time)) {
        printError(o.model + ": --time must be a finite number of seconds");
        return exitcode::kUsage;
    }
    float t = 0.0f;
    IkStage ik;
    if (!setupIk(model, o.ik, o.model, ik)) return exitcode::kUsage;
    std::unique_ptr<CompressedClipSet> compressed;
    if (!cmd::compressedClipsFor(model, o.compressed, compressed)) return exitcode::kUsage;
    Animator anim(model);
    anim.setCompressedClips(compressed.get());
    if (o.ik.any()) anim.setPostProcess(&ik);  // IK on whatever drives the pose
    if (!o.machine.empty()) {
        // The state machine drives the pose: run from 0 to --time (app/machine_run.h).
        t = static_cast<float>(o.time);
        if (const int rc = poseWithMachine(model, o.machine, o.sets, o.time, anim, clip); rc != exitcode::kOk) return rc;
    } else {
        t = cmd::clipTime(model, clip, o.time);
        anim.evaluate(clip, t);
    }

    std::string out;
    jsonout::Stats st;
    if (asJson) out = poseJson(model, anim, clip, t, st, o.influences);
    std::vector<glm::vec3> pos, nrm;
    size_t objNonFinite = 0;
    auto num = [&](double v) {
        objNonFinite += std::isfinite(v) ? 0 : 1;
        out += fmt(v);
    };
    size_t base = 1;
    for (size_t m = 0; m < model.meshes.size() && asObj; ++m) {
        const Mesh& mesh = model.meshes[m];
        pos.resize(mesh.vertexCount());
        nrm.resize(mesh.vertexCount());
        skinMesh(mesh, anim.palette().data() + anim.paletteOffset(m), anim.meshMorphWeights(m), pos.data(), nrm.data(),
                 SkinningMethod::Linear, o.influences);
        const glm::mat4& world = anim.skinToModel(m);
        const glm::mat3 normalMat = glm::transpose(glm::mat3(safeAffineInverse(world)));
        // OBJ names end at the line: keep the name on it (control characters as '_').
        std::string name = mesh.name.empty() ? "mesh" + std::to_string(m) : text::validUtf8(mesh.name);
        for (char& ch : name) ch = static_cast<unsigned char>(ch) < 0x20 || ch == 0x7F ? '_' : ch;
        out += "o " + name + "\n";
        for (const glm::vec3& q : pos) {
            const glm::vec3 p = glm::vec3(world * glm::vec4(q, 1.0f));
            out += "v ";
            num(p.x);
            out += ' ';
            num(p.y);
            out += ' ';
            num(p.z);
            out += '\n';
        }
        const bool hasN = !mesh.normals.empty();
        if (hasN) {
            for (const glm::vec3& q : nrm) {
                glm::vec3 n = normalMat * q;
                const float len = glm::length(n);
                if (len > 0.0f) n /= len;
                out += "vn ";
                num(n.x);
                out += ' ';
                num(n.y);
                out += ' ';
                num(n.z);
                out += '\n';
            }
        }
        for (size_t i = 0; i + 2 < mesh.indices.size(); i += 3) {
            out += 'f';
            for (int k = 0; k < 3; ++k) {
                const std::string idx = std::to_string(base + mesh.indices[i + k]);
                out += ' ' + idx;
                if (hasN) out += "//" + idx;
            }
            out += '\n';
        }
        base += mesh.vertexCount();
    }
    if (!writeFile(o.output, out)) return exitcode::kOutputFailed;
    if (asJson) {
        warnNonFinite(o.output, st.nonFinite);
    } else if (objNonFinite) {
        printError(o.output + ": warning: " + std::to_string(objNonFinite) +
                   " non-finite values (NaN or infinite) in the posed mesh (OBJ has no null: written as nan/inf)");
    }
    return exitcode::kOk;
}

}  // namespace rig
