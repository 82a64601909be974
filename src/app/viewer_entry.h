// The interactive viewer's entry point (app/viewer_entry.cpp).
#pragma once

#include <string>
#include <vector>

#include "import/import_options.h"

namespace rig {

struct ViewerLaunch {
    std::string model;        // empty: the bundled demo
    std::vector<std::string> anims;  // --anim files
    ImportOptions import;            // --units, --amc-fps (main fills it)
    std::string clip;         // clip to start with (name or index)
    std::string machine;      // --machine: a state machine file driving the model from the start
    std::string compare;      // --compare: another version of the model to compare with
    std::string screenshot;   // if set: run `frames` frames, save the window as PNG, exit
    int frames = 90;
    int width = 1280, height = 800;
    bool watch = true;
    bool resetLayout = false;  // --reset-layout
};

// The path of the bundled demo model in rigview's data folder (util/data_folder.h); "" when
// there is no data folder.
std::string demoModelPath();

// Open the viewer; returns an exit code (5 when there is no display).
int runViewer(const ViewerLaunch& launch);

}  // namespace rig
