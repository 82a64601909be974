// The ASF reader: an Acclaim skeleton (units, root, bone data, hierarchy) into an
// AsfSkeleton and its frame tree (conventions: asf_amc.h).
#include <algorithm>
#include <charconv>
#include <cmath>
#include <new>
#include <unordered_map>
#include <unordered_set>

#include "import/asf_amc/asf_amc.h"
#include "import/asf_amc/common.h"

namespace rig {

namespace {

using namespace acclaim;


struct RawBone {
    std::string name;
    int line = 0;
    double direction[3] = {0.0, 0.0, 0.0};
    double length = 0.0;
    double axis[3] = {0.0, 0.0, 0.0};
    EulerOrder order = EulerOrder::XYZ;
    std::vector<AsfDof> dofs;
    bool hasDof = false;
    int limitsLine = 0;
    size_t limitPairs = 0;
};

struct HierarchyLine {
    int line;
    std::vector<std::string_view> names;
};

// Reads "(min max) (min max) ..." from s, counting pairs. "" or what is wrong.
std::string parseLimitPairs(std::string_view s, size_t& pairs) {
    size_t i = 0;
    auto skip = [&] {
        while (i < s.size() && isSpace(s[i])) ++i;
    };
    for (;;) {
        skip();
        if (i == s.size()) return "";
        if (s[i] != '(') return "'limits' expects pairs like (-90 90), found " + quote(s.substr(i, 12));
        ++i;
        for (int k = 0; k < 2; ++k) {
            skip();
            const size_t b = i;
            while (i < s.size() && !isSpace(s[i]) && s[i] != ')' && s[i] != '(') ++i;
            std::string_view tok = s.substr(b, i - b);
            if (tok.empty()) return "a 'limits' pair needs two numbers";
            if (tok.front() == '+') tok.remove_prefix(1);
            double v = 0.0;
            const auto r = std::from_chars(tok.data(), tok.data() + tok.size(), v);
            if (tok.empty() || r.ptr != tok.data() + tok.size() ||
                (r.ec != std::errc() && r.ec != std::errc::result_out_of_range) || std::isnan(v)) {
                return "limit " + quote(s.substr(b, i - b)) + " is not a number";
            }
        }
        skip();
        if (i == s.size() || s[i] != ')') return "a 'limits' pair is not closed with ')'";
        ++i;
        ++pairs;
    }
}

class AsfParser {
public:
    AsfParser(std::string_view text, const std::string& path) : text_(text), path_(path) {}

    Result<AsfSkeleton> run() {
        Lines lines(text_);
        std::string_view line;
        while (lines.next(line)) {
            lineNo_ = lines.number();
            Tokens tk(line);
            std::string_view first;
            if (!tk.next(first)) continue;
            if (first.front() == ':') {
                if (auto e = closeSection(); !e.empty()) return errorAt(path_, lineNo_, sectionName(), e);
                if (auto e = openSection(first.substr(1), tk); !e.empty()) return errorAt(path_, lineNo_, "", e);
                continue;
            }
            std::string e;
            switch (section_) {
                case Section::None:
                    e = "expected a section such as ':units' or ':bonedata', found " + quote(first);
                    break;
                case Section::Skip: break;
                case Section::Units: e = unitsLine(first, tk); break;
                case Section::Root: e = rootLine(first, tk); break;
                case Section::BoneData: e = boneLine(first, tk); break;
                case Section::Hierarchy: e = hierarchyLine(first, tk); break;
            }
            if (!e.empty()) return errorAt(path_, lineNo_, sectionName(), e);
        }
        lineNo_ = lines.number();
        if (auto e = closeSection(); !e.empty()) return errorAt(path_, lineNo_, sectionName(), e);
        if (!haveRoot_) return Error{path_ + ": no :root section (is this an ASF file?)"};
        return build();
    }

private:
    enum class Section { None, Skip, Units, Root, BoneData, Hierarchy };

    std::string_view sectionName() const {
        switch (section_) {
            case Section::Units: return "units";
            case Section::Root: return "root";
            case Section::BoneData: return "bonedata";
            case Section::Hierarchy: return "hierarchy";
            default: return "";
        }
    }

    std::string openSection(std::string_view name, Tokens& tk) {
        auto once = [&](bool& seen, Section s) -> std::string {
            if (seen) return "a second :" + std::string(name) + " section";
            seen = true;
            section_ = s;
            std::string_view extra;
            if (tk.next(extra)) return "unexpected " + quote(extra) + " after :" + std::string(name);
            return "";
        };
        if (name == "units") return once(haveUnits_, Section::Units);
        if (name == "root") return once(haveRoot_, Section::Root);
        if (name == "bonedata") return once(haveBoneData_, Section::BoneData);
        if (name == "hierarchy") return once(haveHierarchy_, Section::Hierarchy);
        // :version, :name, :documentation and anything else (e.g. :skin): skipped.
        section_ = Section::Skip;
        return "";
    }

