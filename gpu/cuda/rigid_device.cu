// Kernels of `subadmm-gpu` (001 §II-C, Fig. 3): each phase is one loop of the CPU path
// (solvers/subadmm_rigid/subadmm_rigid_cpu.cc) over its elements, grid-strided, calling the same
// functions of solvers/subadmm_rigid/rigid_math.h; the iteration's phases are those of
// rigid_chunk.h, which a host test runs with emulated threads. Phases are separated by grid
// barriers of a cooperative launch (all blocks resident), so one launch runs a whole chunk of
// iterations. Reductions: warp shuffles, then one atomic per warp.
#include "gpu/cuda/rigid_device.h"

#include "gpu/cuda/host_copy.h"
#include "solvers/subadmm_rigid/rigid_chunk.h"

#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace ncp::gpu {
namespace {

namespace cg = cooperative_groups;

constexpr int kBlock = 256;  // the largest block a launch may use (launch bounds)

__device__ void WarpReduce(double& mx, double& sum) {
  for (int off = 16; off > 0; off >>= 1) {
    mx = fmax(mx, __shfl_down_sync(0xffffffffu, mx, off));
    sum += __shfl_down_sync(0xffffffffu, sum, off);
  }
}

// Setup: clear J's slots and the accumulators, scatter J's columns into the slots, C_b per
// constraint slot, then the factors and the slacks from v̂⁰, λ⁰. `sc` arrives with refactor = 1
// and leaves with the scatter's and the factorization's verdicts.
__global__ void __launch_bounds__(kBlock)
    SetupKernel(BodyView b, ConstraintView c, ConstraintView j, JSource src, Scalars* sc,
                ChunkScratch* x, int* mismatch) {
  cg::grid_group grid = cg::this_grid();
  const int tid = blockIdx.x * blockDim.x + threadIdx.x, stride = gridDim.x * blockDim.x;
  const int nc = c.n, nall = c.n + j.n;
  Scalars s = *sc;
  for (int q = tid; q < b.n; q += stride) {
    for (int t = 0; t < kTri; ++t) b.C[t * b.n + q] = 0.0;  // L: every entry factorized below
    for (int k = 0; k < 6; ++k)
      b.g[k * b.n + q] = b.h[k * b.n + q] = b.hold[k * b.n + q] = b.gold[k * b.n + q] = 0.0;
  }
  for (int q = tid; q < nall; q += stride) {
    const ConstraintView& v = q < nc ? c : j;
    const int i = q < nc ? q : q - nc, rows = q < nc ? 3 : 1;
    for (int r = 0; r < 2 * rows; ++r) v.w[r * v.n + i] = v.y[r * v.n + i] = v.z[r * v.n + i] = 0.0;
    double* J = const_cast<double*>(v.J);  // the layout's own J, filled below
    for (int r = 0; r < 12 * rows; ++r) J[r * v.n + i] = 0.0;
  }
  if (tid == 0) *x = ChunkScratch{}, *mismatch = 0;
  grid.sync();
  for (int q = tid; q < src.cols; q += stride)
    if (!ScatterColumn(src, c, j, q)) SetFlag(mismatch);
  grid.sync();
  for (int q = tid; q < nall; q += stride)
    for (int slot = 0; slot < 2; ++slot) {
      if (q < nc)
        AssembleElement<3>(c, b, q, slot);
      else
        AssembleElement<1>(j, b, q - nc, slot);
    }
  grid.sync();
  for (int q = tid; q < b.n; q += stride) FactorStep(b, s, q);
  PublishFlag(s.factor_failed, &x->factor_failed);
  for (int q = tid; q < nall; q += stride) {
    if (q < nc)
      InitElement<3>(c, b, s, q);
    else
      InitElement<1>(j, b, s, q - nc);
  }
  grid.sync();
  if (tid == 0) {
    sc->factor_failed = __ldcg(&x->factor_failed);
    sc->j_mismatch = __ldcg(mismatch);
    sc->refactor = 0;
    sc->refactorizations = 1;
  }
}

// k ≥ 1 iterations of 001 Fig. 3, the phases of solvers/subadmm_rigid/rigid_chunk.h between
// grid barriers. Every thread keeps its own copy of the scalars and applies the β rule to the
// same reduced values, so all threads take the same branches and meet every barrier.
__global__ void __launch_bounds__(kBlock)
    IterateKernel(BodyView b, ConstraintView c, ConstraintView j, Scalars* sc, ChunkScratch* x,
                  int k) {
  cg::grid_group grid = cg::this_grid();
  const int tid = blockIdx.x * blockDim.x + threadIdx.x, stride = gridDim.x * blockDim.x;
  const bool lane0 = (threadIdx.x & 31) == 0;
  Scalars s = *sc;
  ChunkBodies(b, s, x, tid, stride);
  grid.sync();
  for (int it = 0; it < k; ++it) {
    const int slot = Slot(s.iter);
    const bool next = it + 1 < k;
    double tp2 = 0.0, ty = 0.0;
    ChunkConstraints(c, j, b, s, x, tid, stride, tp2, ty);
    WarpReduce(tp2, ty);
    if (lane0) MaxTo(&x->tp2_bits[slot], tp2), AddTo(&x->ty[slot], ty);
    grid.sync();
    double td = ChunkResidual(b, s, x, tid, stride, next), unused = 0.0;
    WarpReduce(td, unused);
    if (lane0) MaxTo(&x->td_bits[slot], td);
    grid.sync();
    if (ChunkAdapt(s, x)) break;
    if (s.refactor) {  // β changed: every body refactorizes, then its next v̂ again
      ChunkFactor(b, s, x, tid, stride, next);
      grid.sync();
      if (ChunkFactorFailed(s, x)) break;
      if (next) {
        ChunkRedoBodies(b, s, x, tid, stride);
        grid.sync();
      }
    }
  }
  if (tid == 0) *sc = s;  // every thread read *sc before the first barrier
}

std::string Check(cudaError_t e, const char* what) {
  return e == cudaSuccess ? std::string() : std::string(what) + ": " + cudaGetErrorString(e);
}

double Ms(std::chrono::steady_clock::time_point a, std::chrono::steady_clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

}  // namespace

std::string CudaDeviceName() {
  // Asked once: every Setup checks for a device, and the properties query is not free.
  static const std::string name = [] {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
      cudaGetLastError();  // clear the sticky "no device" error
      return std::string();
    }
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) return std::string();
    return std::string(prop.name);
  }();
  return name;
}

