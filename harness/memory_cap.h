// An address-space cap for work whose allocations can exceed the machine (a generator at the
// top of its parameters' ranges, a peer library's job): past it an allocation fails, and
// std::bad_alloc is reported in one line, where the kernel's OOM killer would end the process
// without a word (or the machine would swap).
#pragma once

namespace ncp {

// `fraction` of the physical memory in bytes; 0 (no cap) under AddressSanitizer, whose shadow
// memory reserves terabytes of address space, or when the size is unknown.
double MemoryCapBytes(double fraction);

// Lowers this process's RLIMIT_AS to `bytes` (never raises it; 0: leaves it). Not for a process
// that may start CUDA, which reserves far more address space than memory.
void CapAddressSpace(double bytes);

}  // namespace ncp
