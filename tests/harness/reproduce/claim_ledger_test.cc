// The claims ledger: a run that cannot carry a verdict records "not assessed" with the reason;
// the claims go into the results file and come back out of `CollectClaims` with their budget,
// one file kept per protocol; the committed CSV gives `reproduce --list` its durations.
#include "harness/reproduce/claim_ledger.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "harness/reproduce/claims_ledger.h"
#include "common/error.h"
#include "harness/reproduce/protocol.h"
#include "harness/results_store.h"
#include "common/file_write.h"
#include "tests/cli_support.h"

namespace ncp {
namespace {

Protocol Needs(int min_cases) {
  Protocol p;
  p.id = "004-table2";
  p.min_cases = min_cases;
  return p;
}

TEST(ClaimLedger, VerdictsOnlyWhereTheRunSupportsThem) {
  ReproduceOptions full;
  ClaimLedger ok(Needs(20), full);
  EXPECT_EQ(ok.Row("004: x", "1.0", Verdict::kReproduced), "| 004: x | 1.0 | reproduced |\n");
  ASSERT_EQ(ok.claims().size(), 1u);
  EXPECT_EQ(ok.claims()[0].verdict, "reproduced");
  EXPECT_EQ(ok.claims()[0].paper, "004");

  ReproduceOptions few;
  few.cases = 5;
  ClaimLedger small(Needs(20), few);
  EXPECT_EQ(small.Row("004: x", "1.0", Verdict::kContradicted),
            "| 004: x | 1.0 | not assessed (--cases 5: below the 20 cases its verdicts need) |\n");
  EXPECT_EQ(small.claims()[0].verdict, "not assessed");
  EXPECT_EQ(small.claims()[0].cases, 5);

  ReproduceOptions more;
  more.cases = 40;  // above the minimum: assessed
  EXPECT_EQ(ClaimLedger(Needs(20), more).Row("004: x", "1", Verdict::kNotReproduced),
            "| 004: x | 1 | not reproduced |\n");

  ReproduceOptions capped;
  capped.max_iters = 50;
  ClaimLedger cap(Needs(0), capped);
  cap.Row("004: x", "1.0", Judged(Verdict::kNotReproduced, "direction reproduced"));
  EXPECT_EQ(cap.claims()[0].verdict, "not assessed");
  EXPECT_EQ(cap.claims()[0].held, "");
  EXPECT_NE(cap.claims()[0].reason.find("--max-iters 50"), std::string::npos);
  EXPECT_EQ(cap.claims()[0].max_iters, 50);

  // Measured nothing (no GPU): not assessed whatever the budget, with its own reason.
  ClaimLedger gpu(Needs(2), full);
  EXPECT_EQ(gpu.NotAssessed("001: y", "did not run", "no CUDA device"),
            "| 001: y | did not run | not assessed (no CUDA device) |\n");
}

TEST(ClaimLedger, CollectedFromResultsFilesOneFilePerProtocol) {
  const auto dir = testing::FreshDir("claim_ledger_" + std::to_string(getpid()));
  auto write = [&](const std::string& name, const std::string& date,
                   std::vector<ClaimRecord> claims) {
    WriteResults((dir / name).string(), {},
                 {{"reproduce", "004-table2"},
                  {"date", date},
                  {"cpu", "Test CPU"},
                  {"host_threads", "2"},
                  {"git_revision", "abc1234"},
                  {"reproduce_wall_s", "90.0"}},
                 {}, claims);
  };
  ClaimRecord a;
  a.protocol = "004-table2", a.paper = "004", a.statement = "s, with a comma", a.ours = "1 | 2";
  a.verdict = "reproduced";
  ClaimRecord na = a;
  na.verdict = "not assessed", na.reason = "--cases 1: below", na.cases = 1;
  ClaimRecord range = a;
  range.verdict = "reproduced for a range";
  write("capped.h5", "2026-11-29T00:00:00Z", {na});
  write("full.h5", "2026-11-28T00:00:00Z", {a, a, range});
  WriteFileAtomically((dir / "notes.h5").string(), "not an HDF5 file");
  const Ledger l = CollectClaims({dir.string()});
  EXPECT_EQ(l.files.size(), 2u);
  EXPECT_EQ(l.skipped, 1);
  ASSERT_EQ(l.claims.size(), 3u);  // the assessed file wins over the later capped one
  EXPECT_EQ(l.claims[0].verdict, "reproduced");
  const std::string md = LedgerMarkdown(l, "ncpbench claims d");
  EXPECT_NE(md.find("| 004 | 2 | 1 | 0 | 0 | 0 | 3 |"), std::string::npos) << md;
  // A claim reproduced for part of an unknown's range is counted apart from the reproduced ones.
  EXPECT_NE(md.find("Reproduced: 2 of 3 claims (66.7%); with those reproduced for part of the "
                    "swept range of a value their paper does not give, 3 (100.0%)."),
            std::string::npos)
      << md;
  // A not-assessed claim stays in the denominator; the assessed claims' share is said beside.
  Ledger with_na = l;
  ClaimRecord other = na;
  other.protocol = "004-fig7";
  with_na.claims.push_back(other);
  with_na.claim_file.push_back(with_na.claim_file.front());  // parallel to claims
  EXPECT_NE(LedgerMarkdown(with_na, "ncpbench claims d")
                .find("Reproduced: 2 of 4 claims (50.0%); with those reproduced for part of the "
                      "swept range of a value their paper does not give, 3 (75.0%) (1 not "
                      "assessed; of the 3 assessed, 66.7% and 100.0%)."),
            std::string::npos);
  EXPECT_NE(md.find("1 \\| 2"), std::string::npos) << md;  // a '|' inside a cell is escaped
  EXPECT_NE(md.find("superseded by"), std::string::npos) << md;
  EXPECT_NE(md.find("No results file given for: 000-table1"), std::string::npos) << md;
  // A pending protocol (a peer's without its library) is named apart, never as a protocol whose
  // file is missing; with none pending, the sentence is left out.
  const std::size_t pending = md.find("without a protocol yet");
  bool any = false;
  for (const Protocol& p : Protocols()) {
    if (p.runs()) continue;
    any = true;
    ASSERT_NE(pending, std::string::npos) << md;
    EXPECT_NE(md.find(p.id, pending), std::string::npos) << md;
    EXPECT_EQ(md.find(p.id), md.find(p.id, pending)) << md;
  }
  if (!any) {
    EXPECT_EQ(pending, std::string::npos) << md;
  }
  const std::string csv = LedgerCsv(l);
  EXPECT_NE(csv.find("\"s, with a comma\""), std::string::npos) << csv;
  WriteFileAtomically((dir / "claims.csv").string(), csv);
  EXPECT_EQ(LedgerDuration((dir / "claims.csv").string(), "004-table2"),
            "90 s at default cases on Test CPU, 2 threads, 2026-11-28");
  EXPECT_EQ(LedgerDuration((dir / "claims.csv").string(), "004-fig9"), "");
  EXPECT_EQ(LedgerDuration((dir / "missing.csv").string(), "004-table2"), "");
  EXPECT_THROW(CollectClaims({(dir / "nothing-here").string()}), Error);
}

// Claims judged again by a later binary (`reproduce --from`) carry both revisions into the
// ledger: the measurement's and the judging code's.
TEST(ClaimLedger, ClaimsJudgedAgainNameBothRevisions) {
  const auto dir = testing::FreshDir("claim_ledger_judged_" + std::to_string(getpid()));
  ClaimRecord a;
  a.protocol = "004-table2", a.paper = "004", a.statement = "s", a.ours = "1";
  a.verdict = "reproduced";
  const std::map<std::string, std::string> attrs = {{"reproduce", "004-table2"},
                                                    {"date", "2026-11-28T00:00:00Z"},
                                                    {"cpu", "Test CPU"},
                                                    {"git_revision", "abc1234"}};
  auto judged = attrs;
  judged["claims_revision"] = "def5678";
  WriteResults((dir / "judged.h5").string(), {}, judged, {}, {a});
  EXPECT_NE(LedgerCsv(CollectClaims({(dir / "judged.h5").string()}))
                .find("abc1234, claims judged at def5678"),
            std::string::npos);
  // Judged by the binary that measured: one revision.
  judged["claims_revision"] = "abc1234";
  WriteResults((dir / "judged.h5").string(), {}, judged, {}, {a});
  const std::string csv = LedgerCsv(CollectClaims({(dir / "judged.h5").string()}));
  EXPECT_NE(csv.find("abc1234"), std::string::npos) << csv;
  EXPECT_EQ(csv.find("judged at"), std::string::npos) << csv;
}

// A failing claim is citable only with its cause: the ledger names those that lack one, and
// says so when none does.
TEST(ClaimLedger, NamesFailingClaimsWithoutACause) {
  Ledger l;
  l.files.push_back({});
  ClaimRecord ok;
  ok.protocol = "004-table2", ok.paper = "004", ok.statement = "holds", ok.verdict = "reproduced";
  ClaimRecord caused = ok;
  caused.statement = "fails, explained", caused.verdict = "contradicted",
  caused.cause = "the gains";
  ClaimRecord bare = ok;
  bare.statement = "fails, unexplained", bare.verdict = "not reproduced";
  for (const ClaimRecord& c : {ok, caused, bare}) l.claims.push_back(c), l.claim_file.push_back(0);
  const std::string md = LedgerMarkdown(l, "c");
  EXPECT_NE(md.find("1 of the 2 failing claims carry no measured cause:\n\n- 004-table2: fails, "
                    "unexplained\n"),
            std::string::npos)
      << md;
  EXPECT_EQ(md.find("- 004-table2: fails, explained"), std::string::npos) << md;
  l.claims.pop_back(), l.claim_file.pop_back();
  EXPECT_NE(LedgerMarkdown(l, "c").find("Every failing claim (1) carries a measured cause."),
            std::string::npos);
}

// An earlier ledger's CSV stands for the files it lists: read back, it gives the same claims and
// CSV; a results file given by the same path replaces its rows; a malformed one is refused with
// its line.
TEST(ClaimLedger, EarlierLedgerCsvStandsForItsFiles) {
  const auto dir = testing::FreshDir("claim_ledger_csv_" + std::to_string(getpid()));
  const std::string h5 = (dir / "004-table2.h5").string();
  ClaimRecord a{.protocol = "004-table2",
                .paper = "004",
                .statement = "s, with a comma",
                .ours = "1 \"x\"",
                .verdict = "not reproduced",
                .cause = "measured",
                .cases = 40};
  WriteResults(h5, {},
               {{"reproduce", "004-table2"},
                {"date", "2026-11-28T00:00:00Z"},
                {"cpu", "Test CPU"},
                {"git_revision", "abc1234"},
                {"reproduce_wall_s", "12.5"}},
               {}, {a});
  const std::string first = LedgerCsv(CollectClaims({h5}));
  const std::string csv = (dir / "ledger.csv").string();
  WriteFileAtomically(csv, first);

  const Ledger again = CollectClaims({csv});
  ASSERT_EQ(again.claims.size(), 1u);
  EXPECT_EQ(again.claims[0].ours, "1 \"x\"");
  EXPECT_EQ(again.claims[0].cases, 40);
  EXPECT_EQ(again.files[0].via, csv);
  EXPECT_EQ(LedgerCsv(again), first);
  EXPECT_NE(LedgerMarkdown(again, "c").find("as listed in"), std::string::npos);

  // The same file given again replaces the ledger's rows: one file, one claim.
  const Ledger both = CollectClaims({csv, h5});
  EXPECT_EQ(both.files.size(), 1u);
  EXPECT_EQ(both.claims.size(), 1u);
  EXPECT_TRUE(both.files[0].via.empty());

  auto refused = [&](const std::string& text, const std::string& expect) {
    const std::string bad = (dir / "bad.csv").string();
    WriteFileAtomically(bad, text);
    try {
      CollectClaims({bad});
      ADD_FAILURE() << "accepted: " << text;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(expect), std::string::npos) << e.what();
    }
  };
  const std::string header = first.substr(0, first.find('\n') + 1);
  const std::string row = first.substr(header.size());
  refused("protocol,paper\n", "line 1: the header");
  refused(header + "004-table2,004,s\n", "line 2: 3 cells");
  std::string verdict = row;
  verdict.replace(verdict.find("not reproduced"), 14, "maybe");
  refused(header + verdict, "line 2: verdict 'maybe'");
  std::string cases = row;
  cases.replace(cases.find(",40,"), 4, ",x4,");
  refused(header + cases, "line 2: cases 'x4'");
  // A row given twice was counted twice (10 claims of a 5-claim ledger).
  refused(header + row + row, "line 3: the claim 's, with a comma' of '" + h5 + "' is on line 2");
}

}  // namespace
}  // namespace ncp
