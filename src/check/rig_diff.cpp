#include "check/rig_diff.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <unordered_map>

#include <glm/gtc/quaternion.hpp>

#include "anim/runtime/pose.h"
#include "anim/runtime/skinning.h"

namespace rig {

namespace {

// Key times closer than this (seconds) are the same time.
constexpr double kTimeTolerance = 1e-5;

// A model's joints (Model::jointNodes) as their own little tree: each joint's nearest ancestor
// that is a joint, and its index among that parent's joint children.
struct JointTree {
    std::vector<int32_t> nodes;       // joint -> skeleton node, in node order (parents first)
    std::vector<int32_t> ofNode;      // node -> joint, or -1
    std::vector<int32_t> parent;      // joint -> parent joint, or -1
    std::vector<int32_t> childIndex;  // joint -> index among its parent's joint children (or among roots)
};

JointTree jointTree(const Model& m) {
    JointTree t;
    t.nodes = m.jointNodes();
    t.ofNode.assign(m.skeleton.size(), -1);
    for (size_t j = 0; j < t.nodes.size(); ++j) t.ofNode[t.nodes[j]] = static_cast<int32_t>(j);
    std::map<int32_t, int32_t> children;  // parent joint (-1: roots) -> children so far
    for (size_t j = 0; j < t.nodes.size(); ++j) {
        int32_t p = m.skeleton.parent[t.nodes[j]];
        while (p >= 0 && t.ofNode[p] < 0) p = m.skeleton.parent[p];
        const int32_t pj = p >= 0 ? t.ofNode[p] : -1;
        t.parent.push_back(pj);
        t.childIndex.push_back(children[pj]++);
    }
    return t;
}

// Where a point is not finite (a file's infinities, NaN): the same place when every
// coordinate is equal or NaN on both sides.
bool finite(const glm::dvec3& p) { return std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z); }
bool sameNonFinite(const glm::dvec3& p, const glm::dvec3& q) {
    for (int i = 0; i < 3; ++i) {
        if (!(p[i] == q[i] || (std::isnan(p[i]) && std::isnan(q[i])))) return false;
    }
    return true;
}
// The same place within r2 (squared metres), or the same non-finite point.
bool samePlace(const glm::dvec3& p, const glm::dvec3& q, double r2) {
    if (finite(p) && finite(q)) {
        const glm::dvec3 d = p - q;
        return glm::dot(d, d) <= r2;
    }
    return !finite(p) && !finite(q) && sameNonFinite(p, q);
}

glm::dvec3 origin(const glm::mat4& m, double scale) { return glm::dvec3(m[3]) * scale; }

glm::dquat orientation(const glm::mat4& m) {
    glm::dmat3 r(m);
    for (int c = 0; c < 3; ++c) {
        const double len = glm::length(r[c]);
        if (len > 0.0) r[c] /= len;
    }
    if (glm::determinant(r) < 0.0) r[2] = -r[2];  // a mirror: compare the rotation that remains
    return glm::normalize(glm::quat_cast(r));
}

double angleDeg(const glm::dquat& a, const glm::dquat& b) {
    const glm::dquat q = glm::conjugate(a) * b;  // accurate for small angles, unlike acos(dot)
    return glm::degrees(2.0 * std::atan2(glm::length(glm::dvec3(q.x, q.y, q.z)), std::abs(q.w)));
}

// Pairs of equal names, in order among equal names: out[i] is the b index of a's item i, or -1.
template <class NameA, class NameB> std::vector<int32_t> matchByName(size_t na, size_t nb, NameA nameA, NameB nameB) {
    std::map<std::string, std::vector<int32_t>> free;
    for (size_t i = nb; i-- > 0;) free[nameB(i)].push_back(static_cast<int32_t>(i));
    std::vector<int32_t> out(na, -1);
    for (size_t i = 0; i < na; ++i) {
        auto it = free.find(nameA(i));
        if (it == free.end() || it->second.empty()) continue;
        out[i] = it->second.back();
        it->second.pop_back();
    }
    return out;
}

// Vertices matched by bind position: for each vertex of b, a vertex of a not yet taken within
// `radius` metres of it (-1: none), the one with the closest normal and texture coordinate
// (seams duplicate positions), then the closest position.
struct CellKey {
    int64_t x, y, z;
    bool operator==(const CellKey& o) const { return x == o.x && y == o.y && z == o.z; }
};
struct CellHash {
    size_t operator()(const CellKey& k) const {
        // Unsigned arithmetic: wraps, never overflows (cells reach 1e15).
        return static_cast<size_t>(static_cast<uint64_t>(k.x) * 73856093u ^ static_cast<uint64_t>(k.y) * 19349663u ^
                                   static_cast<uint64_t>(k.z) * 83492791u);
    }
};
// A grid cell under one parent joint (the joints' rename match).
struct ParentCell {
    int32_t parent;
    CellKey cell;
    bool operator==(const ParentCell& o) const { return parent == o.parent && cell == o.cell; }
};
struct ParentCellHash {
    size_t operator()(const ParentCell& k) const {
        return CellHash{}(k.cell) ^ (static_cast<size_t>(static_cast<uint32_t>(k.parent)) * 0x9E3779B97F4A7C15ull);
    }
};

std::vector<int32_t> matchVerticesWithin(const Mesh& a, const Mesh& b, double sa, double sb, double radius) {
    const size_t na = a.vertexCount(), nb = b.vertexCount();
    std::vector<int32_t> out(nb, -1);
    const double r2 = radius * radius;
    auto posA = [&](size_t v) { return glm::dvec3(a.positions[v]) * sa; };
    auto posB = [&](size_t v) { return glm::dvec3(b.positions[v]) * sb; };
    if (na == nb) {  // the same order: nothing to search
        bool same = true;
        for (size_t v = 0; v < nb && same; ++v) same = samePlace(posA(v), posB(v), r2);
        if (same) {
            for (size_t v = 0; v < nb; ++v) out[v] = static_cast<int32_t>(v);
            return out;
        }
    }
    const double cell = std::max(radius, 1e-6);  // no finer than a micrometre: cell indices stay far from overflow
    auto keyOf = [&](const glm::dvec3& p, CellKey& k) {
        const glm::dvec3 q = glm::floor(p / cell);
        if (!(std::abs(q.x) < 1e15 && std::abs(q.y) < 1e15 && std::abs(q.z) < 1e15)) return false;  // NaN, huge
        k = {static_cast<int64_t>(q.x), static_cast<int64_t>(q.y), static_cast<int64_t>(q.z)};
        return true;
    };
    std::unordered_map<CellKey, std::vector<uint32_t>, CellHash> grid;
    grid.reserve(na);
    // Non-finite points match only the same point (samePlace: each coordinate equal, or NaN on
    // both sides): keyed by their coordinates with every NaN made one value, each list taken
    // in order.
    auto exactKey = [](const glm::dvec3& p) {
        CellKey k;
        int64_t* out[3] = {&k.x, &k.y, &k.z};
        for (int i = 0; i < 3; ++i) {
            const double c = std::isnan(p[i]) ? std::numeric_limits<double>::quiet_NaN() : p[i] + 0.0;  // -0 is 0
            uint64_t bits;
            std::memcpy(&bits, &c, sizeof bits);
            if (std::isnan(c)) bits = 0x7ff8000000000000ull;
            *out[i] = static_cast<int64_t>(bits);
        }
        return k;
    };
    std::unordered_map<CellKey, std::pair<size_t, std::vector<uint32_t>>, CellHash> nonFiniteA;
    for (size_t v = 0; v < na; ++v) {
        CellKey k;
        if (!finite(posA(v))) {
            nonFiniteA[exactKey(posA(v))].second.push_back(static_cast<uint32_t>(v));
        } else if (keyOf(posA(v), k)) {
            grid[k].push_back(static_cast<uint32_t>(v));
        }
    }
    const bool normals = a.normals.size() == na && b.normals.size() == nb;
    const bool uvs = a.uvs.size() == na && b.uvs.size() == nb;
    // A vertex of a once matched leaves its cell, and a perfect candidate ends the search, so
    // many vertices at one place (seams, a degenerate mesh) cost no quadratic time.
    constexpr size_t kMaxCandidates = 256;
    for (size_t v = 0; v < nb; ++v) {
        const glm::dvec3 p = posB(v);
        if (!finite(p)) {
            auto it = nonFiniteA.find(exactKey(p));
            if (it != nonFiniteA.end() && it->second.first < it->second.second.size()) {
                out[v] = static_cast<int32_t>(it->second.second[it->second.first++]);
            }
            continue;
        }
        CellKey k;
        if (!keyOf(p, k)) continue;
        std::vector<uint32_t>* bestCell = nullptr;
        size_t bestAt = 0, seen = 0;
        double bestKey[2] = {0, 0};
        for (int64_t dx = -1; dx <= 1 && seen < kMaxCandidates; ++dx) {
            for (int64_t dy = -1; dy <= 1 && seen < kMaxCandidates; ++dy) {
                for (int64_t dz = -1; dz <= 1 && seen < kMaxCandidates; ++dz) {
                    auto it = grid.find({k.x + dx, k.y + dy, k.z + dz});
                    if (it == grid.end()) continue;
                    std::vector<uint32_t>& cellList = it->second;
                    for (size_t at = 0; at < cellList.size() && seen < kMaxCandidates; ++at) {
                        const uint32_t c = cellList[at];
                        const glm::dvec3 d = posA(c) - p;
                        const double d2 = glm::dot(d, d);
                        if (!(d2 <= r2)) continue;
                        ++seen;
                        double attr = 0.0;
                        if (normals) attr += glm::length(glm::dvec3(a.normals[c] - b.normals[v]));
                        if (uvs) attr += glm::length(glm::dvec2(a.uvs[c] - b.uvs[v]));
                        const double key[2] = {attr, d2};
                        if (!bestCell || std::lexicographical_compare(key, key + 2, bestKey, bestKey + 2)) {
                            bestCell = &cellList;
                            bestAt = at;
                            std::copy(key, key + 2, bestKey);
                            if (attr == 0.0 && d2 == 0.0) seen = kMaxCandidates;  // the same vertex
                        }
                    }
                }
            }
        }
        if (bestCell) {
            out[v] = static_cast<int32_t>((*bestCell)[bestAt]);
            (*bestCell)[bestAt] = bestCell->back();
            bestCell->pop_back();
        }
    }
    return out;
}

// One vertex's weights keyed by b's joint node (a's joints through the joint match; a joint
// of a with no match in b as -1 - node, so it meets no joint of b).
struct Influence {
    int64_t joint;
    double weight;
};

size_t influences(const Mesh& m, size_t v, const std::vector<int64_t>& key, Influence* out) {
    if (!m.skinned || v >= m.weights.size() || v >= m.joints.size()) return 0;
    size_t n = 0;
    for (int k = 0; k < kMaxInfluences; ++k) {
        const float w = m.weights[v][k];
        const uint16_t slot = m.joints[v][k];
        if (!(w > 0.0f) || slot >= m.skin.joints.size()) continue;
        const int64_t j = key[m.skin.joints[slot]];
        size_t i = 0;
        while (i < n && out[i].joint != j) ++i;
        if (i == n) out[n++] = {j, 0.0};
        out[i].weight += w;
    }
    return n;
}

double weightDelta(const Influence* a, size_t na, const Influence* b, size_t nb) {
    double worst = 0.0;
    for (size_t i = 0; i < na; ++i) {
        double wb = 0.0;
        for (size_t k = 0; k < nb; ++k) wb += b[k].joint == a[i].joint ? b[k].weight : 0.0;
        worst = std::max(worst, std::abs(a[i].weight - wb));
    }
    for (size_t k = 0; k < nb; ++k) {
        bool inA = false;
        for (size_t i = 0; i < na; ++i) inA = inA || a[i].joint == b[k].joint;
        if (!inA) worst = std::max(worst, b[k].weight);
    }
    return worst;
}

// A clip's distinct key times, sorted (morph keys included: Clip::times holds every run).
std::vector<double> keyTimes(const Clip& c) {
    std::vector<double> t;
    for (float x : c.times) {
        if (std::isfinite(x)) t.push_back(x);
    }
    std::sort(t.begin(), t.end());
    t.erase(std::unique(t.begin(), t.end()), t.end());
    return t;
}

bool timesDiffer(const std::vector<double>& a, const std::vector<double>& b) {
    if (a.size() != b.size()) return true;
    for (size_t i = 0; i < a.size(); ++i) {
        if (std::abs(a[i] - b[i]) > kTimeTolerance) return true;
    }
    return false;
}

// The union of both versions' key times, at most `cap` of them spread evenly (first and last kept).
std::vector<double> sampleTimes(const std::vector<double>& a, const std::vector<double>& b, size_t cap) {
    std::vector<double> all(a);
    all.insert(all.end(), b.begin(), b.end());
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end(), [](double x, double y) { return y - x <= kTimeTolerance; }), all.end());
    if (all.empty()) all.push_back(0.0);
    cap = std::max<size_t>(cap, 2);
    if (all.size() <= cap) return all;
    std::vector<double> out;
    for (size_t i = 0; i < cap; ++i) out.push_back(all[(i * (all.size() - 1) + (cap - 1) / 2) / (cap - 1)]);
    return out;
}

