// Text that leaves rigview: names from files may hold anything (invalid UTF-8, terminal
// escape sequences, newlines). Everything printed or written as JSON goes through these.
#pragma once

#include <string>
#include <string_view>

namespace rig::text {

// True when `s` is well-formed UTF-8 (no overlong forms, no surrogates, at most U+10FFFF).
bool isValidUtf8(std::string_view s);

// `s` with every byte that does not start or continue a well-formed UTF-8 sequence replaced
// by U+FFFD (one per maximal bad subpart, as the Unicode standard recommends).
std::string validUtf8(std::string_view s);

// `s` made safe for a terminal line: invalid UTF-8 replaced (as validUtf8), C0 control
// characters and DEL shown as \xHH (ESC as \x1B, newline as \x0A, so a line stays one line),
// C1 controls (U+0080..U+009F, e.g. the one-byte CSI) as \u00HH.
std::string forTerminal(std::string_view s);

}  // namespace rig::text
