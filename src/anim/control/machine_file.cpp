#include "anim/control/machine_file.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iterator>
#include <unordered_map>
#include <unordered_set>

#include <nlohmann/json.hpp>

#include "util/input_file.h"
#include "util/json_depth.h"
#include "util/text.h"

namespace rig {

namespace {

using json = nlohmann::json;

// ---------------------------------------------------------------------------------------
// Lines: a second pass over the (valid) text with nlohmann's SAX parser, fed through an
// iterator that remembers how far the lexer has read. Each object member's line is the line
// of its key; each array element's, the line where it starts. Each value is a node of a tree
// (LineIndex) found from its parent and its name there (key or index), so that a path like
// "/layers/1/states/0/clip" is looked up by walking and each key of the file is stored once:
// time and memory linear in the text, however deep or wide it is.

struct ReadPos {
    size_t furthest = 0;
};

class CountingIt {
public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char*;
    using reference = const char&;

    CountingIt() = default;
    CountingIt(const char* p, const char* base, ReadPos* pos) : p_(p), base_(base), pos_(pos) {}
    reference operator*() const { return *p_; }
    CountingIt& operator++() {
        ++p_;
        if (pos_) pos_->furthest = std::max(pos_->furthest, static_cast<size_t>(p_ - base_));
        return *this;
    }
    CountingIt operator++(int) {
        CountingIt c = *this;
        ++*this;
        return c;
    }
    bool operator==(const CountingIt& o) const { return p_ == o.p_; }
    bool operator!=(const CountingIt& o) const { return p_ != o.p_; }

private:
    const char* p_ = nullptr;
    const char* base_ = nullptr;
    ReadPos* pos_ = nullptr;
};

std::string pathKey(const std::string& key) {
    std::string out;
    for (char c : key) {
        if (c == '~') out += "~0";
        else if (c == '/') out += "~1";
        else out += c;
    }
    return out;
}

// "LINE:COLUMN" (both 1-based, the column in bytes) of byte `at` of `text`.
std::string lineColumnAt(std::string_view text, size_t at) {
    int line = 1;
    size_t lineStart = 0;
    for (size_t i = 0; i < at; ++i) {
        if (text[i] == '\n') {
            ++line;
            lineStart = i + 1;
        }
    }
    return std::to_string(line) + ":" + std::to_string(at - lineStart + 1);
}

struct LineIndex {
    std::vector<int> lines;                          // per value; the root is value 0
    std::unordered_map<std::string, int32_t> child;  // "<parent value>/<key or index>" -> value

    // The line of `path` ("" the root, else "/name/..." with names escaped as pathKey does);
    // a path the file does not hold: 0, or with `closest` the line of its closest enclosing value.
    int lineOf(const std::string& path, bool closest) const {
        if (lines.empty()) return closest ? 1 : 0;
        int32_t at = 0;
        for (size_t pos = 0; pos < path.size();) {
            size_t next = path.find('/', pos + 1);
            if (next == std::string::npos) next = path.size();
            auto it = child.find(std::to_string(at) + path.substr(pos, next - pos));
            if (it == child.end()) return closest ? lines[at] : 0;
            at = it->second;
            pos = next;
        }
        return lines[at];
    }
};

class LineSax : public nlohmann::json_sax<json> {
public:
    LineSax(std::string_view text, const ReadPos& pos, LineIndex& index) : text_(text), pos_(pos), index_(index) {}

