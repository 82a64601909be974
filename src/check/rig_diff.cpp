#include "check/rig_diff.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <tuple>
#include <limits>
#include <map>
#include <unordered_map>

#include <glm/gtc/quaternion.hpp>

#include "anim/runtime/pose.h"
#include "anim/runtime/skinning.h"
#include "check/diagnostics.h"

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

// Points to match: positions (metres, in one frame), and each point's normal and texture
// coordinate where both sides have them (the tie-break on seams).
struct Points {
    std::vector<glm::dvec3> positions;
    std::vector<glm::vec3> normals;  // empty or one per position
    std::vector<glm::vec2> uvs;      // empty or one per position
};

std::vector<int32_t> matchPoints(const Points& a, const Points& b, double radius) {
    const size_t na = a.positions.size(), nb = b.positions.size();
    std::vector<int32_t> out(nb, -1);
    const double r2 = radius * radius;
    auto posA = [&](size_t v) { return a.positions[v]; };
    auto posB = [&](size_t v) { return b.positions[v]; };
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

// A similarity transform of points in metres: scale * rotation * p + translation.
struct Similarity {
    double scale = 1.0;
    glm::dquat rotation{1.0, 0.0, 0.0, 0.0};
    glm::dvec3 translation{0.0};
    glm::dvec3 point(const glm::dvec3& p) const { return scale * (rotation * p) + translation; }
};

// The eigenvector of the largest eigenvalue of a symmetric 4x4 matrix (cyclic Jacobi).
glm::dvec4 largestEigenvector(double m[4][4]) {
    double v[4][4] = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}};
    for (int sweep = 0; sweep < 50; ++sweep) {
        double off = 0.0;
        for (int p = 0; p < 4; ++p) {
            for (int q = p + 1; q < 4; ++q) off += m[p][q] * m[p][q];
        }
        if (!(off > 1e-30)) break;
        for (int p = 0; p < 4; ++p) {
            for (int q = p + 1; q < 4; ++q) {
                if (std::abs(m[p][q]) < 1e-300) continue;
                const double theta = (m[q][q] - m[p][p]) / (2.0 * m[p][q]);
                const double t = (theta >= 0 ? 1.0 : -1.0) / (std::abs(theta) + std::sqrt(theta * theta + 1.0));
                const double c = 1.0 / std::sqrt(t * t + 1.0), s = t * c;
                for (int k = 0; k < 4; ++k) {  // m = J^T m J
                    const double mkp = m[k][p], mkq = m[k][q];
                    m[k][p] = c * mkp - s * mkq;
                    m[k][q] = s * mkp + c * mkq;
                }
                for (int k = 0; k < 4; ++k) {
                    const double mpk = m[p][k], mqk = m[q][k];
                    m[p][k] = c * mpk - s * mqk;
                    m[q][k] = s * mpk + c * mqk;
                }
                for (int k = 0; k < 4; ++k) {
                    const double vkp = v[k][p], vkq = v[k][q];
                    v[k][p] = c * vkp - s * vkq;
                    v[k][q] = s * vkp + c * vkq;
                }
            }
        }
    }
    int best = 0;
    for (int i = 1; i < 4; ++i) {
        if (m[i][i] > m[best][best]) best = i;
    }
    return {v[0][best], v[1][best], v[2][best], v[3][best]};
}

