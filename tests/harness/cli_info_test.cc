// `info` over several files: each file's problems under its name, in the order given; a file
// that cannot be read ends the command with its one-line error.
#include <gtest/gtest.h>

#include <string>

#include "tests/cli_support.h"

namespace ncp {
namespace {

TEST(CliInfo, SeveralFilesEachUnderItsName) {
  const auto dir = testing::FreshDir("cli_info");
  const std::string a = std::string(NCP_FCLIB_DIR) + "/CubeH8.hdf5";
  const std::string b = std::string(NCP_FCLIB_DIR) + "/Rover4493.hdf5";
  const testing::CliResult r = testing::RunCli("info " + a + " " + b, dir);
  ASSERT_EQ(r.code, 0) << r.err;
  const std::size_t first = r.out.find("== " + a), second = r.out.find("== " + b);
  ASSERT_NE(first, std::string::npos) << r.out;
  ASSERT_NE(second, std::string::npos) << r.out;
  EXPECT_LT(first, second);
  // Both files' problems are listed (an fclib file's problem is named after the file).
  EXPECT_NE(r.out.find("CubeH8 ", first), std::string::npos);
  EXPECT_NE(r.out.find("Rover4493 ", second), std::string::npos);
}

TEST(CliInfo, AMissingFileIsNamed) {
  const auto dir = testing::FreshDir("cli_info_missing");
  const std::string a = std::string(NCP_FCLIB_DIR) + "/CubeH8.hdf5";
  const testing::CliResult r = testing::RunCli("info " + a + " no_such_file.h5", dir);
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("no_such_file.h5"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace ncp
