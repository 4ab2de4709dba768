// `ncpbench --version` names the version, the source revision, the compiler's vector instruction
// set and the optional parts; the version is the newest entry of CHANGELOG.md, so a release cannot
// skip its changelog.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <string>

#include "harness/system_info.h"
#include "tests/cli_support.h"

namespace ncp {
namespace {

TEST(CliVersion, NamesTheChangelogsNewestVersionAndTheRevision) {
  const auto dir = testing::FreshDir("cli_version");
  const auto r = testing::RunCli("--version", dir);
  ASSERT_EQ(r.code, 0) << r.err;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(
      r.out, m,
      std::regex(R"(^ncpbench (\d+\.\d+\.\d+) \(revision ([0-9a-f]+(-dirty)?|unknown)\))")))
      << r.out;
  std::ifstream changelog(std::string(NCP_SOURCE_DIR) + "/CHANGELOG.md");
  std::string line, newest;
  while (newest.empty() && std::getline(changelog, line))
    if (line.rfind("## ", 0) == 0) newest = line.substr(3, line.find(' ', 3) - 3);
  EXPECT_EQ(m[1].str(), newest) << "CHANGELOG.md's newest entry is not the version";
}

// Results of builds for different instruction sets differ at rounding level: the line says which.
TEST(CliVersion, NamesTheVectorInstructionSet) {
  const auto dir = testing::FreshDir("cli_version_simd");
  const auto r = testing::RunCli("--version", dir);
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string expected = std::string(", ") + VectorInstructionSet();
  EXPECT_NE(r.out.find(expected), std::string::npos) << r.out;
}

}  // namespace
}  // namespace ncp
