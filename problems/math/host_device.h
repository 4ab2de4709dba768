// NCP_HD marks the problem's math callable from host and CUDA device code alike, so that the
// kernels and the CPU solvers run one definition of the cone and constraint operators.
#pragma once

#if defined(__CUDACC__)
#define NCP_HD __host__ __device__ __forceinline__
#else
#define NCP_HD inline
#endif