// A clip the Animator can sample (import builds trackOfNode for every clip it keeps).
bool playable(const Model& m, size_t clip) { return m.clips[clip].trackOfNode.size() >= m.skeleton.size(); }

std::string jointNameOf(const Model& m, size_t mesh, uint32_t vertex) {
    const Mesh& me = m.meshes[mesh];
    int32_t node = me.node;
    if (me.skinned && vertex < me.weights.size()) {
        const uint32_t slot = strongestSlot(me, vertex);
        if (slot < me.skin.joints.size()) node = me.skin.joints[slot];
    }
    return node >= 0 && static_cast<size_t>(node) < m.skeleton.size() ? m.skeleton.names[node] : std::string();
}

// Whether qa and qb (metres) lie farther apart than worst.maxMm; if so it becomes their distance
// (mm; infinite where one of them is not finite and they are not the same point).
bool farther(const glm::dvec3& qa, const glm::dvec3& qb, ClipMotionChange& worst) {
    double mm = glm::length(qa - qb) * 1e3;
    if (!finite(qa) || !finite(qb)) mm = samePlace(qa, qb, 0.0) ? 0.0 : HUGE_VAL;
    if (!(mm > worst.maxMm)) return false;
    worst.maxMm = mm;
    return true;
}

struct MeshPair {
    size_t a, b;
    std::vector<int32_t> vertexOfA;  // per vertex of b
};