    bool null() override { return scalar(); }
    bool boolean(bool) override { return scalar(); }
    bool number_integer(number_integer_t) override { return scalar(); }
    bool number_unsigned(number_unsigned_t) override { return scalar(); }
    bool number_float(number_float_t, const string_t&) override { return scalar(); }
    bool string(string_t&) override { return scalar(); }
    bool binary(binary_t&) override { return scalar(); }
    bool start_object(std::size_t) override { return open(false); }
    bool start_array(std::size_t) override { return open(true); }
    bool end_object() override { return close(); }
    bool end_array() override { return close(); }
    bool key(string_t& k) override {
        Frame& f = frames_.back();
        f.member = add(f.value, pathKey(k));
        return true;
    }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }

private:
    struct Frame {
        int32_t value = 0;   // the object or array
        bool array = false;
        size_t index = 0;    // the next element's
        int32_t member = 0;  // the value of the last key read
    };
    // The line of the last character read before `end` that is not white space (a number is
    // read one character past its end).
    int lineAt(size_t end) {
        size_t at = std::min(end, text_.size());
        while (at > 0 && (text_[at - 1] == ' ' || text_[at - 1] == '\n' || text_[at - 1] == '\r' || text_[at - 1] == '\t')) {
            --at;
        }
        if (at > 0) --at;
        // Lines counted incrementally: reads only move forward.
        if (at < counted_) {
            counted_ = 0;
            line_ = 1;
        }
        for (; counted_ < at; ++counted_) line_ += text_[counted_] == '\n';
        return line_;
    }
    // A new value, named `name` in `parent` (a repeated key: the later one, as the parse keeps).
    int32_t add(int32_t parent, const std::string& name) {
        const int32_t v = static_cast<int32_t>(index_.lines.size());
        index_.lines.push_back(lineAt(pos_.furthest));
        index_.child[std::to_string(parent) + "/" + name] = v;
        return v;
    }
    // The value that starts now.
    int32_t value() {
        if (frames_.empty()) {
            index_.lines.push_back(lineAt(pos_.furthest));
            return 0;
        }
        Frame& f = frames_.back();
        if (!f.array) return f.member;
        return add(f.value, std::to_string(f.index++));
    }
    bool scalar() {
        value();
        return true;
    }
    bool open(bool array) {
        const int32_t v = value();
        frames_.push_back(Frame{v, array, 0, 0});
        return true;
    }
    bool close() {
        frames_.pop_back();
        return true;
    }

    std::string_view text_;
    const ReadPos& pos_;
    LineIndex& index_;
    std::vector<Frame> frames_;
    size_t counted_ = 0;
    int line_ = 1;
};

// ---------------------------------------------------------------------------------------
// The semantic pass.

struct LoadError {
    std::string message;
};

class Loader {
public:
    Loader(const Model& model, std::string file, LineIndex lines)
        : model_(model), file_(std::move(file)), lines_(std::move(lines)) {
        for (size_t i = 0; i < model_.clips.size(); ++i) clipByName_.emplace(model_.clips[i].name, static_cast<int32_t>(i));
    }

    MachineDef load(const json& root) {
        expectObject(root, "", "the file");
        checkKeys(root, "", {"parameters", "entry", "states", "transitions", "layers"});
        if (root.contains("parameters")) {
            const json& ps = root["parameters"];
            expectArray(ps, "/parameters", "'parameters'");
            for (size_t i = 0; i < ps.size(); ++i) loadParam(ps[i], "/parameters/" + std::to_string(i));
        }
        MachineLayer base;
        base.name = "base";
        base.base = true;
        base.machine = loadMachine(root, "", "base", -1, LayerBlend::Override);
        def_.layers.push_back(std::move(base));
        if (root.contains("layers")) {
            const json& ls = root["layers"];
            expectArray(ls, "/layers", "'layers'");
            for (size_t i = 0; i < ls.size(); ++i) loadLayer(ls[i], "/layers/" + std::to_string(i));
        }
        const std::string problem = def_.validate(model_.clips.size());
        // Every check above comes first, with its line; this one only guards the loader itself.
        if (!problem.empty()) fail("", "internal: the definition does not validate: " + problem);
        return std::move(def_);
    }

private:
    [[noreturn]] void fail(const std::string& path, const std::string& what) const {
        // The line of the field, else of the closest enclosing one.
        const int line = lines_.lineOf(path, true);
        // Names come from the file: control characters are escaped so the message stays one line.
        throw LoadError{file_ + ":" + std::to_string(line) + ": " + text::forTerminal(what)};
    }

    static std::string fieldName(const std::string& path) {
        const size_t slash = path.rfind('/');
        return slash == std::string::npos ? path : path.substr(slash + 1);
    }