    // Checks that the section being left is complete.
    std::string closeSection() {
        if (section_ == Section::BoneData && inBone_) {
            return "the bone begun at line " + std::to_string(bone_.line) + " has no 'end'";
        }
        if (section_ == Section::Hierarchy && hierarchyState_ != HierarchyState::Done) {
            return hierarchyState_ == HierarchyState::ExpectBegin ? "no 'begin' ... 'end' block"
                                                                  : "the hierarchy has no 'end'";
        }
        return "";
    }

    std::string readNumber(Tokens& tk, std::string_view what, double& out) {
        std::string_view t;
        if (!tk.next(t)) return std::string(what) + " needs a number";
        if (const char* e = parseNumber(t, out)) return std::string(what) + ": " + quote(t) + " " + e;
        return "";
    }

    std::string readVec3(Tokens& tk, std::string_view what, double* out) {
        for (int i = 0; i < 3; ++i)
            if (auto e = readNumber(tk, what, out[i]); !e.empty()) {
                return e.find("needs") != std::string::npos ? std::string(what) + " needs 3 numbers" : e;
            }
        return "";
    }

    std::string noMore(Tokens& tk, std::string_view what) {
        std::string_view t;
        if (tk.next(t)) return "unexpected " + quote(t) + " after " + std::string(what);
        return "";
    }

    std::string unitsLine(std::string_view key, Tokens& tk) {
        for (;;) {
            std::string_view value;
            if (!tk.next(value)) return quote(key) + " needs a value";
            if (key == "mass") {
                if (const char* e = parseNumber(value, asf_.mass)) return "mass " + quote(value) + " " + e;
            } else if (key == "length") {
                double v = 0.0;
                if (const char* e = parseNumber(value, v)) return "length " + quote(value) + " " + e;
                if (!(v > 0.0)) return "the length multiplier must be positive, found " + quote(value);
                asf_.lengthMultiplier = v;
            } else if (key == "angle") {
                if (equalsNoCase(value, "deg") || equalsNoCase(value, "degree") || equalsNoCase(value, "degrees")) {
                    asf_.degrees = true;
                } else if (equalsNoCase(value, "rad") || equalsNoCase(value, "radian") ||
                           equalsNoCase(value, "radians")) {
                    asf_.degrees = false;
                } else {
                    return "angle must be 'deg' or 'rad', found " + quote(value);
                }
            }  // other units (e.g. time) are not used
            if (!tk.next(key)) return "";
        }
    }

    std::string rootLine(std::string_view key, Tokens& tk) {
        if (key == "order") {
            if (haveOrder_) return "a second 'order'";
            haveOrder_ = true;
            std::string_view t;
            unsigned mask = 0;
            while (tk.next(t)) {
                AsfDof d;
                if (!parseDof(t, d) || d == AsfDof::L) return "'order' names an unknown channel " + quote(t);
                if (mask & (1u << unsigned(d))) return "'order' names " + quote(t) + " twice";
                mask |= 1u << unsigned(d);
                rootDofs_.push_back(d);
            }
            return "";
        }
        if (key == "axis") {
            std::string_view t;
            if (!tk.next(t)) return "'axis' needs an Euler order such as XYZ";
            if (!parseEulerOrder(t, rootAxis_)) return "'axis' " + quote(t) + " is not an Euler order (XYZ ... ZYX)";
            return noMore(tk, "'axis'");
        }
        if (key == "position") {
            double v[3];
            if (auto e = readVec3(tk, "'position'", v); !e.empty()) return e;
            asf_.rootPosition = glm::dvec3(v[0], v[1], v[2]);
            return noMore(tk, "'position'");
        }
        if (key == "orientation") {
            if (auto e = readVec3(tk, "'orientation'", rootOrientation_); !e.empty()) return e;
            return noMore(tk, "'orientation'");
        }
        return "unknown keyword " + quote(key);
    }

