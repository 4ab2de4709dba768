#include "harness/results_store.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <hdf5.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "common/error.h"
#include "harness/system_info.h"
#include "tests/temp_dir_test_base.h"
#include "tests/expect_error.h"

namespace ncp {
namespace {

namespace fs = std::filesystem;

// A record with every field set to something distinct, some metrics left NaN.
RunRecord MakeRecord(const std::string& key, int trace_length, double scale) {
  RunRecord r;
  r.job_key = key;
  r.dataset = "cubes";
  r.problem = "step_" + key;
  r.solver = "pgs";
  r.settings = "omega=1;max_inner=3";
  r.budget = "iters=50;time_ms=0;tol=0;tol_metric=res004";
  r.warm_start = "none";
  r.repeat = 2;
  r.status = Outcome::kMaxIterations;
  r.message = "‖λ‖ grew by 10⁶";
  r.iterations = trace_length;
  r.setup_time_s = 1e-3 * scale;
  r.solve_time_s = 2e-3 * scale;
  r.total_time_s = 3e-3 * scale;
  r.threads_given = 4;
  r.threads_used = 3;
  r.num_dofs = 60;
  r.num_constraints = 12;
  r.num_contacts = 10;
  r.num_bodies = 7;
  r.descriptors.contacts = r.num_contacts;
  r.descriptors.rows = 30;
  r.descriptors.rank = 24;
  r.descriptors.rank_ratio = 0.8;
  r.descriptors.condition = 3.5e6 * scale;
  r.descriptors.mass_ratio = 100.0;
  r.descriptors.mu_min = 0.1;
  r.descriptors.mu_max = 0.9;
  r.descriptors.asymmetry = 0.0;  // contact_density stays NaN, as for a local problem
  for (std::size_t k = 0; k < kNumMetrics; ++k) r.final_metrics.value[k] = scale * (k + 1) * 1e-7;
  r.final_metrics[Metric::kNatmapSiconos] = std::nan("");
  r.lambda_err = 0.25 * scale;
  for (int j = 0; j < trace_length; ++j) {
    TracePoint p;
    p.iteration = 5 * j;
    p.time_s = 1e-4 * (j + 1) * scale;
    for (std::size_t k = 0; k < kNumMetrics; ++k) p.metrics.value[k] = std::pow(0.5, j) * (k + 1);
    p.metrics[Metric::kDissipation] = std::nan("");
    r.trace.push_back(p);
  }
  return r;
}

bool Same(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

void ExpectSameMetrics(const Metrics& a, const Metrics& b, const std::string& where) {
  for (std::size_t k = 0; k < kNumMetrics; ++k) {
    EXPECT_TRUE(Same(a.value[k], b.value[k]))
        << where << " " << kMetricNames[k] << ": " << a.value[k] << " vs " << b.value[k];
  }
}

void ExpectSameRecord(const RunRecord& a, const RunRecord& b) {
  SCOPED_TRACE(a.job_key);
  for (auto m :
       {&RunRecord::job_key, &RunRecord::dataset, &RunRecord::problem, &RunRecord::solver,
        &RunRecord::settings, &RunRecord::budget, &RunRecord::warm_start, &RunRecord::message})
    EXPECT_EQ(a.*m, b.*m);
  for (auto m : {&RunRecord::repeat, &RunRecord::iterations, &RunRecord::threads_given,
                 &RunRecord::threads_used, &RunRecord::num_dofs, &RunRecord::num_constraints,
                 &RunRecord::num_contacts, &RunRecord::num_bodies})
    EXPECT_EQ(a.*m, b.*m);
  EXPECT_EQ(a.status, b.status);
  for (auto m : {&RunRecord::setup_time_s, &RunRecord::solve_time_s, &RunRecord::total_time_s})
    EXPECT_TRUE(Same(a.*m, b.*m)) << a.*m << " vs " << b.*m;
  const ProblemDescriptors &da = a.descriptors, &db = b.descriptors;
  EXPECT_EQ(da.contacts, db.contacts);
  EXPECT_EQ(da.rows, db.rows);
  EXPECT_EQ(da.rank, db.rank);
  for (auto m :
       {&ProblemDescriptors::contact_density, &ProblemDescriptors::rank_ratio,
        &ProblemDescriptors::condition, &ProblemDescriptors::mass_ratio,
        &ProblemDescriptors::mu_min, &ProblemDescriptors::mu_max, &ProblemDescriptors::asymmetry})
    EXPECT_TRUE(Same(da.*m, db.*m)) << da.*m << " vs " << db.*m;
  ExpectSameMetrics(a.final_metrics, b.final_metrics, "final");
  EXPECT_TRUE(Same(a.lambda_err, b.lambda_err));
  ASSERT_EQ(a.trace.size(), b.trace.size());
  for (std::size_t j = 0; j < a.trace.size(); ++j) {
    EXPECT_EQ(a.trace[j].iteration, b.trace[j].iteration);
    EXPECT_TRUE(Same(a.trace[j].time_s, b.trace[j].time_s));
    ExpectSameMetrics(a.trace[j].metrics, b.trace[j].metrics, fmt::format("trace[{}]", j));
  }
}

std::vector<std::string> Keys(const std::vector<RunRecord>& rows) {
  std::vector<std::string> keys;
  for (const RunRecord& r : rows) keys.push_back(r.job_key);
  return keys;
}

class ResultsStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    dir_ = fs::temp_directory_path() / fmt::format("ncp_results_store_{}_{}", getpid(), name);
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string Path(const std::string& name) const { return (dir_ / name).string(); }

  fs::path dir_;
};

TEST_F(ResultsStoreTest, RoundTripKeepsEveryField) {
  RunRecord a = MakeRecord("a", 6, 1.0);
  RunRecord b = MakeRecord("b", 0, 2.0);
  b.status = Outcome::kConverged;
  b.message.clear();
  RunRecord c = MakeRecord("c", 3, 3.0);
  c.final_metrics = Metrics();  // all NaN
  c.total_time_s = -1.0;
  const std::string path = Path("results.h5");
  ResultsStore store(path);
  for (const RunRecord* r : {&c, &a, &b}) store.Add(*r);
  const std::map<std::string, std::string> attrs = {{kRunAttrGitRevision, "abc1234-dirty"},
                                                    {kRunAttrCpu, "Test CPU @ 1 GHz"},
                                                    {"dataset_hash:cubes", "0123456789abcdef"}};
  store.Finalize(attrs);

  const std::vector<RunRecord> rows = ReadResults(path);
  ASSERT_EQ(rows.size(), 3u);
  ExpectSameRecord(rows[0], a);  // rows are ordered by job key
  ExpectSameRecord(rows[1], b);
  ExpectSameRecord(rows[2], c);
  EXPECT_EQ(ReadRunAttrs(path), attrs);
}

TEST_F(ResultsStoreTest, WriteResultsRoundTrip) {
  const std::vector<RunRecord> rows = {MakeRecord("z", 4, 1.0), MakeRecord("y", 2, 5.0)};
  const std::string path = Path("direct.h5");
  WriteResults(path, rows, {{kRunAttrDate, "2024-01-01T00:00:00Z"}});
  const std::vector<RunRecord> back = ReadResults(path);
  ASSERT_EQ(back.size(), 2u);
  ExpectSameRecord(back[0], rows[0]);  // WriteResults keeps the given order
  ExpectSameRecord(back[1], rows[1]);
  EXPECT_FALSE(testing::TempFileLeftBeside(path));
}

TEST_F(ResultsStoreTest, FileWithoutBodyCountColumnReadsMinusOne) {
  const std::string path = Path("old.h5");
  WriteResults(path, {MakeRecord("a", 1, 1.0)}, {});
  {  // as written before the num_bodies column existed
    const hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    ASSERT_GE(f, 0);
    ASSERT_GE(H5Ldelete(f, "/runs/num_bodies", H5P_DEFAULT), 0);
    H5Fclose(f);
  }
  const std::vector<RunRecord> rows = ReadResults(path);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].num_bodies, -1);
  EXPECT_EQ(rows[0].num_contacts, 10);
}

