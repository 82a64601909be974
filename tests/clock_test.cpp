// The motion clock (LayerClock, the controller's and so the viewer's one clock): wrap, once,
// reverse, ping-pong, seek, pause, a zero-length clip. Hand-computed times.
#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "anim/control/clock.h"
#include "anim/control/layer_clock.h"

namespace rig {
namespace {

LayerClock clockOf(double duration, LoopMode mode = LoopMode::Loop) {
    LayerClock c;
    c.start(duration, 0.0, 1.0f, mode, 0);
    return c;
}

TEST(Clock, WrapTime) {
    EXPECT_DOUBLE_EQ(wrapTime(120.0, 100.0), 20.0);  // seed 000's example
    EXPECT_DOUBLE_EQ(wrapTime(-10.0, 100.0), 90.0);
    EXPECT_DOUBLE_EQ(wrapTime(100.0, 100.0), 0.0);
    EXPECT_DOUBLE_EQ(wrapTime(5.0, 0.0), 0.0);
}

TEST(Clock, LoopWrapsForwardAndBackward) {
    LayerClock c = clockOf(2.0);
    c.advance(2.5);
    EXPECT_NEAR(c.time(), 0.5, 1e-12);
    c.setRate(-1.0f);
    c.advance(1.0);
    EXPECT_NEAR(c.time(), 1.5, 1e-12);  // reverse wraps past 0 to the end
    EXPECT_TRUE(c.playing());
    EXPECT_EQ(c.passes(), 2u);
}

TEST(Clock, SeekShowsTheLastKeyAtTheEndAndWrapsPastIt) {
    LayerClock c = clockOf(2.0);
    c.seek(2.0);
    EXPECT_DOUBLE_EQ(c.time(), 2.0);
    c.seek(2.5);
    EXPECT_NEAR(c.time(), 0.5, 1e-12);
    c.seek(-0.5);
    EXPECT_NEAR(c.time(), 1.5, 1e-12);
}

TEST(Clock, OnceStopsAtTheEnds) {
    LayerClock c = clockOf(1.0, LoopMode::Once);
    c.advance(0.4);
    EXPECT_NEAR(c.time(), 0.4, 1e-12);
    c.advance(5.0);
    EXPECT_DOUBLE_EQ(c.time(), 1.0);
    EXPECT_FALSE(c.playing());
    EXPECT_TRUE(c.finished());
    c.setRate(-2.0f);
    c.resume();  // at the end, going backwards: plays from here
    EXPECT_DOUBLE_EQ(c.time(), 1.0);
    c.advance(10.0);
    EXPECT_DOUBLE_EQ(c.time(), 0.0);
    EXPECT_FALSE(c.playing());
    // Play at the end it was going to: from the other end (Blender, every player).
    c.resume();
    EXPECT_DOUBLE_EQ(c.time(), 1.0);
    EXPECT_TRUE(c.playing());
}

TEST(Clock, PingPongReflectsAndFlipsDirection) {
    LayerClock c = clockOf(1.0, LoopMode::PingPong);
    c.advance(1.25);
    EXPECT_NEAR(c.time(), 0.75, 1e-12);
    EXPECT_EQ(c.direction(), -1);
    c.advance(0.5);
    EXPECT_NEAR(c.time(), 0.25, 1e-12);
    c.advance(0.5);  // bounces off 0
    EXPECT_NEAR(c.time(), 0.25, 1e-12);
    EXPECT_EQ(c.direction(), 1);
    c.advance(2.0);  // a full period: same place, same direction
    EXPECT_NEAR(c.time(), 0.25, 1e-12);
    EXPECT_EQ(c.direction(), 1);
    // Reverse rate in ping-pong: moves the other way, bounces off 0 and comes back forward.
    c.setRate(-1.0f);
    EXPECT_EQ(c.direction(), -1);
    c.advance(0.5);
    EXPECT_NEAR(c.time(), 0.25, 1e-12);
    EXPECT_EQ(c.direction(), 1);
}

TEST(Clock, PauseStopsTime) {
    LayerClock c = clockOf(1.0);
    c.pause();
    c.advance(0.3);
    EXPECT_DOUBLE_EQ(c.time(), 0.0);
    c.resume();
    c.advance(0.3);
    EXPECT_NEAR(c.time(), 0.3, 1e-12);
}

TEST(Clock, ModeChangesInPlaceAndTheRangeBoundsPlayback) {
    LayerClock c = clockOf(2.0);
    c.seek(1.5);
    c.setMode(LoopMode::Once);
    EXPECT_DOUBLE_EQ(c.time(), 1.5);
    c.setRange(0.5, 1.0);  // sought outside the range: the next advance starts at its start
    c.advance(0.25);
    EXPECT_NEAR(c.time(), 0.75, 1e-12);
    c.advance(1.0);
    EXPECT_DOUBLE_EQ(c.time(), 1.0);
    EXPECT_TRUE(c.finished());
    c.setRange(1.0, 0.5);  // inverted: cleared
    EXPECT_FALSE(c.hasRange());
    EXPECT_DOUBLE_EQ(c.rangeEnd(), 2.0);
}

// The clock reports each advance unwrapped; the marker pass (triggerMarkers) walks that
// range: every crossing in the order travelled, again on each loop.
std::vector<std::pair<uint32_t, int>> crossings(const ClockAdvance& a, const std::vector<double>& markers) {
    std::vector<std::pair<uint32_t, int>> out;
    triggerMarkers(
        a, static_cast<uint32_t>(markers.size()), [&](uint32_t k) { return markers[k]; },
        [&](uint32_t k, int dir) { out.emplace_back(k, dir); });
    return out;
}

using Hits = std::vector<std::pair<uint32_t, int>>;

TEST(Clock, AdvanceReportsItsPathUnwrappedAndTheMarkerPassWalksIt) {
    const std::vector<double> markers = {0.0, 0.5, 0.75, 1.0};
    LayerClock c;
    c.start(1.0, 0.75, 1.0f, LoopMode::Loop, 0);
    ClockAdvance a = c.advance(0.5);
    ASSERT_TRUE(a.moved);
    EXPECT_DOUBLE_EQ(a.from, 0.75);
    EXPECT_DOUBLE_EQ(a.to, 1.25);  // not wrapped
    EXPECT_TRUE(a.includeFrom);    // the first advance after a start counts its start
    EXPECT_DOUBLE_EQ(c.time(), 0.25);
    // 0.75 (its start), 1.0 (the end), then 0.0 after the wrap.
    EXPECT_EQ(crossings(a, markers), (Hits{{2, 1}, {3, 1}, {0, 1}}));
    // Two and a half loops in one advance: each marker once per loop it passed.
    a = c.advance(2.5);
    EXPECT_DOUBLE_EQ(a.from, 0.25);
    EXPECT_DOUBLE_EQ(a.to, 2.75);
    EXPECT_FALSE(a.includeFrom);
    EXPECT_EQ(crossings(a, markers), (Hits{{1, 1}, {2, 1}, {3, 1}, {0, 1}, {1, 1}, {2, 1}, {3, 1}, {0, 1}, {1, 1}, {2, 1}}));
    // Paused: nothing moved, nothing crossed.
    c.pause();
    a = c.advance(1.0);
    EXPECT_FALSE(a.moved);
    EXPECT_TRUE(crossings(a, markers).empty());

    // Ping-pong: the path unfolds past the end and comes back; the end is crossed once.
    LayerClock p;
    p.start(1.0, 0.75, 1.0f, LoopMode::PingPong, 0);
    a = p.advance(0.5);
    EXPECT_DOUBLE_EQ(a.from, 0.75);
    EXPECT_DOUBLE_EQ(a.to, 1.25);
    EXPECT_DOUBLE_EQ(p.time(), 0.75);
    EXPECT_EQ(p.direction(), -1);
    EXPECT_EQ(crossings(a, markers), (Hits{{2, 1}, {3, 1}, {2, -1}}));

    // Once: the range stops at the end.
    LayerClock o;
    o.start(1.0, 0.25, 1.0f, LoopMode::Once, 0);
    a = o.advance(5.0);
    EXPECT_DOUBLE_EQ(a.to, 1.0);
    EXPECT_EQ(crossings(a, markers), (Hits{{1, 1}, {2, 1}, {3, 1}}));
    EXPECT_TRUE(o.finished());

    // A preview range: the path in range units, the markers in clock units.
    LayerClock r;
    r.start(2.0, 0.0, 1.0f, LoopMode::Loop, 0);
    r.setRange(0.5, 1.0);
    a = r.advance(0.75);  // starts at the range's start: 0.5 -> 1.0 -> wraps to 0.5 + 0.25
    EXPECT_DOUBLE_EQ(a.start, 0.5);
    EXPECT_DOUBLE_EQ(a.length, 0.5);
    EXPECT_DOUBLE_EQ(a.to - a.from, 0.75);
    EXPECT_DOUBLE_EQ(r.time(), 0.75);
    EXPECT_EQ(crossings(a, {0.25, 0.5, 0.75, 1.5}), (Hits{{1, 1}, {2, 1}, {1, 1}, {2, 1}}));
}

TEST(Clock, ZeroLengthClipStaysAtZero) {
    LayerClock c = clockOf(0.0);
    c.advance(1.0);
    c.seek(5.0);
    EXPECT_DOUBLE_EQ(c.time(), 0.0);
    EXPECT_DOUBLE_EQ(c.phase(), 0.0);
}

}  // namespace
}  // namespace rig
