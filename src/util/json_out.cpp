#include "util/json_out.h"

#include <cmath>
#include <cstdio>
#include <vector>

#include "util/text.h"

namespace rig::jsonout {

using nlohmann::json;

namespace {

std::string cleanString(const std::string& s, Stats& stats) {
    if (text::isValidUtf8(s)) return s;
    ++stats.invalidUtf8;
    return text::validUtf8(s);
}

// Iterative (a JSON document built from a file's data can nest as deep as the file does).
void clean(json& root, Stats& stats) {
    std::vector<json*> stack{&root};
    while (!stack.empty()) {
        json* j = stack.back();
        stack.pop_back();
        if (j->is_number_float()) {
            if (!std::isfinite(j->get<double>())) {
                ++stats.nonFinite;
                *j = nullptr;
            }
        } else if (j->is_string()) {
            std::string& s = j->get_ref<std::string&>();
            if (!text::isValidUtf8(s)) s = cleanString(s, stats);
        } else if (j->is_array()) {
            for (json& e : *j) stack.push_back(&e);
        } else if (j->is_object()) {
            bool badKey = false;
            for (auto it = j->begin(); it != j->end(); ++it) badKey = badKey || !text::isValidUtf8(it.key());
            if (badKey) {
                json fixed = json::object();
                for (auto it = j->begin(); it != j->end(); ++it) fixed[cleanString(it.key(), stats)] = std::move(it.value());
                *j = std::move(fixed);
            }
            for (auto it = j->begin(); it != j->end(); ++it) stack.push_back(&it.value());
        }
    }
}

}  // namespace

json sanitized(json j, Stats& stats) {
    clean(j, stats);
    return j;
}

std::string dump(json j, int indent, Stats& stats) {
    clean(j, stats);
    // After clean() every string is valid; `replace` still guarantees no type_error 316.
    return j.dump(indent, ' ', false, json::error_handler_t::replace);
}

std::string dump(json j, int indent) {
    Stats unused;
    return dump(std::move(j), indent, unused);
}

void appendNumber(std::string& out, double v, Stats& stats) {
    if (!std::isfinite(v)) {
        ++stats.nonFinite;
        out += "null";
        return;
    }
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.9g", v);
    out += buf;
}

void appendString(std::string& out, std::string_view s, Stats& stats) {
    out += json(cleanString(std::string(s), stats)).dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace rig::jsonout
