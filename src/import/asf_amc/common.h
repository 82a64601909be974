// What the ASF skeleton reader (asf_skeleton.cpp) and the AMC motion reader (amc_motion.cpp)
// share (internal to import/): limits, text lines and tokens, number and dof parsing, error
// messages, the bones' bind geometry, file reading.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>

#include "import/asf_amc/asf_amc.h"

namespace rig::acclaim {

// Any number an ASF or AMC value may hold (angles, lengths, translations): beyond this a file
// is broken, and keeping values this small keeps every product of them finite in float.
inline constexpr double kMaxNumber = 1e9;
inline constexpr int64_t kMaxFrameNumber = 1000000000;
inline constexpr double kPi = 3.14159265358979323846;

inline bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }
bool equalsNoCase(std::string_view a, std::string_view b);
bool allDigits(std::string_view s);
// A token for a message: printable ASCII only, at most 40 characters, in quotes.
std::string quote(std::string_view s);

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
const char* parseNumber(std::string_view tok, double& out);
bool parseDof(std::string_view t, AsfDof& d);
inline bool isRotation(AsfDof d) { return d == AsfDof::RX || d == AsfDof::RY || d == AsfDof::RZ; }
inline bool isTranslation(AsfDof d) { return d == AsfDof::TX || d == AsfDof::TY || d == AsfDof::TZ; }
// "path:line: section: what".
Error errorAt(const std::string& path, int line, std::string_view section, const std::string& what);

// ---- Geometry shared by the ASF (bind pose) and the AMC (keys) ----

// Bone b's offset (direction * length * multiplier) in the global frame; 0 for the root.
glm::dvec3 boneOffset(const AsfSkeleton& asf, size_t b);

struct Sqt {
    glm::dvec3 t{0.0};
    glm::dquat r{1.0, 0.0, 0.0, 0.0};
};

// Bind local transform of bone b's node (at its start joint).
Sqt boneBind(const AsfSkeleton& asf, size_t b);
// Bind local transform of bone b's end-site node (in b's axis frame).
Sqt endBind(const AsfSkeleton& asf, size_t b);
// Where bone b's `l` dof moves the joints at its end, per unit of l, in b's axis frame.
glm::dvec3 stretchDirection(const AsfSkeleton& asf, size_t b);
Transform toTransform(const Sqt& s);
bool finite(const glm::mat4& m);

// ---- Files ----

// The whole file, at most maxBytes.
Result<std::string> readFile(const std::string& path, size_t maxBytes);
Error outOfMemory(const std::string& path);
// A Model holding the skeleton alone (one default material).
Model modelOf(AsfSkeleton&& asf);

}  // namespace rig::acclaim