// The similarity that best carries points `from` onto `to` (least squares: Horn's closed form
// with unit quaternions, the scale from the spreads about the centroids). Needs 3 points.
Similarity fitSimilarity(const std::vector<glm::dvec3>& from, const std::vector<glm::dvec3>& to) {
    Similarity out;
    const size_t n = from.size();
    glm::dvec3 ca(0.0), cb(0.0);
    for (size_t i = 0; i < n; ++i) {
        ca += from[i];
        cb += to[i];
    }
    ca /= static_cast<double>(n);
    cb /= static_cast<double>(n);
    double sa = 0.0, sb = 0.0, s[3][3] = {};
    for (size_t i = 0; i < n; ++i) {
        const glm::dvec3 x = from[i] - ca, y = to[i] - cb;
        sa += glm::dot(x, x);
        sb += glm::dot(y, y);
        for (int r = 0; r < 3; ++r) {
            for (int c = 0; c < 3; ++c) s[r][c] += x[r] * y[c];
        }
    }
    if (!(sa > 0.0) || !(sb > 0.0)) return out;
    double m[4][4] = {
        {s[0][0] + s[1][1] + s[2][2], s[1][2] - s[2][1], s[2][0] - s[0][2], s[0][1] - s[1][0]},
        {s[1][2] - s[2][1], s[0][0] - s[1][1] - s[2][2], s[0][1] + s[1][0], s[2][0] + s[0][2]},
        {s[2][0] - s[0][2], s[0][1] + s[1][0], -s[0][0] + s[1][1] - s[2][2], s[1][2] + s[2][1]},
        {s[0][1] - s[1][0], s[2][0] + s[0][2], s[1][2] + s[2][1], -s[0][0] - s[1][1] + s[2][2]}};
    const glm::dvec4 q = largestEigenvector(m);
    out.rotation = glm::normalize(glm::dquat(q[0], q[1], q[2], q[3]));
    out.scale = std::sqrt(sb / sa);
    out.translation = cb - out.scale * (out.rotation * ca);
    return out;
}

// A transform's uniform scale: the mean length of its 3x3's columns.
double meanScale(const glm::mat4& m) {
    return (glm::length(glm::dvec3(m[0])) + glm::length(glm::dvec3(m[1])) + glm::length(glm::dvec3(m[2]))) / 3.0;
}

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
    Similarity place;                   // a (metres) into b's frame (metres)

    void jointNames();  // matched by name
    void placement();   // the similarity that makes the most name-matched joints coincide
    void joints();      // the rest by place; added, removed, renamed, reparented; bind pose moved
    void meshes();      // added, removed, changed (vertex count, vertices moved)
    void weights();     // per matched vertex, and the joints that gained or lost weight
    void materials();   // the materials of the meshes both have
    void clips();       // added, removed, renamed, retimed; the skinned mesh's largest deviation

    // (Left as it is when the placement is none: infinities stay infinities, not NaN.)
    glm::dvec3 placeA(const glm::dvec3& metres) const { return d.placement.moved ? place.point(metres) : metres; }
    // A mesh's bind-pose vertices in model space (metres), a's moved into b's frame.
    Points bindPoints(const Model& m, Animator& anim, size_t mesh, bool isA) const;
};

void Comparison::jointNames() {
    ja = jointTree(a);
    jb = jointTree(b);
    aToB = matchByName(
        ja.nodes.size(), jb.nodes.size(), [&](size_t i) { return a.skeleton.names[ja.nodes[i]]; },
        [&](size_t i) { return b.skeleton.names[jb.nodes[i]]; });
    bToA.assign(jb.nodes.size(), -1);
    for (size_t i = 0; i < aToB.size(); ++i) {
        if (aToB[i] >= 0) bToA[aToB[i]] = static_cast<int32_t>(i);
    }
}