struct DeviceSolver::Impl {
  // Every array of the layout and the scalars live in one device allocation. The arrays with
  // host contents come first, so that one copy from one pinned staging buffer fills them; the
  // rest (C, L, accumulators, slacks, scratch) is cleared by the setup kernel.
  struct Piece {
    void* dst;         // address of the view's pointer, set by Commit
    const void* host;  // contents, or null (cleared on the device)
    std::size_t offset, bytes;
  };
  std::vector<Piece> pieces;
  std::vector<HostCopy> copies, parts;  // of the pack
  int pack_threads = 1;
  std::size_t arena_bytes = 0, upload_bytes = 0;
  void* arena = nullptr;
  std::size_t arena_capacity = 0;
  unsigned char* staging = nullptr;  // pinned
  std::size_t staging_capacity = 0;
  BodyView bodies;
  ConstraintView contacts, joints;
  JSource source;
  int* mismatch = nullptr;          // device, in the arena
  Scalars* sc = nullptr;            // device, in the arena
  ChunkScratch* scratch = nullptr;  // device, in the arena
  Scalars* sc_host = nullptr;       // pinned, for the asynchronous copy back
  cudaStream_t stream = nullptr;
  cudaEvent_t marks[3] = {};                 // before the copy, after it, after the setup kernel
  int block = 0;                             // threads per block of the occupancy below
  int setup_blocks = 0, iterate_blocks = 0;  // co-resident blocks of each kernel
  int iterate_grid = 1;                      // this problem's blocks of IterateKernel
  UploadTimes times;

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
  void ReserveInputs(const ConstraintView& h, ConstraintView& d, int nr) {
    d.n = h.n;
    Reserve(d.body, h.body, 2 * h.n);
    Reserve(d.e, h.e, nr * h.n);
    Reserve(d.type, h.type, h.n);
    Reserve(d.mu, h.mu, h.n), Reserve(d.stiffness, h.stiffness, h.n);
    Reserve(d.damping, h.damping, h.n);
    Reserve(d.lambda, h.lambda, nr * h.n);
  }
  void ReserveSource(const JSource& h, std::size_t entries) {
    source.cols = h.cols, source.rows = h.rows;
    Reserve(source.col_begin, h.col_begin, h.cols + 1);
    Reserve(source.col_count, h.col_count, h.col_count ? h.cols : 0);
    Reserve(source.row, h.row, entries), Reserve(source.value, h.value, entries);
    Reserve(source.dof_place, h.dof_place, h.cols), Reserve(source.row_place, h.row_place, h.rows);
  }
  void ReserveWork(ConstraintView& d, int nr) {
    Reserve(d.J, nullptr, 2 * nr * 6 * d.n);
    Reserve(d.w, nullptr, 2 * nr * d.n), Reserve(d.y, nullptr, 2 * nr * d.n);
    Reserve(d.z, nullptr, 2 * nr * d.n);
  }

