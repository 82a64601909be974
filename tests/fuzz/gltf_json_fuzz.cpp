// libFuzzer target for rigview's own reading of glTF JSON (import/gltf_interpolation.cpp: the
// STEP interpolation modes Assimp drops; import/gltf_ranges.cpp: the accessor range check;
// import/gltf_materials.cpp: the material fields Assimp drops) and for what rigview writes from names found in such
// files (util/json_out, util/text). The input is a .gltf text, or a .glb when it starts with
// "glTF". Beyond "no crash, hang or leak" it checks: only channels that exist are marked, the
// count returned matches, and every node name the file gives comes out as valid JSON and as
// valid, control-free terminal text. A broken invariant aborts (a finding).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "anim/runtime/model.h"
#include "import/gltf/keys.h"
#include "import/gltf/materials.h"
#include "import/gltf/ranges.h"
#include "util/json_out.h"
#include "util/text.h"

namespace {

using nlohmann::json;

void require(bool ok, const char* what) {
    if (!ok) {
        std::fprintf(stderr, "gltf_json_fuzz: invariant broken: %s\n", what);
        std::abort();
    }
}

constexpr size_t kMaxNodes = 64;
constexpr size_t kMaxClips = 16;

// A model shaped like what Assimp would give for the document: nodes named as the document
// names them ("nodes[i]" for unnamed ones), as many clips as it has animations, and in every
// clip a track with all three channels for every node.
rig::Model modelFor(const json& doc) {
    rig::Model model;
    size_t nodes = 4, clips = 1;
    const json* names = nullptr;
    if (doc.is_object()) {
        auto n = doc.find("nodes");
        if (n != doc.end() && n->is_array()) {
            nodes = std::min(n->size(), kMaxNodes);
            names = &*n;
        }
        auto a = doc.find("animations");
        if (a != doc.end() && a->is_array()) clips = std::min(a->size(), kMaxClips);
    }
    for (size_t i = 0; i < nodes; ++i) {
        std::string name = "nodes[" + std::to_string(i) + "]";
        if (names && (*names)[i].is_object()) {
            auto nm = (*names)[i].find("name");
            if (nm != (*names)[i].end() && nm->is_string() && !nm->get<std::string>().empty()) name = nm->get<std::string>();
        }
        model.skeleton.names.push_back(name);
        model.skeleton.parent.push_back(static_cast<int32_t>(i) - 1);
    }
    const float times[2] = {0.0f, 1.0f};
    for (size_t c = 0; c < clips; ++c) {
        rig::Clip clip;
        clip.trackOfNode.assign(nodes, -1);
        for (size_t i = 0; i < nodes; ++i) {
            rig::Track t;
            t.node = static_cast<int32_t>(i);
            const uint32_t run = clip.addTimes(times, 2);
            t.translation = {run, static_cast<uint32_t>(clip.vec3Keys.size()), 2};
            clip.vec3Keys.resize(clip.vec3Keys.size() + 2);
            t.scale = {run, static_cast<uint32_t>(clip.vec3Keys.size()), 2};
            clip.vec3Keys.resize(clip.vec3Keys.size() + 2);
            t.rotation = {run, static_cast<uint32_t>(clip.quatKeys.size()), 2};
            clip.quatKeys.resize(clip.quatKeys.size() + 2);
            clip.trackOfNode[i] = static_cast<int32_t>(clip.tracks.size());
            clip.tracks.push_back(t);
        }
        model.clips.push_back(std::move(clip));
    }
    return model;
}

void checkNameOutputs(const std::string& name) {
    rig::jsonout::Stats st;
    const std::string text = rig::jsonout::dump(json{{"name", name}}, -1, st);
    const json back = json::parse(text, nullptr, false);
    require(!back.is_discarded(), "JSON output does not parse");
    require(back["name"].get<std::string>() == rig::text::validUtf8(name), "JSON output changed a valid name");
    const std::string term = rig::text::forTerminal(name);
    require(rig::text::isValidUtf8(term), "terminal text is not valid UTF-8");
    for (unsigned char c : term) require(c >= 0x20 && c != 0x7F, "terminal text holds a control character");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size > (1u << 20)) return 0;
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    const bool glb = bytes.rfind("glTF", 0) == 0;
    // The one document of the file (gltf/document), as the import reads it.
    const rig::gltf::Document document("fuzz.gltf", bytes);
    // The range check that runs before Assimp: any answer, one line when it refuses.
    if (rig::Result<bool> ranges = rig::gltf::checkRanges(document); !ranges) {
        require(ranges.error().message.find('\n') == std::string::npos, "a range error of one line");
    }
    std::string jsonText = bytes;
    if (glb && bytes.size() >= 20) {
        uint32_t len = 0;
        std::memcpy(&len, bytes.data() + 12, 4);
        jsonText = bytes.substr(20, len);
    }
    const json doc = json::parse(jsonText, nullptr, false);
    rig::Model model = modelFor(doc.is_discarded() ? json() : doc);
    const int marked = rig::gltf::applyStepInterpolation(document, rig::gltf::readNodes(document, model.skeleton), model);
    size_t step = 0;
    for (const rig::Clip& c : model.clips) {
        for (const rig::Track& t : c.tracks) {
            for (const rig::Channel* ch : {&t.translation, &t.rotation, &t.scale}) {
                require(ch->interpolation == rig::Interpolation::Linear || ch->interpolation == rig::Interpolation::Step,
                        "interpolation out of range");
                step += ch->interpolation == rig::Interpolation::Step;
            }
        }
    }
    require(marked >= 0 && static_cast<size_t>(marked) >= step, "fewer channels reported than marked");
    for (const std::string& name : model.skeleton.names) checkNameOutputs(name);
    checkNameOutputs(bytes.substr(0, 256));  // raw bytes as a name
    // Materials read from the JSON (import/gltf/materials): each of a few Assimp-like materials
    // (glTF's defaults, unnamed, and one per named JSON material) matched and overlaid; every
    // UV set read is 0 or 1, and every enum a valid glTF one.
    if (!doc.is_discarded()) {
        std::vector<rig::Material> materials(2);
        materials[0].baseColor = glm::vec4(1.0f);
        materials[0].metallic = 1.0f;
        materials[1].name = "m";
        rig::gltf::applyMaterials(doc, materials);
        for (const rig::Material& m : materials) {
            require(m.alphaMode <= rig::AlphaMode::Blend, "alpha mode out of range");
            m.forEachTexture([](const char*, const rig::TextureRef& t) {
                require(t.texCoord <= 1, "a UV set past 1");
                require(t.wrapS == 10497 || t.wrapS == 33071 || t.wrapS == 33648, "wrapS not a glTF wrap mode");
                require(t.magFilter == 9728 || t.magFilter == 9729, "magFilter not a glTF filter");
                require(t.minFilter >= 9728 && t.minFilter <= 9987, "minFilter not a glTF filter");
            });
        }
    }
    return 0;
}
