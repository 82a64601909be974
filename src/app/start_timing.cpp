#include "app/start_timing.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "render/program_cache.h"

namespace rig {

void StartTiming::mark(Stage stage) {
    if (at_[stage] >= 0.0) return;
    at_[stage] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

std::string StartTiming::line() const {
    if (!marked(FirstFrame) || !marked(Environment)) return {};
    const ProgramCacheCounts c = programCacheCounts();
    char text[320];
    std::snprintf(text, sizeof(text),
                  "rigview: start: window %.2f s, renderer %.2f s, model %.2f s, first frame %.2f s, environment %.2f s, "
                  "longest frame %.2f s; programs: %u from the cache, %u compiled",
                  at_[Window], at_[Renderer], at_[Model], at_[FirstFrame], at_[Environment], longestFrame_, c.loaded,
                  c.compiled);
    return text;
}

void StartTiming::reportOnce() {
    if (reported_) return;
    const std::string l = line();
    if (l.empty()) return;
    reported_ = true;
    const char* on = std::getenv("RIGVIEW_TIMING");
    if (on && *on && std::strcmp(on, "0") != 0) std::fprintf(stderr, "%s\n", l.c_str());
}

}  // namespace rig
