// The interactive viewer's frame rate: the demo character playing its first clip in a real
// window (1280 x 800 by default, under Xvfb in CI: GLX on llvmpipe, so these are CPU numbers)
// with the default view options (the physically based shading, the studio environment, the UI
// panels, anti-aliasing auto). 30 frames warm up, then 300 frames are timed one by one, each a
// whole Viewer::frame (events, UI, pose, draw, swap), in rounds of 10 that rotate the default
// view, the base colour alone (debug channel: the shading's cost) and the default view with
// 4x MSAA (the anti-aliasing's cost), read in one run. Prints the median frame time and
// frames per second of each (docs/performance.md). Never run beside timed tests.
//   xvfb-run -a -s "-screen 0 1280x800x24 -noreset" build/bench/viewer_bench [MODEL] [WxH]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

#include "app/viewer.h"
#include "app/viewer_entry.h"

int main(int argc, char** argv) {
    rig::ViewerConfig cfg;
    cfg.model = argc > 1 ? argv[1] : rig::demoModelPath();
    if (argc > 2 && std::sscanf(argv[2], "%dx%d", &cfg.width, &cfg.height) != 2) {
        std::fprintf(stderr, "usage: viewer_bench [MODEL] [WxH]\n");
        return 2;
    }
    cfg.remember = false;
    cfg.watchFile = false;
    auto created = rig::Viewer::create(cfg);
    if (!created) {
        std::fprintf(stderr, "viewer_bench: %s\n", created.error().message.c_str());
        return 1;
    }
    rig::Viewer& v = **created;
    v.waitForLoad();
    if (!v.state().model) {
        std::fprintf(stderr, "viewer_bench: %s\n", v.state().error.c_str());
        return 1;
    }
    v.state().requests.selectClip = 0;
    constexpr int kWarm = 30, kRounds = 10, kPerRound = 10;
    for (int i = 0; i < kWarm; ++i) v.frame();
    auto timeFrames = [&](std::vector<double>& ms) {
        for (int i = 0; i < kPerRound; ++i) {
            const auto t0 = std::chrono::steady_clock::now();
            v.frame();
            ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
        }
    };
    const rig::ViewOptions normal = v.state().view;
    struct Variant {
        const char* name;
        rig::ViewOptions view;
        std::vector<double> ms;
    };
    std::vector<Variant> variants{{"default view", normal, {}}, {"base colour only", normal, {}}, {"4x MSAA", normal, {}}};
    variants[1].view.debugChannel = rig::DebugChannel::BaseColor;
    variants[2].view.antiAliasing = rig::AntiAliasing::Msaa4;
    for (int r = 0; r < kRounds; ++r) {
        for (Variant& var : variants) {
            v.state().view = var.view;
            v.frame();  // the change's own costs (a new target, a program) are not timed
            timeFrames(var.ms);
        }
    }
    v.state().view = normal;
    std::printf("viewer_bench: %s, %dx%d, %s\n", cfg.model.c_str(), cfg.width, cfg.height,
                v.state().stats.glRenderer.c_str());
    for (Variant& var : variants) {
        std::vector<double>& ms = var.ms;
        const double mean = std::accumulate(ms.begin(), ms.end(), 0.0) / static_cast<double>(ms.size());
        std::sort(ms.begin(), ms.end());
        std::printf("  %-18s %zu frames: median %.2f ms (%.1f fps), mean %.2f ms, fastest %.2f ms, slowest %.2f ms\n",
                    var.name, ms.size(), ms[ms.size() / 2], 1000.0 / ms[ms.size() / 2], mean, ms.front(), ms.back());
    }
    return 0;
}
