// Playback: the viewer's one owner of time. It owns the one Controller of the model on screen
// and what drives it (the Clips and Blend panels, or the state machine, which is made on that
// same Controller), and each frame advances it once (advance(dt), a PlaybackTickJob): the
// state machine, the IK stage (the pose's post-process), the range-of-motion sweep and the
// crowd all follow from that one advance; with the Clips panel's compressed toggle on, the
// Controller and the crowd play the clips compressed (app/compressed_view.h). A paused pipeline advances nothing; the panels post
// requests (ViewerState::requests) that applyRequests() turns into Controller calls and read
// what plays back from ViewerState (timeline, blend rows, machine log).
//
// The Controller is made again when the model or the driver changes (the state machine takes
// over, gives back, restarts or is reloaded), since a StateMachine is bound to one Controller
// at construction; the Blend panel's layers and the machine's are both configured on it.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "anim/control/controller.h"
#include "anim/control/crowd.h"
#include "anim/control/state_machine.h"
#include "app/compressed_view.h"
#include "ui/viewer_state.h"

namespace rig {

class Playback {
public:
    explicit Playback(ViewerState& state) : s_(state) {}
    ~Playback();
    Playback(const Playback&) = delete;
    Playback& operator=(const Playback&) = delete;

    // A model was put on screen (ViewerState's model, animator and clip are set): a new
    // Controller plays the clip with the timeline's previous loop mode and rate (a reload also
    // keeps its time), and the state machine file `machineFile` is read for it ("" or a file
    // that is not there: none; `given`: asked for on the command line, it drives from the start).
    void setModel(bool reload, double previousTime, LoopMode mode, float rate, const std::string& machineFile, bool given);

    // The panels' requests on what plays (Clips, Timeline, Blend, State Machine), applied
    // once per frame before advance().
    void applyRequests();

    // The frame's one advance by dt seconds (0 while paused): the range-of-motion sweep moves by
    // that step (a rotation override the pose picks up) and the IK stage is set up; one
    // PlaybackTickJob advances the driver and the IK stage by it and poses the animator (the
    // still pose instead while ViewerState::bindPose, time running on); then the crowd is posed
    // at the controller's time and what the panels read (timeline, rows, logs, stats) is copied.
    void advance(double dt);

    // What the last marker edits or save came to ("markers saved to <file>", or why not).
    const std::string& markersSaved() const { return markersSaved_; }

    // The seconds the last advance() moved the pipeline by: dt, or 0 while paused.
    double lastStep() const { return step_; }
    // Paused by the person (Play / Pause, a frame step, a jump to a key); a new motion, or
    // Play, lets it run again. A clip that stopped at its end (Once) is not paused: the rest
    // of the pipeline (layers, fades, state machine, IK) runs on.
    bool paused() const { return paused_; }
    const Controller* controller() const { return controller_.get(); }
    const StateMachine* machine() const { return machine_.get(); }
    // The Crowd panel's crowd (null until the crowd is first turned on), posed by advance()
    // at the clock's time.
    const Crowd* crowd() const { return crowd_.get(); }

private:
    bool machineDriving() const { return s_.machine.active && machine_ != nullptr; }
    // A new Controller (the Blend panel's layers, the machine bound on it), nothing playing yet.
    void rebuild();
    // rebuild(), then the state machine drives (started at once), or the timeline's clip plays.
    void rebuildAndPlay(bool driveMachine);
    void playTimelineClip(bool crossFade);
    // Read machineFile_ for the model (ViewerState::machine says what came of it).
    void loadMachine();
    void applyClipRequest();
    void applyTimeRequests();
    void applyBlendRequests();
    void applyMachineRequests();
    // The Timeline's marker edits on ViewerState::clipMarkers, given to the controller; the
    // save request writes them to the model's markers file.
    void applyMarkerEdits();
    void afterControllerTick();
    void afterMachineTick();
    void syncTimeline();
    void sweepRangeOfMotion();
    void updateCrowd();
    void rebuildCrowd(int32_t clip);
    std::string motionName(MotionSource m) const;
    std::string layerName(size_t layer) const;

    ViewerState& s_;
    std::unique_ptr<Controller> controller_;
    CompressedView compressedView_;  // the Clips panel's compressed playback; made after (so
                                     // destroyed before) the Controller it points at
    std::unique_ptr<MachineDef> machineDef_;
    std::unique_ptr<StateMachine> machine_;  // bound to controller_; null when no machine loaded
    std::string machineFile_;                // the model's machine file ("" when none)
    bool machineGiven_ = false;              // named on the command line: a missing file is an error
    int32_t maskLayer_ = -1, additiveLayer_ = -1;
    std::string markersSaved_;
    std::vector<std::string> spaceNames_;          // per blend space id: "walk | run"
    std::vector<std::vector<int32_t>> spaceClips_; // per blend space id: its clips
    std::vector<std::string> layerNames_;          // per controller layer the Blend panel uses
    std::array<AnimEvent, 16> events_{};
    bool paused_ = false;
    double step_ = 0.0;
    // The crowd and what it was built for.
    std::unique_ptr<Crowd> crowd_;
    std::shared_ptr<const Model> crowdModel_;  // kept alive while the crowd refers to it
    int crowdInstances_ = 0, crowdThreads_ = 0, crowdClip_ = -3;
    CrowdClips crowdClips_ = CrowdClips::Same;
    float crowdPhaseSpread_ = -1.0f, crowdRateSpread_ = -1.0f;
};

}  // namespace rig