// A reproduction's figures beyond the runner's columns: a run's observations and the file's
// /observations table. Files without them (every file of `run`, older reproductions) read as none;
// a table whose columns disagree in length is a one-line error naming the column.
TEST_F(ResultsStoreTest, ObservationsRoundTripAndOlderFilesReadAsNone) {
  const std::string path = Path("observed.h5");
  RunRecord r = MakeRecord("a", 1, 1.0);
  r.observations = "penetration_mm=0.25;velocity_error=1e-07";
  const std::vector<Observation> obs = {{"cases", "contacts_0", 120.0, ""},
                                        {"pairs", "name_0", NAN, "dish_piling-0"}};
  WriteResults(path, {r}, {}, obs);
  EXPECT_EQ(ReadResults(path)[0].observations, r.observations);
  const std::vector<Observation> back = ReadResultsFile(path).observations;
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[0].part, "cases");
  EXPECT_EQ(back[0].key, "contacts_0");
  EXPECT_EQ(back[0].value, 120.0);
  EXPECT_EQ(back[1].text, "dish_piling-0");
  EXPECT_TRUE(std::isnan(back[1].value));

  const std::string plain = Path("plain.h5");
  WriteResults(plain, {MakeRecord("a", 1, 1.0)}, {});
  EXPECT_TRUE(ReadResultsFile(plain).observations.empty());
  {  // as written before the observations column existed
    const hid_t f = H5Fopen(plain.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    ASSERT_GE(f, 0);
    ASSERT_GE(H5Ldelete(f, "/runs/observations", H5P_DEFAULT), 0);
    H5Fclose(f);
  }
  EXPECT_EQ(ReadResults(plain)[0].observations, "");

  {  // one column of the table lost its last entry
    const hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    ASSERT_GE(f, 0);
    ASSERT_GE(H5Ldelete(f, "/observations/value", H5P_DEFAULT), 0);
    const hsize_t one = 1;
    const hid_t space = H5Screate_simple(1, &one, nullptr);
    const hid_t ds = H5Dcreate2(f, "/observations/value", H5T_IEEE_F64LE, space, H5P_DEFAULT,
                                H5P_DEFAULT, H5P_DEFAULT);
    const double v = 1.0;
    ASSERT_GE(H5Dwrite(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, &v), 0);
    H5Dclose(ds);
    H5Sclose(space);
    H5Fclose(f);
  }
  testing::ExpectError([&] { ReadResultsFile(path); },
                       {path, "/observations/value has 1 entries, expected 2"});
}

