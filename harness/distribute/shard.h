// `--shard K/N`: a deterministic slice of a command's jobs, so that N independent processes
// (a Slurm job array, GNU parallel, several machines) together run every job exactly once and
// `ncpbench merge` combines their results files.
#pragma once

#include <string>

namespace ncp {

struct Shard {
  int index = 1;  // K, 1-based as Slurm's array indices usually are
  int count = 1;  // N; 1 = everything

  bool all() const { return count == 1; }
  // Whether the job (group) with this key belongs to this shard: by a hash of the key, so the
  // slice does not depend on the order or the number of inputs given.
  bool Selects(const std::string& key) const;
  // "results.h5" → "results.shard-2-of-3.h5": each shard owns its file and its lock.
  std::string OutPath(const std::string& out) const;
};

// Parses "K/N" (1 ≤ K ≤ N ≤ 100000); anything else, "" included, throws ncp::Error naming
// --shard (an option given empty named no slice: the whole is the option left out, Shard{}).
Shard ParseShard(const std::string& text);

}  // namespace ncp
