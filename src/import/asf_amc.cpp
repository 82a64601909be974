#include "import/asf_amc.h"
#include "import/regular_file.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <new>
#include <unordered_map>
#include <unordered_set>

namespace rig {
namespace {

// Any number an ASF or AMC value may hold (angles, lengths, translations): beyond this a file
// is broken, and keeping values this small keeps every product of them finite in float.
constexpr double kMaxNumber = 1e9;
constexpr int64_t kMaxFrameNumber = 1000000000;
constexpr double kPi = 3.14159265358979323846;

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool equalsNoCase(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (lower(a[i]) != lower(b[i])) return false;
    return true;
}

bool allDigits(std::string_view s) {
    if (s.empty()) return false;
    for (char c : s)
        if (c < '0' || c > '9') return false;
    return true;
}

// A token for a message: printable ASCII only, at most 40 characters, in quotes.
std::string quote(std::string_view s) {
    std::string r = "'";
    for (size_t i = 0; i < s.size() && i < 40; ++i) r += (s[i] >= 32 && s[i] < 127) ? s[i] : '?';
    if (s.size() > 40) r += "...";
    return r + "'";
}

// The lines of a text, numbered from 1, with '#' comments cut off.
class Lines {
public:
    explicit Lines(std::string_view text) : text_(text) {
        if (text_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;  // UTF-8 byte order mark
    }
    bool next(std::string_view& line) {
        if (pos_ >= text_.size()) return false;
        size_t end = text_.find('\n', pos_);
        if (end == std::string_view::npos) end = text_.size();
        line = text_.substr(pos_, end - pos_);
        pos_ = end + 1;
        ++number_;
        const size_t hash = line.find('#');
        if (hash != std::string_view::npos) line = line.substr(0, hash);
        return true;
    }
    int number() const { return number_; }

private:
    std::string_view text_;
    size_t pos_ = 0;
    int number_ = 0;
};

// Whitespace-separated tokens of one line.
class Tokens {
public:
    explicit Tokens(std::string_view s) : s_(s) {}
    bool next(std::string_view& tok) {
        while (i_ < s_.size() && isSpace(s_[i_])) ++i_;
        if (i_ >= s_.size()) return false;
        const size_t b = i_;
        while (i_ < s_.size() && !isSpace(s_[i_])) ++i_;
        tok = s_.substr(b, i_ - b);
        return true;
    }
    std::string_view rest() const { return s_.substr(std::min(i_, s_.size())); }
    size_t count() const {
        Tokens copy(*this);
        std::string_view t;
        size_t n = 0;
        while (copy.next(t)) ++n;
        return n;
    }

private:
    std::string_view s_;
    size_t i_ = 0;
};

// nullptr when `tok` is a finite number within kMaxNumber (a leading '+' is allowed);
// otherwise what is wrong with it.
const char* parseNumber(std::string_view tok, double& out) {
    const char* b = tok.data();
    const char* e = b + tok.size();
    if (b != e && *b == '+') ++b;
    if (b == e || *b == '+') return "is not a number";
    double v = 0.0;
    const auto r = std::from_chars(b, e, v);
    if (r.ec == std::errc::result_out_of_range) return "is out of range";
    if (r.ec != std::errc() || r.ptr != e) return "is not a number";
    if (!std::isfinite(v)) return "is not a finite number";
    if (std::fabs(v) > kMaxNumber) return "is out of range (more than 1e9)";
    out = v;
    return nullptr;
}

bool parseDof(std::string_view t, AsfDof& d) {
    static constexpr std::pair<std::string_view, AsfDof> kNames[] = {
        {"rx", AsfDof::RX}, {"ry", AsfDof::RY}, {"rz", AsfDof::RZ}, {"tx", AsfDof::TX},
        {"ty", AsfDof::TY}, {"tz", AsfDof::TZ}, {"l", AsfDof::L}};
    for (const auto& [name, dof] : kNames) {
        if (equalsNoCase(t, name)) {
            d = dof;
            return true;
        }
    }
    return false;
}

bool isRotation(AsfDof d) { return d == AsfDof::RX || d == AsfDof::RY || d == AsfDof::RZ; }
bool isTranslation(AsfDof d) { return d == AsfDof::TX || d == AsfDof::TY || d == AsfDof::TZ; }

Error errorAt(const std::string& path, int line, std::string_view section, const std::string& what) {
    std::string m = path + ":" + std::to_string(line) + ": ";
    if (!section.empty()) m.append(section).append(": ");
    return Error{m + what};
}

// ---------------------------------------------------------------------------------------
// Geometry shared by the ASF (bind pose) and the AMC (keys).

glm::dvec3 boneOffset(const AsfSkeleton& asf, size_t b) {
    return b == 0 ? glm::dvec3(0.0) : asf.bones[b].direction * (asf.bones[b].length * asf.lengthMultiplier);
}

struct Sqt {
    glm::dvec3 t{0.0};
    glm::dquat r{1.0, 0.0, 0.0, 0.0};
};

// Bind local transform of bone b's node (at its start joint).
Sqt boneBind(const AsfSkeleton& asf, size_t b) {
    const AsfBone& bone = asf.bones[b];
    if (bone.parent < 0) return {asf.rootPosition * asf.lengthMultiplier, bone.axis};
    const glm::dquat cpInv = glm::conjugate(asf.bones[bone.parent].axis);
    return {cpInv * boneOffset(asf, bone.parent), cpInv * bone.axis};
}

// Bind local transform of bone b's end-site node (in b's axis frame).
Sqt endBind(const AsfSkeleton& asf, size_t b) {
    return {glm::conjugate(asf.bones[b].axis) * boneOffset(asf, b), glm::dquat(1.0, 0.0, 0.0, 0.0)};
}

// Where bone b's `l` dof moves the joints at its end, per unit of l, in b's axis frame.
glm::dvec3 stretchDirection(const AsfSkeleton& asf, size_t b) {
    return glm::conjugate(asf.bones[b].axis) * (asf.bones[b].direction * asf.lengthMultiplier);
}

Transform toTransform(const Sqt& s) {
    Transform t;
    t.translation = glm::vec3(s.t);
    t.rotation = glm::normalize(glm::quat(s.r));
    return t;
}

bool finite(const glm::mat4& m) {
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r)
            if (!std::isfinite(m[c][r])) return false;
    return true;
}

// ---------------------------------------------------------------------------------------
// ASF

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

// ---------------------------------------------------------------------------------------
// AMC

Result<Clip> parseAmcImpl(std::string_view text, const AsfSkeleton& asf, const std::string& path, float fps) {
    if (!(fps > 0.0f) || !std::isfinite(fps) || fps > 1e6f) {
        return Error{path + ": frames per second must be positive and at most 1e6"};
    }
    const size_t nb = asf.bones.size();
    const size_t nodes = asf.skeleton.size();
    if (nb == 0 || nodes < nb) return Error{path + ": the skeleton is empty"};
    std::vector<size_t> first(nb + 1, 0);  // each bone's values within a frame's record
    for (size_t b = 0; b < nb; ++b) first[b + 1] = first[b] + asf.bones[b].dofs.size();
    const size_t perFrame = first[nb];
    // Values kept per frame plus keys made per frame (at most a translation and a rotation per node).
    const uint64_t costPerFrame = perFrame + 2 * uint64_t(nodes) + 1;
    // Frames that list few bones carry the others over: bound that amplification by the size
    // of the text too, so that a small file cannot claim gigabytes.
    const uint64_t budget = std::min<uint64_t>(kMaxAmcValues, std::max<uint64_t>(kMinAmcBudget, kAmcValuesPerByte * text.size()));

    std::unordered_map<std::string_view, int32_t> index;
    index.reserve(nb);
    for (size_t b = 0; b < nb; ++b) index.emplace(asf.bones[b].name, static_cast<int32_t>(b));

    bool degrees = asf.degrees;
    std::vector<double> values;        // frames x perFrame
    std::vector<int64_t> frameNumbers;
    std::vector<int64_t> lastFrameOf(nb, -1);  // index of the frame a bone last appeared in
    std::vector<char> seen(nb, 0);

    Lines lines(text);
    std::string_view line;
    while (lines.next(line)) {
        const int ln = lines.number();
        Tokens tk(line);
        std::string_view tok;
        if (!tk.next(tok)) continue;
        if (tok.front() == ':') {
            const bool deg = equalsNoCase(tok, ":DEGREES"), rad = equalsNoCase(tok, ":RADIANS");
            if ((deg || rad) && !frameNumbers.empty()) {
                return errorAt(path, ln, "", quote(tok) + " must come before the first frame");
            }
            if (deg) degrees = true;
            if (rad) degrees = false;
            continue;  // :FULLY-SPECIFIED and other header keywords
        }
        auto frameLabel = [&] { return "frame " + std::to_string(frameNumbers.back()); };
        if (allDigits(tok)) {
            int64_t f = 0;
            const auto r = std::from_chars(tok.data(), tok.data() + tok.size(), f);
            if (r.ec != std::errc() || f > kMaxFrameNumber) return errorAt(path, ln, "", "frame number " + quote(tok) + " is out of range");
            std::string_view extra;
            if (tk.next(extra)) return errorAt(path, ln, "", "unexpected " + quote(extra) + " after frame number " + std::to_string(f));
            if (!frameNumbers.empty() && f <= frameNumbers.back()) {
                return errorAt(path, ln, "", "frame " + std::to_string(f) + " follows frame " +
                                                 std::to_string(frameNumbers.back()) + " (frame numbers must increase)");
            }
            if ((frameNumbers.size() + 1) * costPerFrame > budget) {
                return errorAt(path, ln, "", "too many frames for this skeleton and file size (limit " +
                                                 std::to_string(budget / costPerFrame) + ")");
            }
            frameNumbers.push_back(f);
            // A new frame starts from the previous one: bones it does not list keep their values.
            const size_t old = values.size();
            values.resize(old + perFrame, 0.0);
            if (old >= perFrame) std::copy(values.begin() + (old - perFrame), values.begin() + old, values.begin() + old);
            continue;
        }
        auto it = index.find(tok);
        if (frameNumbers.empty()) {
            return errorAt(path, ln, "", it == index.end() ? "expected a frame number, found " + quote(tok)
                                                           : "bone data before the first frame number");
        }
        if (it == index.end()) return errorAt(path, ln, frameLabel(), "unknown bone " + quote(tok));
        const int32_t b = it->second;
        const int64_t fi = static_cast<int64_t>(frameNumbers.size()) - 1;
        if (lastFrameOf[b] == fi) return errorAt(path, ln, frameLabel(), "bone " + quote(tok) + " appears twice");
        lastFrameOf[b] = fi;
        seen[b] = 1;
        const size_t want = asf.bones[b].dofs.size();
        double* rec = values.data() + size_t(fi) * perFrame + first[b];
        for (size_t i = 0; i < want; ++i) {
            std::string_view v;
            if (!tk.next(v)) {
                return errorAt(path, ln, frameLabel(), "bone " + quote(tok) + " needs " + std::to_string(want) +
                                                         " values, found " + std::to_string(i));
            }
            if (const char* e = parseNumber(v, rec[i])) {
                return errorAt(path, ln, frameLabel(), "bone " + quote(tok) + ": value " + quote(v) + " " + e);
            }
        }
        if (tk.count()) {
            return errorAt(path, ln, frameLabel(), "bone " + quote(tok) + " needs " + std::to_string(want) +
                                                     " values, found " + std::to_string(want + tk.count()));
        }
    }
    if (frameNumbers.empty()) return Error{path + ": no frames (is this an AMC file?)"};

    const size_t nf = frameNumbers.size();
    const double toRad = degrees ? kPi / 180.0 : 1.0;
    const double mult = asf.lengthMultiplier;

    Clip clip;
    clip.name = std::filesystem::path(path).stem().string();
    clip.sampleRate = fps;
    clip.ticksPerSecond = fps;
    clip.ticksPerSecondFromFile = false;
    clip.trackOfNode.assign(nodes, -1);
    std::vector<float> times(nf);
    for (size_t f = 0; f < nf; ++f) times[f] = static_cast<float>(double(frameNumbers[f] - frameNumbers[0]) / fps);
    const uint32_t timesIndex = clip.addTimes(times.data(), static_cast<uint32_t>(nf));
    clip.startTime = 0.0f;
    clip.duration = times.back();

    auto hasDof = [&](size_t b, bool (*pred)(AsfDof)) {
        return std::any_of(asf.bones[b].dofs.begin(), asf.bones[b].dofs.end(), pred);
    };
    auto isL = [](AsfDof d) { return d == AsfDof::L; };
    auto valueOf = [&](size_t f, size_t b, AsfDof d) {
        const std::vector<AsfDof>& dofs = asf.bones[b].dofs;
        for (size_t i = 0; i < dofs.size(); ++i)
            if (dofs[i] == d) return values[f * perFrame + first[b] + i];
        return 0.0;
    };
    auto localTranslation = [&](size_t f, size_t b) {  // tx ty tz of bone b at frame f, scaled
        return glm::dvec3(valueOf(f, b, AsfDof::TX), valueOf(f, b, AsfDof::TY), valueOf(f, b, AsfDof::TZ)) * mult;
    };
    auto motionRotation = [&](size_t f, size_t b) {  // M: dof rotations, first listed applied first
        glm::dquat q(1.0, 0.0, 0.0, 0.0);
        const std::vector<AsfDof>& dofs = asf.bones[b].dofs;
        const double* rec = values.data() + f * perFrame + first[b];
        for (size_t i = 0; i < dofs.size(); ++i) {
            const double a = rec[i] * toRad;
            switch (dofs[i]) {
                case AsfDof::RX: q = glm::angleAxis(a, glm::dvec3(1, 0, 0)) * q; break;
                case AsfDof::RY: q = glm::angleAxis(a, glm::dvec3(0, 1, 0)) * q; break;
                case AsfDof::RZ: q = glm::angleAxis(a, glm::dvec3(0, 0, 1)) * q; break;
                default: break;
            }
        }
        return q;
    };

    // Which bone each node belongs to, and whether it is that bone's end site.
    std::vector<int32_t> nodeBone(nodes, -1);
    std::vector<char> nodeIsEnd(nodes, 0);
    for (size_t b = 0; b < nb; ++b) {
        const AsfBone& bone = asf.bones[b];
        if (bone.node < 0 || size_t(bone.node) >= nodes) return Error{path + ": the skeleton is inconsistent"};
        nodeBone[bone.node] = static_cast<int32_t>(b);
        if (bone.endNode >= 0) {
            if (size_t(bone.endNode) >= nodes) return Error{path + ": the skeleton is inconsistent"};
            nodeBone[bone.endNode] = static_cast<int32_t>(b);
            nodeIsEnd[bone.endNode] = 1;
        }
    }

    for (size_t node = 0; node < nodes; ++node) {
        if (nodeBone[node] < 0) continue;
        const size_t b = static_cast<size_t>(nodeBone[node]);
        const AsfBone& bone = asf.bones[b];
        const bool end = nodeIsEnd[node];
        // The bone whose `l` dof moves this node: the bone itself for its end site, else the parent.
        const int32_t stretcher = end ? static_cast<int32_t>(b) : bone.parent;
        const bool stretched = stretcher >= 0 && seen[stretcher] && hasDof(stretcher, isL);
        const bool rotates = !end && seen[b] && hasDof(b, isRotation);
        const bool moves = !end && seen[b] && hasDof(b, isTranslation);
        if (!rotates && !moves && !stretched) continue;
        const Sqt bind = end ? endBind(asf, b) : boneBind(asf, b);
        Track tr;
        tr.node = static_cast<int32_t>(node);
        if (moves || stretched) {
            tr.translation = {timesIndex, static_cast<uint32_t>(clip.vec3Keys.size()), static_cast<uint32_t>(nf)};
            const glm::dvec3 stretch = stretched ? stretchDirection(asf, stretcher) : glm::dvec3(0.0);
            for (size_t f = 0; f < nf; ++f) {
                glm::dvec3 t = bind.t;
                if (moves) t += b == 0 ? localTranslation(f, b) : bind.r * localTranslation(f, b);
                if (stretched) t += stretch * (valueOf(f, stretcher, AsfDof::L) * mult);
                clip.vec3Keys.push_back(glm::vec3(t));
            }
        }
        if (rotates) {
            tr.rotation = {timesIndex, static_cast<uint32_t>(clip.quatKeys.size()), static_cast<uint32_t>(nf)};
            glm::quat prev(1.0f, 0.0f, 0.0f, 0.0f);
            for (size_t f = 0; f < nf; ++f) {
                glm::quat q = glm::normalize(glm::quat(bind.r * motionRotation(f, b)));
                if (f > 0 && glm::dot(prev, q) < 0.0f) q = -q;
                clip.quatKeys.push_back(q);
                prev = q;
            }
        }
        clip.trackOfNode[node] = static_cast<int32_t>(clip.tracks.size());
        clip.tracks.push_back(tr);
    }
    for (const glm::vec3& v : clip.vec3Keys) {
        if (!std::isfinite(v.x) || !std::isfinite(v.y) || !std::isfinite(v.z)) {
            return Error{path + ": translations are too large"};
        }
    }
    return clip;
}

Result<std::string> readFile(const std::string& path, size_t maxBytes) {
    if (Result<bool> regular = checkRegularFile(path); !regular) return regular.error();
    std::ifstream in(path, std::ios::binary);
    if (!in) return Error{path + ": cannot be opened"};
    std::string s;
    char buf[1 << 16];
    for (;;) {
        in.read(buf, sizeof buf);
        const std::streamsize got = in.gcount();
        if (got <= 0) break;
        s.append(buf, static_cast<size_t>(got));
        if (s.size() > maxBytes) return Error{path + ": larger than " + std::to_string(maxBytes >> 20) + " MiB"};
    }
    if (in.bad()) return Error{path + ": read error"};
    return s;
}

Error outOfMemory(const std::string& path) {
    return Error{path + ": out of memory while importing (the file claims more data than fits)"};
}

Model modelOf(AsfSkeleton&& asf) {
    Model m;
    m.path = asf.path;
    m.skeleton = std::move(asf.skeleton);
    m.materials.emplace_back();
    return m;
}

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

Result<Clip> parseAmc(std::string_view text, const AsfSkeleton& asf, const std::string& path, float fps) {
    try {
        return parseAmcImpl(text, asf, path, fps);
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

Result<Clip> importAmc(const std::string& path, const Model& skeleton, float fps) {
    try {
        if (skeleton.path.empty()) return Error{path + ": the skeleton was not imported from an ASF file"};
        Result<std::string> asfText = readFile(skeleton.path, kMaxAsfBytes);
        if (!asfText) return Error{path + ": cannot re-read its skeleton: " + asfText.error().message};
        Result<AsfSkeleton> asf = parseAsf(*asfText, skeleton.path);
        if (!asf) return Error{path + ": its skeleton does not parse as ASF: " + asf.error().message};
        const Skeleton& a = asf->skeleton;
        const Skeleton& b = skeleton.skeleton;
        if (a.names != b.names || a.parent != b.parent || a.bindLocal != b.bindLocal) {
            return Error{path + ": the skeleton no longer matches " + skeleton.path + " (the file changed since it was imported)"};
        }
        Result<std::string> text = readFile(path, kMaxAmcBytes);
        if (!text) return text.error();
        return parseAmc(*text, *asf, path, fps);
    } catch (const std::bad_alloc&) {
        return outOfMemory(path);
    }
}

Result<Model> importAsfAmc(const std::string& asfPath, const std::vector<std::string>& amcPaths, float fps) {
    try {
        Result<std::string> asfText = readFile(asfPath, kMaxAsfBytes);
        if (!asfText) return asfText.error();
        Result<AsfSkeleton> asf = parseAsf(*asfText, asfPath);
        if (!asf) return asf.error();
        std::vector<Clip> clips;
        for (const std::string& amc : amcPaths) {
            Result<std::string> text = readFile(amc, kMaxAmcBytes);
            if (!text) return text.error();
            Result<Clip> clip = parseAmc(*text, *asf, amc, fps);
            if (!clip) return clip.error();
            clips.push_back(std::move(*clip));
        }
        Model m = modelOf(std::move(*asf));
        m.clips = std::move(clips);
        return m;
    } catch (const std::bad_alloc&) {
        return outOfMemory(asfPath);
    }
}

std::string findAsfForAmc(const std::string& amcPath) {
    namespace fs = std::filesystem;
    const fs::path p(amcPath);
    const std::string stem = p.stem().string();
    if (stem.empty()) return "";
    std::vector<std::string> candidates;
    const size_t us = stem.find('_');
    if (us != std::string::npos && us > 0) candidates.push_back(stem.substr(0, us));
    candidates.push_back(stem);
    for (const std::string& c : candidates) {
        for (const char* ext : {".asf", ".ASF"}) {
            const fs::path f = p.parent_path() / (c + ext);
            std::error_code ec;
            if (fs::is_regular_file(f, ec)) return f.string();
        }
    }
    return "";
}

}  // namespace rig
