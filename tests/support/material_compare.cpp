#include "support/material_compare.h"

#include <gtest/gtest.h>

#include <cstring>

namespace rig::testing {
namespace {

void expectSameFloat(float x, float y, const std::string& what, MaterialTrip trip) {
    if (trip == MaterialTrip::ModelFile) {
        EXPECT_EQ(std::memcmp(&x, &y, sizeof x), 0) << what << ": " << x << " read back as " << y;
    } else {
        EXPECT_FLOAT_EQ(x, y) << what;
    }
}

template <int N>
void expectSameVec(const glm::vec<N, float>& x, const glm::vec<N, float>& y, const std::string& what, MaterialTrip trip) {
    for (int i = 0; i < N; ++i) expectSameFloat(x[i], y[i], what + "[" + std::to_string(i) + "]", trip);
}

}  // namespace

void expectSameSampling(const TextureRef& x, const TextureRef& y, const std::string& what, MaterialTrip trip) {
    const std::string w = what + " '" + x.path + "'";
    if (trip == MaterialTrip::ModelFile) EXPECT_EQ(x.path, y.path) << what << " path";
    EXPECT_EQ(x.texCoord, y.texCoord) << w << " texCoord";
    expectSameVec(x.offset, y.offset, w + " offset", trip);
    expectSameFloat(x.rotation, y.rotation, w + " rotation", trip);
    expectSameVec(x.scale, y.scale, w + " scale", trip);
    EXPECT_EQ(x.wrapS, y.wrapS) << w << " wrapS";
    EXPECT_EQ(x.wrapT, y.wrapT) << w << " wrapT";
    EXPECT_EQ(x.magFilter, y.magFilter) << w << " magFilter";
    EXPECT_EQ(x.minFilter, y.minFilter) << w << " minFilter";
}

void expectSameMaterial(const Material& x, const Material& y, const std::string& what, MaterialTrip trip,
                        const TextureCheck& texture) {
    const std::string w = what + " material '" + x.name + "'";
    EXPECT_EQ(x.name, y.name) << w << " name";
    expectSameVec(x.baseColor, y.baseColor, w + " baseColor", trip);
    expectSameFloat(x.metallic, y.metallic, w + " metallic", trip);
    expectSameFloat(x.roughness, y.roughness, w + " roughness", trip);
    expectSameFloat(x.normalScale, y.normalScale, w + " normalScale", trip);
    expectSameFloat(x.occlusionStrength, y.occlusionStrength, w + " occlusionStrength", trip);
    expectSameVec(x.emissive, y.emissive, w + " emissive", trip);
    expectSameFloat(x.emissiveStrength, y.emissiveStrength, w + " emissiveStrength", trip);
    EXPECT_EQ(x.alphaMode, y.alphaMode) << w << " alphaMode";
    expectSameFloat(x.alphaCutoff, y.alphaCutoff, w + " alphaCutoff", trip);
    EXPECT_EQ(x.doubleSided, y.doubleSided) << w << " doubleSided";
    expectSameFloat(x.clearcoat, y.clearcoat, w + " clearcoat", trip);
    expectSameFloat(x.clearcoatRoughness, y.clearcoatRoughness, w + " clearcoatRoughness", trip);
    EXPECT_EQ(x.unlit, y.unlit) << w << " unlit";
    if (trip == MaterialTrip::ModelFile) EXPECT_EQ(x.origin, y.origin) << w << " origin";
    const std::pair<const char*, TextureRef Material::*> slots[] = {
        {"baseColorTexture", &Material::baseColorTexture},
        {"metallicRoughnessTexture", &Material::metallicRoughnessTexture},
        {"normalTexture", &Material::normalTexture},
        {"occlusionTexture", &Material::occlusionTexture},
        {"emissiveTexture", &Material::emissiveTexture},
        {"clearcoatTexture", &Material::clearcoatTexture},
        {"clearcoatRoughnessTexture", &Material::clearcoatRoughnessTexture},
        {"clearcoatNormalTexture", &Material::clearcoatNormalTexture},
    };
    for (const auto& [name, slot] : slots) {
        const std::string at = w + " " + name;
        if (texture) {
            texture(x.*slot, y.*slot, at);
        } else {
            expectSameSampling(x.*slot, y.*slot, at, trip);
        }
    }
}

}  // namespace rig::testing
