// The soft mat frames of 002's comparisons (Tables II, VII, IX), shared by their protocols.
#pragma once

#include <string>
#include <vector>

#include "harness/reproduce/protocol.h"
#include "solvers/solver.h"

namespace ncp {

// `frames` frames of the soft mat recorded from cond's simulation, each with its reference
// solution; `warm` gets each frame's warm start (the previous step's solve, 002 §V-A5). Observes
// their sizes and step in `rec` under the part "soft_mat".
std::vector<ContactProblem> SoftMatFrames(int frames, bool quiet, std::vector<WarmStart>* warm,
                                          ProtocolRecords& rec);
// "4 frames of `soft_mat` (… DOF, … contacts, … ms steps), recorded from …": what SoftMatFrames
// observed.
std::string SoftMatFramesText(const ProtocolRecords& rec);

}  // namespace ncp