void Comparison::placement() {
    Placement& p = d.placement;
    p.metresPerUnitA = sa;
    p.metresPerUnitB = sb;
    const std::vector<glm::mat4>& bindA = a.skeleton.bindPoseModel();
    const std::vector<glm::mat4>& bindB = b.skeleton.bindPoseModel();
    std::vector<glm::dvec3> from, to;
    int32_t rootA = -1, rootB = -1;  // the first root joint matched by name (else each tree's first joint)
    for (size_t i = 0; i < aToB.size(); ++i) {
        if (aToB[i] < 0) continue;
        const glm::dvec3 x = origin(bindA[ja.nodes[i]], sa), y = origin(bindB[jb.nodes[aToB[i]]], sb);
        if (!finite(x) || !finite(y)) continue;
        from.push_back(x);
        to.push_back(y);
        if (rootA < 0 && ja.parent[i] < 0) {
            rootA = static_cast<int32_t>(i);
            rootB = aToB[i];
        }
    }
    if (from.empty() && !ja.nodes.empty() && !jb.nodes.empty()) {
        rootA = rootB = 0;
        const glm::dvec3 x = origin(bindA[ja.nodes[0]], sa), y = origin(bindB[jb.nodes[0]], sb);
        if (finite(x) && finite(y)) {
            from.push_back(x);
            to.push_back(y);
        }
    }
    p.jointsCompared = from.size();
    if (from.empty()) return;
    // The candidates: none, the root joint's own change, the least-squares fit of all joints.
    std::vector<Similarity> candidates(1);
    if (rootA >= 0) {
        const glm::mat4& ma = bindA[ja.nodes[rootA]];
        const glm::mat4& mb = bindB[jb.nodes[rootB]];
        Similarity root;
        root.rotation = glm::normalize(orientation(mb) * glm::conjugate(orientation(ma)));
        const double scaleA = meanScale(ma), scaleB = meanScale(mb);
        root.scale = scaleA > 0.0 && std::isfinite(scaleB / scaleA) ? (scaleB / scaleA) * (sb / sa) : 1.0;
        root.translation = origin(mb, sb) - root.scale * (root.rotation * origin(ma, sa));
        if (std::isfinite(root.scale) && finite(root.translation)) candidates.push_back(root);
    }
    if (from.size() >= 3) {
        const Similarity fit = fitSimilarity(from, to);
        if (std::isfinite(fit.scale) && finite(fit.translation)) candidates.push_back(fit);
    }
    // The one that makes the most joints coincide (within the tolerance, or a millionth of the
    // distance from the origin where that is larger: float bind poses far out); on a tie the
    // earlier (none first).
    size_t bestCount = 0, best = 0;
    for (size_t c = 0; c < candidates.size(); ++c) {
        size_t count = 0;
        for (size_t i = 0; i < from.size(); ++i) {
            const double slack = std::max(o.toleranceMm * 1e-3, 1e-6 * glm::length(to[i]));
            count += glm::length(candidates[c].point(from[i]) - to[i]) <= slack;
        }
        if (c == 0 || count > bestCount) {
            bestCount = count;
            best = c;
        }
    }
    p.jointsMatched = bestCount;
    place = candidates[best];
    const glm::dvec3 t = place.translation * 1e3;
    const double angle = glm::degrees(2.0 * std::atan2(glm::length(glm::dvec3(place.rotation.x, place.rotation.y, place.rotation.z)),
                                                       std::abs(place.rotation.w)));
    p.moved = glm::length(t) > o.toleranceMm || angle > o.toleranceDeg || std::abs(place.scale - 1.0) > 1e-6;
    if (!p.moved) {
        place = Similarity{};
        return;
    }
    for (int i = 0; i < 3; ++i) p.translationMm[i] = t[i];
    p.rotationDeg = angle;
    const glm::dvec3 axis(place.rotation.x, place.rotation.y, place.rotation.z);
    const double len = glm::length(axis);
    if (len > 0.0) {
        const glm::dvec3 unit = axis / len * (place.rotation.w < 0.0 ? -1.0 : 1.0);
        for (int i = 0; i < 3; ++i) p.axis[i] = unit[i];
    }
    p.scale = place.scale;
}

void Comparison::joints() {
    // The joints no name matched, by place (parents first, so a renamed parent places its children).
    const std::vector<glm::mat4>& bindA = a.skeleton.bindPoseModel();
    const std::vector<glm::mat4>& bindB = b.skeleton.bindPoseModel();
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
        const glm::dvec3 at = placeA(origin(bindA[ja.nodes[i]], sa));
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
        if (!d.placement.moved && std::memcmp(&ma, &mb, sizeof ma) == 0 && sa == sb) continue;  // the same bits, NaN included
        const double moved = glm::length(placeA(origin(ma, sa)) - origin(mb, sb)) * 1e3;
        const double turned = angleDeg(d.placement.moved ? place.rotation * orientation(ma) : orientation(ma), orientation(mb));
        if (moved > o.toleranceMm || turned > o.toleranceDeg || std::isnan(moved) || std::isnan(turned)) {
            d.bindPoseMoved.push_back({nameB(k), moved, turned});
        }
    }
    for (size_t k = 0; k < jb.nodes.size(); ++k) {
        if (bToA[k] < 0) d.jointsAdded.push_back(nameB(static_cast<int32_t>(k)));
    }
}

