// Ends the MUMPS instances that Siconos Numerics 4.4 leaves running.
//
// Siconos' nonsmooth Newton and gfc3d drivers factorize matrices of their own with MUMPS and then
// drop those matrices without ending their instance (MUMPS job -2). MUMPS keeps every instance in
// its Fortran instance table, so the factors stay reachable and are never freed: valgrind shows
// one set of dmumps_ana_driver_/dmumps_fac_driver_ blocks per driver call, 50–230 kB each on
// Box_Stacks, which made a job's memory grow with every harness iteration.
//
// The suite's binaries define dmumps_c: Siconos' calls reach MUMPS through it (the executable's
// symbol comes first), and it records which instances are open. A MumpsInstanceScope around one
// driver call ends, when it closes, the instances started inside it that are still open: nothing
// in Siconos keeps a driver-internal matrix from one call to the next. Where the definition is
// not the one Siconos binds to (a library loaded without it), the scope sees no instances and
// ends none.
#pragma once

#include <vector>

namespace ncp::siconos {

class MumpsInstanceScope {
 public:
  MumpsInstanceScope();
  ~MumpsInstanceScope();  // ends the instances started inside and still open
  MumpsInstanceScope(const MumpsInstanceScope&) = delete;
  MumpsInstanceScope& operator=(const MumpsInstanceScope&) = delete;

  // After a call that aborted: its instances may be mid-operation, so they are left as they are.
  void Abandon() { started_.clear(); }

 private:
  std::vector<int> started_;
  std::vector<int>* outer_;
};

// Instances open now, and instances ended by scopes so far (for tests and diagnostics).
int OpenMumpsInstances();
long EndedMumpsInstances();

}  // namespace ncp::siconos
