#include "app/draw_timer.h"

namespace rig {

DrawTimer::~DrawTimer() {
    if (made_) glDeleteQueries(kQueries, queries_.data());
}

void DrawTimer::begin() {
    if (!made_) {
        glGenQueries(kQueries, queries_.data());
        made_ = true;
    }
    // Collect every finished result, oldest first, without waiting: the newest one wins.
    for (int k = 0; k < kQueries; ++k) {
        const int q = (next_ + k) % kQueries;
        if (!pending_[q]) continue;
        GLint available = 0;
        glGetQueryObjectiv(queries_[q], GL_QUERY_RESULT_AVAILABLE, &available);
        if (!available) continue;
        GLuint64 ns = 0;
        glGetQueryObjectui64v(queries_[q], GL_QUERY_RESULT, &ns);
        gpuMs_ = static_cast<double>(ns) * 1e-6;
        pending_[q] = false;
    }
    // A query still in flight is not reused: this stretch goes untimed on the GPU.
    open_ = !pending_[next_];
    if (open_) glBeginQuery(GL_TIME_ELAPSED, queries_[next_]);
    start_ = std::chrono::steady_clock::now();
}

void DrawTimer::end() {
    cpuMs_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count();
    if (!open_) return;
    glEndQuery(GL_TIME_ELAPSED);
    pending_[next_] = true;
    next_ = (next_ + 1) % kQueries;
    open_ = false;
}

}  // namespace rig
