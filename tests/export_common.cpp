#include "export_common.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include <nlohmann/json.hpp>

#include "support/run.h"

namespace rig::testing::exports {

std::string runNode(const std::string& script, const std::string& package, const std::vector<std::string>& args,
                    bool oneIsAResult) {
    const std::filesystem::path dir = std::filesystem::path(script).parent_path();
    if (!std::filesystem::exists(dir / "node_modules" / package / "package.json")) {
        ADD_FAILURE() << "npm package '" << package << "' is not installed in " << dir.string()
                      << " (tools/setup.sh installs it: npm ci in that folder)";
        return {};
    }
    std::vector<std::string> all{"node", script};
    all.insert(all.end(), args.begin(), args.end());
    RunResult r = run("/usr/bin/env", all, 300.0);
    if (r.exitCode == 127) ADD_FAILURE() << "node (Node.js) is not installed: tools/setup.sh installs it";
    EXPECT_FALSE(r.signaled || r.timedOut) << script;
    if (r.exitCode > (oneIsAResult ? 1 : 0)) ADD_FAILURE() << script << " failed: " << r.err;
    return r.out;
}

// Warnings allowed: only the three that say a skinned mesh's node transform is ignored. rigview
// keeps each mesh on the node the source file hangs it from, so the node tree round-trips
// unchanged; glTF ignores that node's transform for a skinned mesh, and so does rigview's
// skinning (the palette cancels it), so they change nothing anyone draws.
void expectValid(const std::vector<std::string>& files, const std::vector<std::string>& alsoAllowed) {
    std::set<std::string> allowed = {"NODE_SKINNED_MESH_NON_ROOT", "NODE_SKINNED_MESH_LOCAL_TRANSFORMS",
                                     "ANIMATION_CHANNEL_TARGET_NODE_SKIN"};
    allowed.insert(alsoAllowed.begin(), alsoAllowed.end());
    std::vector<std::string> args{"--json"};
    args.insert(args.end(), files.begin(), files.end());
    const std::string out = runNode(std::string(RIGVIEW_SOURCE_DIR) + "/tools/gltf_validator/validate.mjs", "gltf-validator",
                                    args, true);
    if (out.empty()) return;
    const nlohmann::json report = nlohmann::json::parse(out, nullptr, false);
    ASSERT_TRUE(report.is_array()) << out;
    ASSERT_EQ(report.size(), files.size());
    for (const nlohmann::json& f : report) {
        EXPECT_EQ(f["errors"], 0) << f.dump(1);
        // Nothing written that nothing uses (a material no mesh has, an accessor no one reads),
        // but a mesh's texture coordinates that none of its material's textures reads: a
        // mesh's UVs are kept whether or not a texture reads them.
        for (const nlohmann::json& pointer : f["unused"]) {
            const std::string p = pointer.get<std::string>();
            EXPECT_NE(p.find("/attributes/TEXCOORD_"), std::string::npos) << f["file"] << ": unused " << p;
        }
        for (const nlohmann::json& m : f["messages"]) {
            EXPECT_TRUE(m["severity"] != 0 && allowed.count(m["code"].get<std::string>())) << f["file"] << ": " << m.dump();
        }
    }
}

}  // namespace rig::testing::exports