Points Comparison::bindPoints(const Model& m, Animator& anim, size_t mesh, bool isA) const {
    const Mesh& me = m.meshes[mesh];
    const double scale = isA ? sa : sb;
    std::vector<glm::vec3> pos(me.vertexCount()), nrm(me.vertexCount());
    skinMesh(me, anim.palette().data() + anim.paletteOffset(mesh), anim.meshMorphWeights(mesh), pos.data(), nrm.data());
    const glm::dmat4 world(anim.skinToModel(mesh));
    const glm::dmat3 normalWorld = glm::transpose(glm::inverse(glm::dmat3(world)));
    Points out;
    out.positions.resize(pos.size());
    const bool normals = me.normals.size() == me.vertexCount();
    if (normals) out.normals.resize(pos.size());
    for (size_t v = 0; v < pos.size(); ++v) {
        glm::dvec3 p = glm::dvec3(world * glm::dvec4(glm::dvec3(pos[v]), 1.0)) * scale;
        if (isA) p = placeA(p);
        out.positions[v] = p;
        if (!normals) continue;
        glm::dvec3 n = normalWorld * glm::dvec3(nrm[v]);
        if (isA && d.placement.moved) n = place.rotation * n;
        const double len = glm::length(n);
        out.normals[v] = glm::vec3(len > 0.0 ? n / len : n);
    }
    if (me.uvs.size() == me.vertexCount()) out.uvs = me.uvs;
    return out;
}

void Comparison::meshes() {
    // By name; vertices by bind-pose position in model space (a placed into b's frame).
    const std::vector<int32_t> meshToB = matchMeshes(a, b);
    std::vector<uint8_t> meshMatchedB(b.meshes.size(), 0);
    Animator animA(a), animB(b);
    animA.evaluate(kBindPose, 0.0f);
    animB.evaluate(kBindPose, 0.0f);
    for (size_t i = 0; i < a.meshes.size(); ++i) {
        if (meshToB[i] < 0) {
            d.meshesRemoved.push_back(a.meshes[i].name);
            continue;
        }
        const size_t k = static_cast<size_t>(meshToB[i]);
        meshMatchedB[k] = 1;
        const Points pa = bindPoints(a, animA, i, true), pb = bindPoints(b, animB, k, false);
        // The tolerance, or what float vertices far from the origin can hold (a millionth of
        // their distance), where that is more.
        double extent = 0.0;
        for (const glm::dvec3& x : pb.positions) {
            if (finite(x)) extent = std::max(extent, glm::length(x));
        }
        MeshPair p{i, k, matchPoints(pa, pb, std::max(o.toleranceMm * 1e-3, 1e-6 * extent))};
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
    // A key's joint name: b's node, or (negative) a's node that b has no joint for.
    auto nameOf = [&](int64_t key) { return key >= 0 ? b.skeleton.names[key] : a.skeleton.names[-1 - key]; };
    for (const MeshPair& p : pairs) {
        const Mesh& ma = a.meshes[p.a];
        const Mesh& mb = b.meshes[p.b];
        if (!ma.skinned && !mb.skinned) continue;
        MeshWeightChanges w;
        w.mesh = mb.name;
        std::map<int64_t, JointWeightChange> gained, lost;
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
            // Each joint's change on this vertex: b's weight less a's.
            auto change = [&](int64_t joint) {
                double wa = 0.0, wb = 0.0;
                for (size_t x = 0; x < na; ++x) wa += ia[x].joint == joint ? ia[x].weight : 0.0;
                for (size_t x = 0; x < nb; ++x) wb += ib[x].joint == joint ? ib[x].weight : 0.0;
                const double dw = wb - wa;
                if (!(std::abs(dw) > o.weightTolerance)) return;
                JointWeightChange& c = (dw > 0.0 ? gained : lost)[joint];
                ++c.vertices;
                c.maxDelta = std::max(c.maxDelta, std::abs(dw));
            };
            for (size_t x = 0; x < na; ++x) change(ia[x].joint);
            for (size_t x = 0; x < nb; ++x) {
                bool inA = false;
                for (size_t y = 0; y < na; ++y) inA = inA || ia[y].joint == ib[x].joint;
                if (!inA) change(ib[x].joint);
            }
        }
        if (w.count == 0) continue;
        // Largest first, NaN (a file's NaN weight) before all: a strict weak order even then.
        auto rank = [](double v) { return std::isnan(v) ? HUGE_VAL : v; };
        std::stable_sort(w.vertices.begin(), w.vertices.end(),
                         [&](const WeightChange& x, const WeightChange& y) { return rank(x.maxDelta) > rank(y.maxDelta); });
        if (w.vertices.size() > o.maxWeightExamples) w.vertices.resize(o.maxWeightExamples);
        for (auto* side : {&gained, &lost}) {
            std::vector<JointWeightChange>& list = side == &gained ? w.gained : w.lost;
            for (auto& [joint, c] : *side) {
                c.joint = nameOf(joint);
                list.push_back(c);
            }
            std::stable_sort(list.begin(), list.end(), [](const JointWeightChange& x, const JointWeightChange& y) {
                return x.vertices != y.vertices ? x.vertices > y.vertices : x.joint < y.joint;
            });
        }
        d.weightsChanged.push_back(std::move(w));
    }
}

