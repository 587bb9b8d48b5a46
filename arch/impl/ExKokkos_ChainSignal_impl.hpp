// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A signal from the warp that solved a chain of extrsv's certified rows to the warps that use its
// x (ExKokkos_TrsvCertifiedChain_impl.hpp): one mbarrier per chain in shared memory, completed
// once, when the 32 lanes of the solving warp have arrived, and waited on by parity 0.
//
// Why not the team barrier: with a barrier a round, the next chain waited for the slowest warp's
// updates of the round before, though it needs only the x before it and its own warp's rows
// (a large share of a block's time; docs/performance.md). With a signal a warp waits for the one
// chain whose x it reads and runs behind by as many rounds as its work takes.
// Why an mbarrier and not a flag: an arrive releases and a wait acquires at block scope (PTX ISA,
// mbarrier), the same ordering as a flag behind __threadfence_block, and compute-sanitizer's
// racecheck follows mbarriers (it reports a volatile flag's readers as hazards). sm_80 and
// later; elsewhere chain_signals is false and the chains keep the team barrier.
#ifndef EXKOKKOS_CHAINSIGNAL_IMPL_HPP
#define EXKOKKOS_CHAINSIGNAL_IMPL_HPP

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace ExKokkos {
namespace Impl {

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
constexpr bool chain_signals = true;
#else
constexpr bool chain_signals = false;
#endif

// One thread, before a team barrier: the signal completes after `arrivals` arrivals.
KOKKOS_INLINE_FUNCTION void chain_signal_init(std::int64_t* signal, int arrivals) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const unsigned address = static_cast<unsigned>(__cvta_generic_to_shared(signal));
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(address), "r"(arrivals) : "memory");
#else
  (void)signal, (void)arrivals;
#endif
}

// This thread's writes before it are seen by the threads that waited on the signal.
KOKKOS_INLINE_FUNCTION void chain_signal_arrive(std::int64_t* signal) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const unsigned address = static_cast<unsigned>(__cvta_generic_to_shared(signal));
  asm volatile(
      "{\n .reg .b64 state;\n mbarrier.arrive.shared::cta.b64 state, [%0];\n}" ::"r"(address)
      : "memory");
#else
  (void)signal;
#endif
}

// Returns once the signal has completed (try_wait suspends the thread for a while between tests
// on sm_90, test_wait polls on sm_80).
KOKKOS_INLINE_FUNCTION void chain_signal_wait(std::int64_t* signal) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const unsigned address = static_cast<unsigned>(__cvta_generic_to_shared(signal));
  unsigned done = 0;
  do {
#if __CUDA_ARCH__ >= 900
    asm volatile(
        "{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;\n"
        " selp.u32 %0, 1, 0, p;\n}"
        : "=r"(done)
        : "r"(address)
        : "memory");
#else
    asm volatile(
        "{\n .reg .pred p;\n mbarrier.test_wait.parity.shared::cta.b64 p, [%1], 0;\n"
        " selp.u32 %0, 1, 0, p;\n}"
        : "=r"(done)
        : "r"(address)
        : "memory");
#endif
  } while (!done);
#else
  (void)signal;
#endif
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_CHAINSIGNAL_IMPL_HPP