    std::string boneLine(std::string_view key, Tokens& tk) {
        if (!inBone_) {
            if (key != "begin") return "expected 'begin', found " + quote(key);
            if (raw_.size() >= kMaxAsfBones) return "more than " + std::to_string(kMaxAsfBones) + " bones";
            inBone_ = true;
            lastWasLimits_ = false;
            bone_ = RawBone{};
            bone_.line = lineNo_;
            return noMore(tk, "'begin'");
        }
        if (key.front() == '(') {
            if (!lastWasLimits_) return "unexpected " + quote(key);
            // The pairs start at this token: hand over the line from here.
            return parseLimitPairs(std::string_view(key.data(), key.size() + tk.rest().size()), bone_.limitPairs);
        }
        lastWasLimits_ = false;
        if (key == "end") {
            if (auto e = noMore(tk, "'end'"); !e.empty()) return e;
            if (bone_.name.empty()) return "the bone begun at line " + std::to_string(bone_.line) + " has no 'name'";
            if (bone_.limitsLine && bone_.limitPairs != bone_.dofs.size()) {
                lineNo_ = bone_.limitsLine;
                return "bone " + quote(bone_.name) + " has " + std::to_string(bone_.dofs.size()) +
                       " dofs but " + std::to_string(bone_.limitPairs) + " limits";
            }
            inBone_ = false;
            raw_.push_back(std::move(bone_));
            return "";
        }
        if (key == "begin") return "'begin' inside the bone begun at line " + std::to_string(bone_.line) + " (missing 'end')";
        if (key == "id") {
            std::string_view t;
            if (!tk.next(t)) return "'id' needs a value";
            return noMore(tk, "'id'");
        }
        if (key == "name") {
            std::string_view t;
            if (!tk.next(t)) return "'name' needs a value";
            if (!bone_.name.empty()) return "a second 'name' for bone " + quote(bone_.name);
            if (allDigits(t)) return "bone name " + quote(t) + " is a number (an AMC could not tell it from a frame number)";
            if (t == "root") return "a bone cannot be named 'root'";
            bone_.name = std::string(t);
            return noMore(tk, "'name'");
        }
        if (key == "direction") {
            if (auto e = readVec3(tk, "'direction'", bone_.direction); !e.empty()) return e;
            return noMore(tk, "'direction'");
        }
        if (key == "length") {
            if (auto e = readNumber(tk, "'length'", bone_.length); !e.empty()) return e;
            return noMore(tk, "'length'");
        }
        if (key == "axis") {
            if (auto e = readVec3(tk, "'axis'", bone_.axis); !e.empty()) return e;
            std::string_view t;
            if (tk.next(t) && !parseEulerOrder(t, bone_.order)) {
                return "'axis' order " + quote(t) + " is not an Euler order (XYZ ... ZYX)";
            }
            return noMore(tk, "'axis'");
        }
        if (key == "dof") {
            if (bone_.hasDof) return "a second 'dof'";
            bone_.hasDof = true;
            std::string_view t;
            unsigned mask = 0;
            while (tk.next(t)) {
                AsfDof d;
                if (!parseDof(t, d)) return "'dof' names an unknown channel " + quote(t);
                if (mask & (1u << unsigned(d))) return "'dof' names " + quote(t) + " twice";
                mask |= 1u << unsigned(d);
                bone_.dofs.push_back(d);
            }
            return "";
        }
        if (key == "limits") {
            if (bone_.limitsLine) return "a second 'limits'";
            bone_.limitsLine = lineNo_;
            lastWasLimits_ = true;
            return parseLimitPairs(tk.rest(), bone_.limitPairs);
        }
        if (key == "bodymass" || key == "cofmass") {
            double v = 0.0;
            return readNumber(tk, quote(key), v);
        }
        return "unknown keyword " + quote(key);
    }

    std::string hierarchyLine(std::string_view first, Tokens& tk) {
        switch (hierarchyState_) {
            case HierarchyState::ExpectBegin:
                if (first != "begin") return "expected 'begin', found " + quote(first);
                hierarchyState_ = HierarchyState::Inside;
                return noMore(tk, "'begin'");
            case HierarchyState::Inside: {
                if (first == "end") {
                    hierarchyState_ = HierarchyState::Done;
                    return noMore(tk, "'end'");
                }
                HierarchyLine h{lineNo_, {first}};
                std::string_view t;
                while (tk.next(t)) h.names.push_back(t);
                hierarchy_.push_back(std::move(h));
                return "";
            }
            case HierarchyState::Done: return "unexpected " + quote(first) + " after the hierarchy's 'end'";
        }
        return "";
    }

