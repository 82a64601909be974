#include "import/assimp/off_header.h"

#include <limits>

namespace rig {

namespace {

// Whitespace- and comment-separated tokens of the header text.
class Tokens {
public:
    explicit Tokens(std::string_view text) : text_(text) {}
    std::string_view next() {
        for (;;) {
            while (pos_ < text_.size() && isSpace(text_[pos_])) ++pos_;
            if (pos_ < text_.size() && text_[pos_] == '#') {
                while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
                continue;
            }
            break;
        }
        const size_t start = pos_;
        while (pos_ < text_.size() && !isSpace(text_[pos_]) && text_[pos_] != '#') ++pos_;
        return text_.substr(start, pos_ - start);
    }

private:
    static bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'; }
    std::string_view text_;
    size_t pos_ = 0;
};

// An unsigned decimal count (digits only), saturating; false if the token is not one.
bool count(std::string_view t, uint64_t& out) {
    if (t.empty()) return false;
    uint64_t v = 0;
    for (char c : t) {
        if (c < '0' || c > '9') return false;
        const uint64_t d = static_cast<uint64_t>(c - '0');
        v = v > (std::numeric_limits<uint64_t>::max() - d) / 10 ? std::numeric_limits<uint64_t>::max() : v * 10 + d;
    }
    out = v;
    return true;
}

uint64_t saturatingMulAdd(uint64_t a, uint64_t b, uint64_t c) {
    constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
    if (b != 0 && a > (kMax - c) / b) return kMax;
    return a * b + c;
}

}  // namespace

OffCounts readOffCounts(std::string_view head, bool keywordRequired) {
    OffCounts counts;
    Tokens tokens(head);
    std::string_view t = tokens.next();
    if (t.size() >= 3 && t.substr(t.size() - 3) == "OFF") {
        const std::string_view prefix = t.substr(0, t.size() - 3);
        if (prefix.find_first_not_of("STCN4n") != std::string_view::npos) return counts;
        if (!prefix.empty() && prefix.back() == 'n') {
            uint64_t dims = 0;
            if (!count(tokens.next(), dims) || dims == 0 || dims > 16) return counts;
            counts.dimensions = static_cast<uint32_t>(dims);
        }
        t = tokens.next();
    } else if (keywordRequired) {
        return counts;
    }
    // Without a keyword the first line holds the counts (the specification allows it).
    if (!count(t, counts.vertices) || !count(tokens.next(), counts.faces)) return counts;
    counts.found = true;
    return counts;
}

Result<bool> checkOffCounts(const std::string& path, std::string_view file, bool isOffExtension) {
    const uint64_t size = file.size();
    const OffCounts c = readOffCounts(file.substr(0, 4096), !isOffExtension);
    if (!c.found) return true;
    const uint64_t need = saturatingMulAdd(c.vertices, 2ull * c.dimensions, saturatingMulAdd(c.faces, 2, 0));
    if (need <= size) return true;
    return Error{path + ": the OFF header claims " + std::to_string(c.vertices) + " vertices and " +
                 std::to_string(c.faces) + " faces, more than its " + std::to_string(size) + " bytes can hold"};
}

}  // namespace rig
