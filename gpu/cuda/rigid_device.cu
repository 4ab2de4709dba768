// Kernels of `subadmm-gpu` (001 §II-C, Fig. 3): each kernel is one loop of the CPU path
// (solvers/subadmm_rigid/subadmm_rigid_cpu.cc) with one thread per element, calling the same
// functions of solvers/subadmm_rigid/rigid_math.h. Reductions: warp shuffles, then one atomic
// per warp.
#include "gpu/cuda/rigid_device.h"

#include <cuda_runtime.h>

#include <string>
#include <vector>

namespace ncp::gpu {
namespace {

constexpr int kBlock = 128;
int Grid(int n) { return (n + kBlock - 1) / kBlock; }

__device__ void WarpReduce(double& mx, double& sum) {
  for (int off = 16; off > 0; off >>= 1) {
    mx = fmax(mx, __shfl_down_sync(0xffffffffu, mx, off));
    sum += __shfl_down_sync(0xffffffffu, sum, off);
  }
}

template <int NR>
__global__ void AssembleKernel(ConstraintView c, BodyView b, int slot) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < c.n) AssembleElement<NR>(c, b, i, slot);
}

__global__ void FactorKernel(BodyView b, Scalars* sc) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < b.n) FactorStep(b, *sc, k);
}

template <int NR>
__global__ void InitKernel(ConstraintView c, BodyView b, const Scalars* sc) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < c.n) InitElement<NR>(c, b, *sc, i);
}

__global__ void BodyKernel(BodyView b, Scalars* sc) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < b.n) BodyStep(b, *sc, k);
}

// fmax drops NaN: a NaN residual still reaches the host through the nonfinite flag.
template <int NR>
__global__ void ConstraintKernel(ConstraintView c, BodyView b, Scalars* sc) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  double tp2 = 0.0, ty = 0.0;
  if (i < c.n) ConstraintStep<NR>(c, b, *sc, i, tp2, ty);
  WarpReduce(tp2, ty);
  if ((threadIdx.x & 31) == 0) MaxTo(&sc->tp2_bits, tp2), AddTo(&sc->ty, ty);
}

__global__ void ResidualKernel(BodyView b, Scalars* sc) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  double td = k < b.n ? BodyResidual(b, *sc, k) : 0.0, unused = 0.0;
  WarpReduce(td, unused);
  if ((threadIdx.x & 31) == 0) MaxTo(&sc->td_bits, td);
}

__global__ void AdaptKernel(Scalars* sc) { AdaptStep(*sc); }

std::string Check(cudaError_t e, const char* what) {
  return e == cudaSuccess ? std::string() : std::string(what) + ": " + cudaGetErrorString(e);
}

}  // namespace

std::string CudaDeviceName() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    cudaGetLastError();  // clear the sticky "no device" error
    return {};
  }
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) return {};
  return prop.name;
}

struct DeviceSolver::Impl {
  std::vector<void*> allocations;
  BodyView bodies;
  ConstraintView contacts, joints;
  Scalars* sc = nullptr;       // device
  Scalars* sc_host = nullptr;  // pinned, for the asynchronous copy back
  cudaStream_t s0 = nullptr, s1 = nullptr;
  cudaEvent_t body_done = nullptr, joints_done = nullptr;
  std::string error;