    void expectObject(const json& j, const std::string& path, const std::string& what) const {
        if (!j.is_object()) fail(path, what + " must be an object");
    }
    void expectArray(const json& j, const std::string& path, const std::string& what) const {
        if (!j.is_array()) fail(path, what + " must be an array");
    }
    void checkKeys(const json& obj, const std::string& path, std::initializer_list<const char*> known) const {
        for (auto it = obj.begin(); it != obj.end(); ++it) {
            const std::string& k = it.key();
            if (!k.empty() && k[0] == '_') continue;  // comments
            bool ok = false;
            for (const char* n : known) ok = ok || k == n;
            if (!ok) {
                std::string list;
                for (const char* n : known) list += std::string(list.empty() ? "" : ", ") + n;
                fail(path + "/" + pathKey(k), "unknown field '" + k + "' (expected one of: " + list + ")");
            }
        }
    }
    const json& need(const json& obj, const std::string& path, const char* key, const std::string& what) const {
        if (!obj.contains(key)) fail(path, what + " has no '" + key + "'");
        return obj[key];
    }
    std::string str(const json& j, const std::string& path) const {
        if (!j.is_string()) fail(path, "'" + fieldName(path) + "' must be a string");
        return j.get<std::string>();
    }
    float num(const json& j, const std::string& path) const {
        if (!j.is_number()) fail(path, "'" + fieldName(path) + "' must be a number");
        const double v = j.get<double>();
        if (!std::isfinite(v) || std::fabs(v) > 3.0e38) fail(path, "'" + fieldName(path) + "' is out of range");
        return static_cast<float>(v);
    }
    bool boolean(const json& j, const std::string& path) const {
        if (!j.is_boolean()) fail(path, "'" + fieldName(path) + "' must be true or false");
        return j.get<bool>();
    }

    // A blend space's "points" (in object `b` at `bp`): a non-empty array of {clip, at}; `add`
    // gets each point's clip, its "at" value and that value's path, in order.
    template <class Add>
    void forEachPoint(const json& b, const std::string& bp, const std::string& what, Add&& add) const {
        const json& pts = need(b, bp, "points", what);
        expectArray(pts, bp + "/points", "'points'");
        if (pts.empty()) fail(bp + "/points", "a blend space needs points");
        for (size_t i = 0; i < pts.size(); ++i) {
            const std::string pp = bp + "/points/" + std::to_string(i);
            expectObject(pts[i], pp, "a point");
            checkKeys(pts[i], pp, {"clip", "at"});
            const int32_t clip = clipRef(need(pts[i], pp, "clip", "a point"), pp + "/clip");
            add(clip, need(pts[i], pp, "at", "a point"), pp + "/at");
        }
    }

    int32_t clipRef(const json& j, const std::string& path) const {
        if (j.is_number_integer() || j.is_number_unsigned()) {
            const long long i = j.get<long long>();
            if (i < 0 || static_cast<size_t>(i) >= model_.clips.size()) {
                fail(path, "clip index " + std::to_string(i) + " out of range (the model has " +
                               std::to_string(model_.clips.size()) + " clips)");
            }
            return static_cast<int32_t>(i);
        }
        if (!j.is_string()) fail(path, "a clip is a name or an index");
        const std::string name = j.get<std::string>();
        if (auto it = clipByName_.find(name); it != clipByName_.end()) return it->second;
        std::string list;
        for (size_t i = 0; i < model_.clips.size() && i < 12; ++i) list += (i ? ", " : "") + model_.clips[i].name;
        if (model_.clips.size() > 12) list += ", ...";
        fail(path, "unknown clip '" + name + "' (the model has: " + (list.empty() ? "no clips" : list) + ")");
    }

    int32_t paramRef(const json& j, const std::string& path, ParamType want, bool anyType = false) const {
        const std::string name = str(j, path);
        const auto it = paramByName_.find(name);
        if (it == paramByName_.end()) fail(path, "unknown parameter '" + name + "'");
        const int32_t p = it->second;
        if (!anyType && def_.params[p].type != want) fail(path, "parameter '" + name + "' is not a float");
        return p;
    }

