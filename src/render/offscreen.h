// OffscreenTarget: a framebuffer (MSAA colour + depth, resolved to RGBA8) to draw into with
// no window, then read back and write as PNG, or copy (resolved) into another framebuffer: the
// viewer draws its scene multisampled here and its UI single-sampled on the window.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "anim/runtime/result.h"
#include "platform/gl.h"

namespace rig {

class OffscreenTarget {
public:
    static Result<std::unique_ptr<OffscreenTarget>> create(int width, int height, int samples);
    ~OffscreenTarget();
    OffscreenTarget(const OffscreenTarget&) = delete;
    OffscreenTarget& operator=(const OffscreenTarget&) = delete;

    void bind();  // draw into it
    // Resolve MSAA and read RGBA8 pixels, top row first.
    std::vector<uint8_t> readPixels();
    // Resolve MSAA straight into drawFbo's colour (the same size, its origin); leaves drawFbo
    // bound for drawing and reading.
    void resolveTo(GLuint drawFbo);
    int width() const { return width_; }
    int height() const { return height_; }

private:
    OffscreenTarget() = default;
    int width_ = 0, height_ = 0, samples_ = 0;
    GLuint msFbo_ = 0, msColor_ = 0, msDepth_ = 0;
    GLuint fbo_ = 0, color_ = 0, depth_ = 0;
};

// Write RGBA8 pixels (top row first) as PNG, through an OutputFile (util/output_file.h: a
// temporary file renamed on success). Returns false if the file cannot be written; `error`
// then says why ("<path>: cannot write the output file (<why>)").
bool writePng(const std::string& path, int width, int height, const std::vector<uint8_t>& rgba,
              std::string* error = nullptr);

}  // namespace rig
