// The Markdown builder every report renders through: layout of header, alignment row and cells,
// escaping, and refusal of a row of the wrong width.
#include "harness/markdown.h"

#include <gtest/gtest.h>

#include "common/error.h"

namespace ncp {
namespace {

TEST(Markdown, TableRendersHeaderAlignmentAndRows) {
  markdown::Table t({"solver", "iterations", "note"}, "lrc");
  EXPECT_TRUE(t.empty());
  t.Row({"pgs", "120", ""}).Row({"apgd", "80", "warm"});
  EXPECT_EQ(t.rows(), 2u);
  EXPECT_EQ(t.str(),
            "| solver | iterations | note |\n"
            "|---|---:|:---:|\n"
            "| pgs | 120 | |\n"
            "| apgd | 80 | warm |\n");
}

TEST(Markdown, CellsCannotBreakTheTable) {
  markdown::Table t({"message"}, "l");
  t.Row({"a|b\nc"});
  EXPECT_EQ(t.str(), "| message |\n|---|\n| a\\|b c |\n");
}

TEST(Markdown, WrongWidthOrAlignmentIsAnError) {
  markdown::Table t({"a", "b"}, "ll");
  EXPECT_THROW(t.Row({"1"}), Error);
  EXPECT_THROW(t.Row({"1", "2", "3"}), Error);
  EXPECT_THROW(markdown::Table({"a", "b"}, "l"), Error);
  EXPECT_THROW(markdown::Table({"a"}, "x"), Error);
}

TEST(Markdown, RowsProducedOneAtATimeRenderAsTheTableDoes) {
  markdown::Table t({"claim", "verdict"}, "ll");
  t.Row({"PGS beats APGD", ""});
  EXPECT_EQ(
      markdown::HeaderOf({"claim", "verdict"}, "ll") + markdown::RowOf({"PGS beats APGD", ""}),
      t.str());
  EXPECT_THROW(markdown::HeaderOf({"claim"}, "lr"), Error);
}

TEST(Markdown, HeadingAndFigure) {
  EXPECT_EQ(markdown::Heading(2, "Summary"), "## Summary\n\n");
  EXPECT_EQ(markdown::Heading(3, "Dataset cable"), "### Dataset cable\n\n");
  EXPECT_EQ(markdown::Figure("time vs DOF", "002-fig11.png"), "![time vs DOF](002-fig11.png)\n");
}

}  // namespace
}  // namespace ncp
