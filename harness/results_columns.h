// The columns of a results file's /runs table: one per RunRecord field, in the order they are
// written, plus final_<metric> (kMetricNames) and the problem descriptors. The HDF5 writer and
// reader (results_store.cc) and the CSV export (results_csv.cc) share them, so the two formats
// cannot list different columns.
#pragma once

#include <string>

#include "harness/run_record.h"

namespace ncp::columns {

// A column: its name in the file and the member of `Owner` it holds.
template <typename Owner, typename T>
struct Column {
  const char* name;
  T Owner::*member;
};
using StringField = Column<RunRecord, std::string>;
using IntField = Column<RunRecord, int>;
using DoubleField = Column<RunRecord, double>;
using DescriptorDouble = Column<ProblemDescriptors, double>;
using DescriptorInt = Column<ProblemDescriptors, int>;

inline constexpr StringField kStringFields[] = {{"job_key", &RunRecord::job_key},
                                                {"dataset", &RunRecord::dataset},
                                                {"problem", &RunRecord::problem},
                                                {"solver", &RunRecord::solver},
                                                {"settings", &RunRecord::settings},
                                                {"budget", &RunRecord::budget},
                                                {"warm_start", &RunRecord::warm_start},
                                                {"message", &RunRecord::message},
                                                {"solver_info", &RunRecord::solver_info},
                                                {"observations", &RunRecord::observations},
                                                {"host", &RunRecord::host},
                                                {"cpu", &RunRecord::cpu},
                                                {"worker", &RunRecord::worker}};
inline constexpr IntField kIntFields[] = {{"repeat", &RunRecord::repeat},
                                          {"iterations", &RunRecord::iterations},
                                          {"threads_given", &RunRecord::threads_given},
                                          {"threads_used", &RunRecord::threads_used},
                                          {"num_dofs", &RunRecord::num_dofs},
                                          {"num_constraints", &RunRecord::num_constraints},
                                          {"num_contacts", &RunRecord::num_contacts},
                                          {"num_bodies", &RunRecord::num_bodies}};
inline constexpr DoubleField kDoubleFields[] = {
    {"setup_time_s", &RunRecord::setup_time_s}, {"solve_time_s", &RunRecord::solve_time_s},
    {"total_time_s", &RunRecord::total_time_s}, {"lambda_err", &RunRecord::lambda_err},
    {"work_bytes", &RunRecord::work_bytes},     {"work_flops", &RunRecord::work_flops}};
// Columns added after the first files: a file without them reads as "not set".
inline bool OptionalColumn(const std::string& name) {
  return name == "num_bodies" || name == "work_bytes" || name == "work_flops";
}

// Problem descriptors, one column each; optional when reading (older files lack them).
inline constexpr DescriptorInt kDescriptorInts[] = {{"num_rows", &ProblemDescriptors::rows},
                                                    {"w_rank", &ProblemDescriptors::rank}};
inline constexpr DescriptorDouble kDescriptorDoubles[] = {
    {"contact_density", &ProblemDescriptors::contact_density},
    {"rank_ratio", &ProblemDescriptors::rank_ratio},
    {"w_condition", &ProblemDescriptors::condition},
    {"mass_ratio", &ProblemDescriptors::mass_ratio},
    {"mu_min", &ProblemDescriptors::mu_min},
    {"mu_max", &ProblemDescriptors::mu_max},
    {"w_asymmetry", &ProblemDescriptors::asymmetry}};

}  // namespace ncp::columns