  std::string Start(int threads_per_block) {
    if (stream && block == threads_per_block) return {};
    std::string err;
    if (!stream)
      err = Check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
    for (cudaEvent_t& e : marks)
      if (err.empty() && !e) err = Check(cudaEventCreate(&e), "cudaEventCreate");
    if (err.empty() && !sc_host)
      err = Check(cudaMallocHost(&sc_host, sizeof(Scalars)), "cudaMallocHost");
    block = threads_per_block;
    int device = 0, cooperative = 0, sms = 0, per_sm_setup = 0, per_sm_iterate = 0;
    if (err.empty()) err = Check(cudaGetDevice(&device), "cudaGetDevice");
    if (err.empty())
      err = Check(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device),
                  "cudaDeviceGetAttribute");
    if (err.empty() && !cooperative) err = "the device does not support cooperative launches";
    if (err.empty())
      err = Check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device),
                  "cudaDeviceGetAttribute");
    if (err.empty())
      err =
          Check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm_setup, SetupKernel, block, 0),
                "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
    if (err.empty())
      err = Check(
          cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm_iterate, IterateKernel, block, 0),
          "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
    setup_blocks = per_sm_setup * sms, iterate_blocks = per_sm_iterate * sms;
    if (err.empty() && (setup_blocks < 1 || iterate_blocks < 1))
      err = "no block of the subadmm-gpu kernels fits on a multiprocessor";
    if (!err.empty()) block = 0;  // asked again next time
    return err;
  }

  // Grows the device arena and the pinned staging to this problem's size (a quarter more, so a
  // scene whose contacts vary from step to step settles on one size), then points the views
  // into the arena and packs the host contents into the staging buffer.
  std::string Commit() {
    if (arena_bytes > arena_capacity) {
      if (arena) cudaFree(arena), arena = nullptr, arena_capacity = 0;
      const std::size_t want = arena_bytes + arena_bytes / 4;
      if (std::string err = Check(cudaMalloc(&arena, want), "cudaMalloc"); !err.empty()) return err;
      arena_capacity = want;
    }
    if (upload_bytes > staging_capacity) {
      if (staging) cudaFreeHost(staging), staging = nullptr, staging_capacity = 0;
      const std::size_t want = upload_bytes + upload_bytes / 4;
      if (std::string err = Check(cudaMallocHost(&staging, want), "cudaMallocHost"); !err.empty())
        return err;
      staging_capacity = want;
    }
    for (const Piece& piece : pieces) {
      void* d = static_cast<unsigned char*>(arena) + piece.offset;
      std::memcpy(piece.dst, &d, sizeof d);  // every view pointer is a plain object pointer
    }
    copies.clear();
    for (const Piece& piece : pieces)
      if (piece.host)
        copies.push_back(
            {piece.offset, static_cast<const unsigned char*>(piece.host), piece.bytes});
    CopyPieces(staging, copies, pack_threads, parts);
    return {};
  }

  int Blocks(int elements, int most) const {
    return std::max(1, std::min(most, (elements + block - 1) / block));
  }

  ~Impl() {
    if (arena) cudaFree(arena);
    if (staging) cudaFreeHost(staging);
    if (sc_host) cudaFreeHost(sc_host);
    for (cudaEvent_t e : marks)
      if (e) cudaEventDestroy(e);
    if (stream) cudaStreamDestroy(stream);
  }
};

DeviceSolver::DeviceSolver() : impl_(std::make_unique<Impl>()) {}
DeviceSolver::~DeviceSolver() = default;

const UploadTimes& DeviceSolver::upload_times() const { return impl_->times; }

