#include "import/images/model_images.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <new>
#include <set>
#include <string>

#include "import/images/texture_decode.h"
#include "import/texture_limits.h"
#include "util/input_file.h"
#include "util/paths.h"

namespace rig {

namespace {

std::string sizeText(uint64_t w, uint64_t h) { return std::to_string(w) + "x" + std::to_string(h); }

std::string notRead(const std::string& what) {
    return what + " not read: larger than " + std::to_string(kMaxTextureBytes >> 20) + " MiB";
}

// glTF 2.0 allows PNG and JPEG; the formats Assimp reads name whatever their authors used.
TextureFormats formatsFor(const std::string& modelPath) {
    std::string ext = std::filesystem::path(modelPath).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return ext == ".gltf" || ext == ".glb" ? TextureFormats::PngJpeg : TextureFormats::PngJpegTgaBmp;
}

// The embedded texture `ref` names ("*N", Assimp's convention, or the name of one), or -1.
int embeddedIndex(const Model& model, const std::string& ref) {
    if (!ref.empty() && ref[0] == '*') {
        size_t end = 0;
        try {
            const unsigned long i = std::stoul(ref.substr(1), &end);
            if (end + 1 == ref.size() && i < model.textures.size()) return static_cast<int>(i);
        } catch (...) {
        }
        return -1;
    }
    for (size_t i = 0; i < model.textures.size(); ++i) {
        if (!model.textures[i].name.empty() && model.textures[i].name == ref) return static_cast<int>(i);
    }
    return -1;
}

// Decoding against the budget: `used_` bytes of it are taken by the images before this one.
class Decoder {
public:
    explicit Decoder(const Model& model) : model_(model), formats_(formatsFor(model.path)) {}

    std::vector<std::string> filesRead;  // the texture files read, as resolved

    ModelImage decode(const std::string& ref) {
        ModelImage image;
        image.ref = ref;
        try {
            decodeInto(image);
        } catch (const std::bad_alloc&) {
            image = ModelImage{};
            image.ref = ref;
            image.problem = what_ + " not decoded: out of memory";
        }
        if (!image.problem.empty()) image.rgba.clear();
        used_ += image.rgba.size();
        return image;
    }

private:
    // Whether an image of `w` x `h` at its display size fits what is left of the budget; if not,
    // `image.problem` says so.
    bool fits(ModelImage& image, uint32_t w, uint32_t h) {
        uint32_t dw = 0, dh = 0, factor = 1;
        displaySize(w, h, dw, dh, factor);
        const size_t bytes = size_t(dw) * dh * 4;
        if (bytes <= budget_ - used_) return true;
        image.problem = what_ + " not decoded: the model's textures together would take more than " +
                        std::to_string(budget_ >> 20) + " MiB (" + sizeText(dw, dh) + " pixels here, " +
                        std::to_string(used_ >> 20) + " MiB before it)";
        return false;
    }

    void fromEncoded(ModelImage& image, const uint8_t* data, size_t size) {
        uint32_t w = 0, h = 0;
        if (Result<bool> header = textureHeader(data, size, what_, formats_, w, h); !header) {
            image.problem = header.error().message;
            return;
        }
        if (!fits(image, w, h)) return;
        Result<TexturePixels> px = decodeTexture(data, size, what_, formats_);
        if (!px) {
            image.problem = px.error().message;
            return;
        }
        image.width = px->width;
        image.height = px->height;
        image.fileWidth = px->fileWidth;
        image.fileHeight = px->fileHeight;
        image.rgba = std::move(px->rgba);
    }