    void loadParam(const json& j, const std::string& path) {
        expectObject(j, path, "a parameter");
        checkKeys(j, path, {"name", "type", "default", "min", "max"});
        MachineParam p;
        p.name = str(need(j, path, "name", "a parameter"), path + "/name");
        if (p.name.empty()) fail(path + "/name", "a parameter's name is empty");
        if (!paramByName_.emplace(p.name, static_cast<int32_t>(def_.params.size())).second) {
            fail(path + "/name", "duplicate parameter '" + p.name + "'");
        }
        const std::string type = str(need(j, path, "type", "parameter '" + p.name + "'"), path + "/type");
        if (type == "float") p.type = ParamType::Float;
        else if (type == "bool") p.type = ParamType::Bool;
        else if (type == "trigger") p.type = ParamType::Trigger;
        else fail(path + "/type", "unknown parameter type '" + type + "' (float, bool or trigger)");
        if (j.contains("default")) {
            if (p.type == ParamType::Float) p.initial = num(j["default"], path + "/default");
            else if (p.type == ParamType::Bool) p.initial = boolean(j["default"], path + "/default") ? 1.0f : 0.0f;
            else fail(path + "/default", "a trigger has no default");
        }
        if (j.contains("min") || j.contains("max")) {
            if (p.type != ParamType::Float) fail(path, "only float parameters have a range");
            p.min = j.contains("min") ? num(j["min"], path + "/min") : std::min(0.0f, p.initial);
            p.max = j.contains("max") ? num(j["max"], path + "/max") : std::max(1.0f, p.initial);
            if (!(p.min < p.max)) fail(path, "parameter '" + p.name + "': min must be below max");
        } else if (p.type == ParamType::Float) {
            p.min = std::min(0.0f, p.initial);
            p.max = std::max(1.0f, p.initial);
        }
        def_.params.push_back(std::move(p));
    }

    void loadLayer(const json& j, const std::string& path) {
        expectObject(j, path, "a layer");
        checkKeys(j, path, {"name", "blend", "weight", "mask", "entry", "states", "transitions"});
        MachineLayer L;
        L.name = str(need(j, path, "name", "a layer"), path + "/name");
        if (L.name == "base" || !layerNames_.insert(L.name).second) fail(path + "/name", "duplicate layer '" + L.name + "'");
        if (j.contains("blend")) {
            const std::string b = str(j["blend"], path + "/blend");
            if (b == "override") L.blend = LayerBlend::Override;
            else if (b == "additive") L.blend = LayerBlend::Additive;
            else fail(path + "/blend", "unknown blend '" + b + "' (override or additive)");
        }
        if (j.contains("weight")) {
            L.weight = num(j["weight"], path + "/weight");
            if (L.weight < 0.0f || L.weight > 1.0f) fail(path + "/weight", "a layer's weight is in [0, 1]");
        }
        if (j.contains("mask")) {
            const json& mask = j["mask"];
            expectArray(mask, path + "/mask", "'mask'");
            if (mask.empty()) fail(path + "/mask", "an empty mask (leave 'mask' out for the whole skeleton)");
            for (size_t i = 0; i < mask.size(); ++i) {
                const std::string mp = path + "/mask/" + std::to_string(i);
                const std::string joint = str(mask[i], mp);
                const int32_t node = model_.skeleton.find(joint);
                if (node < 0) fail(mp, "unknown joint '" + joint + "'");
                L.mask = L.mask.weights.empty() ? maskFromSubtree(model_.skeleton, node)
                                                : combineMasks(L.mask, maskFromSubtree(model_.skeleton, node), MaskCombine::Max);
            }
        }
        L.machine = loadMachine(j, path, L.name, -1, L.blend);
        def_.layers.push_back(std::move(L));
    }

