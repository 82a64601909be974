// The frames `rigview render` draws, handed to a sink as they are read back: the one frame at
// --time (framed on its pose), or the frames of a playblast's range (app/playblast.h) drawn
// with one camera, framed on the posed model over the whole range unless --camera is given.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "anim/runtime/model.h"
#include "app/commands.h"
#include "app/playblast.h"

namespace rig {

struct FrameSink {
    // Once the model is loaded and the frames are known, before the first is drawn (optional).
    // Returns an exit code; anything but kOk stops.
    std::function<int(const Model& model, const FrameRange& range)> begin;
    // Each frame, width x height RGBA8, top row first (the sink may take the pixels).
    std::function<int(size_t index, std::vector<uint8_t>& rgba)> frame;
};

// --size WIDTHxHEIGHT, each 1..16384.
bool parseSize(const std::string& s, int& width, int& height);

// With `request` null, the frame at o.time; else the frames of that range on o's clip. Same
// checks, error lines and exit codes as `render`. `width` and `height` are set from --size.
int renderFrames(const RenderOptions& o, const RangeRequest* request, BlastFormat format, const FrameSink& sink,
                 int& width, int& height);

}  // namespace rig
