// The hierarchy and what the model refers to: non-finite data, shared node names, bind
// transforms (degenerate, non-uniform, mirrored), textures and refused external files.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <string_view>
#include <unordered_map>

#include "check/check_context.h"
#include "util/paths.h"

namespace rig::checks {

namespace {

// Scale and degeneracy of a 3x3 (columns are the scaled axes).
struct ScaleInfo {
    float minAxis = 0.0f, maxAxis = 0.0f, det = 0.0f;
    bool degenerate = false, negative = false;
    float ratio = 1.0f;  // maxAxis / minAxis
};

ScaleInfo scaleInfo(const glm::mat3& m, float degenerateScale) {
    ScaleInfo s;
    const float a = glm::length(m[0]), b = glm::length(m[1]), c = glm::length(m[2]);
    s.minAxis = std::min({a, b, c});
    s.maxAxis = std::max({a, b, c});
    s.det = glm::determinant(m);
    const float volume = a * b * c;
    s.degenerate = !(s.minAxis > degenerateScale) || !(std::fabs(s.det) > degenerateScale * volume);
    s.negative = s.det < 0.0f;
    s.ratio = s.minAxis > 0.0f ? s.maxAxis / s.minAxis : std::numeric_limits<float>::infinity();
    return s;
}

namespace fs = std::filesystem;

bool textureFound(const Model& model, const std::string& ref) {
    if (ref.empty()) return true;
    if (ref[0] == '*') {
        const char* p = ref.c_str() + 1;
        char* end = nullptr;
        const long idx = std::strtol(p, &end, 10);
        if (end != p && *end == '\0' && idx >= 0 && static_cast<size_t>(idx) < model.textures.size()) return true;
    }
    for (const EmbeddedTexture& t : model.textures) {
        if (!t.name.empty() && t.name == ref) return true;
    }
    // A file inside the model's folder (util/paths.h). One that exists outside it was refused
    // and is reported as external-path-refused, not as missing.
    std::vector<std::string> refused;
    return !paths::resolveResourceFile(model.path, ref, &refused).empty() || !refused.empty();
}

// A file beside the model whose name matches `ref`'s file name but for letter case (files
// made on Windows), or "".
std::string sameNameButCase(const Model& model, const std::string& ref) {
    std::string p = ref;
    std::replace(p.begin(), p.end(), '\\', '/');
    auto lower = [](std::string x) {
        for (char& ch : x) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        return x;
    };
    const std::string want = lower(fs::path(p).filename().string());
    if (want.empty()) return {};
    std::error_code ec;
    fs::path dir = fs::path(model.path).parent_path();
    if (dir.empty()) dir = ".";
    fs::directory_iterator it(dir, ec), end;
    for (size_t n = 0; !ec && it != end && n < 10000; it.increment(ec), ++n) {
        const std::string name = it->path().filename().string();
        if (lower(name) == want) return name;
    }
    return {};
}

}  // namespace

void checkNonFinite(Context& cx) {
    const Model& model = cx.model;
    uint64_t nodes = 0;
    Examples ex{cx.s.maxExamples};
    for (size_t i = 0; i < model.skeleton.size(); ++i) {
        if (finiteMat(model.skeleton.bindLocal[i])) continue;
        ++nodes;
        ex.add(static_cast<int64_t>(i));
        ex.addName(model.skeleton.names[i]);
    }
    if (nodes) {
        Finding f = makeFinding(CheckCode::NonFiniteNodeTransform,
                                std::to_string(nodes) + " nodes have NaN or infinite transforms (e.g. '" + ex.names.front() + "')",
                                nodes, "nodes", ex.indices, ex.names);
        f.joint = static_cast<int32_t>(ex.indices.front());
        add(cx, std::move(f));
    }
    // Vertices: counted on import; models built in code are scanned.
    uint64_t bad = 0;
    int32_t firstMesh = -1;
    Examples vex{cx.s.maxExamples};
    for (size_t mi = 0; mi < model.meshes.size(); ++mi) {
        const Mesh& m = model.meshes[mi];
        for (size_t v = 0; v < m.vertexCount(); ++v) {
            const bool ok = finiteVec(m.positions[v]) && (v >= m.normals.size() || finiteVec(m.normals[v]));
            if (ok) continue;
            bad += 1 + (!finiteVec(m.positions[v]) && v < m.normals.size() && !finiteVec(m.normals[v]));
            if (firstMesh < 0) firstMesh = static_cast<int32_t>(mi);
            if (static_cast<int32_t>(mi) == firstMesh) vex.add(static_cast<int64_t>(v));
        }
    }
    bad = std::max<uint64_t>(bad, model.stats.nonFiniteVertices);
    if (bad) {
        const std::string where = firstMesh >= 0 ? " (first in " + meshLabel(model.meshes[firstMesh], firstMesh) + ")" : "";
        Finding f = makeFinding(CheckCode::NonFiniteVertices,
                                std::to_string(bad) + " vertex positions or normals are NaN or infinite" + where, bad,
                                firstMesh >= 0 ? meshLabel(model.meshes[firstMesh], firstMesh) + " vertices" : "vertices",
                                vex.indices, {});
        f.mesh = firstMesh;
        add(cx, std::move(f));
    }
    if (model.stats.nonFiniteKeys) {
        Examples cex{cx.s.maxExamples};
        int32_t first = -1;
        for (size_t c = 0; c < model.clips.size(); ++c) {
            if (!model.clips[c].curveStats.nonFiniteKeys) continue;
            cex.add(static_cast<int64_t>(c));
            cex.addName(model.clips[c].name);
            if (first < 0) first = static_cast<int32_t>(c);
        }
        Finding f = makeFinding(CheckCode::NonFiniteKeys,
                                std::to_string(model.stats.nonFiniteKeys) +
                                    " animation keys have a NaN or infinite time or value; dropped",
                                model.stats.nonFiniteKeys, "keys (examples: clips)", cex.indices, cex.names);
        f.clip = first;
        add(cx, std::move(f));
    }
}

void checkNames(Context& cx) {
    const Model& model = cx.model;
    const Skeleton& sk = model.skeleton;
    std::vector<uint8_t> used(sk.size(), 0);  // node a bone or a channel binds to
    for (const Mesh& m : model.meshes) {
        if (!m.skinned) continue;
        for (int32_t j : m.skin.joints)
            if (j >= 0 && static_cast<size_t>(j) < sk.size()) used[j] = 1;
    }
    for (const Clip& c : model.clips) {
        for (const Track& t : c.tracks)
            if (t.node >= 0 && static_cast<size_t>(t.node) < sk.size()) used[t.node] = 1;
    }
    std::unordered_map<std::string_view, int32_t> first;  // name -> first node
    first.reserve(sk.size());
    std::vector<int32_t> dupOf(sk.size(), -1);
    for (size_t i = 0; i < sk.size(); ++i) {
        if (sk.names[i].empty()) continue;
        auto [it, inserted] = first.emplace(sk.names[i], static_cast<int32_t>(i));
        if (!inserted) dupOf[i] = it->second;
    }
    // Per duplicated name (indexed by its first node): whether a bone or channel uses one of
    // its nodes, and whether import bound every such use by identity ("safe").
    std::vector<uint8_t> nameDup(sk.size(), 0), nameUsed(sk.size(), 0);
    for (size_t i = 0; i < sk.size(); ++i) {
        if (dupOf[i] < 0) continue;
        nameDup[dupOf[i]] = 1;
        if (used[i]) nameUsed[dupOf[i]] = 1;
    }
    for (size_t i = 0; i < sk.size(); ++i) {
        if (nameDup[i] && used[i]) nameUsed[i] = 1;
    }
    auto bindingsOf = [&](const std::string& name) {
        std::vector<const NameBinding*> list;
        for (const NameBinding& b : model.stats.nameBindings)
            if (b.name == name) list.push_back(&b);
        return list;
    };
    Examples err{cx.s.maxExamples}, warn{cx.s.maxExamples}, info{cx.s.maxExamples};
    uint64_t errNames = 0, warnNames = 0, infoNames = 0;
    int32_t errFirst = -1, warnFirst = -1, infoFirst = -1;
    std::string chosen;  // "'root' -> node 2 (rule)" for the first resolved name
    std::vector<int> kind(sk.size(), 0);  // per first node: 1 error, 2 warning, 3 info
    for (size_t i = 0; i < sk.size(); ++i) {
        if (!nameDup[i]) continue;
        const auto binds = bindingsOf(sk.names[i]);
        const bool safe = !binds.empty() &&
                          std::all_of(binds.begin(), binds.end(), [](const NameBinding* b) { return b->safe; });
        kind[i] = !nameUsed[i] ? 2 : safe ? 3 : 1;
        Examples& ex = kind[i] == 1 ? err : kind[i] == 2 ? warn : info;
        (kind[i] == 1 ? errNames : kind[i] == 2 ? warnNames : infoNames)++;
        int32_t& firstNode = kind[i] == 1 ? errFirst : kind[i] == 2 ? warnFirst : infoFirst;
        const int32_t pickedNode = !binds.empty() ? binds.front()->chosen : static_cast<int32_t>(i);
        if (firstNode < 0) firstNode = pickedNode;
        if (kind[i] == 3 && chosen.empty()) {
            const int32_t c = binds.front()->chosen;
            const int32_t p = c >= 0 ? sk.parent[c] : -1;
            chosen = "'" + sk.names[i] + "' (" + binds.front()->usedBy + ") -> node " + std::to_string(c) +
                     (p >= 0 ? " under '" + sk.names[p] + "'" : "") + ", by " + binds.front()->rule;
        }
        ex.addName(sk.names[i]);
        ex.add(static_cast<int64_t>(i));
    }
    // Examples also list the later nodes of each name.
    for (size_t i = 0; i < sk.size(); ++i) {
        if (dupOf[i] < 0) continue;
        const int k = kind[dupOf[i]];
        (k == 1 ? err : k == 2 ? warn : info).add(static_cast<int64_t>(i));
    }
    if (errNames) {
        const auto binds = bindingsOf(err.names.front());
        const std::string where = binds.empty() ? "" : " (bound to node " + std::to_string(binds.front()->chosen) +
                                                           ", " + binds.front()->rule + ")";
        Finding f = makeFinding(CheckCode::DuplicateNodeNameAmbiguous,
                                std::to_string(errNames) + " node names are shared by several nodes and used by a skin bone or an "
                                "animation channel (e.g. '" + err.names.front() + "'" + where + "); nothing in the file tells which "
                                "node is meant, so the bone or channel may move the wrong one",
                                errNames, "nodes with a shared name", err.indices, err.names);
        f.joint = errFirst;
        add(cx, std::move(f));
    }
    if (infoNames) {
        Finding f = makeFinding(CheckCode::DuplicateNodeNameResolved,
                                std::to_string(infoNames) + " node names are shared by several nodes and used by bones or channels; "
                                "each was bound to one node without ambiguity (e.g. " + chosen + ")",
                                infoNames, "nodes with a shared name", info.indices, info.names);
        f.joint = infoFirst;
        add(cx, std::move(f));
    }
    if (warnNames) {
        Finding f = makeFinding(CheckCode::DuplicateNodeNameUnused,
                                std::to_string(warnNames) + " node names are shared by several nodes (e.g. '" + warn.names.front() +
                                    "'); nothing binds to them by name yet, but tools that look nodes up by name will pick the first",
                                warnNames, "nodes with a shared name", warn.indices, warn.names);
        f.joint = warnFirst;
        add(cx, std::move(f));
    }
}

void checkBindTransforms(Context& cx) {
    const Model& model = cx.model;
    const Skeleton& sk = model.skeleton;
    Examples deg{cx.s.maxExamples}, nonUni{cx.s.maxExamples}, neg{cx.s.maxExamples};
    uint64_t nDeg = 0, nNonUni = 0, nNeg = 0;
    float worstRatio = 1.0f;
    int32_t worstNonUni = -1;
    for (size_t i = 0; i < sk.size(); ++i) {
        if (!cx.relevant[i] || !finiteMat(sk.bindLocal[i])) continue;
        const ScaleInfo s = scaleInfo(glm::mat3(sk.bindLocal[i]), cx.s.degenerateScale);
        const int64_t idx = static_cast<int64_t>(i);
        if (s.degenerate) {
            ++nDeg;
            deg.add(idx);
            deg.addName(sk.names[i]);
            continue;
        }
        if (s.negative) {
            ++nNeg;
            neg.add(idx);
            neg.addName(sk.names[i]);
        }
        if (s.ratio - 1.0f > cx.s.scaleTolerance) {
            ++nNonUni;
            nonUni.add(idx);
            nonUni.addName(sk.names[i]);
            if (s.ratio > worstRatio) {
                worstRatio = s.ratio;
                worstNonUni = static_cast<int32_t>(i);
            }
        }
    }
    if (nDeg) {
        Finding f = makeFinding(CheckCode::DegenerateTransform,
                                "bind pose: " + std::to_string(nDeg) + " rig nodes have a zero or near-zero scale or a singular transform "
                                "(e.g. '" + deg.names.front() + "'); what hangs below them collapses",
                                nDeg, "nodes", deg.indices, deg.names);
        f.joint = static_cast<int32_t>(deg.indices.front());
        add(cx, std::move(f));
    }
    if (nNonUni) {
        Finding f = makeFinding(CheckCode::NonUniformScale,
                                "bind pose: " + std::to_string(nNonUni) + " rig nodes are scaled non-uniformly (worst '" +
                                    nodeName(model, worstNonUni) + "', axes " + fmt(worstRatio) +
                                    " : 1); children inherit shear and skinning distorts",
                                nNonUni, "nodes", nonUni.indices, nonUni.names);
        f.joint = worstNonUni;
        f.value = worstRatio;
        add(cx, std::move(f));
    }
    if (nNeg) {
        Finding f = makeFinding(CheckCode::NegativeScale,
                                "bind pose: " + std::to_string(nNeg) + " rig nodes are mirrored by a negative scale (e.g. '" +
                                    neg.names.front() + "'); triangle winding and normals flip below them",
                                nNeg, "nodes", neg.indices, neg.names);
        f.joint = static_cast<int32_t>(neg.indices.front());
        add(cx, std::move(f));
    }
}

void checkResources(Context& cx) {
    const std::vector<std::string>& refused = cx.model.stats.refusedPaths;
    if (refused.empty()) return;
    std::vector<std::string> names(refused.begin(), refused.begin() + std::min(refused.size(), cx.s.maxExamples));
    add(cx, makeFinding(CheckCode::ExternalPathRefused,
                        std::to_string(refused.size()) + " files the model refers to lie outside its folder and were not read ('" +
                            refused.front() + "'" + (refused.size() > 1 ? ", ..." : "") + "); --allow-external-paths reads them",
                        refused.size(), "files", {}, names));
}

// The name of a texture slot in findings ("baseColor" -> "base-colour").
std::string slotLabel(const std::string& slot) {
    if (slot == "baseColor") return "base-colour";
    if (slot == "metallicRoughness") return "metallic-roughness";
    if (slot == "clearcoatRoughness") return "clearcoat-roughness";
    if (slot == "clearcoatNormal") return "clearcoat-normal";
    return slot;
}

// One finding per texture slot of a material used by a mesh whose texture is neither embedded
// ("*N", or an embedded texture's name) nor a file (as written, relative to the model's folder,
// or by its file name beside the model).
// Whether the model's format names materials rather than texture files: an IQM mesh's material
// string and an MD5 mesh's shader are names the game's own configuration resolves (iqm.txt,
// id Tech's material files), so a name with no file of that name beside the model is no fault.
static bool texturesAreMaterialNames(const std::string& path) {
    const size_t dot = path.find_last_of('.');
    if (dot == std::string::npos || path.find('/', dot) != std::string::npos) return false;
    std::string ext = path.substr(dot);
    for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return ext == ".iqm" || ext == ".md5mesh";
}

void checkTextures(Context& cx) {
    if (!cx.s.checkTextureFiles) return;
    const Model& model = cx.model;
    if (texturesAreMaterialNames(model.path)) return;
    std::vector<uint8_t> usedMat(model.materials.size(), 0);
    for (const Mesh& m : model.meshes)
        if (m.material < usedMat.size()) usedMat[m.material] = 1;
    for (size_t i = 0; i < model.materials.size(); ++i) {
        const Material& mat = model.materials[i];
        if (!usedMat[i]) continue;
        mat.forEachTexture([&](const char* slot, const TextureRef& tex) {
            if (tex.path.empty() || textureFound(model, tex.path)) return;
            std::vector<int64_t> meshes;
            for (size_t mi = 0; mi < model.meshes.size() && meshes.size() < cx.s.maxExamples; ++mi)
                if (model.meshes[mi].material == i) meshes.push_back(static_cast<int64_t>(mi));
            const std::string near = sameNameButCase(model, tex.path);
            Finding f = makeFinding(CheckCode::MissingTexture,
                                    slotLabel(slot) + " texture '" + tex.path + "' of material " + std::to_string(i) + " '" + mat.name +
                                        "' is missing: not embedded and no such file is found (as written, beside the model, or by its file name)" +
                                        (near.empty() ? std::string() : "; '" + near + "' beside the model differs only in letter case"),
                                    1, "meshes using material " + std::to_string(i), meshes, {tex.path});
            f.mesh = meshes.empty() ? -1 : static_cast<int32_t>(meshes.front());
            add(cx, std::move(f));
        });
    }
}

}  // namespace rig::checks
