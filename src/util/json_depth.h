// The nesting of JSON text, measured before it is parsed: a file rigview did not make can nest
// arrays and objects as deep as it is long, and a parser or a walk over the parsed tree pays
// for each level (recursion, a path per level). One pass, outside strings; the text need not
// be valid JSON (the parser says what else is wrong).
#pragma once

#include <cstddef>
#include <string_view>

namespace rig {

// How deep the JSON files rigview reads (state machine files, the viewer's settings) may nest.
inline constexpr int kMaxJsonDepth = 64;

// The offset of the first '[' or '{' that opens level maxDepth + 1 (the outermost array or
// object is level 1), or npos when nothing nests deeper than maxDepth.
size_t jsonTooDeepAt(std::string_view text, int maxDepth);

}  // namespace rig
