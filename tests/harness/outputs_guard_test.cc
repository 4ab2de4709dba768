// Outputs never destroy inputs or other files: a command refuses an output that is one of its
// inputs (by inode, whatever the spelling), lock and temporary files are never written through a
// link planted at their names, a text output is written whole or not at all (a full disk leaves
// the old file and no temporary), and arguments that imply unbounded work are refused up front.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "common/error.h"
#include "harness/results_store.h"
#include "common/file_write.h"
#include "problems/io/dataset_hdf5.h"
#include "problems/io/h5_util.h"
#include "tests/cli_support.h"
#include "tests/test_problems.h"

namespace ncp {
namespace {

namespace fs = std::filesystem;

class OutputsGuard : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::FreshDir(::testing::UnitTest::GetInstance()->current_test_info()->name());
    data_ = (dir_ / "data.h5").string();
    auto o = testing::AcceptanceOptions(1);
    o.num_contacts = 6, o.num_bodies = 8;
    WriteDataset(data_, {MakeManufacturedProblem(o, "p0"), MakeManufacturedProblem(o, "p1")});
    size_ = fs::file_size(data_);
  }
  // The refusal contract: non-zero exit, one stderr line holding `needle`, the dataset intact.
  void ExpectRefused(const testing::CliResult& r, const std::string& needle) {
    EXPECT_NE(r.code, 0);
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
    EXPECT_EQ(fs::file_size(data_), size_);
    EXPECT_EQ(ReadDataset(data_).size(), 2u);
  }
  fs::path dir_;
  std::string data_;
  std::uintmax_t size_ = 0;
};

TEST_F(OutputsGuard, ConvertOntoItsInputIsRefused) {
  ExpectRefused(testing::RunCli("convert " + data_ + " " + data_ + " --to fclib --index 0", dir_),
                "is the input");
  // Another spelling and a link to the input are the same file.
  const std::string other = (dir_ / "." / "data.h5").string(), link = (dir_ / "link.h5").string();
  fs::create_symlink(data_, link);
  ExpectRefused(testing::RunCli("convert " + data_ + " " + other, dir_), "is the input");
  ExpectRefused(testing::RunCli("convert " + link + " " + data_, dir_), "is the input");
}

TEST_F(OutputsGuard, BaselineIntoTheDatasetsFolderIsRefused) {
  ExpectRefused(testing::RunCli("baseline " + data_ + " --out-dir " + dir_.string() +
                                    " --force -s pgs --iters 5 -q",
                                dir_),
                "is the input");
}

TEST_F(OutputsGuard, ReportAndCompareOntoAnInputAreRefused) {
  const std::string results = (dir_ / "r.h5").string();
  ASSERT_EQ(testing::RunCli("run " + data_ + " -s pgs --iters 5 -q -o " + results, dir_).code, 0);
  const auto before = fs::file_size(results);
  auto r = testing::RunCli("report " + results + " -o " + results, dir_);
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("is the input"), std::string::npos) << r.err;
  r = testing::RunCli("compare " + results + " " + results + " -o " + results, dir_);
  EXPECT_NE(r.err.find("is the input"), std::string::npos) << r.err;
  EXPECT_EQ(fs::file_size(results), before);
}

// profile's report and CSV were written over whatever their paths named: its own results file
// (--from), a dataset it ran on. Refused before any work, as report and compare refuse.
TEST_F(OutputsGuard, ProfileOutputsOntoItsInputsAreRefused) {
  const std::string results = (dir_ / "r.h5").string();
  ASSERT_EQ(
      testing::RunCli("run " + data_ + " -s pgs --iters 5 --trace 1 -q -o " + results, dir_).code,
      0);
  const auto before = fs::file_size(results);
  auto r = testing::RunCli("profile --from " + results + " --report " + results, dir_);
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("--report = '" + results + "': is the input"), std::string::npos) << r.err;
  r = testing::RunCli("profile --from " + results + " --csv " + results, dir_);
  EXPECT_NE(r.err.find("--csv = '" + results + "': is the input"), std::string::npos) << r.err;
  EXPECT_EQ(fs::file_size(results), before);
  ExpectRefused(testing::RunCli("profile " + data_ + " -s pgs --iters 5 -q -o " +
                                    (dir_ / "p.h5").string() + " --report " + data_,
                                dir_),
                "--report = '" + data_ + "': is the input");
  const std::string same = (dir_ / "same.md").string();
  ExpectRefused(
      testing::RunCli("profile --from " + results + " --report " + same + " --csv " + same, dir_),
      "is also the CSV");
  EXPECT_FALSE(fs::exists(dir_ / "p.h5"));
}

// An output's rename put a plain file where a device or a FIFO stood (/dev/null, when root ran
// `report … -o /dev/null`): such a target is refused and left as it was.
TEST_F(OutputsGuard, DevicesAndFifosAreNotReplaced) {
  const std::string results = (dir_ / "r.h5").string();
  ASSERT_EQ(testing::RunCli("run " + data_ + " -s pgs --iters 5 -q -o " + results, dir_).code, 0);
  const std::string fifo = (dir_ / "fifo").string();
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  const auto r = testing::RunCli("report " + results + " -o " + fifo, dir_);
  EXPECT_NE(r.code, 0);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find(fifo + ": is a FIFO"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::is_fifo(fifo));
  const auto n = testing::RunCli("report " + results + " -o /dev/null", dir_);
  EXPECT_NE(n.err.find("/dev/null: is a character device"), std::string::npos) << n.err;
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
}