// One comparison: the two versions, the options, the report so far and the matches made so
// far (joints, then meshes and their vertices), which the later sections compare through.
struct Comparison {
    const Model& a;
    const Model& b;
    const DiffOptions& o;
    RigDiff& d;
    double sa, sb;                      // metres per unit of a and b
    JointTree ja, jb;
    std::vector<int32_t> aToB, bToA;    // joint of a -> joint of b and back (-1: none)
    std::vector<MeshPair> pairs;        // meshes of both, with their vertex matches

    void joints();   // added, removed, renamed, reparented; bind pose moved
    void meshes();   // added, removed, changed (vertex count, vertices moved)
    void weights();  // per matched vertex
    void clips();    // added, removed, retimed; the skinned mesh's largest deviation
};

void Comparison::joints() {
    // By name, then by place (parents first, so a renamed parent places its children).
    ja = jointTree(a);
    jb = jointTree(b);
    const std::vector<glm::mat4>& bindA = a.skeleton.bindPoseModel();
    const std::vector<glm::mat4>& bindB = b.skeleton.bindPoseModel();
    aToB = matchByName(
        ja.nodes.size(), jb.nodes.size(), [&](size_t i) { return a.skeleton.names[ja.nodes[i]]; },
        [&](size_t i) { return b.skeleton.names[jb.nodes[i]]; });
    bToA.assign(jb.nodes.size(), -1);
    for (size_t i = 0; i < aToB.size(); ++i) {
        if (aToB[i] >= 0) bToA[aToB[i]] = static_cast<int32_t>(i);
    }
    // The joints of b no name matched, indexed by (parent joint, child index) and by (parent
    // joint, grid cell of the bind-pose origin): each joint of a is placed in constant time on
    // average, never against every joint of b.
    const double radius = std::max(o.renameDistanceMm, o.toleranceMm) * 1e-3;
    const double cell = std::max(radius, 1e-6);
    auto cellOf = [&](const glm::dvec3& p, CellKey& k) {
        const glm::dvec3 q = glm::floor(p / cell);
        if (!(std::abs(q.x) < 1e15 && std::abs(q.y) < 1e15 && std::abs(q.z) < 1e15)) return false;  // NaN, huge
        k = {static_cast<int64_t>(q.x), static_cast<int64_t>(q.y), static_cast<int64_t>(q.z)};
        return true;
    };
    auto withParent = [](const CellKey& k, int32_t parent) { return ParentCell{parent, k}; };
    std::unordered_map<CellKey, int32_t, CellHash> byChild;  // {parent, child index, 0}
    std::unordered_map<ParentCell, std::vector<int32_t>, ParentCellHash> byCell;
    for (size_t k = 0; k < jb.nodes.size(); ++k) {
        if (bToA[k] >= 0) continue;
        byChild.emplace(CellKey{jb.parent[k], jb.childIndex[k], 0}, static_cast<int32_t>(k));
        CellKey c;
        if (cellOf(origin(bindB[jb.nodes[k]], sb), c)) byCell[withParent(c, jb.parent[k])].push_back(static_cast<int32_t>(k));
    }
    auto take = [&](size_t i, int32_t k) {
        aToB[i] = k;
        bToA[k] = static_cast<int32_t>(i);
        CellKey c;
        if (!cellOf(origin(bindB[jb.nodes[k]], sb), c)) return;
        std::vector<int32_t>& list = byCell[withParent(c, jb.parent[k])];
        list.erase(std::find(list.begin(), list.end(), k));
    };
    constexpr size_t kMaxCandidates = 256;  // within the radius: enough for any real rig
    for (size_t i = 0; i < ja.nodes.size(); ++i) {
        if (aToB[i] >= 0) continue;
        const int32_t pa = ja.parent[i];
        const int32_t pb = pa < 0 ? -1 : aToB[pa];
        if (pa >= 0 && pb < 0) continue;
        const glm::dvec3 at = origin(bindA[ja.nodes[i]], sa);
        auto within = [&](int32_t k) { return glm::length(origin(bindB[jb.nodes[k]], sb) - at) <= radius; };
        // The same place among its parent's children first: the best a match can be.
        auto same = byChild.find(CellKey{pb, ja.childIndex[i], 0});
        if (same != byChild.end() && bToA[same->second] < 0 && within(same->second)) {
            take(i, same->second);
            continue;
        }
        // Else the nearest within the radius under the same parent (the lowest index on a tie).
        CellKey c;
        if (!cellOf(at, c)) continue;
        int32_t best = -1;
        double bestDist = 0.0;
        size_t seen = 0;
        for (int64_t dx = -1; dx <= 1; ++dx) {
            for (int64_t dy = -1; dy <= 1; ++dy) {
                for (int64_t dz = -1; dz <= 1; ++dz) {
                    auto it = byCell.find(withParent({c.x + dx, c.y + dy, c.z + dz}, pb));
                    if (it == byCell.end()) continue;
                    for (int32_t k : it->second) {
                        if (seen >= kMaxCandidates) break;
                        const double dist = glm::length(origin(bindB[jb.nodes[k]], sb) - at);
                        if (!(dist <= radius)) continue;
                        ++seen;
                        if (best < 0 || dist < bestDist || (dist == bestDist && k < best)) {
                            best = k;
                            bestDist = dist;
                        }
                    }
                }
            }
        }
        if (best >= 0) take(i, best);
    }
    auto nameA = [&](int32_t j) { return j < 0 ? std::string() : a.skeleton.names[ja.nodes[j]]; };
    auto nameB = [&](int32_t j) { return j < 0 ? std::string() : b.skeleton.names[jb.nodes[j]]; };
    for (size_t i = 0; i < ja.nodes.size(); ++i) {
        const int32_t k = aToB[i];
        if (k < 0) {
            d.jointsRemoved.push_back(nameA(static_cast<int32_t>(i)));
            continue;
        }
        if (nameA(static_cast<int32_t>(i)) != nameB(k)) d.jointsRenamed.push_back({nameA(static_cast<int32_t>(i)), nameB(k)});
        const int32_t pa = ja.parent[i], pb = jb.parent[k];
        if ((pa < 0 ? -1 : aToB[pa]) != pb || (pa >= 0 && aToB[pa] < 0)) {
            d.jointsReparented.push_back({nameB(k), nameA(pa), nameB(pb)});
        }
        const glm::mat4& ma = bindA[ja.nodes[i]];
        const glm::mat4& mb = bindB[jb.nodes[k]];
        if (std::memcmp(&ma, &mb, sizeof ma) == 0 && sa == sb) continue;  // the same bits, NaN included
        const double moved = glm::length(origin(ma, sa) - origin(mb, sb)) * 1e3;
        const double turned = angleDeg(orientation(ma), orientation(mb));
        if (moved > o.toleranceMm || turned > o.toleranceDeg || std::isnan(moved) || std::isnan(turned)) {
            d.bindPoseMoved.push_back({nameB(k), moved, turned});
        }
    }
    for (size_t k = 0; k < jb.nodes.size(); ++k) {
        if (bToA[k] < 0) d.jointsAdded.push_back(nameB(static_cast<int32_t>(k)));
    }
}