    // Tree from :hierarchy, bones in depth-first order, the skeleton.
    Result<AsfSkeleton> build() {
        const size_t n = raw_.size() + 1;  // raw bone i is index i + 1; 0 is the root
        std::unordered_map<std::string_view, int32_t> index;
        index.reserve(n);
        index.emplace("root", 0);
        for (size_t i = 0; i < raw_.size(); ++i) {
            auto [it, fresh] = index.emplace(raw_[i].name, static_cast<int32_t>(i + 1));
            if (!fresh) {
                return errorAt(path_, raw_[i].line, "bonedata",
                               "bone " + quote(raw_[i].name) + " is defined twice (first at line " +
                                   std::to_string(raw_[it->second - 1].line) + ")");
            }
        }
        std::vector<int32_t> parent(n, -1);
        std::vector<int> parentLine(n, 0);  // the :hierarchy line naming the bone as a child
        std::vector<int> parentOfLine(n, 0);  // the first line listing it as a parent
        std::vector<std::vector<int32_t>> children(n);
        for (const HierarchyLine& h : hierarchy_) {
            auto find = [&](std::string_view name) {
                auto it = index.find(name);
                return it == index.end() ? -1 : it->second;
            };
            const int32_t p = find(h.names[0]);
            if (p < 0) return errorAt(path_, h.line, "hierarchy", "unknown bone " + quote(h.names[0]));
            if (!parentOfLine[p]) parentOfLine[p] = h.line;
            for (size_t k = 1; k < h.names.size(); ++k) {
                const int32_t c = find(h.names[k]);
                if (c < 0) return errorAt(path_, h.line, "hierarchy", "unknown bone " + quote(h.names[k]));
                if (c == 0) return errorAt(path_, h.line, "hierarchy", "'root' cannot be a child");
                if (c == p) return errorAt(path_, h.line, "hierarchy", "bone " + quote(h.names[k]) + " is its own parent");
                if (parentLine[c]) {
                    return errorAt(path_, h.line, "hierarchy",
                                   "bone " + quote(h.names[k]) + " is listed twice (first at line " +
                                       std::to_string(parentLine[c]) + ")");
                }
                parent[c] = p;
                parentLine[c] = h.line;
                children[p].push_back(c);
            }
        }
        // Depth-first from the root, children in file order.
        std::vector<int32_t> order;
        order.reserve(n);
        std::vector<char> visited(n, 0);
        std::vector<int32_t> stack{0};
        while (!stack.empty()) {
            const int32_t b = stack.back();
            stack.pop_back();
            visited[b] = 1;
            order.push_back(b);
            for (size_t k = children[b].size(); k-- > 0;) stack.push_back(children[b][k]);
        }
        if (order.size() != n) {
            for (size_t b = 1; b < n; ++b) {
                if (visited[b]) continue;
                // Walk up from the first bone left out: to a bone with no parent, or round a cycle.
                int32_t top = static_cast<int32_t>(b);
                for (size_t steps = 0; steps <= n && parent[top] >= 0; ++steps) top = parent[top];
                if (parent[top] >= 0) {
                    return errorAt(path_, parentLine[b], "hierarchy", "cycle through bone " + quote(raw_[b - 1].name));
                }
                const RawBone& rb = raw_[top - 1];
                if (!parentOfLine[top]) {
                    return errorAt(path_, rb.line, "bonedata", "bone " + quote(rb.name) + " is missing from :hierarchy");
                }
                return errorAt(path_, parentOfLine[top], "hierarchy",
                               "bone " + quote(rb.name) + " is not connected to the root (no line names it as a child)");
            }
        }

        const double toRad = asf_.degrees ? kPi / 180.0 : 1.0;
        std::vector<int32_t> finalIndex(n, -1);
        asf_.path = path_;
        asf_.bones.resize(n);
        for (size_t k = 0; k < n; ++k) {
            const int32_t b = order[k];
            finalIndex[b] = static_cast<int32_t>(k);
            AsfBone& out = asf_.bones[k];
            if (b == 0) {
                out.name = "root";
                out.axis = eulerRotation(glm::dvec3(rootOrientation_[0], rootOrientation_[1], rootOrientation_[2]) * toRad, rootAxis_);
                out.dofs = rootDofs_;
                out.line = 0;
                continue;
            }
            RawBone& rb = raw_[b - 1];
            out.name = std::move(rb.name);
            out.parent = finalIndex[parent[b]];
            out.direction = glm::dvec3(rb.direction[0], rb.direction[1], rb.direction[2]);
            out.length = rb.length;
            out.axis = eulerRotation(glm::dvec3(rb.axis[0], rb.axis[1], rb.axis[2]) * toRad, rb.order);
            out.dofs = std::move(rb.dofs);
            out.line = rb.line;
        }

        // Nodes: each bone at its start joint, then (leaf bones of nonzero length) its end site.
        std::unordered_set<std::string> names;
        for (const AsfBone& b : asf_.bones) names.insert(b.name);
        Skeleton& sk = asf_.skeleton;
        auto addNode = [&](std::string name, int32_t parentNode, const Sqt& bind) {
            sk.names.push_back(std::move(name));
            sk.parent.push_back(parentNode);
            sk.bindLocalSqt.push_back(toTransform(bind));
            sk.bindLocal.push_back(toMatrix(sk.bindLocalSqt.back()));
            return static_cast<int32_t>(sk.names.size() - 1);
        };
        for (size_t k = 0; k < n; ++k) {
            AsfBone& b = asf_.bones[k];
            b.node = addNode(b.name, b.parent < 0 ? -1 : asf_.bones[b.parent].node, boneBind(asf_, k));
            if (k > 0 && children[order[k]].empty() && boneOffset(asf_, k) != glm::dvec3(0.0)) {
                std::string end = b.name + "_end";
                while (names.count(end)) end += "_";
                names.insert(end);
                b.endNode = addNode(end, b.node, endBind(asf_, k));
            }
        }
        sk.computeBindModel();
        for (size_t i = 0; i < sk.size(); ++i) {
            if (!finite(sk.bindModel[i])) return Error{path_ + ": the skeleton's values are too large"};
        }
        return std::move(asf_);
    }

