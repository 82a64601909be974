// A small IQM file written byte by byte (no rigview code), for tests/iqm_test.cpp and as a
// seed of the IQM fuzz target. Header-only.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace rig::testing {

inline void put32(std::vector<uint8_t>& b, size_t at, uint32_t v) {
    for (int i = 0; i < 4; ++i) b[at + i] = static_cast<uint8_t>(v >> (8 * i));
}
inline uint32_t get32(const std::vector<uint8_t>& b, size_t at) {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= uint32_t(b[at + i]) << (8 * i);
    return v;
}
inline void append32(std::vector<uint8_t>& b, uint32_t v) {
    b.resize(b.size() + 4);
    put32(b, b.size() - 4, v);
}
inline void appendF(std::vector<uint8_t>& b, float f) {
    uint32_t v;
    std::memcpy(&v, &f, 4);
    append32(b, v);
}

// Header field k (0: version ... 26: ofs_extensions) sits at byte 16 + 4k.
enum Field { kVersion = 0, kFileSize, kFlags, kNumText, kOfsText, kNumMeshes, kOfsMeshes, kNumVertexArrays,
             kNumVertexes, kOfsVertexArrays, kNumTriangles, kOfsTriangles, kOfsAdjacency, kNumJoints, kOfsJoints,
             kNumPoses, kOfsPoses, kNumAnims, kOfsAnims, kNumFrames, kNumFrameChannels, kOfsFrames, kOfsBounds };
inline size_t field(Field f) { return 16 + 4 * static_cast<size_t>(f); }

// Two joints listed child first: joint 0 "tip" (parent 1) at (0, 0, 1) from "base"; joint 1
// "base" (root) at (1, 0, 0), turned 90 degrees about Z. Three vertices: (1, 0, 1) on tip,
// (1, 0, 0) on base, (2, 0, 0) with bytes 128 tip / 127 base. One anim "bend", 2 frames at
// 10 fps: tip's x translation animated (offset 0, scale 0.01; frames 0 and 100), base's
// rotation z and w animated (offset 0, scale 1/65535; frame 0: z 0 w 65535 = identity;
// frame 1: z = w = 46341, 90 degrees about Z).
struct SmallIqm {
    std::vector<uint8_t> bytes;
    size_t ofsBlendIndexes = 0, ofsTriangles = 0, ofsJoints = 0;

    SmallIqm() {
        std::vector<uint8_t>& b = bytes;
        b.assign(124, 0);
        std::memcpy(b.data(), "INTERQUAKEMODEL", 16);
        put32(b, field(kVersion), 2);
        const std::string text = std::string("\0mesh\0skin.png\0tip\0base\0bend\0", 30);
        put32(b, field(kNumText), static_cast<uint32_t>(text.size()));
        put32(b, field(kOfsText), static_cast<uint32_t>(b.size()));
        b.insert(b.end(), text.begin(), text.end());
        // Mesh: name 1, material 6, vertices 0..2, triangle 0.
        put32(b, field(kNumMeshes), 1);
        put32(b, field(kOfsMeshes), static_cast<uint32_t>(b.size()));
        for (uint32_t v : {1u, 6u, 0u, 3u, 0u, 1u}) append32(b, v);
        // Vertex arrays: position (float x3), blend indexes (ubyte x4), blend weights (ubyte x4).
        put32(b, field(kNumVertexArrays), 3);
        put32(b, field(kNumVertexes), 3);
        put32(b, field(kOfsVertexArrays), static_cast<uint32_t>(b.size()));
        const size_t arrays = b.size();
        b.resize(b.size() + 3 * 20);
        const size_t pos = b.size();
        for (float f : {1.0f, 0.0f, 1.0f, 1.0f, 0.0f, 0.0f, 2.0f, 0.0f, 0.0f}) appendF(b, f);
        ofsBlendIndexes = b.size();
        for (uint8_t x : {0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0}) b.push_back(x);
        const size_t weights = b.size();
        for (uint8_t x : {255, 0, 0, 0, 255, 0, 0, 0, 128, 127, 0, 0}) b.push_back(x);
        const uint32_t arrayFields[3][5] = {{0, 0, 7, 3, static_cast<uint32_t>(pos)},
                                            {4, 0, 1, 4, static_cast<uint32_t>(ofsBlendIndexes)},
                                            {5, 0, 1, 4, static_cast<uint32_t>(weights)}};
        for (int a = 0; a < 3; ++a)
            for (int k = 0; k < 5; ++k) put32(b, arrays + 20 * a + 4 * k, arrayFields[a][k]);
        put32(b, field(kNumTriangles), 1);
        ofsTriangles = b.size();
        put32(b, field(kOfsTriangles), static_cast<uint32_t>(ofsTriangles));
        for (uint32_t v : {0u, 1u, 2u}) append32(b, v);
        // Joints.
        const float s = std::sqrt(0.5f);
        put32(b, field(kNumJoints), 2);
        ofsJoints = b.size();
        put32(b, field(kOfsJoints), static_cast<uint32_t>(ofsJoints));
        append32(b, 15);  // "tip"
        append32(b, 1);
        for (float f : {0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 0.0f, 1.0f, 1.0f, 1.0f, 1.0f}) appendF(b, f);
        append32(b, 19);  // "base"
        append32(b, static_cast<uint32_t>(-1));
        for (float f : {1.0f, 0.0f, 0.0f, 0.0f, 0.0f, s, s, 1.0f, 1.0f, 1.0f}) appendF(b, f);
        // Poses: tip animates channel 0 (x), base channels 5 and 6 (rotation z, w).
        put32(b, field(kNumPoses), 2);
        put32(b, field(kOfsPoses), static_cast<uint32_t>(b.size()));
        append32(b, 1);
        append32(b, 0x001);
        for (float f : {0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 0.0f, 1.0f, 1.0f, 1.0f, 1.0f}) appendF(b, f);
        for (int c = 0; c < 10; ++c) appendF(b, c == 0 ? 0.01f : 0.0f);
        append32(b, static_cast<uint32_t>(-1));
        append32(b, 0x060);
        for (float f : {1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 1.0f, 1.0f}) appendF(b, f);
        for (int c = 0; c < 10; ++c) appendF(b, c == 5 || c == 6 ? 1.0f / 65535.0f : 0.0f);
        // Anim "bend": frames 0..1 at 10 fps.
        put32(b, field(kNumAnims), 1);
        put32(b, field(kOfsAnims), static_cast<uint32_t>(b.size()));
        for (uint32_t v : {24u, 0u, 2u}) append32(b, v);
        appendF(b, 10.0f);
        append32(b, 0);
        put32(b, field(kNumFrames), 2);
        put32(b, field(kNumFrameChannels), 3);
        put32(b, field(kOfsFrames), static_cast<uint32_t>(b.size()));
        for (uint16_t v : {0, 0, 65535, 100, 46341, 46341}) {
            b.push_back(static_cast<uint8_t>(v & 0xff));
            b.push_back(static_cast<uint8_t>(v >> 8));
        }
        put32(b, field(kFileSize), static_cast<uint32_t>(b.size()));
    }
};

}  // namespace rig::testing
