// A check that libhdf5 cannot loop forever on a file. libhdf5 1.10 builds a local heap's free
// list (the name heaps of old-style groups, which every file the suite writes has) by following
// each free block's "next" offset until the end marker, checking each offset's range but not
// that the list ends: a corrupt block that points back at itself or an earlier block makes it
// allocate list nodes until memory runs out (found by fuzzing the dataset reader). The probe's
// child runs this before every read (guarded_read.h), so such a file is refused at once
// instead of after the probe's time limit.
#pragma once

#include <string>

namespace ncp {

// Throws ncp::Error "<path>: the local heap at byte N has a free list that loops (...): a
// corrupt file" when a local heap's free list repeats a block and every block before the repeat
// passes libhdf5's own checks. Any other file (not HDF5, unreadable, no local heaps) passes:
// the reader itself refuses it.
void CheckLocalHeapFreeLists(const std::string& path);

}  // namespace ncp
