#include "app/ik_options.h"

#include <cmath>
#include <cstdlib>
#include <vector>

#include "app/command_util.h"

namespace rig {

namespace {

std::vector<std::string> split(const std::string& s) {
    std::vector<std::string> out;
    size_t start = 0;
    for (;;) {
        const size_t comma = s.find(',', start);
        out.push_back(s.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        if (comma == std::string::npos) return out;
        start = comma + 1;
    }
}

bool parseVec3(const std::string& s, glm::vec3& out) {
    const std::vector<std::string> parts = split(s);
    if (parts.size() != 3) return false;
    for (int i = 0; i < 3; ++i) {
        const char* b = parts[i].c_str();
        char* e = nullptr;
        const float v = std::strtof(b, &e);
        if (e == b || *e != '\0' || !std::isfinite(v)) return false;
        out[i] = v;
    }
    return true;
}

// A joint by name (first node of that name) or by node index.
int32_t findJoint(const Skeleton& sk, const std::string& key) {
    const int32_t byName = sk.find(key);
    if (byName >= 0) return byName;
    if (key.empty() || key.find_first_not_of("0123456789") != std::string::npos || key.size() > 9) return -1;
    const long i = std::strtol(key.c_str(), nullptr, 10);
    return i < static_cast<long>(sk.size()) ? static_cast<int32_t>(i) : -1;
}

}  // namespace

bool setupIk(const Model& model, const IkOptions& o, const std::string& file, IkStage& stage) {
    if (!o.any()) return true;
    auto fail = [&](const std::string& what) {
        cmd::printError(file + ": " + what);
        return false;
    };
    if (o.twoBone.empty()) return fail("--ik-target / --ik-pole need --ik-two-bone START,MID,END");
    const std::vector<std::string> names = split(o.twoBone);
    if (names.size() != 3) return fail("--ik-two-bone: give three joints START,MID,END (names or node indices)");
    int32_t j[3];
    for (int i = 0; i < 3; ++i) {
        j[i] = findJoint(model.skeleton, names[i]);
        if (j[i] < 0) return fail("--ik-two-bone: no joint '" + names[i] + "'");
    }
    if (o.target.empty()) return fail("--ik-two-bone needs --ik-target X,Y,Z");
    glm::vec3 target, pole;
    if (!parseVec3(o.target, target)) return fail("--ik-target: three finite numbers X,Y,Z, not '" + o.target + "'");
    if (!o.pole.empty() && (!parseVec3(o.pole, pole) || glm::length(pole) == 0.0f)) {
        return fail("--ik-pole: a non-zero direction X,Y,Z, not '" + o.pole + "'");
    }
    if (!(o.weight >= 0.0f && o.weight <= 1.0f)) return fail("--ik-weight must be in [0, 1]");
    if (!(o.soft >= 0.0f && o.soft <= 1.0f)) return fail("--ik-soft must be in [0, 1]");
    stage.reset(model.skeleton);
    const int32_t c = stage.addTwoBone(j[0], j[1], j[2]);
    if (c < 0) return fail("--ik-two-bone: '" + names[1] + "' is not below '" + names[0] + "', or '" + names[2] + "' not below '" + names[1] + "'");
    TwoBoneChain& chain = stage.twoBone()[c];
    chain.target = target;
    if (!o.pole.empty()) {
        chain.pole = pole;
        chain.poleFromPose = false;
    }
    chain.weight = o.weight;
    chain.soft = o.soft;
    return true;
}

}  // namespace rig
