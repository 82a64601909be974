// PlaybackClock: wrap, once, reverse, ping-pong, seek, step.
#include <gtest/gtest.h>

#include "anim/clock.h"

namespace rig {
namespace {

TEST(Clock, WrapTime) {
    EXPECT_DOUBLE_EQ(wrapTime(120.0, 100.0), 20.0);  // seed 000's example
    EXPECT_DOUBLE_EQ(wrapTime(-10.0, 100.0), 90.0);
    EXPECT_DOUBLE_EQ(wrapTime(100.0, 100.0), 0.0);
    EXPECT_DOUBLE_EQ(wrapTime(5.0, 0.0), 0.0);
}

TEST(Clock, LoopWrapsForwardAndBackward) {
    PlaybackClock c;
    c.setDuration(2.0f, 30.0f);
    c.advance(2.5);
    EXPECT_NEAR(c.time(), 0.5f, 1e-6f);
    c.setRate(-1.0f);
    c.advance(1.0);
    EXPECT_NEAR(c.time(), 1.5f, 1e-6f);  // reverse wraps past 0 to the end
    EXPECT_TRUE(c.playing());
}

TEST(Clock, SeekShowsTheLastKeyAtTheEndAndWrapsPastIt) {
    PlaybackClock c;
    c.setDuration(2.0f, 30.0f);
    c.seek(2.0);
    EXPECT_FLOAT_EQ(c.time(), 2.0f);
    c.seek(2.5);
    EXPECT_NEAR(c.time(), 0.5f, 1e-6f);
    c.seek(-0.5);
    EXPECT_NEAR(c.time(), 1.5f, 1e-6f);
}

TEST(Clock, OnceStopsAtTheEnds) {
    PlaybackClock c;
    c.setDuration(1.0f, 30.0f);
    c.setLoopMode(LoopMode::Once);
    c.advance(0.4);
    EXPECT_NEAR(c.time(), 0.4f, 1e-6f);
    c.advance(5.0);
    EXPECT_FLOAT_EQ(c.time(), 1.0f);
    EXPECT_FALSE(c.playing());
    c.setRate(-2.0f);
    c.play();
    c.advance(10.0);
    EXPECT_FLOAT_EQ(c.time(), 0.0f);
    EXPECT_FALSE(c.playing());
}

TEST(Clock, PingPongReflectsAndFlipsDirection) {
    PlaybackClock c;
    c.setDuration(1.0f, 30.0f);
    c.setLoopMode(LoopMode::PingPong);
    c.advance(1.25);
    EXPECT_NEAR(c.time(), 0.75f, 1e-6f);
    EXPECT_EQ(c.direction(), -1);
    c.advance(0.5);
    EXPECT_NEAR(c.time(), 0.25f, 1e-6f);
    c.advance(0.5);  // bounces off 0
    EXPECT_NEAR(c.time(), 0.25f, 1e-6f);
    EXPECT_EQ(c.direction(), 1);
    c.advance(2.0);  // a full period: same place, same direction
    EXPECT_NEAR(c.time(), 0.25f, 1e-6f);
    EXPECT_EQ(c.direction(), 1);
    // Reverse rate in ping-pong: moves the other way.
    c.setRate(-1.0f);
    c.advance(0.5);
    EXPECT_NEAR(c.time(), 0.25f, 1e-6f);
    EXPECT_EQ(c.direction(), -1);
}

TEST(Clock, PauseStopsTime) {
    PlaybackClock c;
    c.setDuration(1.0f, 30.0f);
    c.pause();
    c.advance(0.3);
    EXPECT_FLOAT_EQ(c.time(), 0.0f);
}

TEST(Clock, StepMovesOneFrameAndWrapsWhenLooping) {
    PlaybackClock c;
    c.setDuration(1.0f, 30.0f);  // frames 0..30
    c.step(1);
    EXPECT_NEAR(c.time(), 1.0f / 30.0f, 1e-6f);
    EXPECT_EQ(c.frame(), 1);
    c.step(-2);  // before frame 0 wraps to the last frame
    EXPECT_EQ(c.frame(), 30);
    c.step(1);
    EXPECT_EQ(c.frame(), 0);
    c.setLoopMode(LoopMode::Once);
    c.step(-1);
    EXPECT_EQ(c.frame(), 0);  // once clamps
}

TEST(Clock, ZeroLengthClipStaysAtZero) {
    PlaybackClock c;
    c.setDuration(0.0f, 30.0f);
    c.advance(1.0);
    c.seek(5.0);
    c.step(3);
    EXPECT_FLOAT_EQ(c.time(), 0.0f);
}

}  // namespace
}  // namespace rig
