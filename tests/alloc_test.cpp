// The per-tick path allocates nothing: count calls to operator new around evaluate().
#include <gtest/gtest.h>

#include <vector>


#include "anim/clock.h"
#include "anim/pose.h"
#include "anim/skinning.h"
#include "support/alloc_counter.h"
#include "support/rigs.h"

namespace rig {
namespace {

TEST(PerTick, TheCounterSeesAllocations) {
    const long before = testing::allocations();
    auto* v = new std::vector<int>(100);
    EXPECT_GE(testing::allocations() - before, 2);  // the vector and its buffer
    delete v;
}

TEST(PerTick, EvaluateAndSkinningAllocateNothing) {
    for (Model m : {testing::makeChain(64, 300), testing::makeWideTree(300, 30), testing::makeTwoBone()}) {
        Animator anim(m);
        PlaybackClock clock;
        clock.setDuration(m.clips[0].duration, m.clips[0].sampleRate);
        std::vector<glm::vec3> pos(m.meshes[0].vertexCount()), nrm(m.meshes[0].vertexCount());
        const long before = testing::allocations();
        for (int tick = 0; tick < 500; ++tick) {
            clock.advance(1.0 / 60.0);
            anim.evaluate(0, clock.time());
            if (tick == 250) clock.seek(0.37);  // a random seek too
            skinMesh(m.meshes[0], anim.palette().data(), pos.data(), nrm.data());
        }
        anim.evaluate(-1, 0.0f);  // bind pose
        EXPECT_EQ(testing::allocations() - before, 0) << m.path;
    }
}

}  // namespace
}  // namespace rig
