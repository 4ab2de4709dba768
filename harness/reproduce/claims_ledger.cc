#include "harness/reproduce/claims_ledger.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <stdlib.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <tuple>

#include "common/csv.h"
#include "common/parse_number.h"
#include "common/error.h"
#include "harness/markdown.h"
#include "harness/output_path.h"
#include "harness/reproduce/protocol.h"
#include "harness/reproduce/report_render.h"
#include "harness/results_store.h"

namespace ncp {
namespace {
namespace claims_ledger {

namespace fs = std::filesystem;

// The ledger's columns, in this order.
constexpr std::array<const char*, 5> kVerdicts = {"reproduced", "reproduced for a range",
                                                  "not reproduced", "contradicted", "not assessed"};

std::string Attr(const std::map<std::string, std::string>& a, const char* key) {
  const auto it = a.find(key);
  return it == a.end() ? "" : it->second;
}

// A temporary folder removed when it goes out of scope (a report's figures, never kept).
struct TempDir {
  std::string path;
  TempDir() {
    std::string t = (fs::temp_directory_path() / "ncpbench-claims-XXXXXX").string();
    if (!mkdtemp(t.data()))
      throw Error("claims: cannot create a temporary folder under " +
                  fs::temp_directory_path().string());
    path = t;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

std::string BudgetText(const ClaimRecord& c) {
  return fmt::format("{}{}", c.cases > 0 ? fmt::format("--cases {}", c.cases) : "default cases",
                     c.max_iters > 0 ? fmt::format(", --max-iters {}", c.max_iters) : "");
}

// The claims of one reproduction file: stored ones, else judged again from its records.
std::vector<ClaimRecord> ClaimsOf(const std::string& path, const ResultsFile& f,
                                  const std::string& protocol) {
  const Protocol& p = FindProtocol(protocol);
  // Stored claims are the protocol's own, with a verdict the ledger knows, and a verdict only
  // where their run could carry one (as ClaimLedger wrote them): anything else was not written
  // by `ncpbench reproduce`.
  for (std::size_t i = 0; i < f.claims.size(); ++i) {
    const ClaimRecord& c = f.claims[i];
    const auto fail = [&](const std::string& why) {
      throw Error(fmt::format("claims: results file '{}': /claims row {}: {}", path, i, why));
    };
    if (c.protocol != protocol)
      fail(fmt::format("protocol '{}' is not the file's '{}'", c.protocol, protocol));
    if (std::find(kVerdicts.begin(), kVerdicts.end(), c.verdict) == kVerdicts.end())
      fail(fmt::format("verdict '{}' is not one of {}", c.verdict, fmt::join(kVerdicts, ", ")));
    if (c.cases < 0 || c.max_iters < 0)
      fail(fmt::format("cases {} and max_iters {}: must be >= 0", c.cases, c.max_iters));
    const bool capped = c.max_iters > 0 || (c.cases > 0 && c.cases < p.min_cases);
    if (capped && c.verdict != "not assessed")
      fail(fmt::format("verdict '{}' for a run of {}, which carries none", c.verdict,
                       BudgetText(c)));
  }
  if (!f.claims.empty()) return f.claims;
  if (!p.runs()) return {};
  const TempDir tmp;
  return RenderReport(p, path, tmp.path).claims;
}

std::string Minutes(double s) {
  if (s < 0) return "unknown";
  return s < 120 ? fmt::format("{:.0f} s", s) : fmt::format("{:.1f} min", s / 60);
}

std::vector<std::vector<std::string>> ParseCsv(const std::string& text) {
  std::vector<std::vector<std::string>> rows(1, std::vector<std::string>(1));
  bool quoted = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    std::string& cell = rows.back().back();
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"')
        cell += '"', ++i;
      else if (c == '"')
        quoted = false;
      else
        cell += c;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      rows.back().emplace_back();
    } else if (c == '\n') {
      rows.emplace_back(1);
    } else if (c != '\r') {
      cell += c;
    }
  }
  if (rows.back().size() == 1 && rows.back()[0].empty()) rows.pop_back();
  return rows;
}

// The rows of the CSV file at `path`; false when it cannot be read.
bool ReadCsvRows(const std::string& path, std::vector<std::vector<std::string>>& rows) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::stringstream ss;
  ss << in.rdbuf();
  rows = ParseCsv(ss.str());
  return true;
}

constexpr const char* kCsvHeader =
    "protocol,paper,statement,ours,paper_figure,verdict,held,reason,cause,cases,max_iters,"
    "machine,revision,date,protocol_wall_s,file";

// A whole-number cell of a ledger CSV, or ncp::Error naming the file, line and column.
int CsvInt(const std::string& path, std::size_t line, const char* column, const std::string& v) {
  double x = 0.0;
  if (!ParseDecimal(v, &x) || x < 0 || x > 1e9 || x != std::floor(x))
    throw Error(
        fmt::format("claims: ledger '{}' line {}: {} '{}' is not a whole number in [0, 1e9]", path,
                    line, column, v));
  return static_cast<int>(x);
}

// The files and claims of an earlier ledger CSV, one LedgerFile per file it names.
void ReadLedgerCsv(const std::string& path, std::vector<LedgerFile>& files,
                   std::vector<std::vector<ClaimRecord>>& claims) {
  std::vector<std::vector<std::string>> rows;
  if (!ReadCsvRows(path, rows))
    throw Error(fmt::format("claims: ledger '{}': cannot be read", path));
  if (rows.empty() || fmt::format("{}", fmt::join(rows[0], ",")) != kCsvHeader)
    throw Error(
        fmt::format("claims: ledger '{}' line 1: the header must be '{}' (a CSV written by "
                    "`ncpbench claims --csv`)",
                    path, kCsvHeader));
  const std::size_t columns = rows[0].size();
  std::map<std::string, std::size_t> index;  // a named file → its entry in files
  // (file, statement) → its line: a claim listed twice would be counted twice.
  std::map<std::pair<std::string, std::string>, std::size_t> seen;
  for (std::size_t i = 1; i < rows.size(); ++i) {
    const std::vector<std::string>& r = rows[i];
    if (r.size() != columns)
      throw Error(fmt::format("claims: ledger '{}' line {}: {} cells where the header has {}", path,
                              i + 1, r.size(), columns));
    ClaimRecord c{.protocol = r[0],
                  .paper = r[1],
                  .statement = r[2],
                  .ours = r[3],
                  .paper_figure = r[4],
                  .verdict = r[5],
                  .held = r[6],
                  .reason = r[7],
                  .cause = r[8],
                  .cases = CsvInt(path, i + 1, "cases", r[9]),
                  .max_iters = CsvInt(path, i + 1, "max_iters", r[10])};
    if (std::find(kVerdicts.begin(), kVerdicts.end(), c.verdict) == kVerdicts.end())
      throw Error(fmt::format("claims: ledger '{}' line {}: verdict '{}' is not one of {}", path,
                              i + 1, c.verdict, fmt::join(kVerdicts, ", ")));
    if (c.protocol.empty() || r[15].empty())
      throw Error(
          fmt::format("claims: ledger '{}' line {}: protocol and file must be given", path, i + 1));
    if (auto [at, first] = seen.emplace(std::pair{r[15], c.statement}, i + 1); !first)
      throw Error(
          fmt::format("claims: ledger '{}' line {}: the claim '{}' of '{}' is on line {} "
                      "already; a claim is listed once",
                      path, i + 1, c.statement, r[15], at->second));
    auto [it, fresh] = index.emplace(r[15], files.size());
    if (fresh) {
      LedgerFile f{.path = r[15],
                   .protocol = c.protocol,
                   .machine = r[11],
                   .revision = r[12],
                   .date = r[13],
                   .via = path};
      if (!r[14].empty() && !(ParseDecimal(r[14], &f.wall_s) && f.wall_s >= 0))
        throw Error(
            fmt::format("claims: ledger '{}' line {}: protocol_wall_s '{}' is not a number "
                        "≥ 0",
                        path, i + 1, r[14]));
      files.push_back(f);
      claims.emplace_back();
    } else if (files[it->second].protocol != c.protocol) {
      throw Error(
          fmt::format("claims: ledger '{}' line {}: file '{}' is listed under protocols "
                      "'{}' and '{}'",
                      path, i + 1, r[15], files[it->second].protocol, c.protocol));
    }
    files[it->second].assessed += c.verdict != "not assessed";
    claims[it->second].push_back(std::move(c));
  }
}

// The claims that fail (not reproduced, contradicted) without a measured cause, named; a failure
// is only citable with its cause.
std::string Uncaused(const Ledger& l) {
  std::string list;
  int n = 0, failing = 0;
  for (const ClaimRecord& c : l.claims) {
    if (c.verdict != "not reproduced" && c.verdict != "contradicted") continue;
    ++failing;
    if (!c.cause.empty()) continue;
    list += fmt::format("\n- {}: {}", c.protocol, c.statement);
    ++n;
  }
  if (n == 0) return fmt::format("\nEvery failing claim ({}) carries a measured cause.\n", failing);
  return fmt::format("\n{} of the {} failing claims carry no measured cause:\n{}\n", n, failing,
                     list);
}

// Counts per paper and verdict, and over all papers.
std::string CountsTable(const Ledger& l) {
  std::map<std::string, std::array<int, kVerdicts.size()>> counts;
  std::array<int, kVerdicts.size()> total{};
  for (const ClaimRecord& c : l.claims)
    for (std::size_t v = 0; v < kVerdicts.size(); ++v)
      if (c.verdict == kVerdicts[v]) ++counts[c.paper][v], ++total[v];
  std::vector<std::string> header = {"paper"};
  header.insert(header.end(), kVerdicts.begin(), kVerdicts.end());
  header.push_back("claims");
  markdown::Table t(header, "lrrrrrr");
  auto count_row = [&t](const std::string& name, const std::array<int, kVerdicts.size()>& n) {
    std::vector<std::string> cells = {name};
    int sum = 0;
    for (int x : n) sum += x, cells.push_back(fmt::format("{}", x));
    cells.push_back(fmt::format("{}", sum));
    t.Row(cells);
  };
  for (const auto& [paper, n] : counts) count_row(paper, n);
  count_row("**all**", total);
  const double all = static_cast<double>(l.claims.size());
  if (all == 0) return t.str();
  // Not-assessed claims stay in the denominator (a claim without a verdict is not a reproduced
  // one); the share of the assessed ones is said beside it.
  const int assessed = static_cast<int>(l.claims.size()) - total[4];
  const std::string of_assessed =
      total[4] == 0 || assessed == 0
          ? std::string()
          : fmt::format(" ({} not assessed; of the {} assessed, {:.1f}% and {:.1f}%)", total[4],
                        assessed, 100.0 * total[0] / assessed,
                        100.0 * (total[0] + total[1]) / assessed);
  return t.str() +
         fmt::format(
             "\nReproduced: {} of {} claims ({:.1f}%); with those reproduced for part of "
             "the swept range of a value their paper does not give, {} ({:.1f}%){}.\n",
             total[0], l.claims.size(), 100.0 * total[0] / all, total[0] + total[1],
             100.0 * (total[0] + total[1]) / all, of_assessed) +
         Uncaused(l);
}

// One row per reproduction file: its claims, budget, time, machine and whether it is superseded.
std::string ProtocolsTable(const Ledger& l) {
  markdown::Table t(
      {"protocol", "claims", "assessed", "budget", "time", "machine", "revision", "date", "file"},
      "lrrlrllll");
  // By protocol, then path: the order does not depend on how the inputs were named.
  std::vector<const LedgerFile*> files;
  for (const LedgerFile& f : l.files) files.push_back(&f);
  std::stable_sort(files.begin(), files.end(), [](const LedgerFile* a, const LedgerFile* b) {
    return std::tie(a->protocol, a->path) < std::tie(b->protocol, b->path);
  });
  for (const LedgerFile* fp : files) {
    const LedgerFile& f = *fp;
    int n = 0;
    std::string budget = "—";
    for (std::size_t i = 0; i < l.claims.size(); ++i)
      if (l.files[l.claim_file[i]].path == f.path) ++n, budget = BudgetText(l.claims[i]);
    t.Row({f.protocol, fmt::format("{}", n), fmt::format("{}", f.assessed), budget,
           Minutes(f.wall_s), f.machine, f.revision, f.date,
           "`" + f.path + "`" + (f.via.empty() ? "" : " (as listed in `" + f.via + "`)") +
               (f.superseded_by.empty() ? "" : " (superseded by `" + f.superseded_by + "`)")});
  }
  return t.str();
}

// Every kept claim: statement, our figure, the paper's, the verdict and what held, why, cause.
std::string ClaimsTable(const Ledger& l) {
  markdown::Table t({"protocol", "claim", "ours", "paper", "verdict", "what held, why, cause"},
                    "llllll");
  for (const ClaimRecord& c : l.claims) {
    std::string why = c.held;
    if (!c.reason.empty()) why += (why.empty() ? "" : "; ") + c.reason;
    if (!c.cause.empty()) why += (why.empty() ? "" : "; ") + std::string("cause: ") + c.cause;
    t.Row({c.protocol, c.statement, c.ours, c.paper_figure, c.verdict, why});
  }
  return t.str();
}

// The inputs by kind: reproduction files (a folder's .h5 files that are reproductions; others
// counted in `skipped`) and earlier ledgers' CSV files.
struct Inputs {
  std::vector<std::string> results, ledgers;
  int skipped = 0;
};
// Whether the file begins with HDF5's signature (as every file the suite writes does).
bool StartsAsHdf5(const std::string& path) {
  static constexpr char kSignature[8] = {'\x89', 'H', 'D', 'F', '\r', '\n', '\x1a', '\n'};
  char head[8] = {};
  std::ifstream f(path, std::ios::binary);
  return f.read(head, sizeof head) && std::equal(head, head + 8, kSignature);
}

Inputs SortInputs(const std::vector<std::string>& inputs) {
  Inputs out;
  for (const std::string& in : inputs) {
    std::error_code ec;
    if (fs::is_directory(in, ec)) {
      std::vector<std::string> found;
      for (const auto& e : fs::directory_iterator(in, ec))
        if (e.path().extension() == ".h5" && e.is_regular_file(ec))
          found.push_back(e.path().string());
      if (ec) throw Error(fmt::format("claims: folder '{}': {}", in, ec.message()));
      std::sort(found.begin(), found.end());
      for (const std::string& f : found) {
        std::map<std::string, std::string> a;
        try {
          a = ReadRunAttrs(f);
        } catch (const Error& e) {
          // In a folder, a file that is no results file (a dataset, another program's HDF5, not
          // HDF5 at all) is not this ledger's; a damaged HDF5 file may be a reproduction, whose
          // claims would drop out of the ledger without a word.
          if (StartsAsHdf5(f) &&
              std::string(e.what()).find("not an ncpbench results file") == std::string::npos)
            throw Error(fmt::format("claims: folder '{}': {}", in, e.what()));
          ++out.skipped;
          continue;
        }
        if (Attr(a, "reproduce").empty())
          ++out.skipped;
        else
          out.results.push_back(f);
      }
    } else if (fs::path(in).extension() == ".csv" && fs::is_regular_file(in, ec)) {
      out.ledgers.push_back(in);
    } else if (fs::exists(in, ec)) {
      out.results.push_back(in);
    } else {
      throw Error(fmt::format("claims: '{}': no such file or folder", in));
    }
  }
  // One file twice (also through a link or a folder) would count its claims twice.
  for (std::size_t i = 0; i < out.results.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (SamePath(out.results[i], out.results[j]))
        throw Error(fmt::format("claims: '{}' is the same file as '{}': give it once",
                                out.results[i], out.results[j]));
  return out;
}

// A reproduction's results file: its ledger line (protocol, machine, revision, date, wall time)
// and its claims.
LedgerFile ReadReproduction(const std::string& path, std::vector<ClaimRecord>& claims) {
  const ResultsFile f = ReadResultsFile(path);
  LedgerFile lf;
  lf.path = path;
  lf.protocol = Attr(f.attrs, "reproduce");
  if (lf.protocol.empty())
    throw Error(
        fmt::format("claims: results file '{}': attribute reproduce is missing: not "
                    "written by `ncpbench reproduce`",
                    path));
  const std::string threads = Attr(f.attrs, "host_threads");
  lf.machine = Attr(f.attrs, "cpu") + (threads.empty() ? "" : ", " + threads + " threads");
  lf.revision = Attr(f.attrs, "git_revision");
  // Claims judged again from the file (`reproduce --from`) by a later binary: both revisions.
  if (const std::string judged = Attr(f.attrs, "claims_revision");
      !judged.empty() && judged != lf.revision)
    lf.revision += ", claims judged at " + judged;
  lf.date = Attr(f.attrs, "date").substr(0, 10);
  if (!ParseDecimal(Attr(f.attrs, "reproduce_wall_s"), &lf.wall_s)) lf.wall_s = -1.0;
  claims = ClaimsOf(path, f, lf.protocol);
  for (const ClaimRecord& c : claims) lf.assessed += c.verdict != "not assessed";
  return lf;
}

// One file per protocol: the most assessed claims, then the fuller budget and sample, then the
// latest date, then the path; the others are marked superseded and their claims left out.
void KeepOnePerProtocol(Ledger& l, const std::vector<std::vector<ClaimRecord>>& per_file) {
  // Larger is better: the assessed claims, an uncapped budget, the protocol's own sample (or
  // the larger --cases), the later date; then the path, so that the order of the inputs does
  // not decide.
  const auto rank = [&](std::size_t i) {
    const ClaimRecord* c = per_file[i].empty() ? nullptr : &per_file[i].front();
    const int max_iters = c ? c->max_iters : 0, cases = c ? c->cases : 0;
    return std::make_tuple(l.files[i].assessed, max_iters == 0, cases == 0, cases, l.files[i].date,
                           l.files[i].path);
  };
  std::map<std::string, std::size_t> kept;
  for (std::size_t i = 0; i < l.files.size(); ++i) {
    const auto [it, fresh] = kept.emplace(l.files[i].protocol, i);
    if (!fresh && rank(i) > rank(it->second)) it->second = i;
  }
  for (std::size_t i = 0; i < l.files.size(); ++i) {
    const std::size_t k = kept.at(l.files[i].protocol);
    if (k != i) l.files[i].superseded_by = l.files[k].path;
  }
  for (const auto& [protocol, i] : kept)
    for (const ClaimRecord& c : per_file[i]) {
      l.claims.push_back(c);
      l.claim_file.push_back(i);
    }
}

}  // namespace claims_ledger
}  // namespace

Ledger CollectClaims(const std::vector<std::string>& inputs) {
  using namespace claims_ledger;
  const Inputs in = SortInputs(inputs);
  Ledger l;
  l.skipped = in.skipped;
  std::vector<std::vector<ClaimRecord>> per_file;
  for (const std::string& path : in.results) {
    per_file.emplace_back();
    l.files.push_back(ReadReproduction(path, per_file.back()));
  }
  for (const std::string& csv : in.ledgers) {
    std::vector<LedgerFile> files;
    std::vector<std::vector<ClaimRecord>> claims;
    ReadLedgerCsv(csv, files, claims);
    for (std::size_t k = 0; k < files.size(); ++k) {
      // A results file given by the same path replaces the rows an earlier ledger kept of it.
      if (std::find(in.results.begin(), in.results.end(), files[k].path) != in.results.end())
        continue;
      l.files.push_back(std::move(files[k]));
      per_file.push_back(std::move(claims[k]));
    }
  }
  KeepOnePerProtocol(l, per_file);
  return l;
}

std::string LedgerMarkdown(const Ledger& l, const std::string& command) {
  using namespace claims_ledger;
  std::string md = markdown::Heading(1, "The papers' claims against ours");
  md += fmt::format(
      "Made by `{}`: {} claims from {} reproduction files{}. A verdict is given only "
      "where the run can carry it: a run capped by `--max-iters` or with fewer cases "
      "than its protocol needs says **not assessed**, with the reason.\n",
      command, l.claims.size(), l.files.size(),
      l.skipped ? fmt::format(" ({} other .h5 files in the folders skipped)", l.skipped) : "");
  // The protocols with no file in the ledger: their claims are missing, not judged. The papers'
  // experiments that have no protocol yet are named apart: no file could be given for them.
  std::vector<std::string> absent, pending;
  for (const Protocol& p : Protocols()) {
    bool found = false;
    for (const LedgerFile& f : l.files) found |= f.protocol == p.id;
    if (!found) (p.runs() ? absent : pending).push_back(p.id);
  }
  const auto list = [](const std::vector<std::string>& ids) {
    std::string s;
    for (std::size_t i = 0; i < ids.size(); ++i) s += (i ? ", " : "") + ids[i];
    return s;
  };
  if (!absent.empty())
    md +=
        "\nNo results file given for: " + list(absent) + "; their claims are not in this ledger.\n";
  if (!pending.empty())
    md +=
        "\nThe papers' experiments without a protocol yet (`reproduce --list` says what each "
        "needs): " +
        list(pending) + ".\n";
  // Appended piece by piece: GCC 12 warns (-Wstringop-overflow, falsely) on "\n" + temporary here.
  for (const std::string& part :
       {CountsTable(l), markdown::Heading(2, "Protocols") + ProtocolsTable(l),
        markdown::Heading(2, "Claims") + ClaimsTable(l)}) {
    md += '\n';
    md += part;
  }
  return md;
}

std::string LedgerCsv(const Ledger& l) {
  using namespace claims_ledger;
  std::string csv = std::string(kCsvHeader) + "\n";
  for (std::size_t i = 0; i < l.claims.size(); ++i) {
    const ClaimRecord& c = l.claims[i];
    const LedgerFile& f = l.files[l.claim_file[i]];
    const std::vector<std::string> cells = {c.protocol,
                                            c.paper,
                                            c.statement,
                                            c.ours,
                                            c.paper_figure,
                                            c.verdict,
                                            c.held,
                                            c.reason,
                                            c.cause,
                                            std::to_string(c.cases),
                                            std::to_string(c.max_iters),
                                            f.machine,
                                            f.revision,
                                            f.date,
                                            f.wall_s < 0 ? "" : fmt::format("{:.1f}", f.wall_s),
                                            f.path};
    for (std::size_t k = 0; k < cells.size(); ++k) {
      if (k) csv += ',';
      csv += CsvField(cells[k]);
    }
    csv += "\n";
  }
  return csv;
}

std::string CommittedLedgerPath() {
  return std::string(NCPBENCH_SOURCE_DIR) + "/results/claims.csv";
}

std::string LedgerDuration(const std::string& csv_path, const std::string& protocol) {
  using namespace claims_ledger;
  std::vector<std::vector<std::string>> rows;
  if (!ReadCsvRows(csv_path, rows) || rows.empty()) return "";
  const std::vector<std::string>& head = rows[0];
  auto col = [&](const char* name) -> int {
    const auto it = std::find(head.begin(), head.end(), name);
    return it == head.end() ? -1 : static_cast<int>(it - head.begin());
  };
  const int p = col("protocol"), w = col("protocol_wall_s"), c = col("cases"), m = col("max_iters"),
            mach = col("machine"), d = col("date");
  if (p < 0 || w < 0 || c < 0 || m < 0 || mach < 0 || d < 0) return "";
  for (std::size_t i = 1; i < rows.size(); ++i) {
    const auto& r = rows[i];
    if (r.size() != head.size() || r[p] != protocol) continue;
    double s = -1.0;
    try {
      s = std::stod(r[w]);
    } catch (const std::exception&) {
      return "";
    }
    ClaimRecord budget;
    budget.cases = std::atoi(r[c].c_str());
    budget.max_iters = std::atoi(r[m].c_str());
    return fmt::format("{} at {} on {}, {}", Minutes(s), BudgetText(budget), r[mach], r[d]);
  }
  return "";
}

}  // namespace ncp
