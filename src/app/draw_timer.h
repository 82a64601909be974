// DrawTimer: how long one stretch of GL calls takes, on the CPU (the calls themselves) and on
// the GPU (a GL_TIME_ELAPSED query, GL 3.3 core). The GPU's time is read back frames later, when
// the query's result is available, so timing never waits for the GPU (no glFinish each frame).
// The viewer times the renderer's draw of the model with it for the Stats panel.
#pragma once

#include <array>
#include <chrono>

#include "platform/gl.h"

namespace rig {

class DrawTimer {
public:
    DrawTimer() = default;
    ~DrawTimer();
    DrawTimer(const DrawTimer&) = delete;
    DrawTimer& operator=(const DrawTimer&) = delete;

    // Around the calls to time (a current GL context; no other GL_TIME_ELAPSED query may be
    // open between them).
    void begin();
    void end();
    // The CPU time of the last begin..end, in ms.
    double cpuMs() const { return cpuMs_; }
    // The GPU time of the newest stretch whose query has completed, in ms; < 0 before one has.
    double gpuMs() const { return gpuMs_; }

private:
    static constexpr int kQueries = 4;  // in flight: a result is read up to 3 frames later
    std::array<GLuint, kQueries> queries_{};
    std::array<bool, kQueries> pending_{};
    int next_ = 0;
    bool made_ = false, open_ = false;
    std::chrono::steady_clock::time_point start_;
    double cpuMs_ = 0.0, gpuMs_ = -1.0;
};

}  // namespace rig
