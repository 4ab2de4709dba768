// A read that would end the process (libfclib's exit(1) on a failed HDF5 call, a crash inside
// libhdf5) runs in a child and becomes a one-line ncp::Error in the caller; the caller reads only
// the copy the child wrote.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "common/error.h"
#include "problems/io/fclib_io.h"
#include "problems/io/guarded_read.h"
#include "problems/io/hdf5_heap_check.h"
#include "problems/io/probe_sanitizer.h"
#include "tests/cli_support.h"

namespace ncp {
namespace {

// The conversions below stand for reads: they take the input's name and write nothing.
using ReadFn = void (*)(const std::string&, const std::string&);

std::string ProbeMessage(ReadFn read, double timeout_s = 300.0) {
  try {
    const TrustedCopy copy("f.h5", read, timeout_s);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(GuardedRead, ChildOutcomesBecomeOneLineErrors) {
  EXPECT_EQ(ProbeMessage([](const std::string&, const std::string&) {}), "");
  EXPECT_EQ(ProbeMessage([](const std::string& p, const std::string&) {
              throw Error(p + ": /x: missing dataset");
            }),
            "f.h5: /x: missing dataset");
  const std::string exited =
      ProbeMessage([](const std::string&, const std::string&) { std::exit(1); });
  EXPECT_NE(exited.find("f.h5: reading it ended the reader (exit 1"), std::string::npos) << exited;
  const std::string crashed =
      ProbeMessage([](const std::string&, const std::string&) { std::raise(SIGSEGV); });
  // A plain signal in every build: a sanitizer does not report a fault inside the probe.
  EXPECT_NE(crashed.find("f.h5: reading it ended the reader (signal 11"), std::string::npos)
      << crashed;
  const std::string hung = ProbeMessage(
      [](const std::string&, const std::string&) {
        for (;;) pause();
      },
      0.2);
  EXPECT_NE(hung.find("took more than 0.2 s"), std::string::npos) << hung;
  for (const std::string& m : {exited, crashed, hung}) EXPECT_EQ(m.find('\n'), std::string::npos);
}

// The limit is on the reader's CPU time: one that computes past it is a corrupt file's loop; one
// that is only slow in wall time (a loaded machine; here it sleeps) is waited for, up to ten times
// the limit, and one idle past that is named as stalled.
TEST(GuardedRead, TheLimitIsOnTheReadersCpuTime) {
  const std::string looping = ProbeMessage(
      [](const std::string&, const std::string&) {
        volatile unsigned long k = 0;
        for (;;) k = k + 1;
      },
      0.2);
  EXPECT_NE(looping.find("took more than 0.2 s of CPU time: a corrupt file"), std::string::npos)
      << looping;
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(ProbeMessage([](const std::string&, const std::string&) { usleep(600000); }, 0.2), "");
  EXPECT_GE(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 0.6);
  const std::string stalled = ProbeMessage(
      [](const std::string&, const std::string&) {
        for (;;) pause();
      },
      0.2);
  EXPECT_NE(stalled.find("s of CPU time: the reader stalled): a corrupt file or a stalled file "
                         "system"),
            std::string::npos)
      << stalled;
}

// Reports as AddressSanitizer prints them (clang's runtime in the executable, gcc's libasan.so):
// a libhdf5 or libfclib fault seen through an interceptor (memcpy; strdup, as clang 14 names it)
// is the library's; a fault in the suite's code, or the suite's own call of memcpy or strdup, is
// not. Each report: its frames, whether it is the library's.
TEST(GuardedRead, SanitizerReportsOnLibhdf5AreTheLibrarys) {
  const std::string head = "==1==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x60\n";
  const std::pair<std::string, bool> reports[] = {
      {"READ of size 8 at 0x6160000118b8 thread T0\n"
       "    #0 0x55d13b3b16a3 in __interceptor_memcpy (/b/fuzz_dataset+0x1376a3)\n"
       "    #1 0x7f6e88d90f18  (/lib/x86_64-linux-gnu/libhdf5_serial.so.103+0x190f18)\n"
       "    #2 0x7f6e88db4ca4 in H5O__msg_iterate_real (/lib/libhdf5_serial.so.103+0x1b4ca4)\n"
       "    #5 0x55d13b54d5cf in ncp::h5::Group::HasAttr() /s/problems/io/h5_util.cc:417:61\n",
       true},
      {"    #0 0x7f01 in __interceptor_memcpy ../../../../src/libsanitizer/asan/asan.cpp:827\n"
       "    #1 0x7f02 in fclib_read_local (/usr/lib/x86_64-linux-gnu/libfclib.so.0+0x3a1)\n",
       true},
      {"    #0 0x555f in strdup (/b/build-fuzz/fuzz_dataset+0x1d1d75)\n"
       "    #1 0x7f66 in H5MM_strdup (/lib/x86_64-linux-gnu/libhdf5_serial.so.103+0x18431d)\n"
       "    #6 0x555f in ncp::h5::Group::HasAttr() /s/problems/io/h5_util.cc:508:61\n",
       true},
      {"    #0 0x555f in strdup (/b/build-fuzz/fuzz_dataset+0x1d1d75)\n"
       "    #1 0x555f in ncp::h5::Group::Name() /s/problems/io/h5_util.cc:300:7\n",
       false},
      {"    #0 0x55 in ncp::h5::Group::ReadIntegers() /s/problems/io/h5_util.cc:300:7\n"
       "    #1 0x7f6e in H5Aiterate2 (/lib/x86_64-linux-gnu/libhdf5_serial.so.103+0x5b12f)\n",
       false},
      {"    #0 0x55 in __interceptor_memcpy (/b/ncpbench_tests+0x1376a3)\n"
       "    #1 0x55 in ncp::ReadFclibLocal() /s/problems/io/fclib_io.cc:88:3\n",
       false}};
  for (const auto& [frames, librarys] : reports)
    EXPECT_EQ(SanitizerReportIsALibrarys(head + frames), librarys) << frames;
  EXPECT_FALSE(SanitizerReportIsALibrarys(""));
}

#if defined(__SANITIZE_ADDRESS__)
#define NCP_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NCP_TEST_ASAN 1
#endif
#endif

#if defined(NCP_TEST_ASAN)
// Under AddressSanitizer a memory error in the probed read is the suite's bug: it is reported
// and the caller stops, instead of the file being called corrupt (which would hide it from the
// fuzzers, whose reads all go through the probe first).
TEST(GuardedReadDeathTest, SanitizerReportInTheProbeStopsTheCaller) {
  EXPECT_DEATH(TrustedCopy("f.h5",
                           [](const std::string&, const std::string&) {
                             char* p = new char[4];
                             volatile std::size_t past_end = 4;  // unknown to the compiler
                             p[past_end] = 1;                    // heap-buffer-overflow
                             delete[] p;
                           }),
               // ASan's report, or UBSan's (gcc's object-size check sees the store first).
               "(heap-buffer-overflow|runtime error)(.|\n)*f.h5: a sanitizer reported an error");
}
#endif

// Every read gets a child forked at that moment: it starts from the caller's exact state, not
// from what earlier reads left in an older child, and a read that ended its child leaves the
// next read a working one.
int g_reads_in_this_process = 0;  // each child's own copy counts; the test process never reads
TEST(GuardedRead, EveryReadGetsAFreshCopyOfTheCaller) {
  auto second_read_in_a_child_dies = [](const std::string&, const std::string&) {
    if (++g_reads_in_this_process > 1) std::raise(SIGKILL);
  };
  for (int i = 0; i < 20; ++i) EXPECT_EQ(ProbeMessage(second_read_in_a_child_dies), "") << i;
  EXPECT_NE(
      ProbeMessage([](const std::string&, const std::string&) { std::_Exit(3); }).find("(exit 3"),
      std::string::npos);
  EXPECT_EQ(ProbeMessage(second_read_in_a_child_dies), "");
  EXPECT_NE(ProbeMessage(
                [](const std::string&, const std::string&) {
                  for (;;) pause();
                },
                0.2),
            "");
  EXPECT_EQ(ProbeMessage(second_read_in_a_child_dies), "");
  // A kill from outside (the OOM killer) says nothing about the file; a fault of the reader does.
  const std::string killed =
      ProbeMessage([](const std::string&, const std::string&) { std::raise(SIGKILL); });
  EXPECT_NE(killed.find("f.h5: the reader was stopped by signal 9"), std::string::npos) << killed;
  EXPECT_NE(killed.find("not a verdict on the file"), std::string::npos) << killed;
  const std::string faulted =
      ProbeMessage([](const std::string&, const std::string&) { std::raise(SIGSEGV); });
  EXPECT_NE(faulted.find("f.h5: reading it ended the reader (signal 11"), std::string::npos)
      << faulted;
  EXPECT_NE(faulted.find("a corrupt file"), std::string::npos) << faulted;
  const std::string exited =
      ProbeMessage([](const std::string&, const std::string&) { std::exit(4); });
  EXPECT_NE(exited.find("f.h5: reading it ended the reader (exit 4"), std::string::npos) << exited;
  EXPECT_EQ(g_reads_in_this_process, 0);
}

// TMPDIR set to a fresh folder for one test, restored after it.
class ScopedTmpdir {
 public:
  explicit ScopedTmpdir(const std::string& name)
      : path_((testing::FreshDir(name) / "tmp").string()) {
    std::filesystem::create_directories(path_);
    const char* old = std::getenv("TMPDIR");
    had_ = old != nullptr;
    if (had_) saved_ = old;
    setenv("TMPDIR", path_.c_str(), 1);
  }
  ~ScopedTmpdir() {
    if (had_)
      setenv("TMPDIR", saved_.c_str(), 1);
    else
      unsetenv("TMPDIR");
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_, saved_;
  bool had_ = false;
};

// The caller gets what the child wrote, in a folder of its own that goes with the copy; a read
// that fails leaves no folder behind.
int g_conversions_in_this_process = 0;
TEST(GuardedRead, TheCallerReadsTheCopyTheChildWrote) {
  const ScopedTmpdir scoped("guarded_copy");
  const std::string& tmpdir = scoped.path();
  std::string copied, folder;
  {
    const TrustedCopy copy("in.h5", [](const std::string& in, const std::string& out) {
      ++g_conversions_in_this_process;
      std::ofstream(out) << "read from " << in;
    });
    std::ifstream in(copy.path());
    std::getline(in, copied);
    folder = std::filesystem::path(copy.path()).parent_path().string();
    EXPECT_EQ(std::filesystem::path(folder).parent_path().string(), tmpdir);
  }
  EXPECT_EQ(copied, "read from in.h5");
  EXPECT_EQ(g_conversions_in_this_process, 0);  // it ran in the child
  EXPECT_FALSE(std::filesystem::exists(folder));
  for (ReadFn fails : {+[](const std::string&, const std::string& out) {
                         std::ofstream(out) << "half";
                         throw Error("in.h5: /x: corrupt");
                       },
                       +[](const std::string&, const std::string& out) {
                         std::ofstream(out) << "half";
                         std::raise(SIGSEGV);
                       }}) {
    EXPECT_NE(ProbeMessage(fails), "");
  }
  EXPECT_TRUE(std::filesystem::is_empty(tmpdir));
}

// A process killed while it held a copy leaves the copy's folder; the next copy removes such
// folders once their process has ended and they are an hour old, and only those.
TEST(GuardedRead, FoldersLeftByEndedProcessesAreRemoved) {
  const ScopedTmpdir scoped("guarded_stale");
  const std::filesystem::path tmpdir = scoped.path();
  const pid_t ended = fork();
  ASSERT_GE(ended, 0);
  if (ended == 0) _exit(0);
  ASSERT_EQ(waitpid(ended, nullptr, 0), ended);
  const auto two_hours_ago = std::filesystem::file_time_type::clock::now() - std::chrono::hours(2);
  const auto make = [&](const std::string& name, bool old) {
    std::filesystem::create_directories(tmpdir / name);
    std::ofstream(tmpdir / name / "copy.h5") << "x";
    if (old) std::filesystem::last_write_time(tmpdir / name, two_hours_ago);
  };
  const std::string dead = fmt::format("ncpbench-copy-{}-", ended);
  const std::string live = fmt::format("ncpbench-copy-{}-", getppid());
  make(dead + "old", true);      // removed
  make(dead + "recent", false);  // kept: may still be read (another pid namespace)
  make(live + "old", true);      // kept: its process runs
  make("ncpbench-copy-notapid", true);
  make("other-" + dead, true);
  {
    const TrustedCopy copy("in.h5", [](const std::string&, const std::string&) {});
  }
  std::vector<std::string> left;
  for (const auto& entry : std::filesystem::directory_iterator(tmpdir))
    left.push_back(entry.path().filename().string());
  std::vector<std::string> kept{dead + "recent", live + "old", "ncpbench-copy-notapid",
                                "other-" + dead};
  std::sort(left.begin(), left.end());
  std::sort(kept.begin(), kept.end());
  EXPECT_EQ(left, kept);
}

// A process forked from the caller (a death test, a guarded worker) probes as well.
// Runs `body` in a forked process (its own children, signals and timers) and expects it to
// return true there.
void ExpectTrueInAChild(bool (*body)()) {
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) std::_Exit(body() ? 0 : 1);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
}

TEST(GuardedRead, AForkedProcessProbes) {
  ExpectTrueInAChild([] {
    return ProbeMessage([](const std::string&, const std::string&) {}).empty() &&
           !ProbeMessage([](const std::string&, const std::string&) { std::_Exit(3); }).empty();
  });
}

// How many zombie children this process has (/proc/<pid>/stat: state, parent).
int ZombieChildren() {
  int zombies = 0;
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    std::ifstream stat(entry.path() / "stat");
    std::string line;
    if (!std::getline(stat, line)) continue;
    const auto close = line.rfind(')');
    if (close == std::string::npos) continue;
    char state = 0;
    int ppid = 0;
    if (std::sscanf(line.c_str() + close + 1, " %c %d", &state, &ppid) == 2 && state == 'Z' &&
        ppid == getpid())
      ++zombies;
  }
  return zombies;
}

// A periodic signal without SA_RESTART (a fuzzer's timer) interrupts the wait for a child that
// crashed or ran past its time: the wait is taken up again, and no zombie is left behind.
TEST(GuardedRead, InterruptedWaitsLeaveNoZombies) {
  ExpectTrueInAChild([] {
    struct sigaction sa {};
    sa.sa_handler = [](int) {};
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;  // no SA_RESTART
    sigaction(SIGALRM, &sa, nullptr);
    const itimerval every{{0, 100}, {0, 100}};
    setitimer(ITIMER_REAL, &every, nullptr);
    bool refused = true;
    for (int i = 0; i < 20; ++i) {
      refused = refused && !ProbeMessage([](const std::string&, const std::string&) {
                              std::raise(SIGSEGV);
                            }).empty() &&
                !ProbeMessage(
                     [](const std::string&, const std::string&) {
                       for (;;) pause();
                     },
                     0.005)
                     .empty();
    }
    const itimerval off{};
    setitimer(ITIMER_REAL, &off, nullptr);
    const int zombies = ZombieChildren();
    std::fprintf(stderr, "zombies left: %d\n", zombies);
    return refused && zombies == 0;
  });
}

// The shipped Rover4493 fclib file's bytes, to change one and write them back.
std::vector<char> RoverBytes() {
  std::ifstream in(NCP_FCLIB_DIR "/Rover4493.hdf5", std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string WriteBytes(const std::filesystem::path& path, const std::vector<char>& bytes) {
  std::ofstream(path, std::ios::binary)
      .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return path.string();
}

// ReadFclib's error message, empty when it read the file.
std::string FclibMessage(const std::string& path) {
  try {
    ReadFclib(path);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// Rover4493 with one byte of its W/x dataset's storage changed (offset 9623, 0 -> 4): every
// dataset still opens, but libfclib's read fails and it calls exit(1). Found by byte flipping.
TEST(GuardedRead, FclibFileThatLibfclibCannotReadIsAnError) {
  const auto dir = testing::FreshDir("guarded_fclib");
  std::vector<char> bytes = RoverBytes();
  ASSERT_GT(bytes.size(), 9623u);
  ASSERT_EQ(bytes[9623], 0);
  bytes[9623] = 4;
  const std::string msg = FclibMessage(WriteBytes(dir / "rover_flipped.hdf5", bytes));
  EXPECT_NE(msg.find("rover_flipped.hdf5: reading it ended the reader"), std::string::npos) << msg;
}

// Rover4493's first local heap (byte 680, data block at 712) has one free block at offset 24
// whose "next" is the end marker (1). Pointed back at itself, libhdf5 1.10 would allocate list
// nodes until memory ran out; the probe refuses the file before libhdf5 opens it.
TEST(GuardedRead, LocalHeapFreeListThatLoopsIsRefusedAtOnce) {
  const auto dir = testing::FreshDir("guarded_heap_loop");
  std::vector<char> bytes = RoverBytes();
  ASSERT_GT(bytes.size(), 744u);
  ASSERT_EQ(std::string(bytes.data() + 680, 4), "HEAP");
  ASSERT_EQ(bytes[736], 1);  // the block's "next": the end of the list
  const std::string intact = WriteBytes(dir / "rover.hdf5", bytes);
  EXPECT_NO_THROW(CheckLocalHeapFreeLists(intact));
  EXPECT_NO_THROW(ReadFclib(intact));
  bytes[736] = 24;  // back to itself
  const std::string looped = WriteBytes(dir / "rover_heap_loop.hdf5", bytes);
  const std::string msg = FclibMessage(looped);
  EXPECT_NE(msg.find("rover_heap_loop.hdf5: the local heap at byte 680 has a free list that "
                     "loops (back to its block at offset 24): a corrupt file"),
            std::string::npos)
      << msg;
  // A list that ends, however corrupt otherwise, is left to libhdf5's own checks.
  bytes[736] = 0;
  WriteBytes(looped, bytes);
  EXPECT_NO_THROW(CheckLocalHeapFreeLists(looped));
}

}  // namespace
}  // namespace ncp