void Comparison::meshes() {
    // By name; vertices by bind position.
    const std::vector<int32_t> meshToB = matchMeshes(a, b);
    std::vector<uint8_t> meshMatchedB(b.meshes.size(), 0);
    for (size_t i = 0; i < a.meshes.size(); ++i) {
        if (meshToB[i] < 0) {
            d.meshesRemoved.push_back(a.meshes[i].name);
            continue;
        }
        const size_t k = static_cast<size_t>(meshToB[i]);
        meshMatchedB[k] = 1;
        MeshPair p{i, k, matchVerticesWithin(a.meshes[i], b.meshes[k], sa, sb, o.toleranceMm * 1e-3)};
        std::vector<uint8_t> hit(a.meshes[i].vertexCount(), 0);
        size_t unmatchedB = 0;
        for (int32_t v : p.vertexOfA) {
            if (v < 0) {
                ++unmatchedB;
            } else {
                hit[v] = 1;
            }
        }
        const size_t unmatchedA = static_cast<size_t>(std::count(hit.begin(), hit.end(), 0));
        if (unmatchedA || unmatchedB || a.meshes[i].vertexCount() != b.meshes[k].vertexCount()) {
            d.meshesChanged.push_back({b.meshes[k].name, a.meshes[i].vertexCount(), b.meshes[k].vertexCount(), unmatchedA, unmatchedB});
        }
        pairs.push_back(std::move(p));
    }
    for (size_t k = 0; k < b.meshes.size(); ++k) {
        if (!meshMatchedB[k]) d.meshesAdded.push_back(b.meshes[k].name);
    }
}