TEST_F(ResultsStoreTest, FileWithoutDescriptorColumnsReadsNotComputed) {
  const std::string path = Path("old_desc.h5");
  WriteResults(path, {MakeRecord("a", 1, 1.0)}, {});
  ASSERT_DOUBLE_EQ(ReadResults(path)[0].descriptors.rank_ratio, 0.8);  // written and read back
  {  // as written before the descriptor columns existed
    const hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    ASSERT_GE(f, 0);
    for (const char* c : {"num_rows", "w_rank", "contact_density", "rank_ratio", "w_condition",
                          "mass_ratio", "mu_min", "mu_max", "w_asymmetry"})
      ASSERT_GE(H5Ldelete(f, (std::string("/runs/") + c).c_str(), H5P_DEFAULT), 0) << c;
    H5Fclose(f);
  }
  const std::vector<RunRecord> rows = ReadResults(path);
  ASSERT_EQ(rows.size(), 1u);
  const ProblemDescriptors& d = rows[0].descriptors;
  EXPECT_EQ(d.contacts, 10);  // from num_contacts
  EXPECT_EQ(d.rows, -1);
  EXPECT_EQ(d.rank, -1);
  EXPECT_TRUE(std::isnan(d.rank_ratio));
  EXPECT_TRUE(std::isnan(d.condition));
  EXPECT_TRUE(std::isnan(d.mass_ratio));
  EXPECT_TRUE(std::isnan(d.mu_max));
  EXPECT_TRUE(std::isnan(d.asymmetry));
}

TEST_F(ResultsStoreTest, HasAfterAdd) {
  ResultsStore store(Path("results.h5"));
  EXPECT_FALSE(store.Has("a"));
  EXPECT_EQ(store.size(), 0u);
  store.Add(MakeRecord("a", 2, 1.0));
  EXPECT_TRUE(store.Has("a"));
  EXPECT_FALSE(store.Has("b"));
  store.Add(MakeRecord("a", 3, 2.0));  // replaces, does not duplicate
  EXPECT_EQ(store.size(), 1u);
}

TEST_F(ResultsStoreTest, PartFileIsNamedByJobKeyHash) {
  const std::string path = Path("results.h5");
  ResultsStore store(path);
  store.Add(MakeRecord("job/1", 1, 1.0));
  EXPECT_TRUE(fs::exists(path + ".parts/" + HashHex("job/1") + ".h5"));
  // FNV-1a 64 reference values.
  EXPECT_EQ(HashHex(""), "cbf29ce484222325");
  EXPECT_EQ(HashHex("a"), "af63dc4c8601ec8c");
  std::ofstream(Path("a.txt"), std::ios::binary) << "a";
  EXPECT_EQ(FileHash(Path("a.txt")), HashHex("a"));
}

TEST_F(ResultsStoreTest, ResumeSeesCompletedParts) {
  const std::string path = Path("results.h5");
  {
    ResultsStore first(path);
    first.Add(MakeRecord("a", 2, 1.0));
    first.Add(MakeRecord("b", 2, 1.0));
  }  // the run stops without Finalize
  ResultsStore second(path);
  EXPECT_TRUE(second.Has("a"));
  EXPECT_TRUE(second.Has("b"));
  EXPECT_FALSE(second.Has("c"));
  EXPECT_EQ(second.size(), 2u);
}

