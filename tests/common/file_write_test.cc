// ReplaceFile, the one way a file is replaced: the old contents survive a writer that fails
// part-way, and no temporary file is left either way.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "common/error.h"
#include "common/file_write.h"
#include "tests/temp_dir_test_base.h"

namespace ncp {
namespace {

class ReplaceFileTest : public testing::TempDirTest {
 protected:
  ReplaceFileTest() : TempDirTest("ncp_replace_file") {}
  static std::string Read(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
};

TEST_F(ReplaceFileTest, AFailingWriterLeavesTheOldFileAndNoTemporary) {
  const std::string path = Path("out.txt");
  WriteFileAtomically(path, "old\n");
  std::string tmp_seen;
  EXPECT_THROW(ReplaceFile(path,
                           [&](const std::string& tmp) {
                             tmp_seen = tmp;
                             std::ofstream(tmp) << "half";
                             throw Error("the writer failed");
                           }),
               Error);
  EXPECT_EQ(Read(path), "old\n");
  EXPECT_NE(tmp_seen.find(path + ".tmp."), std::string::npos) << tmp_seen;
  EXPECT_FALSE(testing::TempFileLeftBeside(path));
}

TEST_F(ReplaceFileTest, TwoWritesUseTwoTemporaryNames) {
  const std::string path = Path("out.txt");
  std::string first, second;
  ReplaceFile(path, [&](const std::string& tmp) { first = tmp, std::ofstream(tmp) << "1"; });
  ReplaceFile(path, [&](const std::string& tmp) { second = tmp, std::ofstream(tmp) << "2"; });
  EXPECT_NE(first, second);
  EXPECT_EQ(Read(path), "2");
  EXPECT_FALSE(testing::TempFileLeftBeside(path));
}

TEST_F(ReplaceFileTest, AnEmptyPathIsRefused) {
  EXPECT_THROW(ReplaceFile("", [](const std::string&) {}), Error);
}

}  // namespace
}  // namespace ncp