void Comparison::weights() {
    // Joints compared through the joint match.
    std::vector<int64_t> keyA(a.skeleton.size()), keyB(b.skeleton.size());
    for (size_t n = 0; n < keyA.size(); ++n) {
        const int32_t j = ja.ofNode[n];
        keyA[n] = j >= 0 && aToB[j] >= 0 ? jb.nodes[aToB[j]] : -1 - static_cast<int64_t>(n);
    }
    for (size_t n = 0; n < keyB.size(); ++n) keyB[n] = static_cast<int64_t>(n);
    for (const MeshPair& p : pairs) {
        const Mesh& ma = a.meshes[p.a];
        const Mesh& mb = b.meshes[p.b];
        if (!ma.skinned && !mb.skinned) continue;
        MeshWeightChanges w;
        w.mesh = mb.name;
        for (size_t v = 0; v < p.vertexOfA.size(); ++v) {
            if (p.vertexOfA[v] < 0) continue;
            Influence ia[kMaxInfluences], ib[kMaxInfluences];
            const size_t na = influences(ma, static_cast<size_t>(p.vertexOfA[v]), keyA, ia);
            const size_t nb = influences(mb, v, keyB, ib);
            const double delta = weightDelta(ia, na, ib, nb);
            if (!(delta > o.weightTolerance) && !std::isnan(delta)) continue;
            ++w.count;
            w.maxDelta = std::max(w.maxDelta, delta);
            w.vertices.push_back({static_cast<uint32_t>(p.vertexOfA[v]), static_cast<uint32_t>(v), delta});
        }
        if (w.count == 0) continue;
        // Largest first, NaN (a file's NaN weight) before all: a strict weak order even then.
        auto rank = [](double v) { return std::isnan(v) ? HUGE_VAL : v; };
        std::stable_sort(w.vertices.begin(), w.vertices.end(),
                         [&](const WeightChange& x, const WeightChange& y) { return rank(x.maxDelta) > rank(y.maxDelta); });
        if (w.vertices.size() > o.maxWeightExamples) w.vertices.resize(o.maxWeightExamples);
        d.weightsChanged.push_back(std::move(w));
    }
}