    // The machine described by obj's "entry", "states" and "transitions".
    int32_t loadMachine(const json& obj, const std::string& path, const std::string& name, int32_t parent, LayerBlend blend) {
        const int32_t index = static_cast<int32_t>(def_.machines.size());
        def_.machines.emplace_back();
        def_.machines[index].name = name;
        def_.machines[index].parent = parent;
        int depth = 1;
        for (int32_t p = parent; p != -1; p = def_.machines[p].parent) ++depth;
        if (depth > StateMachine::kMaxDepth) {
            fail(path, "machines nested more than " + std::to_string(StateMachine::kMaxDepth) + " deep");
        }
        const json& states = need(obj, path, "states", parent < 0 ? "a layer" : "a nested machine");
        expectArray(states, path + "/states", "'states'");
        if (states.empty()) fail(path + "/states", "a machine needs at least one state");
        std::vector<MachineState> list;
        std::unordered_map<std::string, int32_t> byName;
        for (size_t i = 0; i < states.size(); ++i) {
            MachineState s = loadState(states[i], path + "/states/" + std::to_string(i), index, blend);
            if (!byName.emplace(s.name, static_cast<int32_t>(i)).second) {
                fail(path + "/states/" + std::to_string(i) + "/name", "duplicate state '" + s.name + "'");
            }
            list.push_back(std::move(s));
        }
        def_.machines[index].states = std::move(list);
        auto stateRef = [&](const json& j, const std::string& p, bool allowAny, bool allowExit) -> int32_t {
            const std::string n = str(j, p);
            if (allowAny && n == "*") return MachineTransition::kAny;
            if (allowExit && n == "exit") {
                if (parent < 0) fail(p, "'exit' leaves a nested machine; this one is not nested");
                return MachineTransition::kExit;
            }
            if (auto it = byName.find(n); it != byName.end()) return it->second;
            fail(p, "unknown state '" + n + "' in machine '" + name + "'");
        };
        if (obj.contains("entry")) def_.machines[index].entry = stateRef(obj["entry"], path + "/entry", false, false);
        if (obj.contains("transitions")) {
            const json& ts = obj["transitions"];
            expectArray(ts, path + "/transitions", "'transitions'");
            for (size_t i = 0; i < ts.size(); ++i) {
                const std::string tp = path + "/transitions/" + std::to_string(i);
                const json& t = ts[i];
                expectObject(t, tp, "a transition");
                checkKeys(t, tp, {"from", "to", "when", "exitTime", "duration", "curve", "mode"});
                MachineTransition tr;
                tr.line = lineOf(tp);
                tr.from = stateRef(need(t, tp, "from", "a transition"), tp + "/from", true, false);
                tr.to = stateRef(need(t, tp, "to", "a transition"), tp + "/to", false, true);
                if (t.contains("when")) {
                    const json& w = t["when"];
                    expectArray(w, tp + "/when", "'when'");
                    for (size_t c = 0; c < w.size(); ++c) tr.conditions.push_back(loadCondition(w[c], tp + "/when/" + std::to_string(c)));
                }
                if (t.contains("exitTime")) {
                    tr.exitTime = num(t["exitTime"], tp + "/exitTime");
                    if (tr.exitTime < 0.0f) fail(tp + "/exitTime", "an exit time is a normalized time >= 0");
                }
                if (tr.conditions.empty() && tr.exitTime < 0.0f) {
                    fail(tp, "a transition needs conditions ('when') or an 'exitTime'");
                }
                if (t.contains("duration")) {
                    tr.duration = num(t["duration"], tp + "/duration");
                    if (tr.duration < 0.0f) fail(tp + "/duration", "a duration is >= 0 seconds");
                }
                if (t.contains("curve")) tr.ease = loadCurve(t["curve"], tp + "/curve");
                if (t.contains("mode")) {
                    const std::string m = str(t["mode"], tp + "/mode");
                    if (m == "smooth") tr.mode = FadeMode::Smooth;
                    else if (m == "frozen") tr.mode = FadeMode::Frozen;
                    else fail(tp + "/mode", "unknown mode '" + m + "' (smooth or frozen)");
                }
                def_.machines[index].transitions.push_back(std::move(tr));
            }
        }
        return index;
    }

