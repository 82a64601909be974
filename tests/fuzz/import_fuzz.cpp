// libFuzzer target through the whole import path, for every format rigview reads. The first
// byte picks the format (its extension, from kFormats); the rest is the file, written into a
// private temporary folder and imported the way every command imports it: through the isolated
// import worker (platform/import_worker), whose executable is the rigview binary of the normal
// build ($RIGVIEW_WORKER, required). Assimp 5.2.5 crashes and hangs on many inputs; in the
// worker those are an import error (a reported outcome, not a finding of this target), so the
// fuzzer tests what rigview owns: everything the parent does with the bytes that come back,
// here built with ASan/UBSan: the worker's result pipe and error frames, deserializeModel +
// validateModel, checkModel and its findings as JSON, the Animator (every node, the palette,
// morph weights) and CPU skinning at a few times of each clip, and the pose JSON writer.
// Broken invariants abort: an error without a message, JSON that does not parse, a model
// that fails validateModel, a skinned mesh's palette past the Animator's palette.
//
// ASF/AMC: format .asf splits the rest at "@@AMC@@" into the skeleton and a
// motion file given as --anim.
#include <unistd.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "anim/runtime/pose.h"
#include "app/pose_json.h"
#include "check/diagnostics.h"
#include "platform/model_io.h"
#include "platform/import_worker.h"
#include "util/json_out.h"
#include "util/text.h"

namespace {

// Index = first byte modulo the count. Keep the order: the seed corpus names its format by it.
constexpr const char* kFormats[] = {".gltf", ".glb", ".fbx", ".dae", ".x", ".bvh", ".md5mesh", ".smd",
                                    ".iqm",  ".asf", ".obj", ".md5anim", ".ms3d", ".3ds", ".md2", ".ply"};
constexpr size_t kFormatCount = sizeof(kFormats) / sizeof(kFormats[0]);

void require(bool ok, const char* what) {
    if (!ok) {
        std::fprintf(stderr, "import_fuzz: invariant broken: %s\n", what);
        std::abort();
    }
}

std::string gDir;

bool writeFile(const std::string& path, std::string_view bytes) {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return static_cast<bool>(f);
}

void evaluateEverywhere(const rig::Model& model) {
    rig::Animator anim(model);
    const size_t nodes = model.skeleton.size();
    const int32_t clips = static_cast<int32_t>(std::min<size_t>(model.clips.size(), 4));
    for (int32_t c = -1; c < clips; ++c) {
        const float d = c >= 0 ? model.clips[c].duration : 0.0f;
        const float times[] = {0.0f, 0.5f * d, d, d + 1.0f, -1.0f};
        for (float t : times) {
            anim.evaluate(c, t);
            require(anim.world().size() == nodes, "world matrices != nodes");
            require(anim.palette().size() <= model.paletteSize(), "palette larger than all skins together");
            for (size_t m = 0; m < model.meshes.size(); ++m) {
                if (!model.meshes[m].skinned) continue;  // unskinned meshes use no palette
                require(anim.paletteOffset(m) + model.meshes[m].skin.paletteSize() <= anim.palette().size(),
                        "a skinned mesh's palette runs past the palette");
            }
        }
        rig::jsonout::Stats st;
        const std::string pose = rig::poseJson(model, anim, c, 0.5f * d, st);
        require(nlohmann::json::accept(pose), "pose JSON does not parse");
    }
}

void checkAndReport(const rig::Model& model) {
    const rig::Report report = rig::checkModel(model);
    nlohmann::json findings = nlohmann::json::array();
    for (const rig::Finding& f : report.findings) {
        findings.push_back({{"code", f.code}, {"severity", rig::severityName(f.severity)}, {"message", f.message},
                            {"subject", f.subject}, {"names", f.names}});
        require(!f.code.empty(), "finding without a code");
        const std::string line = rig::text::forTerminal(f.message);
        for (char ch : line) require(static_cast<unsigned char>(ch) >= 0x20 && ch != 0x7F, "control character left for the terminal");
    }
    rig::jsonout::Stats st;
    const std::string doc = rig::jsonout::dump(nlohmann::json{{"findings", std::move(findings)}}, -1, st);
    require(nlohmann::json::accept(doc), "check JSON does not parse");
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    const char* worker = std::getenv("RIGVIEW_WORKER");
    if (!worker || !*worker || access(worker, X_OK) != 0) {
        std::fprintf(stderr, "import_fuzz: set RIGVIEW_WORKER to the rigview binary of the normal build (build/rigview)\n");
        std::exit(2);
    }
    char tmpl[] = "/tmp/rigview_import_fuzz_XXXXXX";
    if (!mkdtemp(tmpl)) {
        std::perror("import_fuzz: mkdtemp");
        std::exit(2);
    }
    gDir = tmpl;
    std::atexit([] { rmdir(gDir.c_str()); });  // empty by then: each input's files are removed
    rig::IsolationConfig config;
    config.enabled = true;
    config.timeoutSeconds = 3.0;  // Assimp hangs on some inputs: each costs this long
    config.workerExe = worker;
    rig::setIsolation(config);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    const std::string ext = kFormats[data[0] % kFormatCount];
    std::string_view body(reinterpret_cast<const char*>(data + 1), size - 1);
    const std::string path = gDir + "/model" + ext;
    std::vector<std::string> anims;
    if (ext == ".asf") {
        const size_t cut = body.find("@@AMC@@");
        if (cut != std::string_view::npos) {
            anims.push_back(gDir + "/motion.amc");
            require(writeFile(anims[0], body.substr(cut + 7)), "cannot write the motion file");
            body = body.substr(0, cut);
        }
    }
    require(writeFile(path, body), "cannot write the model file");
    rig::ImportOutcome outcome = rig::importIsolated(path, anims, rig::ImportOptions{});
    std::remove(path.c_str());
    for (const std::string& a : anims) std::remove(a.c_str());
    if (!outcome.model) {
        const std::string& message = outcome.model.error().message;
        require(!message.empty(), "import error without a message");
        require(message.find('\n') == std::string::npos, "multi-line import error");
        require(outcome.failure != rig::ImportFailure::None, "error with failure None");
        return 0;
    }
    require(outcome.failure == rig::ImportFailure::None, "a model with a failure");
    const rig::Model& model = outcome.model.value();
    require(rig::validateModel(model).ok(), "the worker's model fails validateModel");
    checkAndReport(model);
    evaluateEverywhere(model);
    return 0;
}