void Comparison::clips() {
    // By name.
    const std::vector<int32_t> clipToB = matchByName(
        a.clips.size(), b.clips.size(), [&](size_t i) { return a.clips[i].name; },
        [&](size_t i) { return b.clips[i].name; });
    std::vector<uint8_t> clipMatchedB(b.clips.size(), 0);
    Animator animA(a), animB(b);
    std::vector<glm::vec3> posA, posB;
    for (size_t i = 0; i < a.clips.size(); ++i) {
        if (clipToB[i] < 0) {
            d.clipsRemoved.push_back(a.clips[i].name);
            continue;
        }
        const size_t k = static_cast<size_t>(clipToB[i]);
        clipMatchedB[k] = 1;
        const Clip& ca = a.clips[i];
        const Clip& cb = b.clips[k];
        const std::vector<double> ta = keyTimes(ca), tb = keyTimes(cb);
        ClipRetime rt{cb.name, ca.startTime, cb.startTime, ca.duration, cb.duration, ta.size(), tb.size(), timesDiffer(ta, tb)};
        if (rt.keyTimesChanged || std::abs(rt.startA - rt.startB) > kTimeTolerance ||
            std::abs(rt.durationA - rt.durationB) > kTimeTolerance) {
            d.clipsRetimed.push_back(rt);
        }
        if (!playable(a, i) || !playable(b, k)) continue;
        ClipMotionChange worst{cb.name};
        const std::vector<double> times = sampleTimes(ta, tb, o.maxSamplesPerClip);
        worst.samples = times.size();
        for (double t : times) {
            animA.evaluate(static_cast<int32_t>(i), static_cast<float>(t));
            animB.evaluate(static_cast<int32_t>(k), static_cast<float>(t));
            for (const MeshPair& p : pairs) {
                const Mesh& ma = a.meshes[p.a];
                const Mesh& mb = b.meshes[p.b];
                posA.resize(ma.vertexCount());
                posB.resize(mb.vertexCount());
                skinMesh(ma, animA.palette().data() + animA.paletteOffset(p.a), animA.meshMorphWeights(p.a), posA.data(), nullptr);
                skinMesh(mb, animB.palette().data() + animB.paletteOffset(p.b), animB.meshMorphWeights(p.b), posB.data(), nullptr);
                const glm::dmat4 wa(animA.skinToModel(p.a)), wb(animB.skinToModel(p.b));
                for (size_t v = 0; v < p.vertexOfA.size(); ++v) {
                    if (p.vertexOfA[v] < 0) continue;
                    const glm::dvec3 qa = glm::dvec3(wa * glm::dvec4(glm::dvec3(posA[p.vertexOfA[v]]), 1.0)) * sa;
                    const glm::dvec3 qb = glm::dvec3(wb * glm::dvec4(glm::dvec3(posB[v]), 1.0)) * sb;
                    if (farther(qa, qb, worst)) {
                        worst.time = t;
                        worst.mesh = mb.name;
                        worst.vertex = static_cast<uint32_t>(v);
                        worst.joint = jointNameOf(b, p.b, static_cast<uint32_t>(v));
                    }
                }
            }
            // No mesh in both (a skeleton, a BVH): the matched joints' origins instead.
            for (size_t j = 0; j < aToB.size() && pairs.empty(); ++j) {
                if (aToB[j] < 0) continue;
                const int32_t nb = jb.nodes[aToB[j]];
                if (farther(origin(animA.world()[ja.nodes[j]], sa), origin(animB.world()[nb], sb), worst)) {
                    worst.time = t;
                    worst.mesh.clear();
                    worst.vertex = 0;
                    worst.joint = b.skeleton.names[nb];
                }
            }
        }
        if (worst.maxMm > o.toleranceMm) d.clipMotion.push_back(worst);
    }
    for (size_t k = 0; k < b.clips.size(); ++k) {
        if (!clipMatchedB[k]) d.clipsAdded.push_back(b.clips[k].name);
    }
}

}  // namespace