// A results file written into the datasets' folder was read back as an input by the next run
// of the same command, which then refused it (no resume): a folder's scan leaves it out.
TEST_F(OutputsGuard, OutputInsideTheInputFolderIsNoInput) {
  const std::string out = (dir_ / "out.h5").string();
  const std::string cmd = "run " + dir_.string() + " -s pgs --iters 5 -q -o " + out;
  ASSERT_EQ(testing::RunCli(cmd, dir_).code, 0);
  const auto again = testing::RunCli(cmd, dir_);
  EXPECT_EQ(again.code, 0) << again.err;
  EXPECT_EQ(ReadResults(out).size(), 2u);  // data.h5's two problems, once each
}

// A sweep wrote its generated datasets over any file at their names in --data-dir (a results
// file, a user's dataset); it now replaces only datasets a sweep generated.
TEST_F(OutputsGuard, SweepReplacesOnlyItsOwnDatasets) {
  const fs::path data = dir_ / "sd";
  fs::create_directories(data);
  fs::copy_file(data_, data / "random-contacts20.h5");
  ExpectRefused(testing::RunCli("sweep random --param contacts --values 20 -n 1 -s pgs --iters 5 "
                                "-q -o " +
                                    (dir_ / "s.h5").string() + " --data-dir " + data.string(),
                                dir_),
                "random-contacts20.h5: exists and is not a dataset a sweep generated");
  EXPECT_EQ(fs::file_size(data / "random-contacts20.h5"), size_);
}

// A merge (rows and traces) of a paper reproduction's file, or a run into one, wrote it again
// without its /observations and /claims, and `claims` could no longer read it: refused.
TEST_F(OutputsGuard, ReproductionFilesAreNotMergedOrRunInto) {
  const fs::path fig7 = dir_ / "fig7.h5";
  fs::copy_file(fs::path(NCP_SOURCE_DIR) / "results/baselines/reproduce/004-fig7.h5", fig7);
  const auto size = fs::file_size(fig7);
  ExpectRefused(testing::RunCli("merge " + fig7.string() + " -o " + (dir_ / "m.h5").string(), dir_),
                "merge: '" + fig7.string() + "' is a paper reproduction's results file");
  EXPECT_FALSE(fs::exists(dir_ / "m.h5"));
  ExpectRefused(testing::RunCli("run " + data_ + " -s pgs --iters 5 -q -o " + fig7.string(), dir_),
                fig7.string() + ": is a paper reproduction's results file");
  EXPECT_EQ(fs::file_size(fig7), size);
  EXPECT_EQ(ReadResultsFile(fig7.string()).claims.size() > 0, true);
  // A refused output keeps no lock file (each refusal left <out>.lock behind).
  EXPECT_FALSE(fs::exists(dir_ / "m.h5.lock"));
  EXPECT_FALSE(fs::exists(dir_ / "fig7.h5.lock"));
}

TEST_F(OutputsGuard, EmptyOutputPathsAndUnboundedCountsAreRefusedUpFront) {
  ExpectRefused(testing::RunCli("run " + data_ + " -s pgs --iters 5 -q -o ''", dir_),
                "--out = '': must name a file");
  ExpectRefused(testing::RunCli("generate random -n 3 -o ''", dir_),
                "--out = '': must name a file");
  // A sweep's empty paths fell back to the defaults an absent option stands for.
  ExpectRefused(testing::RunCli("sweep random --param contacts --values 20 -s pgs -o ''", dir_),
                "--out = '': must name a file");
  ExpectRefused(
      testing::RunCli("sweep random --param contacts --values 20 -s pgs --data-dir ''", dir_),
      "--data-dir = '': must name a folder");
  const auto r =
      testing::RunCli("generate random -n 1000000000 -o " + (dir_ / "g.h5").string(), dir_);
  ExpectRefused(r, "--count = 1000000000: must be in [1, 100000]");
  EXPECT_FALSE(fs::exists(dir_ / "g.h5"));
  // A sweep's count and a run's repeats are bounded the same way (they filled memory).
  ExpectRefused(testing::RunCli("sweep random --param contacts --values 20 -n 1000000000 -s pgs "
                                "--iters 5 -q -o " +
                                    (dir_ / "s.h5").string(),
                                dir_),
                "--count = 1000000000: must be in [1, 100000]");
  ExpectRefused(testing::RunCli("run " + data_ + " -s pgs --iters 1 --repeat 30000000 -q -o " +
                                    (dir_ / "x.h5").string(),
                                dir_),
                "--repeat = 30000000: must be in [1, 1000]");
}

