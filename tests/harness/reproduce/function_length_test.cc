// The protocols' and the scene peers' functions stay short enough to read (a report is built from
// named parts, not one long function), and the run loop stays a sequence of named phases:
// no function in harness/reproduce/ or harness/peers/ over 80 lines, RunOne at most 60.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

namespace ncp {
namespace {

namespace fs = std::filesystem;

struct Definition {
  std::string name;  // the first line of its signature
  int line = 0;      // where it starts
  int length = 0;    // lines from its signature to its closing brace
};

// Definitions at column 0 of a formatted source (clang-format puts a function's closing brace
// alone at column 0): a signature, the first line that ends in '{' before any ';', and the next
// line that is "}". Types, namespaces and templates' parameter lines are not functions.
std::vector<Definition> Definitions(const std::vector<std::string>& lines) {
  static const std::regex start(R"(^[A-Za-z_].*\()");
  static const std::regex other(R"(^(namespace|struct|class|enum|union|template|using|typedef)\b)");
  std::vector<Definition> out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (!std::regex_search(lines[i], start) || std::regex_search(lines[i], other)) continue;
    std::size_t open = i;
    while (open < lines.size() && lines[open].back() != '{' && lines[open].back() != ';' &&
           lines[open].back() != '}')
      ++open;
    if (open == lines.size() || lines[open].back() != '{') continue;  // a declaration, a one-liner
    std::size_t close = open + 1;
    while (close < lines.size() && lines[close] != "}") ++close;
    if (close == lines.size()) continue;
    out.push_back({lines[i], static_cast<int>(i + 1), static_cast<int>(close - i + 1)});
    i = close;
  }
  return out;
}

std::vector<std::string> Lines(const fs::path& p) {
  std::ifstream in(p);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l.empty() ? " " : l);
  return lines;
}

TEST(FunctionLength, ProtocolsAndPeersHaveNoFunctionOver80Lines) {
  const fs::path root(NCP_SOURCE_DIR);
  int functions = 0;
  for (const char* dir : {"harness/reproduce", "harness/peers"})
    for (const auto& f : fs::recursive_directory_iterator(root / dir)) {
      if (f.path().extension() != ".cc") continue;
      for (const Definition& d : Definitions(Lines(f.path()))) {
        ++functions;
        EXPECT_LE(d.length, 80) << f.path().string() << ":" << d.line << " " << d.name
                                << ": split it into named parts";
      }
    }
  EXPECT_GT(functions, 300);  // the scan saw the protocols' functions
}

TEST(FunctionLength, RunOneIsAtMost60Lines) {
  int found = 0;
  for (const Definition& d : Definitions(Lines(fs::path(NCP_SOURCE_DIR) / "harness/runner.cc")))
    if (d.name.find(" RunOne(") != std::string::npos) {
      ++found;
      EXPECT_LE(d.length, 60) << d.name;
    }
  EXPECT_EQ(found, 1);
}

// The scan can fail: a long function is found with its length, declarations and one-liners are not
// functions to measure, and a struct's closing "};" does not end one.
TEST(FunctionLength, TheScanMeasuresWhatItShould) {
  std::vector<std::string> src = {"struct S {",
                                  "  int a;",
                                  "};",
                                  "int Declared(int x);",
                                  "int OneLiner() { return 1; }",
                                  "std::string Long(int a,",
                                  "                 int b) {"};
  for (int i = 0; i < 90; ++i) src.push_back("  x += 1;");
  src.push_back("}");
  const std::vector<Definition> d = Definitions(src);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].line, 6);
  EXPECT_EQ(d[0].length, 93);
}

}  // namespace
}  // namespace ncp
