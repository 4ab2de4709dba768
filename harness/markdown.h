// The one way reports write Markdown: tables built cell by cell, headings and figure links. Every
// report (`report`, `compare`, `profile`, the claims ledger, each reproduction protocol) renders
// through these, so a table's layout is decided here once.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ncp::markdown {

// A table: a header, one alignment per column ('l' left "---", 'r' right "---:", 'c' centred
// ":---:"), then rows of exactly as many cells. A row renders as "| a | b |" and an empty cell as
// "| |". A '|' in a cell is escaped and a line break becomes a space, so a name or a message a
// report shows never breaks its table. A row of the wrong width is an ncp::Error.
class Table {
 public:
  Table(std::vector<std::string> header, std::string_view align);

  Table& Row(std::vector<std::string> cells);
  bool empty() const { return rows_.empty(); }
  std::size_t rows() const { return rows_.size(); }

  // Header, alignment row and rows, each line ending in '\n'.
  std::string str() const;

 private:
  std::vector<std::string> header_;
  std::string align_;
  std::vector<std::vector<std::string>> rows_;
};

// One row rendered as Table renders it ("| a | b |\n", empty cell "| |", '|' escaped), for a
// table whose rows are produced one at a time (the claims table).
std::string RowOf(const std::vector<std::string>& cells);
// The header and alignment lines of such a table, as Table renders them; `align` as for Table
// (one of l, r, c per column, else an ncp::Error).
std::string HeaderOf(const std::vector<std::string>& header, std::string_view align);

// "## text\n\n" for level 2.
std::string Heading(int level, std::string_view text);

// A count as a cell: "412", or "—" where it is not finite (a run too short to measure it).
std::string Count(double n);
// "![alt](path)\n" — a figure the report links to, `path` relative to the report.
std::string Figure(std::string_view alt, std::string_view path);

}  // namespace ncp::markdown
