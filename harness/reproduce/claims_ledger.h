// The claims ledger: every judged claim of every reproduction results file given, in one table
// with the counts per paper and per verdict (`ncpbench claims`; committed as results/claims.md
// and results/claims.csv). Each claim keeps the file it came from, the machine, the revision and
// the budget it was measured at.
#pragma once

#include <string>
#include <vector>

#include "harness/run_record.h"

namespace ncp {

struct LedgerFile {
  std::string path, protocol, machine, revision, date;
  double wall_s = -1.0;       // how long the protocol ran (reproduce_wall_s); -1: unknown
  int assessed = 0;           // its claims with a verdict other than not assessed
  std::string superseded_by;  // another file of the same protocol that the ledger keeps
  std::string via;            // the earlier ledger CSV its claims were read from, else ""
};

struct Ledger {
  std::vector<LedgerFile> files;        // every reproduction file read
  std::vector<ClaimRecord> claims;      // the kept files' claims
  std::vector<std::size_t> claim_file;  // claims[i] came from files[claim_file[i]]
  int skipped = 0;                      // .h5 files in the folders that are no reproductions
};

// Reads the named results files, every reproduction .h5 directly in the named folders, and earlier
// ledgers (a .csv written by LedgerCsv: its rows stand for the files they name, so one protocol's
// rerun updates a ledger whose other files are not at hand; a results file given by the same path
// replaces its rows). Of
// several files of one protocol the ledger keeps the one with the most assessed claims, then the
// uncapped budget and the protocol's own (or the larger) sample, then the latest, then by path.
// A file given twice, or a damaged .h5 in a folder, is an error. A file written before claims were
// stored is judged again from its records (its report rendered in a temporary folder). ncp::Error
// for a missing path, a named file that is no reproduction, a corrupt one, or a ledger CSV that is
// not one (naming its line and column).
Ledger CollectClaims(const std::vector<std::string>& inputs);

// Markdown: counts per paper and verdict, the protocols with budget, time, machine and revision,
// then every claim. `command`: how the ledger was made, printed under the title.
std::string LedgerMarkdown(const Ledger& l, const std::string& command);
// CSV (RFC 4180): one row per claim with its protocol's file, machine, revision, date and time.
std::string LedgerCsv(const Ledger& l);

// From a ledger CSV: the protocol's wall time, budget, machine and date ("" when not listed or
// the file is missing/unreadable), for `reproduce --list`.
std::string LedgerDuration(const std::string& csv_path, const std::string& protocol);
// The committed ledger of the source tree the binary was built from (results/claims.csv).
std::string CommittedLedgerPath();

}  // namespace ncp
