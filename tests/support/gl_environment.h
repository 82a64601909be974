// One headless OpenGL context (EGL, llvmpipe on CI) for a whole GL test binary, made before its
// first test and released after its last, as a GoogleTest environment. Include it in the
// binary's test source; the context is current on the test thread for every test.
#pragma once

#include <cstdio>
#include <memory>

#include <gtest/gtest.h>

#include "platform/headless.h"

namespace rig::testing {

inline std::unique_ptr<HeadlessContext> gGlContext;

class GlEnvironment : public ::testing::Environment {
public:
    void SetUp() override {
        auto c = HeadlessContext::create();
        ASSERT_TRUE(c.ok()) << c.error().message;
        gGlContext = std::move(c.value());
        std::printf("GL: %s\n", gGlContext->description().c_str());
    }
    void TearDown() override { gGlContext.reset(); }
};

inline const ::testing::Environment* const kGlEnvironment = ::testing::AddGlobalTestEnvironment(new GlEnvironment);

}  // namespace rig::testing
