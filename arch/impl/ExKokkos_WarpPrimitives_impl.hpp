// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The warp primitives extrsv's certified chain uses (ExKokkos_TrsvCertifiedChain_impl.hpp), as
// small named functions of the chain's width W: 32 is a CUDA warp (shuffles and ballots), 1 is a
// single row on any backend, where each function is the identity of one lane. Backend-specific
// code lives in this folder only.
#ifndef EXKOKKOS_WARPPRIMITIVES_IMPL_HPP
#define EXKOKKOS_WARPPRIMITIVES_IMPL_HPP

#include <Kokkos_Core.hpp>

#include <type_traits>

namespace ExKokkos {
namespace Impl {

// The chain's width: a warp on CUDA when the team is whole warps (Kokkos lays a team with vector
// length 1 out along threadIdx.y, so team ranks 32 w .. 32 w + 31 are warp w), else one row.
template <class ExecSpace>
int certified_chain_width(int team_size) {
#if defined(KOKKOS_ENABLE_CUDA)
  if (std::is_same<ExecSpace, Kokkos::Cuda>::value && team_size % 32 == 0) return 32;
#else
  (void)team_size;
#endif
  return 1;
}

// x from lane k of the warp (W = 32: CUDA only; W = 1: the value itself).
template <int W>
KOKKOS_INLINE_FUNCTION double chain_broadcast(double x, int k) {
  if constexpr (W == 1) {
    (void)k;
    return x;
  } else {
#if defined(__CUDA_ARCH__)
    return __shfl_sync(0xffffffffu, x, k);
#else
    (void)k;
    return x;               // (not reached: W > 1 only runs on CUDA devices)
#endif
  }
}

// The first lane whose `failed` is true, or W.
template <int W>
KOKKOS_INLINE_FUNCTION int chain_first_failed(bool failed) {
  if constexpr (W == 1) {
    return failed ? 0 : 1;
  } else {
#if defined(__CUDA_ARCH__)
    const unsigned mask = __ballot_sync(0xffffffffu, failed);
    return mask ? __ffs(mask) - 1 : W;
#else
    return failed ? 0 : W;  // (not reached)
#endif
  }
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_WARPPRIMITIVES_IMPL_HPP
