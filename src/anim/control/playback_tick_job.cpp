#include "anim/control/playback_tick_job.h"

#include <cmath>

namespace rig {

bool PlaybackTickJob::validate() const {
    if (!controller) return false;
    if (machine && &machine->controller() != controller) return false;
    if (ik && ik->nodeCount() != controller->model().skeleton.size()) return false;
    if (animator && &animator->model() != &controller->model()) return false;
    return true;
}

bool PlaybackTickJob::run() const {
    if (!validate()) return false;
    const bool moving = dt > 0.0 && std::isfinite(dt);
    if (moving && machine) {
        machine->update(dt);
    } else {
        controller->update(moving ? dt : 0.0);  // 0: only the last tick's events are cleared
    }
    if (ik) ik->advance(moving ? static_cast<float>(dt) : 0.0f);
    if (!animator) return true;
    animator->setPostProcess(ik);
    if (stillPose == kBindPose || stillPose == kFilePose) {
        animator->evaluate(stillPose, 0.0f);
    } else {
        controller->evaluate(*animator);
    }
    return true;
}

double motionTime(const Controller& controller) {
    const Controller::TimelineInfo info = controller.timeline();
    return info.time - info.start;
}

}  // namespace rig
