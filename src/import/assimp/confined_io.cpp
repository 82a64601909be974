#include "import/assimp/confined_io.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <system_error>

#include "util/paths.h"

namespace rig::scene {

namespace {

// SilenceStdio's shared state: how many are alive, and the saved descriptors 1 and 2.
std::mutex& mutex() {
    static std::mutex m;
    return m;
}
int& depth() {
    static int d = 0;
    return d;
}
int* saved() {
    static int fds[2] = {-1, -1};
    return fds;
}

}  // namespace

SilenceStdio::SilenceStdio() {
    std::lock_guard<std::mutex> lock(mutex());
    if (depth()++ > 0) return;
    std::fflush(stdout);
    std::fflush(stderr);
    const int null = ::open("/dev/null", O_WRONLY);
    if (null < 0) return;
    saved()[0] = ::dup(1);
    saved()[1] = ::dup(2);
    ::dup2(null, 1);
    ::dup2(null, 2);
    ::close(null);
}

SilenceStdio::~SilenceStdio() {
    std::lock_guard<std::mutex> lock(mutex());
    if (--depth() > 0) return;
    std::fflush(stdout);
    std::fflush(stderr);
    for (int i = 0; i < 2; ++i) {
        if (saved()[i] < 0) continue;
        ::dup2(saved()[i], i + 1);
        ::close(saved()[i]);
        saved()[i] = -1;
    }
}

bool ConfinedIOSystem::Exists(const char* file) const { return file && files_.exists(file); }

// A file's bytes from the import's SourceFiles, read-only. A stream of the model counts itself
// open in its system, and lets the bytes go once read to the end (ConfinedIOSystem).
class SourceStream : public Assimp::IOStream {
public:
    SourceStream(ConfinedIOSystem& system, const std::string* bytes, bool model)
        : system_(system), data_(bytes->data()), size_(bytes->size()), model_(model) {
        if (model_) ++system_.modelStreams_;
    }
    ~SourceStream() override {
        if (model_) --system_.modelStreams_;
    }

    size_t Read(void* buffer, size_t size, size_t count) override {
        if (!data_ || size == 0 || pos_ >= size_) return 0;
        const size_t n = std::min(count, (size_ - pos_) / size);
        std::memcpy(buffer, data_ + pos_, n * size);
        pos_ += n * size;
        if (pos_ == size_ && model_ && system_.releaseModel_ && system_.modelStreams_ == 1) {
            data_ = nullptr;  // read whole: the reader has its copy
            system_.files_.release(system_.files_.model());
        }
        return n;
    }
    size_t Write(const void*, size_t, size_t) override { return 0; }
    // As Assimp's MemoryIOStream: from the start, from here, or `offset` back from the end.
    aiReturn Seek(size_t offset, aiOrigin origin) override {
        const size_t room = origin == aiOrigin_CUR ? size_ - pos_ : size_;
        if (offset > room) return aiReturn_FAILURE;
        pos_ = origin == aiOrigin_SET ? offset : origin == aiOrigin_CUR ? pos_ + offset : size_ - offset;
        return aiReturn_SUCCESS;
    }
    size_t Tell() const override { return pos_; }
    size_t FileSize() const override { return size_; }
    void Flush() override {}

private:
    ConfinedIOSystem& system_;
    const char* data_;
    const size_t size_;
    const bool model_;
    size_t pos_ = 0;
};

Assimp::IOStream* ConfinedIOSystem::Open(const char* file, const char* mode) {
    if (!file || (mode && (std::strchr(mode, 'w') || std::strchr(mode, 'a') || std::strchr(mode, '+')))) return nullptr;
    const std::string* bytes = files_.read(file);
    if (!bytes) return nullptr;
    return new SourceStream(*this, bytes, bytes == files_.read(files_.model()));
}

}  // namespace rig::scene
