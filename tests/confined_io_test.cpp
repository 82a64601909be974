// The IOSystem Assimp reads through (import/assimp/confined_io): the model's bytes let go once a
// stream has read them whole, only when asked and only while no other stream of them is open.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <memory>
#include <string>

#include "import/assimp/confined_io.h"
#include "import/source_files.h"

namespace rig {
namespace {

std::string writeFile(const std::string& name, const std::string& bytes) {
    const std::string path = testing::TempDir() + "/" + name;
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
}

std::string readAll(Assimp::IOStream& s) {
    std::string out(s.FileSize(), '\0');
    out.resize(s.Read(out.data(), 1, out.size()));
    return out;
}

TEST(ConfinedIo, ReadsAsAMemoryStream) {
    const std::string path = writeFile("confined_plain.bin", "0123456789");
    SourceFiles files(path);
    scene::ConfinedIOSystem io(files);
    std::unique_ptr<Assimp::IOStream> s(io.Open(path.c_str(), "rb"));
    ASSERT_TRUE(s);
    EXPECT_EQ(s->FileSize(), 10u);
    char four[4];
    EXPECT_EQ(s->Read(four, 4, 1), 1u);
    EXPECT_EQ(std::string(four, 4), "0123");
    EXPECT_EQ(s->Read(four, 4, 2), 1u);  // only one whole element of 4 is left before the last 2
    EXPECT_EQ(s->Seek(3, aiOrigin_END), aiReturn_SUCCESS);
    EXPECT_EQ(s->Tell(), 7u);
    EXPECT_EQ(s->Seek(11, aiOrigin_SET), aiReturn_FAILURE);
    EXPECT_EQ(s->Seek(2, aiOrigin_SET), aiReturn_SUCCESS);
    EXPECT_EQ(s->Seek(8, aiOrigin_CUR), aiReturn_SUCCESS);
    EXPECT_EQ(s->Seek(1, aiOrigin_CUR), aiReturn_FAILURE);
    // Without releasing, the bytes stay: read again from the start.
    EXPECT_EQ(s->Seek(0, aiOrigin_SET), aiReturn_SUCCESS);
    EXPECT_EQ(readAll(*s), "0123456789");
    EXPECT_EQ(s->Seek(0, aiOrigin_SET), aiReturn_SUCCESS);
    EXPECT_EQ(readAll(*s), "0123456789");
    EXPECT_EQ(io.Open(path.c_str(), "wb"), nullptr);
}

TEST(ConfinedIo, LetsTheModelGoOnceReadWhole) {
    const std::string path = writeFile("confined_release.bin", "abcdefgh");
    SourceFiles files(path);
    scene::ConfinedIOSystem io(files, /*releaseModelWhenRead=*/true);
    {
        // Two streams open: reading one whole keeps the bytes for the other.
        std::unique_ptr<Assimp::IOStream> a(io.Open(path.c_str(), "rb"));
        std::unique_ptr<Assimp::IOStream> b(io.Open(path.c_str(), "rb"));
        EXPECT_EQ(readAll(*a), "abcdefgh");
        EXPECT_EQ(readAll(*b), "abcdefgh");
    }
    std::unique_ptr<Assimp::IOStream> s(io.Open(path.c_str(), "rb"));
    char head[3];
    EXPECT_EQ(s->Read(head, 1, 3), 3u);  // a header read keeps them
    EXPECT_EQ(s->Seek(0, aiOrigin_SET), aiReturn_SUCCESS);
    EXPECT_EQ(readAll(*s), "abcdefgh");
    // Read whole while alone: let go; the stream reads nothing more, wherever it seeks.
    EXPECT_EQ(s->Seek(0, aiOrigin_SET), aiReturn_SUCCESS);
    EXPECT_EQ(s->Read(head, 1, 3), 0u);
    s.reset();
    // A later open reads the file again.
    std::unique_ptr<Assimp::IOStream> again(io.Open(path.c_str(), "rb"));
    ASSERT_TRUE(again);
    EXPECT_EQ(readAll(*again), "abcdefgh");
}

}  // namespace
}  // namespace rig
