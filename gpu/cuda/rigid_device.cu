// Kernels of `subadmm-gpu` (001 §II-C, Fig. 3): each kernel is one loop of the CPU path
// (solvers/subadmm_rigid/subadmm_rigid_cpu.cc) with one thread per element, calling the same
// functions of solvers/subadmm_rigid/rigid_math.h. Reductions: warp shuffles, then one atomic
// per warp.
#include "gpu/cuda/rigid_device.h"

#include <cuda_runtime.h>

#include <cstring>
#include <string>
#include <type_traits>
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
  // Every array of the layout and the scalars live in one allocation, filled by one copy: a
  // cudaMalloc and a cudaMemcpy per array were a large part of a small problem's setup.
  struct Piece {
    void* dst;         // address of the view's pointer, set by Commit
    const void* host;  // initial contents, or null (zeros)
    std::size_t offset, bytes;
  };
  std::vector<Piece> pieces;
  std::size_t arena_bytes = 0;
  void* arena = nullptr;
  BodyView bodies;
  ConstraintView contacts, joints;
  Scalars* sc = nullptr;       // device, in the arena
  Scalars* sc_host = nullptr;  // pinned, for the asynchronous copy back
  cudaStream_t s0 = nullptr, s1 = nullptr;
  cudaEvent_t body_done = nullptr, joints_done = nullptr;
  // One iteration's launches and copy back as a CUDA graph: one launch instead of up to seven
  // (001 §II-C's iteration is a handful of short kernels, launch-bound on small scenes).
  cudaGraphExec_t iteration = nullptr;

  // Room for `count` elements behind `dst` (a view's pointer), from `host` when given.
  template <typename P>
  void Reserve(P& dst, const void* host, std::size_t count) {
    using T = std::remove_pointer_t<P>;
    dst = nullptr;
    if (count == 0) return;
    constexpr std::size_t kAlign = 256;  // cudaMalloc's own alignment, for every array
    const std::size_t offset = (arena_bytes + kAlign - 1) / kAlign * kAlign;
    pieces.push_back({static_cast<void*>(&dst), host, offset, count * sizeof(T)});
    arena_bytes = offset + count * sizeof(T);
  }
  void ReserveSet(const ConstraintView& h, ConstraintView& d, int nr) {
    d.n = h.n;
    Reserve(d.body, h.body, 2 * h.n);
    Reserve(d.J, h.J, 2 * nr * 6 * h.n);
    Reserve(d.e, h.e, nr * h.n);
    Reserve(d.type, h.type, h.n);
    Reserve(d.mu, h.mu, h.n), Reserve(d.stiffness, h.stiffness, h.n);
    Reserve(d.damping, h.damping, h.n);
    Reserve(d.lambda, h.lambda, nr * h.n);
    Reserve(d.w, h.w, 2 * nr * h.n), Reserve(d.y, h.y, 2 * nr * h.n);
    Reserve(d.z, h.z, 2 * nr * h.n);
  }
  // Allocates the arena, points the views into it and copies the host contents over.
  std::string Commit() {
    if (std::string err = Check(cudaMalloc(&arena, arena_bytes), "cudaMalloc"); !err.empty())
      return err;
    std::vector<unsigned char> image(arena_bytes, 0);
    for (const Piece& piece : pieces) {
      if (piece.host) std::memcpy(image.data() + piece.offset, piece.host, piece.bytes);
      void* d = static_cast<unsigned char*>(arena) + piece.offset;
      std::memcpy(piece.dst, &d, sizeof d);  // every view pointer is a plain object pointer
    }
    return Check(cudaMemcpy(arena, image.data(), arena_bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
  }

  // Bodies first; contacts (s0) and joints (s1) run concurrently after it; the residual, the
  // β rule and the conditional refactorization follow on s0, then the scalars come back.
  void Enqueue() {
    const BodyView& b = bodies;
    if (b.n) BodyKernel<<<Grid(b.n), kBlock, 0, s0>>>(b, sc);
    if (joints.n) {
      cudaEventRecord(body_done, s0);
      cudaStreamWaitEvent(s1, body_done, 0);
      ConstraintKernel<1><<<Grid(joints.n), kBlock, 0, s1>>>(joints, b, sc);
      cudaEventRecord(joints_done, s1);
    }
    if (contacts.n) ConstraintKernel<3><<<Grid(contacts.n), kBlock, 0, s0>>>(contacts, b, sc);
    if (joints.n) cudaStreamWaitEvent(s0, joints_done, 0);
    if (b.n) ResidualKernel<<<Grid(b.n), kBlock, 0, s0>>>(b, sc);
    AdaptKernel<<<1, 1, 0, s0>>>(sc);
    if (b.n) FactorKernel<<<Grid(b.n), kBlock, 0, s0>>>(b, sc);
    cudaMemcpyAsync(sc_host, sc, sizeof(Scalars), cudaMemcpyDeviceToHost, s0);
  }

  // Records Enqueue() as a graph; where capture or instantiation fails, Iterate launches the
  // kernels one by one (the same work).
  void Capture() {
    cudaGraph_t graph = nullptr;
    if (cudaStreamBeginCapture(s0, cudaStreamCaptureModeThreadLocal) == cudaSuccess) {
      Enqueue();
      if (cudaStreamEndCapture(s0, &graph) == cudaSuccess && graph != nullptr &&
          cudaGraphInstantiate(&iteration, graph, 0) != cudaSuccess)
        iteration = nullptr;
    }
    if (graph) cudaGraphDestroy(graph);
    cudaGetLastError();  // a failed capture is not the solver's error
  }

  ~Impl() {
    if (iteration) cudaGraphExecDestroy(iteration);
    if (arena) cudaFree(arena);
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
  std::string err = Check(cudaStreamCreateWithFlags(&m.s0, cudaStreamNonBlocking), "cudaStreamCreate");
  if (err.empty()) err = Check(cudaStreamCreateWithFlags(&m.s1, cudaStreamNonBlocking), "cudaStreamCreate");
  if (err.empty()) err = Check(cudaEventCreateWithFlags(&m.body_done, cudaEventDisableTiming), "cudaEventCreate");
  if (err.empty()) err = Check(cudaEventCreateWithFlags(&m.joints_done, cudaEventDisableTiming), "cudaEventCreate");
  if (err.empty()) err = Check(cudaMallocHost(&m.sc_host, sizeof(Scalars)), "cudaMallocHost");
  if (!err.empty()) return err;
  BodyView& b = m.bodies;
  b.n = hb.n;
  m.Reserve(b.mass, hb.mass, hb.mass ? 4 * hb.n : 0);
  m.Reserve(b.A, hb.A, hb.A ? kTri * hb.n : 0);
  m.Reserve(b.C, hb.C, kTri * hb.n), m.Reserve(b.L, hb.L, kTri * hb.n);
  m.Reserve(b.b, hb.b, 6 * hb.n), m.Reserve(b.v, hb.v, 6 * hb.n);
  m.Reserve(b.g, hb.g, 6 * hb.n), m.Reserve(b.h, hb.h, 6 * hb.n);
  m.Reserve(b.hold, hb.hold, 6 * hb.n);
  m.ReserveSet(hc, m.contacts, 3);
  m.ReserveSet(hj, m.joints, 1);
  m.Reserve(m.sc, &sc, 1);
  err = m.Commit();
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
  if (err.empty()) err = Check(cudaDeviceSynchronize(), "upload");
  if (err.empty()) m.Capture();
  return err;
}

std::string DeviceSolver::Iterate(Scalars& out) {
  Impl& m = *impl_;
  std::string err;
  if (m.iteration)
    err = Check(cudaGraphLaunch(m.iteration, m.s0), "cudaGraphLaunch");
  else
    m.Enqueue();
  if (err.empty()) err = Check(cudaStreamSynchronize(m.s0), "iteration kernels");
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
