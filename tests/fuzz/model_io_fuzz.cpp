// libFuzzer target for the model serialization reader (platform/model_io), the bytes an import
// worker process sends back. Beyond "no crash, hang, leak or huge allocation" it checks that
// whatever the reader accepts passes validateModel, that the model's helpers run on it, and
// that writing it again gives back the same bytes, and that receiveModel (the same bytes in
// pieces, as from the worker's pipe) agrees with it. A broken invariant aborts (a finding).
//
// The checksum would make almost every mutation fail early, so for half of the inputs (first
// byte odd) the target recomputes the header's size and checksum before reading: the fuzzer
// then reaches the payload decoder as a forger would.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "platform/model_io.h"

namespace {

void require(bool ok, const char* what) {
    if (!ok) {
        std::fprintf(stderr, "model_io_fuzz: invariant broken: %s\n", what);
        std::abort();
    }
}

constexpr size_t kHeader = 28;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    std::vector<uint8_t> bytes(data + 1, data + size);
    if ((data[0] & 1) && bytes.size() >= kHeader) {
        const uint64_t payload = bytes.size() - kHeader;
        uint32_t version = 0;
        std::memcpy(&version, bytes.data() + 8, 4);
        const uint64_t sum = rig::payloadChecksum(version, bytes.data() + kHeader, payload);
        std::memcpy(bytes.data() + 12, &payload, 8);
        std::memcpy(bytes.data() + 20, &sum, 8);
    }
    rig::Result<rig::Model> r = rig::deserializeModel(bytes);
    // The same bytes as a pipe brings them (receiveModel, in pieces of up to 61 bytes): the
    // same verdict, and the same model.
    size_t at = 0;
    rig::Result<rig::Model> piecewise = rig::receiveModel({}, [&](void* to, size_t n) {
        auto* out = static_cast<uint8_t*>(to);
        while (n > 0) {
            if (at >= bytes.size()) return false;
            const size_t k = std::min({n, bytes.size() - at, size_t(1 + at % 61)});
            std::memcpy(out, bytes.data() + at, k);
            at += k;
            out += k;
            n -= k;
        }
        return true;
    });
    if (piecewise && at != bytes.size()) piecewise = rig::Error{"bytes after the model"};
    require(r.ok() == piecewise.ok(), "receiveModel and deserializeModel disagree");
    if (r) require(rig::serializeModel(piecewise.value()) == rig::serializeModel(r.value()), "receiveModel reads another model");
    if (!r) {
        require(!r.error().message.empty(), "empty error message");
        return 0;
    }
    const rig::Model& m = r.value();
    require(rig::validateModel(m).ok(), "accepted a model that fails validateModel");
    (void)m.jointNodes();
    (void)m.paletteSize();
    const std::vector<uint8_t> again = rig::serializeModel(m);
    if (again != bytes) {
        size_t at = kHeader;
        while (at < again.size() && at < bytes.size() && again[at] == bytes[at]) ++at;
        std::fprintf(stderr, "model_io_fuzz: %zu bytes read, %zu written, first difference at %zu\n",
                     bytes.size(), again.size(), at);
    }
    require(again == bytes, "writing the model again changes its bytes");
    return 0;
}