// Parts removed while the run goes on: Finalize refuses to write a file with rows missing (and
// exits the run non-zero) and keeps what remains, so a rerun redoes only the lost jobs.
TEST_F(ResultsStoreTest, PartsRemovedDuringTheRunAreReportedNotDropped) {
  const std::string path = Path("results.h5");
  {
    ResultsStore store(path);
    store.Add(MakeRecord("a", 2, 1.0));
    store.Add(MakeRecord("b", 2, 1.0));
    fs::remove(path + ".parts/" + HashHex("a") + ".h5");
    try {
      store.Finalize({});
      ADD_FAILURE() << "a file with a row missing was written";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("1 of 2 finished jobs have no row"), std::string::npos)
          << e.what();
    }
  }
  EXPECT_FALSE(fs::exists(path));
  ResultsStore rerun(path);
  EXPECT_FALSE(rerun.Has("a"));
  EXPECT_TRUE(rerun.Has("b"));
}

// A part is taken only as the row of the job its name stands for: a copy under another job's
// name (or a forged file) is removed on resume and never merged; a folder standing at a part's
// name does not block the job's part.
TEST_F(ResultsStoreTest, PartsAreCheckedAgainstTheirNames) {
  const std::string path = Path("results.h5");
  {
    ResultsStore store(path);
    store.Add(MakeRecord("a", 2, 1.0));
  }
  const std::string parts = path + ".parts/";
  fs::copy_file(parts + HashHex("a") + ".h5", parts + HashHex("forged") + ".h5");
  fs::create_directories(parts + HashHex("c") + ".h5");
  ResultsStore store(path);
  EXPECT_TRUE(store.Has("a"));
  EXPECT_EQ(store.size(), 1u);
  EXPECT_FALSE(fs::exists(parts + HashHex("forged") + ".h5"));
  store.Add(MakeRecord("c", 2, 1.0));
  EXPECT_TRUE(fs::is_regular_file(parts + HashHex("c") + ".h5"));
  store.Finalize({});
  const std::vector<RunRecord> rows = ReadResults(path);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].job_key, "a");
  EXPECT_EQ(rows[1].job_key, "c");
}

TEST_F(ResultsStoreTest, LeftoverTmpPartIsIgnored) {
  const std::string path = Path("results.h5");
  std::string parts;
  {
    ResultsStore first(path);
    first.Add(MakeRecord("a", 2, 1.0));
    // What a crash in the middle of Add leaves behind: a temporary file, complete or not.
    parts = first.parts_dir();
    std::ofstream(parts + "/0123456789abcdef.h5.tmp.1.0") << "half a file";
    fs::copy_file(parts + "/" + HashHex("a") + ".h5", parts + "/" + HashHex("b") + ".h5.tmp.1.1");
  }  // the run ends (its lock with it)

  ResultsStore second(path);
  EXPECT_EQ(second.size(), 1u);
  EXPECT_FALSE(second.Has("b"));
  second.Finalize({});
  EXPECT_EQ(Keys(ReadResults(path)), std::vector<std::string>{"a"});
  EXPECT_FALSE(fs::exists(parts));
}

TEST_F(ResultsStoreTest, SecondStoreOnTheSameOutputIsRefusedInOneLine) {
  const std::string path = Path("results.h5");
  ResultsStore first(path);
  try {
    ResultsStore second(path);
    FAIL() << "a second store on the same output was allowed";
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("in use by another ncpbench run (pid "), std::string::npos) << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
  }
}

TEST_F(ResultsStoreTest, FinalizeMergesFileAndParts) {
  const std::string path = Path("results.h5");
  const RunRecord a = MakeRecord("a", 4, 1.0);
  {
    ResultsStore store(path);
    store.Add(a);
    store.Add(MakeRecord("b", 2, 1.0));
    store.Finalize({{kRunAttrDate, "day 1"}, {kRunAttrCpu, "cpu 1"}});
    EXPECT_FALSE(fs::exists(store.parts_dir()));
  }
  RunRecord b2 = MakeRecord("b", 5, 7.0);
  b2.status = Outcome::kConverged;
  const RunRecord c = MakeRecord("c", 1, 2.0);
  ResultsStore resumed(path);
  EXPECT_EQ(resumed.size(), 2u);
  resumed.Add(c);
  resumed.Add(b2);  // a rerun job replaces its old row
  resumed.Finalize({{kRunAttrDate, "day 2"}});

  const std::vector<RunRecord> rows = ReadResults(path);
  ASSERT_EQ(Keys(rows), (std::vector<std::string>{"a", "b", "c"}));
  ExpectSameRecord(rows[0], a);
  ExpectSameRecord(rows[1], b2);
  ExpectSameRecord(rows[2], c);
  const std::map<std::string, std::string> expected = {{kRunAttrDate, "day 2"},
                                                       {kRunAttrCpu, "cpu 1"}};
  EXPECT_EQ(ReadRunAttrs(path), expected);
  EXPECT_FALSE(fs::exists(resumed.parts_dir()));
  EXPECT_FALSE(testing::TempFileLeftBeside(path));
  EXPECT_EQ(resumed.size(), 3u);
}

