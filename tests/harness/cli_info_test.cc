// `info` over several files: each file's problems under its name, in the order given; a file
// that cannot be read is one error line and the others are still described; the exit status
// is 2 when any file is unreadable or any problem invalid, so that scripts can rely on it.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "problems/io/dataset_hdf5.h"
#include "tests/cli_support.h"
#include "tests/test_problems.h"

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

TEST(CliInfo, AnUnreadableFileDoesNotHideTheNextOne) {
  const auto dir = testing::FreshDir("cli_info_unreadable");
  const std::string a = std::string(NCP_FCLIB_DIR) + "/CubeH8.hdf5";
  const std::string b = std::string(NCP_FCLIB_DIR) + "/Rover4493.hdf5";
  const testing::CliResult r = testing::RunCli("info " + a + " /no/such/file.h5 " + b, dir);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("Rover4493 "), std::string::npos) << r.out;  // described all the same
  // One error line; Rover4493's W (exported in single precision) is also said to be read as
  // not symmetric, as run says.
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 2) << r.err;
  EXPECT_NE(r.err.find("ncpbench: error: /no/such/file.h5: cannot open"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("warning: " + b + ": W is not symmetric: max|W - W^T|/max|W| = 3.25e-05"),
            std::string::npos)
      << r.err;
}

TEST(CliInfo, AnInvalidProblemIsAnErrorExit) {
  const auto dir = testing::FreshDir("cli_info_invalid");
  ContactProblem good = testing::OnlyType(ConstraintType::kContact);
  ContactProblem bad = good;
  good.meta.name = "good";
  bad.meta.name = "bad";
  bad.constraints[0].mu = -0.5;  // read as stored (the reader checks the schema), then refused
  const std::string path = (dir / "mixed.h5").string();
  WriteDataset(path, {good, bad});
  const testing::CliResult r = testing::RunCli("info " + path, dir);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("constraint[0].mu = -0.5"), std::string::npos) << r.out;
  EXPECT_EQ(r.err,
            "ncpbench: error: info: 1 of 2 problems are invalid (the `valid` column says why)\n");
}

}  // namespace
}  // namespace ncp
