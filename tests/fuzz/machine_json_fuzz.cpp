// libFuzzer target for the state machine file (anim/machine_json.cpp) and the runtime it
// feeds (anim/state_machine.cpp). The input is *.machine.json text for a 6-joint chain with
// clips "anim", "short" and "ref" (the joints are "joint0".."joint5"). Beyond "no crash,
// hang or leak" it checks: an error is one line "FILE:LINE: what" (or FILE:LINE:COLUMN for
// syntax) with a line inside the text; an accepted definition validates, binds, and runs 120
// ticks with its parameters moved by the input's bytes, keeping its active states in range
// and the pose finite. A broken invariant aborts (a finding).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "anim/runtime/blend.h"
#include "anim/control/controller.h"
#include "anim/offline/clip_tools.h"
#include "anim/control/machine_file.h"
#include "anim/control/state_machine.h"
#include "support/rigs.h"

namespace {

void require(bool ok, const char* what) {
    if (!ok) {
        std::fprintf(stderr, "machine_json_fuzz: invariant broken: %s\n", what);
        std::abort();
    }
}

const rig::Model& model() {
    static const rig::Model m = [] {
        rig::Model r = rig::testing::makeChain(6, 31);
        rig::Clip a = rig::trimClip(r.clips[0], 0.0f, 0.5f);
        a.name = "short";
        rig::Clip b = rig::trimClip(r.clips[0], 0.0f, 0.0f);
        b.name = "ref";
        r.clips.push_back(std::move(a));
        r.clips.push_back(std::move(b));
        return r;
    }();
    return m;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const rig::Model& m = model();
    rig::Result<rig::MachineDef> r = rig::parseMachine(text, m, "fuzz.machine.json");
    if (!r) {
        const std::string& e = r.error().message;
        require(e.find('\n') == std::string::npos, "error message spans lines");
        require(e.rfind("fuzz.machine.json:", 0) == 0, "error message does not start with the file");
        char* end = nullptr;
        const long line = std::strtol(e.c_str() + 18, &end, 10);
        long lines = 1;
        for (char c : text) lines += c == '\n';
        require(line >= 1 && line <= lines, "error line outside the text");
        require(std::string_view(end).rfind(": internal: ", 0) != 0, "the loader accepted what validate() refuses");
        return 0;
    }
    const rig::MachineDef& def = r.value();
    require(def.validate(m.clips.size()).empty(), "an accepted definition does not validate");
    rig::Controller c(m);
    rig::StateMachine sm(def, c);
    require(sm.ok(), "an accepted definition does not bind");
    rig::Animator anim(m);
    for (int tick = 0; tick < 120; ++tick) {
        const uint8_t b = size ? data[static_cast<size_t>(tick) % size] : 0;
        for (size_t p = 0; p < def.params.size(); ++p) {
            const int32_t i = static_cast<int32_t>(p);
            const uint8_t v = static_cast<uint8_t>(b + p * 37);
            switch (def.params[p].type) {
                case rig::ParamType::Float: sm.setFloat(i, static_cast<float>(v) / 64.0f - 1.0f); break;
                case rig::ParamType::Bool: sm.setBool(i, v & 1); break;
                case rig::ParamType::Trigger: if (v % 5 == 0) sm.setTrigger(i); break;
            }
        }
        sm.update(tick % 7 == 3 ? 0.25 : 1.0 / 60.0);
        for (size_t l = 0; l < sm.layerCount(); ++l) {
            require(sm.depth(l) >= 1 && sm.depth(l) <= rig::StateMachine::kMaxDepth, "depth out of range");
            const int32_t mi = sm.activeMachine(l), si = sm.activeState(l);
            require(mi >= 0 && static_cast<size_t>(mi) < def.machines.size(), "active machine out of range");
            require(si >= 0 && static_cast<size_t>(si) < def.machines[mi].states.size(), "active state out of range");
        }
    }
    c.evaluate(anim);
    for (const rig::Transform& t : c.pose()) {
        require(std::isfinite(t.translation.x) && std::isfinite(t.rotation.w) && std::isfinite(t.scale.y), "non-finite pose");
    }
    return 0;
}