    MachineState loadState(const json& j, const std::string& path, int32_t machine, LayerBlend blend) {
        expectObject(j, path, "a state");
        checkKeys(j, path, {"name", "clip", "reference", "blend1d", "blend2d", "machine", "rate", "loop", "sync"});
        MachineState s;
        s.line = lineOf(path);
        s.name = str(need(j, path, "name", "a state"), path + "/name");
        if (s.name.empty() || s.name == "*" || s.name == "exit") fail(path + "/name", "'" + s.name + "' cannot name a state");
        int kinds = 0;
        for (const char* k : {"clip", "blend1d", "blend2d", "machine"}) kinds += j.contains(k) ? 1 : 0;
        if (kinds > 1) fail(path, "state '" + s.name + "' has more than one of clip, blend1d, blend2d, machine");
        if (j.contains("clip")) {
            s.kind = StateKind::Clip;
            s.clip = clipRef(j["clip"], path + "/clip");
        }
        if (blend == LayerBlend::Additive) {
            if (j.contains("blend1d") || j.contains("blend2d")) fail(path, "an additive layer's states play clips");
            if (s.kind == StateKind::Clip) s.reference = clipRef(need(j, path, "reference", "state '" + s.name + "' (additive)"), path + "/reference");
        } else if (j.contains("reference")) {
            fail(path + "/reference", "'reference' is for states of additive layers");
        }
        if (j.contains("blend1d")) {
            const std::string bp = path + "/blend1d";
            const json& b = j["blend1d"];
            expectObject(b, bp, "'blend1d'");
            checkKeys(b, bp, {"param", "points"});
            s.kind = StateKind::Blend1D;
            s.paramX = paramRef(need(b, bp, "param", "'blend1d'"), bp + "/param", ParamType::Float);
            forEachPoint(b, bp, "'blend1d'", [&](int32_t clip, const json& at, const std::string& ap) {
                BlendSpace1D::Point p;
                p.clip = clip;
                p.position = num(at, ap);
                s.points1.push_back(p);
            });
        }
        if (j.contains("blend2d")) {
            const std::string bp = path + "/blend2d";
            const json& b = j["blend2d"];
            expectObject(b, bp, "'blend2d'");
            checkKeys(b, bp, {"params", "points"});
            s.kind = StateKind::Blend2D;
            const json& ps = need(b, bp, "params", "'blend2d'");
            if (!ps.is_array() || ps.size() != 2) fail(bp + "/params", "'params' is [x, y]: two float parameters");
            s.paramX = paramRef(ps[0], bp + "/params/0", ParamType::Float);
            s.paramY = paramRef(ps[1], bp + "/params/1", ParamType::Float);
            forEachPoint(b, bp, "'blend2d'", [&](int32_t clip, const json& at, const std::string& ap) {
                if (!at.is_array() || at.size() != 2) fail(ap, "'at' is [x, y]");
                BlendSpace2D::Point p;
                p.clip = clip;
                p.position = glm::vec2(num(at[0], ap + "/0"), num(at[1], ap + "/1"));
                s.points2.push_back(p);
            });
        }
        if (j.contains("machine")) {
            const std::string mp = path + "/machine";
            expectObject(j["machine"], mp, "'machine'");
            checkKeys(j["machine"], mp, {"entry", "states", "transitions"});
            s.kind = StateKind::Machine;
            s.machine = loadMachine(j["machine"], mp, s.name, machine, blend);
        }
        if (j.contains("rate")) s.timing.rate = num(j["rate"], path + "/rate");
        if (j.contains("loop")) {
            const std::string l = str(j["loop"], path + "/loop");
            if (l == "loop") s.timing.mode = LoopMode::Loop;
            else if (l == "once") s.timing.mode = LoopMode::Once;
            else if (l == "pingpong") s.timing.mode = LoopMode::PingPong;
            else fail(path + "/loop", "unknown loop mode '" + l + "' (loop, once or pingpong)");
        }
        if (j.contains("sync")) s.timing.syncPhase = boolean(j["sync"], path + "/sync");
        return s;
    }

    Condition loadCondition(const json& j, const std::string& path) const {
        expectObject(j, path, "a condition");
        checkKeys(j, path, {"param", "op", "value"});
        Condition c;
        c.param = paramRef(need(j, path, "param", "a condition"), path + "/param", ParamType::Float, true);
        const MachineParam& p = def_.params[c.param];
        if (p.type == ParamType::Trigger) {
            if (j.contains("op") || j.contains("value")) fail(path, "trigger '" + p.name + "' takes no op or value");
            c.op = CondOp::Trigger;
            return c;
        }
        std::string op = p.type == ParamType::Bool ? "==" : "";
        if (j.contains("op")) op = str(j["op"], path + "/op");
        else if (p.type == ParamType::Float) fail(path, "a condition on float '" + p.name + "' needs an 'op'");
        if (op == ">") c.op = CondOp::Greater;
        else if (op == "<") c.op = CondOp::Less;
        else if (op == ">=") c.op = CondOp::GreaterEqual;
        else if (op == "<=") c.op = CondOp::LessEqual;
        else if (op == "==") c.op = CondOp::Equal;
        else if (op == "!=") c.op = CondOp::NotEqual;
        else fail(path + "/op", "unknown op '" + op + "' (>, <, >=, <=, ==, !=)");
        if (p.type == ParamType::Bool && c.op != CondOp::Equal && c.op != CondOp::NotEqual) {
            fail(path + "/op", "bool '" + p.name + "' compares with == or !=");
        }
        const json& v = need(j, path, "value", "a condition on '" + p.name + "'");
        c.value = p.type == ParamType::Bool ? (boolean(v, path + "/value") ? 1.0f : 0.0f) : num(v, path + "/value");
        return c;
    }