    void decodeInto(ModelImage& image) {
        const std::string& ref = image.ref;
        const int index = embeddedIndex(model_, ref);
        if (index >= 0) {
            what_ = "embedded texture " + ref;
            const EmbeddedTexture& t = model_.textures[static_cast<size_t>(index)];
            // Compressed: `width` is its size in bytes (the import left out the bytes of one too large).
            if (t.height == 0) {
                if (t.width > kMaxTextureBytes || t.data.size() > kMaxTextureBytes) {
                    image.problem = notRead(what_);
                    return;
                }
                fromEncoded(image, t.data.data(), t.data.size());
                return;
            }
            // Raw RGBA8 texels, as Assimp gives a format's uncompressed images (rows top first).
            if (t.width > uint32_t(kMaxTextureSide) || t.height > uint32_t(kMaxTextureSide)) {
                image.problem = what_ + " is " + sizeText(t.width, t.height) + " pixels, more than " +
                                sizeText(kMaxTextureSide, kMaxTextureSide);
                return;
            }
            if (t.width == 0 || t.data.size() != size_t(t.width) * t.height * 4) {
                image.problem = what_ + " is not a readable image";
                return;
            }
            if (!fits(image, t.width, t.height)) return;
            // Halved as a decoded file would be, rows flipped to bottom first.
            uint32_t dw = 0, dh = 0, factor = 1;
            displaySize(t.width, t.height, dw, dh, factor);
            image.fileWidth = t.width;
            image.fileHeight = t.height;
            image.width = dw;
            image.height = dh;
            image.rgba.assign(size_t(dw) * dh * 4, 0);
            for (uint32_t oy = 0; oy < dh; ++oy) {
                for (uint32_t ox = 0; ox < dw; ++ox) {
                    uint32_t sum[4] = {0, 0, 0, 0}, n = 0;
                    for (uint32_t y = oy * factor; y < std::min(t.height, (oy + 1) * factor); ++y) {
                        for (uint32_t x = ox * factor; x < std::min(t.width, (ox + 1) * factor); ++x) {
                            const uint8_t* p = &t.data[(size_t(y) * t.width + x) * 4];
                            for (int c = 0; c < 4; ++c) sum[c] += p[c];
                            ++n;
                        }
                    }
                    uint8_t* q = &image.rgba[(size_t(dh - 1 - oy) * dw + ox) * 4];
                    for (int c = 0; c < 4; ++c) q[c] = static_cast<uint8_t>((sum[c] + n / 2) / n);
                }
            }
            return;
        }
        if (!ref.empty() && ref[0] == '*') {
            what_ = "embedded texture " + ref;
            image.problem = what_ + " is not a readable image";
            return;
        }
        // A file: as written (relative to the model's folder), or by its bare name beside it; only
        // inside the model's folder unless --allow-external-paths (util/paths.h).
        what_ = "texture " + ref;
        std::vector<std::string> refused;
        const std::string file = paths::resolveResourceFile(model_.path, ref, &refused);
        if (file.empty()) {
            image.problem = what_ + (refused.empty() ? std::string(" missing") : std::string(kTextureOutsideFolder));
            return;
        }
        std::string bytes, why;
        switch (readInputFile(file, kMaxTextureBytes, bytes, why)) {
        case InputFileStatus::Read:
            filesRead.push_back(file);
            fromEncoded(image, reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
            return;
        case InputFileStatus::Missing:
            image.problem = what_ + " missing";
            return;
        case InputFileStatus::Refused:
            break;
        }
        image.problem = what_ + " not read: " + why;
    }

    const Model& model_;
    const TextureFormats formats_;
    const size_t budget_ = modelImageBudget();
    size_t used_ = 0;
    std::string what_;
};

}  // namespace

void decodeModelImages(Model& model) {
    model.images.clear();
    Decoder decoder(model);
    std::set<std::string> seen;
    for (const Material& mat : model.materials) {
        mat.forEachTexture([&](const char*, const TextureRef& ref) {
            if (ref.path.empty() || !seen.insert(ref.path).second) return;
            model.images.push_back(decoder.decode(ref.path));
        });
    }
    for (std::string& f : decoder.filesRead) model.stats.filesRead.push_back(std::move(f));
}

}  // namespace rig