// A full disk while a run writes (here a file-size limit, which fails the write the same way):
// one line naming the file and the cause, exit 2, no temporary file left, the parts kept; the
// same command without the limit then finishes the file (libhdf5 crashed when a write failed
// inside it: results and datasets are now built in memory and written at close).
TEST_F(OutputsGuard, FullDiskIsOneLineAndResumable) {
  const std::string out = (dir_ / "r.h5").string();
  const std::string cmd = std::string(NCP_CLI) + " run " + data_ +
                          " -s pgs,pj,apgd --iters 3000 --trace 1 -q -o " + out;
  const std::string err = (dir_ / "err.txt").string();
  // 1.5 MB: the parts (about 1 MB) fit, the merged file (about 2.2 MB) does not.
  const int status = std::system(("bash -c 'ulimit -f 1500; " + cmd + "' 2>" + err).c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 2);
  const std::string text = testing::Slurp(err);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1) << text;
  EXPECT_NE(text.find("write failed: File too large; nothing written"), std::string::npos) << text;
  for (const auto& entry : fs::directory_iterator(dir_))
    EXPECT_EQ(entry.path().filename().string().find(".tmp"), std::string::npos) << entry.path();
  EXPECT_FALSE(fs::exists(out));
  const auto r =
      testing::RunCli("run " + data_ + " -s pgs,pj,apgd --iters 3000 --trace 1 -o " + out, dir_);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("resumed: 6 jobs already done"), std::string::npos) << r.err;
}

// An output in folders that do not exist yet: they are created (the lock is the first file).
TEST_F(OutputsGuard, OutputFoldersAreCreated) {
  const std::string out = (dir_ / "new" / "dir" / "r.h5").string();
  const auto r = testing::RunCli("run " + data_ + " -s pgs --iters 5 -q -o " + out, dir_);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(ReadDataset(data_).size(), 2u);
  EXPECT_TRUE(fs::is_regular_file(out));
  EXPECT_FALSE(fs::exists(out + ".lock"));  // a finished run takes its lock file with it
}

// A link planted at a run's lock name (e.g. in /tmp) is refused, not followed: the file it
// points to keeps its contents. A hard link (a second name of another file) likewise.
TEST_F(OutputsGuard, LockFileIsNeverWrittenThroughALink) {
  const std::string victim = (dir_ / "victim.txt").string(), out = (dir_ / "out.h5").string();
  std::ofstream(victim) << "precious\n";
  fs::create_symlink(victim, out + ".lock");
  try {
    ResultsStore store(out);
    ADD_FAILURE() << "a symbolic link at the lock's name was followed";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("symbolic link"), std::string::npos) << e.what();
  }
  fs::remove(out + ".lock");
  fs::create_hard_link(victim, out + ".lock");
  EXPECT_THROW(ResultsStore store(out), Error);
  EXPECT_EQ(testing::Slurp(victim), "precious\n");
}

// An HDF5 output created where a link stands replaces the link, never the file behind it.
TEST_F(OutputsGuard, Hdf5CreateReplacesALinkNotItsTarget) {
  const std::string victim = (dir_ / "victim.txt").string(), path = (dir_ / "new.h5").string();
  std::ofstream(victim) << "precious\n";
  fs::create_symlink(victim, path);
  h5::File::Create(path).Close();
  EXPECT_FALSE(fs::is_symlink(path));
  EXPECT_TRUE(h5::File::IsHdf5(path));
  EXPECT_EQ(testing::Slurp(victim), "precious\n");
}

// A write that fails part-way (here a file-size limit, as a full disk would) leaves the old
// file as it was and no temporary file, and says why.
TEST_F(OutputsGuard, TextWrittenWholeOrNotAtAll) {
  const std::string path = (dir_ / "report.md").string();
  WriteFileAtomically(path, "old\n");
  struct rlimit old_limit {};
  ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &old_limit), 0);
  sighandler_t old_handler = signal(SIGXFSZ, SIG_IGN);  // write() then fails with EFBIG
  struct rlimit small = old_limit;
  small.rlim_cur = 4096;
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &small), 0);
  std::string message;
  try {
    WriteFileAtomically(path, std::string(100000, 'x'));
  } catch (const Error& e) {
    message = e.what();
  }
  setrlimit(RLIMIT_FSIZE, &old_limit);
  signal(SIGXFSZ, old_handler);
  EXPECT_NE(message.find("write failed"), std::string::npos) << message;
  EXPECT_NE(message.find("nothing written"), std::string::npos) << message;
  EXPECT_EQ(testing::Slurp(path), "old\n");
  for (const auto& entry : fs::directory_iterator(dir_))
    EXPECT_EQ(entry.path().filename().string().find(".tmp"), std::string::npos) << entry.path();
  // A link at the output's name is replaced, not written through.
  const std::string victim = (dir_ / "victim.txt").string(), linked = (dir_ / "linked.md").string();
  std::ofstream(victim) << "precious\n";
  fs::create_symlink(victim, linked);
  WriteFileAtomically(linked, "new\n");
  EXPECT_EQ(testing::Slurp(victim), "precious\n");
  EXPECT_EQ(testing::Slurp(linked), "new\n");
}

}  // namespace
}  // namespace ncp
