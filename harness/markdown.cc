#include "harness/markdown.h"

#include <fmt/format.h>

#include <cmath>

#include "common/error.h"

namespace ncp::markdown {

namespace {

// A cell as the table can hold it: '|' escaped, line breaks as spaces.
std::string Escaped(const std::string& cell) {
  if (cell.find_first_of("|\n") == std::string::npos) return cell;
  std::string out;
  for (const char c : cell)
    out += c == '|' ? std::string("\\|") : std::string(1, c == '\n' ? ' ' : c);
  return out;
}

void AppendRow(std::string& out, const std::vector<std::string>& cells) {
  out += '|';
  for (const std::string& c : cells) out += c.empty() ? std::string(" |") : " " + Escaped(c) + " |";
  out += '\n';
}

void CheckAlign(std::size_t columns, std::string_view align) {
  if (align.size() != columns)
    throw Error(fmt::format("markdown table: {} alignments '{}' for {} columns", align.size(),
                            align, columns));
  for (const char a : align)
    if (a != 'l' && a != 'r' && a != 'c')
      throw Error(fmt::format("markdown table alignment '{}': must be l, r or c", a));
}

}  // namespace

std::string RowOf(const std::vector<std::string>& cells) {
  std::string out;
  AppendRow(out, cells);
  return out;
}

std::string HeaderOf(const std::vector<std::string>& header, std::string_view align) {
  CheckAlign(header.size(), align);
  std::string out;
  AppendRow(out, header);
  out += '|';
  for (const char a : align) out += a == 'r' ? "---:|" : a == 'c' ? ":---:|" : "---|";
  out += '\n';
  return out;
}

Table::Table(std::vector<std::string> header, std::string_view align)
    : header_(std::move(header)), align_(align) {
  CheckAlign(header_.size(), align_);
}

Table& Table::Row(std::vector<std::string> cells) {
  if (cells.size() != header_.size())
    throw Error(fmt::format("markdown table row of {} cells: the header has {} columns",
                            cells.size(), header_.size()));
  rows_.push_back(std::move(cells));
  return *this;
}

std::string Table::str() const {
  std::string out = HeaderOf(header_, align_);
  for (const auto& r : rows_) AppendRow(out, r);
  return out;
}

std::string Count(double n) { return std::isfinite(n) ? fmt::format("{:.0f}", n) : "—"; }

std::string Heading(int level, std::string_view text) {
  return std::string(static_cast<std::size_t>(level), '#') + " " + std::string(text) + "\n\n";
}

std::string Figure(std::string_view alt, std::string_view path) {
  return fmt::format("![{}]({})\n", alt, path);
}

}  // namespace ncp::markdown