std::vector<int32_t> matchMeshes(const Model& a, const Model& b) {
    return matchByName(
        a.meshes.size(), b.meshes.size(), [&](size_t i) { return a.meshes[i].name; },
        [&](size_t i) { return b.meshes[i].name; });
}

std::vector<int32_t> matchVertices(const Mesh& a, double metresPerUnitA, const Mesh& b, double metresPerUnitB,
                                   double toleranceMm) {
    return matchVerticesWithin(a, b, metresPerUnitA, metresPerUnitB, toleranceMm * 1e-3);
}

bool RigDiff::differs() const {
    return !jointsAdded.empty() || !jointsRemoved.empty() || !jointsRenamed.empty() || !jointsReparented.empty() ||
           !bindPoseMoved.empty() || !meshesAdded.empty() || !meshesRemoved.empty() || !meshesChanged.empty() ||
           !weightsChanged.empty() || !clipsAdded.empty() || !clipsRemoved.empty() || !clipsRetimed.empty() ||
           !clipMotion.empty();
}

RigDiff diffModels(const Model& a, const Model& b, const DiffOptions& o) {
    RigDiff d;
    d.toleranceMm = o.toleranceMm;
    d.toleranceDeg = o.toleranceDeg;
    d.weightTolerance = o.weightTolerance;
    Comparison c{a, b, o, d, o.metresPerUnitA, o.metresPerUnitB, {}, {}, {}, {}, {}};
    c.joints();
    c.meshes();
    c.weights();
    c.clips();
    return d;
}

