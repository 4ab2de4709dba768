// The subsystem solvers' threaded iterations: a chunk runs in one OpenMP region, one thread ends
// each iteration and the team shares a β change's refactorizations. Every reduction the iterates
// depend on is a maximum, so two threads, one at a time or in chunks of any size, give the
// iterates of one thread bit for bit (the manufactured trees include every row type and
// contacts between subsystems; 004:43 changes β several times within the iterations), whichever
// thread takes a constraint's λ-step.
#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <memory>
#include <omp.h>
#include <string>
#include <vector>

#include "solvers/registry.h"
#include "tests/test_problems.h"

namespace ncp {
namespace {

struct Iterates {
  Vec v, lambda;
  int refactorizations = 0;
};

// `chunks`: the sizes of the successive IterateChunk() calls (1: Iterate()).
Iterates RunThreaded(const ContactProblem& p, const std::string& solver, int threads,
                     const std::vector<int>& chunks) {
  const SolverEntry& e = FindSolver(solver);
  const Settings s = Settings::Parse(solver, e.settings, {{"threads", std::to_string(threads)}});
  std::unique_ptr<Solver> sv = e.make();
  EXPECT_EQ(sv->Setup(p, s, nullptr), Status::kRunning) << sv->message();
  EXPECT_EQ(sv->ThreadsUsed(), threads);
  for (int k : chunks) {
    int done = 0;
    const Status st = k == 1 ? (done = 1, sv->Iterate()) : sv->IterateChunk(k, done);
    EXPECT_EQ(st, Status::kRunning) << sv->message();
    EXPECT_EQ(done, k);
  }
  Iterates out;
  sv->Current(out.v, out.lambda);
  out.refactorizations = sv->Stats().refactorizations;
  return out;
}

double MaxAbsDiff(const Vec& a, const Vec& b) {
  EXPECT_EQ(a.size(), b.size());
  return a.size() == b.size() ? (a - b).cwiseAbs().maxCoeff() : 1.0;
}

TEST(SubAdmmThreads, ChunksAndTwoThreadsGiveTheSerialIteratesBitForBit) {
  const std::vector<int> singles(60, 1), whole = {60}, pieces = {7, 7, 7, 7, 7, 7, 7, 7, 4};
  for (const char* solver : {"subadmm", "subadmm-nobody"})
    for (int seed = 0; seed < 3; ++seed) {
      const ContactProblem p = MakeManufacturedProblem(testing::TreeOptions(400 + seed), "threads");
      const Iterates serial = RunThreaded(p, solver, 1, singles);
      // β changes after a few iterations on these draws: the team's refactorization is run.
      EXPECT_GE(serial.refactorizations, 3) << solver << " seed " << seed;
      for (const std::vector<int>* chunks : {&singles, &whole, &pieces}) {
        const Iterates two = RunThreaded(p, solver, 2, *chunks);
        EXPECT_EQ(MaxAbsDiff(two.v, serial.v), 0.0) << solver << " seed " << seed;
        EXPECT_EQ(MaxAbsDiff(two.lambda, serial.lambda), 0.0) << solver << " seed " << seed;
        EXPECT_EQ(two.refactorizations, serial.refactorizations) << solver << " seed " << seed;
      }
      // Three threads: other subsystem shares, and other owners of the λ-steps' records.
      const Iterates three = RunThreaded(p, solver, 3, whole);
      EXPECT_EQ(MaxAbsDiff(three.v, serial.v), 0.0) << solver << " seed " << seed;
      EXPECT_EQ(MaxAbsDiff(three.lambda, serial.lambda), 0.0) << solver << " seed " << seed;
      // One thread takes chunks as single iterations.
      const Iterates serial_chunks = RunThreaded(p, solver, 1, whole);
      EXPECT_EQ(MaxAbsDiff(serial_chunks.v, serial.v), 0.0) << solver;
    }
}

// The records are ordered for the team asked for; a team the runtime makes smaller (here: no
// active parallel region allowed, so one thread) takes equal shares of them instead.
TEST(SubAdmmThreads, ATeamSmallerThanAskedGivesTheSerialIterates) {
  const std::vector<int> singles(40, 1), whole = {40};
  const ContactProblem p = MakeManufacturedProblem(testing::TreeOptions(402), "threads");
  for (const char* solver : {"subadmm", "subadmm-nobody"}) {
    const Iterates serial = RunThreaded(p, solver, 1, singles);
    const int levels = omp_get_max_active_levels();
    omp_set_max_active_levels(0);
    const Iterates alone = RunThreaded(p, solver, 2, whole);
    omp_set_max_active_levels(levels);
    EXPECT_EQ(MaxAbsDiff(alone.v, serial.v), 0.0) << solver;
    EXPECT_EQ(MaxAbsDiff(alone.lambda, serial.lambda), 0.0) << solver;
  }
}

bool SameBits(const Vec& a, const Vec& b) {
  return a.size() == b.size() &&
         (a.size() == 0 || std::memcmp(a.data(), b.data(), sizeof(double) * a.size()) == 0);
}

// A NaN in b reaches v in the first v-step: the team stops there, every thread at once (a thread
// that went on alone would wait at the next barrier for ever), with the one-thread message, and
// on the iterate that failed the test. Threaded, the team learns of it only after the next
// iteration's v-steps, which wrote the other v̂ buffer: the subsystems without the NaN would
// otherwise hold the second iteration's v̂.
TEST(SubAdmmThreads, ANonFiniteIterateStopsTheWholeTeamOnItsIterate) {
  ContactProblem p = MakeManufacturedProblem(testing::TreeOptions(3), "t");
  p.b[3] = std::numeric_limits<double>::quiet_NaN();
  for (const char* solver : {"subadmm", "subadmm-nobody"}) {
    Vec v[2], lambda[2];
    for (int threads : {1, 2}) {
      const SolverEntry& e = FindSolver(solver);
      std::unique_ptr<Solver> sv = e.make();
      ASSERT_EQ(
          sv->Setup(p, Settings::Parse(solver, e.settings, {{"threads", std::to_string(threads)}}),
                    nullptr),
          Status::kRunning);
      int done = 0;
      EXPECT_EQ(sv->IterateChunk(50, done), Status::kDiverged) << solver << ", " << threads;
      EXPECT_EQ(done, 1) << solver << ", " << threads;
      EXPECT_EQ(sv->message(), "non-finite iterate");
      sv->Current(v[threads - 1], lambda[threads - 1]);
    }
    EXPECT_FALSE(v[0].allFinite()) << solver;
    EXPECT_TRUE(SameBits(v[1], v[0])) << solver;
    EXPECT_TRUE(SameBits(lambda[1], lambda[0])) << solver;
  }
}

TEST(SubAdmmThreads, OnlyTheThreadedFormAsksForChunks) {
  const ContactProblem p = MakeManufacturedProblem(testing::TreeOptions(400), "threads");
  for (int threads : {1, 2}) {
    const SolverEntry& e = FindSolver("subadmm");
    std::unique_ptr<Solver> sv = e.make();
    ASSERT_EQ(
        sv->Setup(p, Settings::Parse("subadmm", e.settings, {{"threads", std::to_string(threads)}}),
                  nullptr),
        Status::kRunning);
    EXPECT_EQ(sv->MaxChunk() > 1, threads > 1);
  }
}

}  // namespace
}  // namespace ncp
