#include "util/text.h"

#include <cstdint>
#include <cstdio>

namespace rig::text {

namespace {

// Length of the well-formed UTF-8 sequence at s[i], or 0 when the bytes there do not start
// one. `cp` receives the code point.
size_t sequenceAt(std::string_view s, size_t i, uint32_t& cp) {
    const auto b = [&](size_t k) { return static_cast<uint8_t>(s[k]); };
    const uint8_t c = b(i);
    if (c < 0x80) {
        cp = c;
        return 1;
    }
    size_t len = 0;
    uint8_t lo = 0x80, hi = 0xBF;  // allowed range of the second byte
    if (c >= 0xC2 && c <= 0xDF) {
        len = 2;
        cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        cp = c & 0x0F;
        if (c == 0xE0) lo = 0xA0;  // no overlong forms
        if (c == 0xED) hi = 0x9F;  // no surrogates
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        cp = c & 0x07;
        if (c == 0xF0) lo = 0x90;
        if (c == 0xF4) hi = 0x8F;  // at most U+10FFFF
    } else {
        return 0;
    }
    if (i + len > s.size()) return 0;
    for (size_t k = 1; k < len; ++k) {
        const uint8_t x = b(i + k);
        if (k == 1 ? (x < lo || x > hi) : (x < 0x80 || x > 0xBF)) return 0;
        cp = (cp << 6) | (x & 0x3F);
    }
    return len;
}

// Bytes to skip for one bad subpart at s[i]: the lead byte and the continuation bytes that
// could still have completed it.
size_t badSubpart(std::string_view s, size_t i) {
    const uint8_t c = static_cast<uint8_t>(s[i]);
    size_t want = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xC2 && c <= 0xDF ? 2 : 1;
    size_t n = 1;
    while (n < want && i + n < s.size()) {
        const uint8_t x = static_cast<uint8_t>(s[i + n]);
        uint8_t lo = 0x80, hi = 0xBF;
        if (n == 1 && c == 0xE0) lo = 0xA0;
        if (n == 1 && c == 0xED) hi = 0x9F;
        if (n == 1 && c == 0xF0) lo = 0x90;
        if (n == 1 && c == 0xF4) hi = 0x8F;
        if (x < lo || x > hi) break;
        ++n;
    }
    return n;
}

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

}  // namespace

bool isValidUtf8(std::string_view s) {
    uint32_t cp = 0;
    for (size_t i = 0; i < s.size();) {
        const size_t len = sequenceAt(s, i, cp);
        if (!len) return false;
        i += len;
    }
    return true;
}

std::string validUtf8(std::string_view s) {
    if (isValidUtf8(s)) return std::string(s);
    std::string out;
    out.reserve(s.size() + 8);
    uint32_t cp = 0;
    for (size_t i = 0; i < s.size();) {
        const size_t len = sequenceAt(s, i, cp);
        if (len) {
            out.append(s.substr(i, len));
            i += len;
        } else {
            out.append(kReplacement);
            i += badSubpart(s, i);
        }
    }
    return out;
}

std::string forTerminal(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    uint32_t cp = 0;
    char buf[16];
    for (size_t i = 0; i < s.size();) {
        const size_t len = sequenceAt(s, i, cp);
        if (!len) {
            out.append(kReplacement);
            i += badSubpart(s, i);
            continue;
        }
        if (cp < 0x20 || cp == 0x7F) {
            std::snprintf(buf, sizeof buf, "\\x%02X", static_cast<unsigned>(cp));
            out += buf;
        } else if (cp >= 0x80 && cp <= 0x9F) {
            std::snprintf(buf, sizeof buf, "\\u%04X", static_cast<unsigned>(cp));
            out += buf;
        } else {
            out.append(s.substr(i, len));
        }
        i += len;
    }
    return out;
}

}  // namespace rig::text