nlohmann::json toJson(const RigDiff& d) {
    using nlohmann::json;
    json renamed = json::array(), reparented = json::array(), bind = json::array();
    for (const JointRename& r : d.jointsRenamed) renamed.push_back({{"from", r.from}, {"to", r.to}});
    for (const JointReparent& r : d.jointsReparented) {
        reparented.push_back({{"joint", r.joint}, {"parent_a", r.parentA}, {"parent_b", r.parentB}});
    }
    for (const BindPoseChange& c : d.bindPoseMoved) {
        bind.push_back({{"joint", c.joint}, {"translation_mm", c.translationMm}, {"rotation_deg", c.rotationDeg}});
    }
    json changed = json::array(), weights = json::array();
    for (const MeshChange& m : d.meshesChanged) {
        changed.push_back({{"mesh", m.mesh},
                           {"vertices_a", m.verticesA},
                           {"vertices_b", m.verticesB},
                           {"unmatched_a", m.unmatchedA},
                           {"unmatched_b", m.unmatchedB}});
    }
    for (const MeshWeightChanges& w : d.weightsChanged) {
        json vs = json::array();
        for (const WeightChange& v : w.vertices) {
            vs.push_back({{"vertex_a", v.vertexA}, {"vertex_b", v.vertexB}, {"max_delta", v.maxDelta}});
        }
        weights.push_back({{"mesh", w.mesh}, {"vertices_changed", w.count}, {"max_delta", w.maxDelta}, {"vertices", vs}});
    }
    json retimed = json::array(), motion = json::array();
    for (const ClipRetime& r : d.clipsRetimed) {
        retimed.push_back({{"clip", r.clip},
                           {"start_a", r.startA},
                           {"start_b", r.startB},
                           {"duration_a", r.durationA},
                           {"duration_b", r.durationB},
                           {"keys_a", r.keysA},
                           {"keys_b", r.keysB},
                           {"key_times_changed", r.keyTimesChanged}});
    }
    for (const ClipMotionChange& m : d.clipMotion) {
        motion.push_back({{"clip", m.clip},
                          {"max_mm", m.maxMm},
                          {"time", m.time},
                          {"mesh", m.mesh},
                          {"vertex", m.vertex},
                          {"joint", m.joint},
                          {"samples", m.samples}});
    }
    return json{{"differs", d.differs()},
                {"tolerance_mm", d.toleranceMm},
                {"tolerance_deg", d.toleranceDeg},
                {"weight_tolerance", d.weightTolerance},
                {"joints",
                 {{"added", d.jointsAdded},
                  {"removed", d.jointsRemoved},
                  {"renamed", renamed},
                  {"reparented", reparented},
                  {"bind_pose", bind}}},
                {"meshes", {{"added", d.meshesAdded}, {"removed", d.meshesRemoved}, {"changed", changed}}},
                {"weights", weights},
                {"clips",
                 {{"added", d.clipsAdded}, {"removed", d.clipsRemoved}, {"retimed", retimed}, {"motion", motion}}}};
}

}  // namespace rig
