#include "solvers/subadmm_rigid/subadmm_rigid_cpu.h"

#include "solvers/common/subadmm_base.h"

namespace ncp::gpu {

const SettingsTable<RigidSettings>& RigidSettings::Table() {
  static const auto t = [] {
    SettingsTable<RigidSettings> t;
    AddRigidCommon(t);
    return t;
  }();
  return t;
}

Scalars InitialScalars(const ContactProblem& p, const Settings& s) {
  const RigidSettings set = RigidSettings::Table().From(s);
  Scalars sc;
  sc.beta_base = set.beta > 0 ? set.beta : SubAdmmBase::DensityBeta(p);
  sc.scale = 1.0;
  sc.beta = sc.beta_base, sc.inv_beta = 1.0 / sc.beta;
  sc.gamma = set.gamma;
  sc.adaptive = set.adaptive;
  sc.adapt_every = set.adapt_every;
  sc.spacing = sc.next_change = sc.adapt_every;
  sc.refactor = 1;
  return sc;
}

Status RigidSubAdmmCpu::Setup(const ContactProblem& p, const Settings& s, const WarmStart* warm) {
  if (std::string why = BuildRigidLayout(p, lay_); !why.empty()) {
    message_ = why;
    return Status::kNotApplicable;
  }
  n_ = p.num_dofs(), m_ = p.num_rows();
  lay_.SetState(warm && warm->v.size() == n_ ? warm->v : Vec::Zero(n_),
                warm && warm->lambda.size() == m_ ? warm->lambda : Vec::Zero(m_));
  bodies_ = lay_.Bodies(), contacts_ = lay_.contacts.View(), joints_ = lay_.joints.View();
  sc_ = InitialScalars(p, s);
  if (!SetupOnHost(bodies_, contacts_, joints_, sc_)) {
    message_ = "A_b + beta sum J^T J: not positive definite (factorization failed)";
    return Status::kFailed;
  }
  return Status::kRunning;
}

bool SetupOnHost(const BodyView& b, const ConstraintView& contacts, const ConstraintView& joints,
                 Scalars& sc) {
  for (int sl = 0; sl < 2; ++sl) {
    for (int i = 0; i < contacts.n; ++i) AssembleElement<3>(contacts, b, i, sl);
    for (int i = 0; i < joints.n; ++i) AssembleElement<1>(joints, b, i, sl);
  }
  for (int k = 0; k < b.n; ++k) FactorStep(b, sc, k);
  sc.refactor = 0, sc.refactorizations = 1;
  if (sc.factor_failed) return false;
  for (int i = 0; i < contacts.n; ++i) InitElement<3>(contacts, b, sc, i);
  for (int i = 0; i < joints.n; ++i) InitElement<1>(joints, b, sc, i);
  return true;
}

Status RigidSubAdmmCpu::Iterate() {
  for (int b = 0; b < bodies_.n; ++b) BodyStep(bodies_, sc_, b);
  double tp2 = 0.0, ty = 0.0;
  for (int i = 0; i < contacts_.n; ++i) {
    ConstraintStep<3>(contacts_, bodies_, sc_, i, tp2, ty);
    MaxTo(&sc_.tp2_bits, tp2), AddTo(&sc_.ty, ty);
  }
  for (int i = 0; i < joints_.n; ++i) {
    ConstraintStep<1>(joints_, bodies_, sc_, i, tp2, ty);
    MaxTo(&sc_.tp2_bits, tp2), AddTo(&sc_.ty, ty);
  }
  for (int b = 0; b < bodies_.n; ++b) MaxTo(&sc_.td_bits, BodyResidual(bodies_, sc_, b));
  AdaptStep(sc_);
  if (sc_.nonfinite) {
    message_ = "non-finite iterate";
    return Status::kDiverged;
  }
  for (int b = 0; b < bodies_.n; ++b) FactorStep(bodies_, sc_, b);
  if (sc_.factor_failed) {
    message_ = "refactorization failed";
    return Status::kFailed;
  }
  return Status::kRunning;
}

void RigidSubAdmmCpu::Current(Vec& v, Vec& lambda) const {
  v.resize(n_), lambda.resize(m_);
  lay_.GetState(v, lambda);
}

std::vector<std::pair<std::string, double>> RigidSubAdmmCpu::Info() const {
  return RigidInfo(sc_, lay_);
}

}  // namespace ncp::gpu