// "0.5", "(0.8, 0.8, 0.8, 1)": a material value as the report prints it.
std::string num(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
}
template <int N> std::string vec(const glm::vec<N, float>& v) {
    std::string s = "(";
    for (int i = 0; i < N; ++i) s += (i ? ", " : "") + num(v[i]);
    return s + ")";
}
const char* alphaName(AlphaMode m) { return m == AlphaMode::Opaque ? "OPAQUE" : m == AlphaMode::Mask ? "MASK" : "BLEND"; }

void Comparison::materials() {
    // Each pair of meshes' materials, once per pair of materials.
    std::vector<std::pair<uint32_t, uint32_t>> seen;
    for (const MeshPair& p : pairs) {
        const Mesh& ma = a.meshes[p.a];
        const Mesh& mb = b.meshes[p.b];
        if (ma.material >= a.materials.size() || mb.material >= b.materials.size()) continue;
        const std::pair<uint32_t, uint32_t> key{ma.material, mb.material};
        if (std::find(seen.begin(), seen.end(), key) != seen.end()) continue;
        seen.push_back(key);
        const Material& x = a.materials[ma.material];
        const Material& y = b.materials[mb.material];
        MaterialChange c{mb.name, y.name, {}};
        constexpr double kFactor = 1e-3;  // 8-bit colour steps are 0.004
        auto factor = [&](const char* name, double u, double v) {
            if (std::abs(u - v) > kFactor || std::isnan(u) != std::isnan(v)) c.fields.push_back(std::string(name) + ": " + num(u) + " -> " + num(v));
        };
        auto vector = [&](const char* name, auto u, auto v) {
            bool differ = false;
            for (int i = 0; i < u.length(); ++i) differ = differ || std::abs(u[i] - v[i]) > kFactor || std::isnan(u[i]) != std::isnan(v[i]);
            if (differ) c.fields.push_back(std::string(name) + ": " + vec(u) + " -> " + vec(v));
        };
        vector("baseColor", x.baseColor, y.baseColor);
        factor("metallic", x.metallic, y.metallic);
        factor("roughness", x.roughness, y.roughness);
        vector("emissive", x.emissive * x.emissiveStrength, y.emissive * y.emissiveStrength);
        factor("normalScale", x.normalTexture.present() ? x.normalScale : 1.0, y.normalTexture.present() ? y.normalScale : 1.0);
        factor("occlusionStrength", x.occlusionTexture.present() ? x.occlusionStrength : 1.0,
               y.occlusionTexture.present() ? y.occlusionStrength : 1.0);
        factor("clearcoat", x.clearcoat, y.clearcoat);
        if (x.alphaMode != y.alphaMode) c.fields.push_back(std::string("alphaMode: ") + alphaName(x.alphaMode) + " -> " + alphaName(y.alphaMode));
        if (x.alphaMode == AlphaMode::Mask && y.alphaMode == AlphaMode::Mask) factor("alphaCutoff", x.alphaCutoff, y.alphaCutoff);
        if (x.doubleSided != y.doubleSided) c.fields.push_back(std::string("doubleSided: ") + (x.doubleSided ? "true" : "false") + " -> " + (y.doubleSided ? "true" : "false"));
        if (x.unlit != y.unlit) c.fields.push_back(std::string("unlit: ") + (x.unlit ? "true" : "false") + " -> " + (y.unlit ? "true" : "false"));
        // Texture slots: present or not, and the UV set (files may move or be embedded in another format).
        std::vector<std::pair<std::string, const TextureRef*>> slotsA;
        x.forEachTexture([&](const char* slot, const TextureRef& t) { slotsA.emplace_back(slot, &t); });
        size_t at = 0;
        y.forEachTexture([&](const char* slot, const TextureRef& t) {
            const TextureRef& u = *slotsA[at++].second;
            if (u.present() != t.present()) {
                c.fields.push_back(std::string(slot) + " texture: " + (u.present() ? "present" : "none") + " -> " + (t.present() ? "present" : "none"));
            } else if (u.present() && u.texCoord != t.texCoord) {
                c.fields.push_back(std::string(slot) + " texture UV set: " + std::to_string(u.texCoord) + " -> " + std::to_string(t.texCoord));
            }
        });
        if (!c.fields.empty()) d.materialsChanged.push_back(std::move(c));
    }
}

