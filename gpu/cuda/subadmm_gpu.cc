#include "gpu/cuda/subadmm_gpu.h"

#include "solvers/subadmm_rigid/subadmm_rigid_cpu.h"

namespace ncp::gpu {

Status SubAdmmGpu::Setup(const ContactProblem& p, const Settings& s, const WarmStart* warm) {
  if (CudaDeviceName().empty()) {
    message_ = "no CUDA device";
    return Status::kNotApplicable;
  }
  if (std::string why = BuildRigidLayout(p, lay_); !why.empty()) {
    message_ = why;
    return Status::kNotApplicable;
  }
  n_ = p.num_dofs(), m_ = p.num_rows();
  lay_.SetState(warm && warm->v.size() == n_ ? warm->v : Vec::Zero(n_),
                warm && warm->lambda.size() == m_ ? warm->lambda : Vec::Zero(m_));
  sc_ = InitialScalars(p, s);
  dev_ = std::make_unique<DeviceSolver>();
  if (std::string err = dev_->Upload(lay_.Bodies(), lay_.contacts.View(), lay_.joints.View(), sc_);
      !err.empty()) {
    message_ = err;
    return Status::kFailed;
  }
  return Status::kRunning;
}

Status SubAdmmGpu::Iterate() {
  if (std::string err = dev_->Iterate(sc_); !err.empty()) {
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
  if (dev_) dev_->Download(lay_.Bodies(), lay_.contacts.View(), lay_.joints.View());
  lay_.GetState(v, lambda);
}

std::vector<std::pair<std::string, double>> SubAdmmGpu::Info() const {
  return RigidInfo(sc_, lay_);
}

}  // namespace ncp::gpu
