#include "app/viewer_entry.h"

#include <iostream>

#include "app/command_util.h"
#include "app/exit_codes.h"
#include "app/viewer.h"
#include "render/offscreen.h"
#include "util/data_folder.h"
#include "util/text.h"

namespace rig {

std::string demoModelPath() { return dataFile("demo/rigview_demo.gltf"); }

int runViewer(const ViewerLaunch& launch) {
    ViewerConfig cfg;
    cfg.model = launch.model.empty() ? demoModelPath() : launch.model;
    if (cfg.model.empty()) {  // no model given, and no data folder holding the demo
        std::cerr << "rigview: " << text::forTerminal("no model given, and no demo: " + missingDataFolderMessage()) << "\n";
        return exitcode::kBadInput;
    }
    if (!launch.screenshot.empty() && !cmd::outputIsNotAnInput(launch.screenshot, cfg.model, launch.anims)) {
        return exitcode::kUsage;
    }
    cfg.anims = launch.anims;
    cfg.import = launch.import;
    cfg.machine = launch.machine;
    cfg.compare = launch.compare;
    cfg.width = launch.width;
    cfg.height = launch.height;
    cfg.restoreWindow = launch.width == ViewerLaunch{}.width;  // --window W wins over the remembered size
    cfg.watchFile = launch.watch;
    cfg.remember = launch.screenshot.empty();
    cfg.resetLayout = launch.resetLayout;
    auto viewer = Viewer::create(cfg);
    if (!viewer) {
        std::cerr << "rigview: " << text::forTerminal(viewer.error().message) << "\n";
        return exitcode::kNoDisplay;
    }
    Viewer& v = **viewer;
    if (!launch.clip.empty() || !launch.screenshot.empty() || !launch.machine.empty()) v.waitForLoad();
    // A --machine file that does not load is a bad input, like a model that does not.
    if (!launch.machine.empty() && v.state().model && !v.state().machine.error.empty()) {
        std::cerr << "rigview: " << text::forTerminal(v.state().machine.error) << "\n";
        return exitcode::kBadInput;
    }
    if (!launch.clip.empty() && v.state().model) {
        const int clip = v.state().model->findClip(launch.clip);
        if (clip < 0) {
            std::cerr << "rigview: " << text::forTerminal(cfg.model + ": no clip '" + launch.clip + "'") << "\n";
            return exitcode::kUsage;
        }
        v.state().requests.selectClip = clip;
    }
    if (launch.screenshot.empty()) return v.run();

    // Screenshot mode: show the bones and the UI for some frames, save the window.
    if (!v.state().model) {
        std::cerr << "rigview: " << text::forTerminal(v.state().error) << "\n";
        return exitcode::kBadInput;
    }
    if (!cmd::outputIsNotAResource(launch.screenshot, *v.state().model)) return exitcode::kUsage;
    if (!launch.compare.empty()) {
        v.frame(1.0 / 60.0);  // the comparison starts once the model is on screen
        v.waitForLoad();
        if (!v.state().compare.active()) {  // a file to compare with that does not load is a bad input
            std::cerr << "rigview: " << text::forTerminal(v.state().error) << "\n";
            return exitcode::kBadInput;
        }
    }
    v.state().view.bones = true;
    v.waitForEnvironment();  // the picture with its lighting
    for (int i = 1; i < launch.frames && !v.shouldClose(); ++i) v.frame(1.0 / 60.0);
    int w = 0, h = 0;
    const std::vector<uint8_t> px = v.captureFrame(w, h);
    std::string error;
    if (!writePng(launch.screenshot, w, h, px, &error)) {
        std::cerr << "rigview: " << text::forTerminal(error) << "\n";
        return exitcode::kOutputFailed;
    }
    return exitcode::kOk;
}

}  // namespace rig
