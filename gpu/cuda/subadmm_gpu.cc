#include "gpu/cuda/subadmm_gpu.h"

#include <omp.h>

#include <algorithm>
#include <chrono>

#include "solvers/subadmm_rigid/subadmm_rigid_cpu.h"

namespace ncp::gpu {

const SettingsTable<GpuSettings>& GpuSettings::Table() {
  static const auto t = [] {
    SettingsTable<GpuSettings> t;
    AddRigidCommon(t);
    t.Choice<kBlockNames>(
        &GpuSettings::block, "block",
        "threads per block of the kernels: smaller blocks spread the elements over more "
        "multiprocessors, a grid barrier then waits for more blocks (2000 cubes on an H200: "
        "11.6 us an iteration at 64, 13.5 at 256)");
    return t;
  }();
  return t;
}

Status SubAdmmGpu::Setup(const ContactProblem& p, const Settings& s, const WarmStart* warm) {
  if (CudaDeviceName().empty()) {
    message_ = "no CUDA device";
    return Status::kNotApplicable;
  }
  const auto t0 = std::chrono::steady_clock::now();
  ws_ = TakeWorkspace();
  RigidLayout& lay = ws_->lay;
  // Host threads for the layout and the pack: one per 2500 constraints, at most the harness's
  // count (SetSolverThreads). Waking a thread costs about as much as it saves on fewer: on an
  // H200 machine's 16 cores a 10085-contact layout took 1.66 ms on 1 thread, 0.98 on 4 and 1.54
  // on 16 (results/measured/README.md).
  constexpr int kConstraintsPerThread = 2500;
  threads_ = std::clamp((p.num_constraints() + kConstraintsPerThread / 2) / kConstraintsPerThread,
                        1, std::max(1, omp_get_max_threads()));
  if (std::string why = BuildRigidLayout(p, lay, {.threads = threads_, .host_work = false});
      !why.empty()) {
    message_ = why;
    return Status::kNotApplicable;
  }
  n_ = p.num_dofs(), m_ = p.num_rows();
  lay.SetState(warm && warm->v.size() == n_ ? warm->v : Vec::Zero(n_),
               warm && warm->lambda.size() == m_ ? warm->lambda : Vec::Zero(m_));
  sc_ = InitialScalars(p, s);
  layout_ms_ =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  const int block = GpuSettings::Table().From(s).BlockThreads();
  if (std::string err = ws_->dev.Upload(lay.Bodies(), lay.contacts.View(), lay.joints.View(),
                                        lay.Source(p), sc_, threads_, block);
      !err.empty()) {
    message_ = err;
    return Status::kFailed;
  }
  if (sc_.j_mismatch) {
    message_ =
        "J has a nonzero in a row of a constraint whose structure blocks do not name its body";
    return Status::kNotApplicable;
  }
  if (sc_.factor_failed) {
    message_ = "A_b + beta sum J^T J: not positive definite (factorization failed)";
    return Status::kFailed;
  }
  uploaded_ = true;
  return Status::kRunning;
}

Status SubAdmmGpu::Iterate() {
  int done = 0;
  return IterateChunk(1, done);
}

Status SubAdmmGpu::IterateChunk(int k, int& done) {
  const int before = sc_.iter;
  std::string err = ws_->dev.Iterate(k, sc_);
  done = sc_.iter - before;
  if (!err.empty()) {
    message_ = err;
    return Status::kFailed;
  }
  if (sc_.nonfinite) {
    message_ = "non-finite iterate";
    return Status::kDiverged;
  }
  if (sc_.factor_failed) {
    message_ = "refactorization failed";
    return Status::kFailed;
  }
  return Status::kRunning;
}

void SubAdmmGpu::Current(Vec& v, Vec& lambda) const {
  v.resize(n_), lambda.resize(m_);
  if (!uploaded_) return;
  RigidLayout& lay = ws_->lay;
  ws_->dev.Download(lay.Bodies(), lay.contacts.View(), lay.joints.View());
  lay.GetState(v, lambda);
}

std::vector<std::pair<std::string, double>> SubAdmmGpu::Info() const {
  if (!uploaded_) return {};
  std::vector<std::pair<std::string, double>> info = RigidInfo(sc_, ws_->lay);
  const UploadTimes& t = ws_->dev.upload_times();
  info.insert(info.end(), {{"setup_layout_ms", layout_ms_},
                           {"setup_pack_ms", t.pack_ms},
                           {"setup_copy_ms", t.copy_ms},
                           {"setup_kernel_ms", t.kernel_ms},
                           {"upload_mb", t.bytes / 1e6}});
  return info;
}

}  // namespace ncp::gpu
