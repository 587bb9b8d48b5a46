// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// What the kernels assume of a backend, in one place: whether it runs on the host's cores, the
// largest team its kernels are compiled for, and the scratch memory any team may use.
#ifndef EXKOKKOS_DEVICETRAITS_IMPL_HPP
#define EXKOKKOS_DEVICETRAITS_IMPL_HPP

#include <Kokkos_Core.hpp>

#include <cstddef>

namespace ExKokkos {
namespace Impl {

// True for execution spaces that run on the host's cores (Serial, OpenMP, Threads, HPX). Callable
// in device code too: the batched LU picks its entry update by it inside a kernel (nvcc warns
// about a host-only constexpr function there).
template <class ExecSpace>
KOKKOS_INLINE_FUNCTION constexpr bool is_host_space() {
  return Kokkos::SpaceAccessibility<Kokkos::HostSpace,
                                    typename ExecSpace::memory_space>::accessible;
}

// Whether the compiler is generating device code now (a CUDA or HIP device pass, SYCL's device
// compilation). Code that runs on one thread without a team member or an execution space to name
// its backend (the serial LU forms) picks that backend's defaults by it; each pass compiles its
// own choice, so host code never runs the device's and the reverse.
KOKKOS_INLINE_FUNCTION constexpr bool in_device_pass() {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__) || defined(__SYCL_DEVICE_ONLY__)
  return true;
#else
  return false;
#endif
}

// The largest team of the device kernels: their launch bounds and register budgets are set for
// 256 threads (8 warps), and a larger team is refused before anything is launched.
constexpr int device_max_team_size = 256;

// Launch bounds for the kernels whose last team finishes (core/ExKokkos_LeagueAccumulator.hpp):
// at most device_max_team_size threads per team and TeamsPerMultiprocessor of them resident,
// which caps a GPU kernel at 65536 / (256 * teams) registers: 85 for three teams (the default), 64
// for four. The finishing path then spills to local memory, once per launch, and the accumulating
// loop keeps its occupancy.
constexpr int finishing_max_team_size = device_max_team_size;
constexpr int finishing_teams_per_multiprocessor = 3;
template <int TeamsPerMultiprocessor>
using finishing_launch_bounds_for =
    Kokkos::LaunchBounds<finishing_max_team_size, TeamsPerMultiprocessor>;
using finishing_launch_bounds = finishing_launch_bounds_for<finishing_teams_per_multiprocessor>;

// The batched LU takes at most 64 threads per matrix on devices: its launch bounds
// (BatchedLuPolicy: 64 threads and 16 teams per multiprocessor in place) cap the kernel at 65536 /
// (64 * 16) = 64 registers. Uncapped, the rounding path of the exact entry update (a long
// accumulator, used only when an expansion overflows or a rounding is not certified) gave the whole
// kernel 255 registers and held a multiprocessor to 8 teams of 32 threads; capped, that path spills
// to local memory (a 2.8 KiB stack) and 32 teams fit, which makes the kernel two to three times
// faster; caps of 128 and 32 registers are slower (figures: docs/performance.md).
constexpr int device_lu_max_team_size = 64;

// The shared memory any CUDA block may have without opting in (the same on HIP): team scratch
// that stays under it launches everywhere.
constexpr std::size_t device_block_scratch_bytes = 48 * 1024;

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_DEVICETRAITS_IMPL_HPP
