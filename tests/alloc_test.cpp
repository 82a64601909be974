// The per-tick path allocates nothing: count calls to operator new around evaluate().
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>

#include "anim/clock.h"
#include "anim/pose.h"
#include "anim/skinning.h"
#include "support/rigs.h"

namespace {
std::atomic<long> gAllocations{0};
}

void* operator new(std::size_t n) {
    gAllocations.fetch_add(1, std::memory_order_relaxed);
    if (void* p = std::malloc(n ? n : 1)) return p;
    throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

// The other forms route to the same malloc / free, so every new pairs with its delete (the
// standard library's temporary buffers use the nothrow form; arrays use new[]).
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
    gAllocations.fetch_add(1, std::memory_order_relaxed);
    return std::malloc(n ? n : 1);
}
void* operator new[](std::size_t n) { return ::operator new(n); }
void* operator new[](std::size_t n, const std::nothrow_t& t) noexcept { return ::operator new(n, t); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }

namespace rig {
namespace {

TEST(PerTick, EvaluateAndSkinningAllocateNothing) {
    for (Model m : {testing::makeChain(64, 300), testing::makeWideTree(300, 30), testing::makeTwoBone()}) {
        Animator anim(m);
        PlaybackClock clock;
        clock.setDuration(m.clips[0].duration, m.clips[0].sampleRate);
        std::vector<glm::vec3> pos(m.meshes[0].vertexCount()), nrm(m.meshes[0].vertexCount());
        const long before = gAllocations.load();
        for (int tick = 0; tick < 500; ++tick) {
            clock.advance(1.0 / 60.0);
            anim.evaluate(0, clock.time());
            if (tick == 250) clock.seek(0.37);  // a random seek too
            skinMesh(m.meshes[0], anim.palette().data(), pos.data(), nrm.data());
        }
        anim.evaluate(-1, 0.0f);  // bind pose
        EXPECT_EQ(gAllocations.load() - before, 0) << m.path;
    }
}

}  // namespace
}  // namespace rig