    enum class HierarchyState { ExpectBegin, Inside, Done };

    std::string_view text_;
    const std::string& path_;
    int lineNo_ = 0;
    Section section_ = Section::None;
    bool haveUnits_ = false, haveRoot_ = false, haveBoneData_ = false, haveHierarchy_ = false;
    bool haveOrder_ = false;
    std::vector<AsfDof> rootDofs_;
    EulerOrder rootAxis_ = EulerOrder::XYZ;
    double rootOrientation_[3] = {0.0, 0.0, 0.0};
    bool inBone_ = false, lastWasLimits_ = false;
    RawBone bone_;
    std::vector<RawBone> raw_;
    HierarchyState hierarchyState_ = HierarchyState::ExpectBegin;
    std::vector<HierarchyLine> hierarchy_;
    AsfSkeleton asf_;
};


}  // namespace

bool parseEulerOrder(std::string_view text, EulerOrder& out) {
    static constexpr std::pair<std::string_view, EulerOrder> kOrders[] = {
        {"xyz", EulerOrder::XYZ}, {"xzy", EulerOrder::XZY}, {"yxz", EulerOrder::YXZ},
        {"yzx", EulerOrder::YZX}, {"zxy", EulerOrder::ZXY}, {"zyx", EulerOrder::ZYX}};
    for (const auto& [name, order] : kOrders) {
        if (equalsNoCase(text, name)) {
            out = order;
            return true;
        }
    }
    return false;
}

glm::dquat eulerRotation(const glm::dvec3& a, EulerOrder order) {
    const glm::dquat qx = glm::angleAxis(a.x, glm::dvec3(1.0, 0.0, 0.0));
    const glm::dquat qy = glm::angleAxis(a.y, glm::dvec3(0.0, 1.0, 0.0));
    const glm::dquat qz = glm::angleAxis(a.z, glm::dvec3(0.0, 0.0, 1.0));
    switch (order) {
        case EulerOrder::XYZ: return qz * qy * qx;
        case EulerOrder::XZY: return qy * qz * qx;
        case EulerOrder::YXZ: return qz * qx * qy;
        case EulerOrder::YZX: return qx * qz * qy;
        case EulerOrder::ZXY: return qy * qx * qz;
        case EulerOrder::ZYX: return qx * qy * qz;
    }
    return qz * qy * qx;
}

Result<AsfSkeleton> parseAsf(std::string_view text, const std::string& path) {
    try {
        if (text.size() > kMaxAsfBytes) return Error{path + ": larger than " + std::to_string(kMaxAsfBytes >> 20) + " MiB"};
        return AsfParser(text, path).run();
    } catch (const std::bad_alloc&) {
        return outOfMemory(path);
    }
}

Result<Model> importAsf(const std::string& path) {
    try {
        Result<std::string> text = readFile(path, kMaxAsfBytes);
        if (!text) return text.error();
        Result<AsfSkeleton> asf = parseAsf(*text, path);
        if (!asf) return asf.error();
        return modelOf(std::move(*asf));
    } catch (const std::bad_alloc&) {
        return outOfMemory(path);
    }
}

}  // namespace rig