std::string DeviceSolver::Upload(const BodyView& hb, const ConstraintView& hc,
                                 const ConstraintView& hj, const JSource& src, Scalars& sc,
                                 int threads, int block) {
  Impl& m = *impl_;
  if (block < 32 || block > kBlock || block % 32 != 0)
    return "threads per block " + std::to_string(block) + ": needs a multiple of 32 up to " +
           std::to_string(kBlock);
  if (std::string err = m.Start(block); !err.empty()) return err;
  m.pack_threads = std::max(1, threads);
  const auto t0 = std::chrono::steady_clock::now();
  m.pieces.clear();
  m.arena_bytes = 0;
  BodyView& b = m.bodies;
  b.n = hb.n;
  m.Reserve(b.mass, hb.mass, hb.mass ? 4 * hb.n : 0);
  m.Reserve(b.A, hb.A, hb.A ? kTri * hb.n : 0);
  m.Reserve(b.b, hb.b, 6 * hb.n), m.Reserve(b.v, hb.v, 6 * hb.n);
  m.ReserveInputs(hc, m.contacts, 3);
  m.ReserveInputs(hj, m.joints, 1);
  // Entries of J: the last column's end (compressed or not, every entry lies below it).
  const std::size_t entries =
      src.cols == 0 ? 0
      : src.col_count
          ? static_cast<std::size_t>(src.col_begin[src.cols - 1]) + src.col_count[src.cols - 1]
          : static_cast<std::size_t>(src.col_begin[src.cols]);
  m.ReserveSource(src, entries);
  m.Reserve(m.sc, &sc, 1);
  m.upload_bytes = m.arena_bytes;
  m.Reserve(b.C, nullptr, kTri * hb.n), m.Reserve(b.L, nullptr, kTri * hb.n);
  m.Reserve(b.g, nullptr, 6 * hb.n), m.Reserve(b.h, nullptr, 6 * hb.n);
  m.Reserve(b.hold, nullptr, 6 * hb.n), m.Reserve(b.gold, nullptr, 6 * hb.n);
  m.ReserveWork(m.contacts, 3);
  m.ReserveWork(m.joints, 1);
  m.Reserve(m.scratch, nullptr, 1), m.Reserve(m.mismatch, nullptr, 1);
  if (std::string err = m.Commit(); !err.empty()) return err;
  m.times.pack_ms = Ms(t0, std::chrono::steady_clock::now());
  m.times.bytes = static_cast<double>(m.upload_bytes);

  cudaEventRecord(m.marks[0], m.stream);
  std::string err =
      Check(cudaMemcpyAsync(m.arena, m.staging, m.upload_bytes, cudaMemcpyHostToDevice, m.stream),
            "cudaMemcpyAsync");
  cudaEventRecord(m.marks[1], m.stream);
  if (err.empty()) {
    void* args[] = {&m.bodies, &m.contacts, &m.joints, &m.source, &m.sc, &m.scratch, &m.mismatch};
    const int elements = std::max(hb.n, hc.n + hj.n);
    m.iterate_grid = m.Blocks(elements, m.iterate_blocks);
    const int blocks = m.Blocks(std::max(elements, src.cols), m.setup_blocks);
    err = Check(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(SetupKernel), blocks,
                                            m.block, args, 0, m.stream),
                "setup launch");
  }
  cudaEventRecord(m.marks[2], m.stream);
  if (err.empty())
    err = Check(cudaMemcpyAsync(m.sc_host, m.sc, sizeof(Scalars), cudaMemcpyDeviceToHost, m.stream),
                "cudaMemcpyAsync");
  const std::string sync = Check(cudaStreamSynchronize(m.stream), "setup kernel");
  if (err.empty()) err = sync;
  if (!err.empty()) return err;
  float copy = 0, kernel = 0;
  cudaEventElapsedTime(&copy, m.marks[0], m.marks[1]);
  cudaEventElapsedTime(&kernel, m.marks[1], m.marks[2]);
  m.times.copy_ms = copy, m.times.kernel_ms = kernel;
  sc = *m.sc_host;
  return {};
}

std::string DeviceSolver::Iterate(int k, Scalars& out) {
  Impl& m = *impl_;
  if (k < 1) return {};
  void* args[] = {&m.bodies, &m.contacts, &m.joints, &m.sc, &m.scratch, &k};
  std::string err = Check(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(IterateKernel),
                                                      m.iterate_grid, m.block, args, 0, m.stream),
                          "iteration launch");
  if (err.empty())
    err = Check(cudaMemcpyAsync(m.sc_host, m.sc, sizeof(Scalars), cudaMemcpyDeviceToHost, m.stream),
                "cudaMemcpyAsync");
  const std::string sync = Check(cudaStreamSynchronize(m.stream), "iteration kernel");
  if (err.empty()) err = sync;
  if (err.empty()) out = *m.sc_host;
  return err;
}

std::string DeviceSolver::Download(const BodyView& hb, const ConstraintView& hc,
                                   const ConstraintView& hj) const {
  const Impl& m = *impl_;
  std::string err =
      Check(cudaMemcpy(hb.v, m.bodies.v, 6 * hb.n * sizeof(double), cudaMemcpyDeviceToHost),
            "cudaMemcpy v");
  if (err.empty() && hc.n)
    err = Check(
        cudaMemcpy(hc.lambda, m.contacts.lambda, 3 * hc.n * sizeof(double), cudaMemcpyDeviceToHost),
        "cudaMemcpy lambda");
  if (err.empty() && hj.n)
    err =
        Check(cudaMemcpy(hj.lambda, m.joints.lambda, hj.n * sizeof(double), cudaMemcpyDeviceToHost),
              "cudaMemcpy lambda");
  return err;
}

}  // namespace ncp::gpu