// Where the motion of clip ca of a and clip cb of b is compared: from each clip's first key
// (a clip whose keys all moved later is the same motion), a's poses placed into b's frame.
struct ClipTimes {
    double startA = 0.0, startB = 0.0;
    std::vector<double> times;  // on a's timeline
};

ClipTimes clipTimes(const Clip& ca, const Clip& cb, size_t cap) {
    ClipTimes t;
    t.startA = ca.startTime;
    t.startB = cb.startTime;
    std::vector<double> tb = keyTimes(cb);
    for (double& x : tb) x += t.startA - t.startB;
    t.times = sampleTimes(keyTimes(ca), tb, cap);
    return t;
}

void Comparison::clips() {
    // By name, then the rest by motion.
    std::vector<int32_t> clipToB = matchByName(
        a.clips.size(), b.clips.size(), [&](size_t i) { return a.clips[i].name; },
        [&](size_t i) { return b.clips[i].name; });
    std::vector<uint8_t> clipMatchedB(b.clips.size(), 0);
    for (int32_t k : clipToB) {
        if (k >= 0) clipMatchedB[k] = 1;
    }
    Animator animA(a), animB(b);
    // The largest distance between the matched joints' origins over a few times of the two
    // clips (metres), or infinity.
    auto jointDistance = [&](size_t i, size_t k, size_t samples) {
        const Clip& ca = a.clips[i];
        const Clip& cb = b.clips[k];
        double worst = 0.0;
        for (size_t s = 0; s < samples; ++s) {
            const double u = (ca.duration - ca.startTime) * static_cast<double>(s) / static_cast<double>(samples - 1);
            animA.evaluate(static_cast<int32_t>(i), static_cast<float>(ca.startTime + u));
            animB.evaluate(static_cast<int32_t>(k), static_cast<float>(cb.startTime + u));
            for (size_t j = 0; j < aToB.size(); ++j) {
                if (aToB[j] < 0) continue;
                const double dist = glm::length(placeA(origin(animA.world()[ja.nodes[j]], sa)) - origin(animB.world()[jb.nodes[aToB[j]]], sb));
                if (!(dist <= worst)) worst = std::isnan(dist) ? HUGE_VAL : dist;
            }
        }
        return worst;
    };
    {
        // Clips no name matched, paired by motion: the same length (within a frame at 30 fps or
        // 1%), the joints within clipRenameFraction of the rig's size at 9 times; the closest
        // pairs first. Up to 64 of each side (a library's renames are few).
        std::vector<size_t> leftA, leftB;
        for (size_t i = 0; i < a.clips.size() && leftA.size() < 64; ++i) {
            if (clipToB[i] < 0 && playable(a, i)) leftA.push_back(i);
        }
        for (size_t k = 0; k < b.clips.size() && leftB.size() < 64; ++k) {
            if (!clipMatchedB[k] && playable(b, k)) leftB.push_back(k);
        }
        const double limit = o.clipRenameFraction * rigSize(b) * sb;
        std::vector<std::tuple<double, size_t, size_t>> candidates;
        for (size_t i : leftA) {
            const double lenA = a.clips[i].duration - a.clips[i].startTime;
            for (size_t k : leftB) {
                const double lenB = b.clips[k].duration - b.clips[k].startTime;
                if (!(std::abs(lenA - lenB) <= std::max(1.0 / 30.0, 0.01 * std::max(lenA, lenB)))) continue;
                const double dist = jointDistance(i, k, 9);
                if (dist <= limit) candidates.emplace_back(dist, i, k);
            }
        }
        std::sort(candidates.begin(), candidates.end());
        for (const auto& [dist, i, k] : candidates) {
            if (clipToB[i] >= 0 || clipMatchedB[k]) continue;
            clipToB[i] = static_cast<int32_t>(k);
            clipMatchedB[k] = 1;
            d.clipsRenamed.push_back({a.clips[i].name, b.clips[k].name});
        }
    }
    std::vector<glm::vec3> posA, posB;
    for (size_t i = 0; i < a.clips.size(); ++i) {
        if (clipToB[i] < 0) {
            d.clipsRemoved.push_back(a.clips[i].name);
            continue;
        }
        const size_t k = static_cast<size_t>(clipToB[i]);
        const Clip& ca = a.clips[i];
        const Clip& cb = b.clips[k];
        const std::vector<double> ta = keyTimes(ca), tb = keyTimes(cb);
        // Key times compared from each clip's first key (all keys later by the same time: a shift).
        std::vector<double> fromStartA(ta), fromStartB(tb);
        for (double& x : fromStartA) x -= ca.startTime;
        for (double& x : fromStartB) x -= cb.startTime;
        ClipRetime rt{cb.name, ca.startTime, cb.startTime, ca.duration, cb.duration, ta.size(), tb.size(),
                      timesDiffer(fromStartA, fromStartB)};
        const bool spanChanged = std::abs(rt.startA - rt.startB) > kTimeTolerance || std::abs(rt.durationA - rt.durationB) > kTimeTolerance;
        ClipMotionChange worst{cb.name};
        if (playable(a, i) && playable(b, k)) {
            const ClipTimes times = clipTimes(ca, cb, o.maxSamplesPerClip);
            worst.samples = times.times.size();
            for (double t : times.times) {
                const double tB = t - times.startA + times.startB;
                animA.evaluate(static_cast<int32_t>(i), static_cast<float>(t));
                animB.evaluate(static_cast<int32_t>(k), static_cast<float>(tB));
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
                        const glm::dvec3 qa = placeA(glm::dvec3(wa * glm::dvec4(glm::dvec3(posA[p.vertexOfA[v]]), 1.0)) * sa);
                        const glm::dvec3 qb = glm::dvec3(wb * glm::dvec4(glm::dvec3(posB[v]), 1.0)) * sb;
                        if (farther(qa, qb, worst)) {
                            worst.time = tB;
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
                    if (farther(placeA(origin(animA.world()[ja.nodes[j]], sa)), origin(animB.world()[nb], sb), worst)) {
                        worst.time = tB;
                        worst.mesh.clear();
                        worst.vertex = 0;
                        worst.joint = b.skeleton.names[nb];
                    }
                }
            }
        }
        const bool moved = worst.maxMm > o.toleranceMm;
        // Key times alone (the same span, the same motion: a resampled clip) are no change.
        if (spanChanged || (rt.keyTimesChanged && moved)) d.clipsRetimed.push_back(rt);
        if (moved) d.clipMotion.push_back(worst);
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
    auto points = [](const Mesh& m, double scale) {
        Points p;
        p.positions.reserve(m.positions.size());
        for (const glm::vec3& x : m.positions) p.positions.push_back(glm::dvec3(x) * scale);
        if (m.normals.size() == m.positions.size()) p.normals = m.normals;
        if (m.uvs.size() == m.positions.size()) p.uvs = m.uvs;
        return p;
    };
    return matchPoints(points(a, metresPerUnitA), points(b, metresPerUnitB), toleranceMm * 1e-3);
}

bool RigDiff::differs(bool withPlacement) const {
    return (withPlacement && placement.moved) || !materialsChanged.empty() || !clipsRenamed.empty() || !jointsAdded.empty() || !jointsRemoved.empty() || !jointsRenamed.empty() || !jointsReparented.empty() ||
           !bindPoseMoved.empty() || !meshesAdded.empty() || !meshesRemoved.empty() || !meshesChanged.empty() ||
           !weightsChanged.empty() || !clipsAdded.empty() || !clipsRemoved.empty() || !clipsRetimed.empty() ||
           !clipMotion.empty();
}

RigDiff diffModels(const Model& a, const Model& b, const DiffOptions& o) {
    RigDiff d;
    d.toleranceMm = o.toleranceMm;
    d.toleranceDeg = o.toleranceDeg;
    d.weightTolerance = o.weightTolerance;
    Comparison c{a, b, o, d, o.metresPerUnitA, o.metresPerUnitB, {}, {}, {}, {}, {}, {}};
    c.jointNames();
    c.placement();
    c.joints();
    c.meshes();
    c.weights();
    c.materials();
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
        auto joints = [](const std::vector<JointWeightChange>& list) {
            json out = json::array();
            for (const JointWeightChange& c : list) out.push_back({{"joint", c.joint}, {"vertices", c.vertices}, {"max_delta", c.maxDelta}});
            return out;
        };
        weights.push_back({{"mesh", w.mesh},
                           {"vertices_changed", w.count},
                           {"max_delta", w.maxDelta},
                           {"vertices", vs},
                           {"joints_gained", joints(w.gained)},
                           {"joints_lost", joints(w.lost)}});
    }
    json materials = json::array(), clipRenames = json::array();
    for (const MaterialChange& m : d.materialsChanged) materials.push_back({{"mesh", m.mesh}, {"material", m.material}, {"fields", m.fields}});
    for (const ClipRename& r : d.clipsRenamed) clipRenames.push_back({{"from", r.from}, {"to", r.to}});
    const Placement& pl = d.placement;
    const json placement = {{"moved", pl.moved},
                            {"translation_mm", {pl.translationMm[0], pl.translationMm[1], pl.translationMm[2]}},
                            {"rotation_deg", pl.rotationDeg},
                            {"axis", {pl.axis[0], pl.axis[1], pl.axis[2]}},
                            {"scale", pl.scale},
                            {"joints_matched", pl.jointsMatched},
                            {"joints_compared", pl.jointsCompared},
                            {"metres_per_unit_a", pl.metresPerUnitA},
                            {"metres_per_unit_b", pl.metresPerUnitB}};
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
                {"placement", placement},
                {"materials", materials},
                {"joints",
                 {{"added", d.jointsAdded},
                  {"removed", d.jointsRemoved},
                  {"renamed", renamed},
                  {"reparented", reparented},
                  {"bind_pose", bind}}},
                {"meshes", {{"added", d.meshesAdded}, {"removed", d.meshesRemoved}, {"changed", changed}}},
                {"weights", weights},
                {"clips",
                 {{"added", d.clipsAdded},
                  {"removed", d.clipsRemoved},
                  {"renamed", clipRenames},
                  {"retimed", retimed},
                  {"motion", motion}}}};
}

}  // namespace rig