// A plug-in's hash gathers every build whose rows the file may hold: an interrupted run's parts
// carry theirs, and neither a resumed run nor a later one replaces an earlier build's hash
// (other attributes are replaced, as above).
TEST_F(ResultsStoreTest, PluginHashesOfEveryBuildAreKept) {
  const std::string path = Path("results.h5");
  const std::string key = std::string(kRunAttrPluginPrefix) + "/x/p.so";
  {
    ResultsStore interrupted(path);
    interrupted.SetPartAttrs({{key, "h1"}});
    interrupted.Add(MakeRecord("a", 4, 1.0));
  }  // no Finalize: its part stays
  {
    ResultsStore resumed(path);
    resumed.SetPartAttrs({{key, "h2"}});
    resumed.Add(MakeRecord("b", 2, 1.0));
    resumed.Finalize({{key, "h2"}, {kRunAttrDate, "day 1"}});
  }
  EXPECT_EQ(ReadRunAttrs(path).at(key), "h1; h2");
  ResultsStore later(path);
  later.Add(MakeRecord("c", 1, 1.0));
  later.Finalize({{key, "h2"}, {kRunAttrDate, "day 2"}});
  EXPECT_EQ(ReadRunAttrs(path).at(key), "h1; h2");
  EXPECT_EQ(ReadRunAttrs(path).at(kRunAttrDate), "day 2");
  EXPECT_EQ(ReadResults(path).size(), 3u);
  // A merge gathers them hash by hash: "h1; h2" and "h2; h3" give "h1; h2; h3".
  const std::string other = Path("other.h5");
  WriteResults(other, {MakeRecord("d", 1, 1.0)}, {{key, "h2; h3"}});
  ResultsStore merged(Path("merged.h5"));
  merged.Merge({path, other});
  EXPECT_EQ(ReadRunAttrs(Path("merged.h5")).at(key), "h1; h2; h3");
}

TEST_F(ResultsStoreTest, FinalizeWithNothingWritesEmptyFile) {
  const std::string path = Path("results.h5");
  ResultsStore(path).Finalize({});
  EXPECT_TRUE(ReadResults(path).empty());
}

TEST_F(ResultsStoreTest, ReadResultsOnTruncatedFileThrows) {
  const std::string path = Path("results.h5");
  WriteResults(path, {MakeRecord("a", 50, 1.0), MakeRecord("b", 50, 1.0)}, {});
  fs::resize_file(path, fs::file_size(path) / 2);
  try {
    ReadResults(path);
    FAIL() << "no exception on a truncated file";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
  }
  EXPECT_THROW(ResultsStore{path}, Error);
}

TEST_F(ResultsStoreTest, ReadResultsOnMissingOrForeignFileThrows) {
  EXPECT_THROW(ReadResults(Path("missing.h5")), Error);
  std::ofstream(Path("text.h5")) << "not hdf5";
  EXPECT_THROW(ReadResults(Path("text.h5")), Error);
  EXPECT_THROW(ReadRunAttrs(Path("text.h5")), Error);
}

TEST_F(ResultsStoreTest, RejectsEmptyJobKeyAndReservedAttrs) {
  {
    ResultsStore store(Path("results.h5"));
    RunRecord r = MakeRecord("", 1, 1.0);
    EXPECT_THROW(store.Add(r), Error);
    store.Add(MakeRecord("a", 1, 1.0));
    EXPECT_THROW(store.Finalize({{"format", "mine"}}), Error);
    EXPECT_FALSE(fs::exists(Path("results.h5")));
    EXPECT_TRUE(store.Has("a"));  // the parts survive a failed Finalize
  }
  EXPECT_EQ(ResultsStore(Path("results.h5")).size(), 1u);
}

}  // namespace
}  // namespace ncp
