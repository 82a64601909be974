#include "util/version.h"

#include <atomic>

namespace rig {

namespace {
std::atomic<const char*> gVersion{"unknown"};
}  // namespace

const char* rigviewVersion() { return gVersion.load(std::memory_order_relaxed); }

void setRigviewVersion(const char* version) { gVersion.store(version, std::memory_order_relaxed); }

}  // namespace rig