  template <typename T>
  T* Copy(const T* host, std::size_t count) {
    void* d = nullptr;
    if (count == 0) return nullptr;
    if (error.empty()) error = Check(cudaMalloc(&d, count * sizeof(T)), "cudaMalloc");
    if (!error.empty()) return nullptr;
    allocations.push_back(d);
    if (host) error = Check(cudaMemcpy(d, host, count * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy");
    return static_cast<T*>(d);
  }
  ConstraintView CopySet(const ConstraintView& h, int nr) {
    ConstraintView d;
    d.n = h.n;
    d.body = Copy(h.body, 2 * h.n);
    d.J = Copy(h.J, 2 * nr * 6 * h.n);
    d.e = Copy(h.e, nr * h.n);
    d.type = Copy(h.type, h.n);
    d.mu = Copy(h.mu, h.n), d.stiffness = Copy(h.stiffness, h.n), d.damping = Copy(h.damping, h.n);
    d.lambda = Copy(h.lambda, nr * h.n);
    d.w = Copy(h.w, 2 * nr * h.n), d.y = Copy(h.y, 2 * nr * h.n), d.z = Copy(h.z, 2 * nr * h.n);
    return d;
  }
  ~Impl() {
    for (void* p : allocations) cudaFree(p);
    if (sc) cudaFree(sc);
    if (sc_host) cudaFreeHost(sc_host);
    if (body_done) cudaEventDestroy(body_done);
    if (joints_done) cudaEventDestroy(joints_done);
    if (s0) cudaStreamDestroy(s0);
    if (s1) cudaStreamDestroy(s1);
  }
};

DeviceSolver::DeviceSolver() : impl_(std::make_unique<Impl>()) {}
DeviceSolver::~DeviceSolver() = default;

std::string DeviceSolver::Upload(const BodyView& hb, const ConstraintView& hc,
                                 const ConstraintView& hj, const Scalars& sc) {
  Impl& m = *impl_;
  std::string& err = m.error;
  err = Check(cudaStreamCreateWithFlags(&m.s0, cudaStreamNonBlocking), "cudaStreamCreate");
  if (err.empty()) err = Check(cudaStreamCreateWithFlags(&m.s1, cudaStreamNonBlocking), "cudaStreamCreate");
  if (err.empty()) err = Check(cudaEventCreateWithFlags(&m.body_done, cudaEventDisableTiming), "cudaEventCreate");
  if (err.empty()) err = Check(cudaEventCreateWithFlags(&m.joints_done, cudaEventDisableTiming), "cudaEventCreate");
  if (err.empty()) err = Check(cudaMalloc(&m.sc, sizeof(Scalars)), "cudaMalloc");
  if (err.empty()) err = Check(cudaMallocHost(&m.sc_host, sizeof(Scalars)), "cudaMallocHost");
  if (!err.empty()) return err;
  BodyView& b = m.bodies;
  b.n = hb.n;
  b.mass = hb.mass ? m.Copy(hb.mass, 4 * hb.n) : nullptr;
  b.A = hb.A ? m.Copy(hb.A, kTri * hb.n) : nullptr;
  b.C = m.Copy(hb.C, kTri * hb.n), b.L = m.Copy(hb.L, kTri * hb.n);
  b.b = m.Copy(hb.b, 6 * hb.n), b.v = m.Copy(hb.v, 6 * hb.n);
  b.g = m.Copy(hb.g, 6 * hb.n), b.h = m.Copy(hb.h, 6 * hb.n), b.hold = m.Copy(hb.hold, 6 * hb.n);
  m.contacts = m.CopySet(hc, 3);
  m.joints = m.CopySet(hj, 1);
  *m.sc_host = sc;
  if (err.empty()) err = Check(cudaMemcpy(m.sc, m.sc_host, sizeof(Scalars), cudaMemcpyHostToDevice), "cudaMemcpy");
  // A pageable-memory cudaMemcpy may return before its DMA lands, and s0 does not wait for the
  // legacy stream: wait here before the first kernel.
  if (err.empty()) err = Check(cudaDeviceSynchronize(), "upload");
  if (!err.empty()) return err;
  // C_b = 0 (the host copy may hold an earlier assembly), then per constraint slot with atomics.
  cudaMemsetAsync(b.C, 0, kTri * b.n * sizeof(double), m.s0);
  cudaMemsetAsync(b.g, 0, 6 * b.n * sizeof(double), m.s0);
  cudaMemsetAsync(b.h, 0, 6 * b.n * sizeof(double), m.s0);
  for (int slot = 0; slot < 2; ++slot) {
    if (m.contacts.n) AssembleKernel<3><<<Grid(m.contacts.n), kBlock, 0, m.s0>>>(m.contacts, b, slot);
    if (m.joints.n) AssembleKernel<1><<<Grid(m.joints.n), kBlock, 0, m.s0>>>(m.joints, b, slot);
  }
  if (b.n) FactorKernel<<<Grid(b.n), kBlock, 0, m.s0>>>(b, m.sc);
  if (m.contacts.n) InitKernel<3><<<Grid(m.contacts.n), kBlock, 0, m.s0>>>(m.contacts, b, m.sc);
  if (m.joints.n) InitKernel<1><<<Grid(m.joints.n), kBlock, 0, m.s0>>>(m.joints, b, m.sc);
  cudaMemcpyAsync(m.sc_host, m.sc, sizeof(Scalars), cudaMemcpyDeviceToHost, m.s0);
  err = Check(cudaStreamSynchronize(m.s0), "setup kernels");
  if (err.empty()) err = Check(cudaGetLastError(), "setup launch");
  if (!err.empty()) return err;
  if (m.sc_host->factor_failed) return "A_b + beta sum J^T J: not positive definite (factorization failed)";
  m.sc_host->refactor = 0;
  m.sc_host->refactorizations = 1;
  err = Check(cudaMemcpy(m.sc, m.sc_host, sizeof(Scalars), cudaMemcpyHostToDevice), "cudaMemcpy");
  return err.empty() ? Check(cudaDeviceSynchronize(), "upload") : err;
}

std::string DeviceSolver::Iterate(Scalars& out) {
  Impl& m = *impl_;
  const BodyView& b = m.bodies;
  // Bodies first; contacts (s0) and joints (s1) run concurrently after it; the residual, the
  // β rule and the conditional refactorization follow on s0.
  if (b.n) BodyKernel<<<Grid(b.n), kBlock, 0, m.s0>>>(b, m.sc);
  if (m.joints.n) {
    cudaEventRecord(m.body_done, m.s0);
    cudaStreamWaitEvent(m.s1, m.body_done, 0);
    ConstraintKernel<1><<<Grid(m.joints.n), kBlock, 0, m.s1>>>(m.joints, b, m.sc);
    cudaEventRecord(m.joints_done, m.s1);
  }
  if (m.contacts.n) ConstraintKernel<3><<<Grid(m.contacts.n), kBlock, 0, m.s0>>>(m.contacts, b, m.sc);
  if (m.joints.n) cudaStreamWaitEvent(m.s0, m.joints_done, 0);
  if (b.n) ResidualKernel<<<Grid(b.n), kBlock, 0, m.s0>>>(b, m.sc);
  AdaptKernel<<<1, 1, 0, m.s0>>>(m.sc);
  if (b.n) FactorKernel<<<Grid(b.n), kBlock, 0, m.s0>>>(b, m.sc);
  cudaMemcpyAsync(m.sc_host, m.sc, sizeof(Scalars), cudaMemcpyDeviceToHost, m.s0);
  std::string err = Check(cudaStreamSynchronize(m.s0), "iteration kernels");
  if (err.empty()) err = Check(cudaGetLastError(), "iteration launch");
  out = *m.sc_host;
  return err;
}

std::string DeviceSolver::Download(const BodyView& hb, const ConstraintView& hc,
                                   const ConstraintView& hj) const {
  const Impl& m = *impl_;
  std::string err = Check(cudaMemcpy(hb.v, m.bodies.v, 6 * hb.n * sizeof(double),
                                     cudaMemcpyDeviceToHost), "cudaMemcpy v");
  if (err.empty() && hc.n)
    err = Check(cudaMemcpy(hc.lambda, m.contacts.lambda, 3 * hc.n * sizeof(double),
                           cudaMemcpyDeviceToHost), "cudaMemcpy lambda");
  if (err.empty() && hj.n)
    err = Check(cudaMemcpy(hj.lambda, m.joints.lambda, hj.n * sizeof(double),
                           cudaMemcpyDeviceToHost), "cudaMemcpy lambda");
  return err;
}

}  // namespace ncp::gpu