    Ease loadCurve(const json& j, const std::string& path) const {
        Ease e;
        if (j.is_array()) {
            if (j.size() != 4) fail(path, "a Bezier curve is [x1, y1, x2, y2]");
            float v[4];
            for (int i = 0; i < 4; ++i) v[i] = num(j[i], path + "/" + std::to_string(i));
            if (v[0] < 0.0f || v[0] > 1.0f || v[2] < 0.0f || v[2] > 1.0f) fail(path, "Bezier x1 and x2 are in [0, 1]");
            return Ease::bezier(v[0], v[1], v[2], v[3]);
        }
        const std::string c = str(j, path);
        if (c == "linear") e.curve = EaseCurve::Linear;
        else if (c == "smoothstep") e.curve = EaseCurve::SmoothStep;
        else if (c == "cubic-in") e.curve = EaseCurve::CubicIn;
        else if (c == "cubic-out") e.curve = EaseCurve::CubicOut;
        else if (c == "cubic-in-out") e.curve = EaseCurve::CubicInOut;
        else fail(path, "unknown curve '" + c + "' (linear, smoothstep, cubic-in, cubic-out, cubic-in-out or [x1, y1, x2, y2])");
        return e;
    }

    int lineOf(const std::string& path) const { return lines_.lineOf(path, false); }

    const Model& model_;
    std::string file_;
    LineIndex lines_;
    MachineDef def_;
    // Names looked up in one step (the file may hold many): the model's clips (the first of a
    // name), the parameters, the layers.
    std::unordered_map<std::string, int32_t> clipByName_, paramByName_;
    std::unordered_set<std::string> layerNames_;
};

}  // namespace

Result<MachineDef> parseMachine(std::string_view text, const Model& model, const std::string& file) {
    // Nesting first, in one pass: everything after it then costs in proportion to the text.
    if (const size_t at = jsonTooDeepAt(text, kMaxJsonDepth); at != std::string_view::npos) {
        return Error{file + ":" + lineColumnAt(text, at) + ": nested more than " + std::to_string(kMaxJsonDepth) + " deep"};
    }
    json root;
    ReadPos read;
    try {
        root = json::parse(CountingIt(text.data(), text.data(), &read), CountingIt(text.data() + text.size(), text.data(), nullptr));
    } catch (const json::exception& e) {
        // A parse error counts bytes (1-based, the byte it stopped at); other errors (a number
        // out of range) stop where the lexer is. Line and column from that.
        const auto* pe = dynamic_cast<const json::parse_error*>(&e);
        const size_t at = pe ? (pe->byte > 0 ? pe->byte - 1 : 0) : (read.furthest > 0 ? read.furthest - 1 : 0);
        const size_t stop = std::min<size_t>(at, text.size());
        std::string what = e.what();
        // "[json.exception.parse_error.101] parse error at line 3, column 5: syntax error ..."
        if (pe) {
            const size_t colon = what.find(": ");
            if (colon != std::string::npos) what = what.substr(colon + 2);
        } else if (what.rfind("[json.exception.", 0) == 0 && what.find("] ") != std::string::npos) {
            what = what.substr(what.find("] ") + 2);
        }
        return Error{file + ":" + lineColumnAt(text, stop) + ": " + text::forTerminal(what)};
    }
    LineIndex lines;
    ReadPos pos;
    LineSax sax(text, pos, lines);
    json::sax_parse(CountingIt(text.data(), text.data(), &pos), CountingIt(text.data() + text.size(), text.data(), nullptr), &sax);
    try {
        Loader loader(model, file, std::move(lines));
        return loader.load(root);
    } catch (const LoadError& e) {
        return Error{e.message};
    }
}

Result<MachineDef> loadMachineFile(const std::string& path, const Model& model) {
    std::string text, why;
    switch (readInputFile(path, kMaxMachineFileBytes, text, why)) {
    case InputFileStatus::Read:
        return parseMachine(text, model, path);
    case InputFileStatus::Missing:
        return Error{path + ": no such file"};
    case InputFileStatus::Refused:
        break;
    }
    return Error{path + ": " + why + (why.rfind("larger than", 0) == 0 ? ": not a state machine file" : "")};
}

std::string machinePathBeside(const std::string& modelPath) {
    namespace fs = std::filesystem;
    const fs::path p(modelPath);
    return (p.parent_path() / (p.stem().string() + ".machine.json")).string();
}

}  // namespace rig
