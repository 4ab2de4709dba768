// Solver families do not include each other: numerics two families share (body trees, tree
// factorization, spatial inertia, PCG, the projected block-Jacobi preconditioner, the SubADMM
// base) live in solvers/common/, below every family. A family's file may include its own folder,
// solvers/common/ and the top-level solver headers only.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

namespace ncp {
namespace {

namespace fs = std::filesystem;

TEST(SolverFamilies, NoFamilyIncludesAnothersHeaders) {
  const fs::path solvers = fs::path(NCP_SOURCE_DIR) / "solvers";
  const std::regex include(R"re(#include "solvers/([a-z_0-9]+)/)re");
  int files = 0;
  for (const auto& dir : fs::directory_iterator(solvers)) {
    if (!dir.is_directory()) continue;
    const std::string family = dir.path().filename().string();
    if (family == "common") continue;
    for (const auto& f : fs::directory_iterator(dir.path())) {
      const std::string ext = f.path().extension().string();
      if (ext != ".h" && ext != ".cc") continue;
      ++files;
      std::ifstream in(f.path());
      std::string line;
      for (int n = 1; std::getline(in, line); ++n) {
        std::smatch m;
        if (!std::regex_search(line, m, include)) continue;
        const std::string other = m[1].str();
        EXPECT_TRUE(other == family || other == "common")
            << f.path().string() << ":" << n << " includes solvers/" << other
            << "/: move what both families use to solvers/common/";
      }
    }
  }
  EXPECT_GT(files, 50);
  // The check can fail: the pattern sees a sideways include.
  std::smatch m;
  const std::string sideways = "#include \"solvers/redmax/pcg.h\"";
  ASSERT_TRUE(std::regex_search(sideways, m, include));
  EXPECT_EQ(m[1].str(), "redmax");
}

}  // namespace
}  // namespace ncp
