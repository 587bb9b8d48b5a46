// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ExKokkos: the one place that absorbs the differences between Kokkos 3.4.01 and 4.x / 5.x.
//
// Everything else in ExKokkos calls ExKokkos::Impl::compat::* and never tests KOKKOS_VERSION
// itself. The differences handled here (see docs/design.md, "Kokkos versions"):
//  - fabs/isnan/isinf/isfinite/fmin/fmax/sqrt live in Kokkos::Experimental before 3.7, in Kokkos
//  after;
//  - Kokkos::fma exists only from 4.0;
//  - Kokkos::bit_cast exists only from 4.1;
//  - Kokkos::atomic_fetch_add in 3.4 deduces its value type from both arguments, so the helpers
//    below take exactly typed arguments;
//  - OpenMP kernels start only from the thread that initialized Kokkos before 4.0.
#ifndef EXKOKKOS_COMPAT_HPP
#define EXKOKKOS_COMPAT_HPP

#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#if defined(__FAST_MATH__) || defined(__USE_FAST_MATH__)
// Fast-math lets the compiler reassociate and drop the rounding errors that the error-free
// transformations compute: every result of ExKokkos would silently be wrong.
#error "ExKokkos requires IEEE arithmetic: compile without -ffast-math / --use_fast_math"
#endif

#if !defined(KOKKOS_VERSION)
#error "ExKokkos needs KOKKOS_VERSION (Kokkos 3.4.01 or newer)"
#endif

// Loops over independent lanes (ExpansionLanes) carry `omp simd`: GCC's own vectorizer gives up on
// the TwoSum cascades, the pragma makes them vector code. Empty in device passes and without
// OpenMP (-fopenmp or -fopenmp-simd), where the loops stay correct scalar code.
#define EXKOKKOS_PRAGMA(x) _Pragma(#x)
#if defined(_OPENMP) && !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
#define EXKOKKOS_SIMD EXKOKKOS_PRAGMA(omp simd)
#define EXKOKKOS_SIMD_REDUCE_OR(var) EXKOKKOS_PRAGMA(omp simd reduction(| : var))
#define EXKOKKOS_SIMD_REDUCE_SUM(var) EXKOKKOS_PRAGMA(omp simd reduction(+ : var))
#else
#define EXKOKKOS_SIMD
#define EXKOKKOS_SIMD_REDUCE_OR(var)
#define EXKOKKOS_SIMD_REDUCE_SUM(var)
#endif

// Loops over a warp's lanes unrolled in device passes, so that the arrays they index stay in
// registers (a chain's entries in extrsv's certified rows); EXKOKKOS_DEVICE_UNROLL_BY(n), n
// iterations a copy, for long bodies whose whole unrolling costs more than it saves. Empty on the
// host.
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#define EXKOKKOS_DEVICE_UNROLL EXKOKKOS_PRAGMA(unroll)
#define EXKOKKOS_DEVICE_UNROLL_BY(n) EXKOKKOS_PRAGMA(unroll n)
#else
#define EXKOKKOS_DEVICE_UNROLL
#define EXKOKKOS_DEVICE_UNROLL_BY(n)
#endif

// Short loops over a fixed array of terms (VecSum over up to 32 doubles) unrolled whole, so that
// the array stays in registers and a loop over elements around them vectorizes: GCC peels at most
// 16 iterations completely by itself. Device passes unroll them too; other host compilers (and
// nvcc's and hipcc's host passes) decide.
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#define EXKOKKOS_UNROLL_TERMS EXKOKKOS_PRAGMA(unroll)
#elif defined(__GNUC__) && !defined(__clang__) && !defined(__INTEL_LLVM_COMPILER) && \
    !defined(__CUDACC__) && !defined(__HIPCC__)
#define EXKOKKOS_UNROLL_TERMS EXKOKKOS_PRAGMA(GCC unroll 32)
#else
#define EXKOKKOS_UNROLL_TERMS
#endif

// The window loops of ExpansionLanes in 512-bit vectors where the target has AVX-512: GCC tunes
// -march=skylake-avx512 (Kokkos' SKX) for 256-bit vectors, which leaves the cascades a quarter
// slower (figures: docs/performance.md, "Tuning measurements"). Out of
// line, because a function inlined into its caller is compiled with the caller's tuning (a call
// per window of 8 x 32 terms costs nothing). Only GCC's host passes: the attribute is GCC's, and
// device compilers need none.
#if defined(__GNUC__) && !defined(__clang__) && !defined(__INTEL_LLVM_COMPILER) && \
    !defined(__CUDACC__) && !defined(__HIPCC__) && defined(__AVX512F__)
#define EXKOKKOS_HOST_WIDE_VECTORS __attribute__((noinline, target("prefer-vector-width=512")))
#else
#define EXKOKKOS_HOST_WIDE_VECTORS
#endif

namespace ExKokkos {
namespace Impl {
namespace compat {

// A hint to a CPU core to start loading the cache line at p (a no-op on devices and for compilers
// without the builtin). The host lane walks read a slice of a column per step, columns a leading
// dimension apart: the hardware prefetchers do not follow jumps across pages, so without this each
// step waits for memory (a profile: docs/performance.md, "Tuning measurements").
KOKKOS_INLINE_FUNCTION void prefetch(const void* p) {
#if defined(__GNUC__) && !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
  __builtin_prefetch(p, 0, 3);
#else
  (void)p;
#endif
}

// A hint to a GPU to bring the cache line at p into its L2 cache, for data that a later kernel
// reads with loads on its critical path (a no-op elsewhere). CUDA's prefetch.L2 takes a generic
// address.
KOKKOS_INLINE_FUNCTION void prefetch_l2(const void* p) {
#if defined(__CUDA_ARCH__)
  asm volatile("prefetch.L2 [%0];" ::"l"(p));
#else
  (void)p;
#endif
}

// x - y, rounded once, computed on a CPU core's fused multiply-add units where it has them:
// fma(x, 1, -y) rounds the exact x * 1 - y = x - y once, so it is the same double in every case
// (IEEE 754: an exact zero sum of opposite signs is +0 for both, -0 - +0 = -0 for both). Why:
// TwoSum is six additions, and a core like Zen 4 runs additions on two units and fused
// multiply-adds on two others; a lane cascade (ExpansionLanes) that puts two of the six on the
// fma units uses all four (figures: docs/performance.md). Plain subtraction on devices (a GPU's
// add is its fma unit) and
// where the target has no fma instruction (a library fma would be a call).
KOKKOS_FORCEINLINE_FUNCTION double difference_on_fma_unit(double x, double y) {
#if defined(__GNUC__) && (defined(__FMA__) || defined(__aarch64__)) && !defined(__CUDA_ARCH__) && \
    !defined(__HIP_DEVICE_COMPILE__) && !defined(__SYCL_DEVICE_ONLY__)
  return __builtin_fma(x, 1.0, -y);
#else
  return x - y;
#endif
}

// Kokkos::Experimental math before 3.7, Kokkos math from 3.7 on.
#if KOKKOS_VERSION >= 30700
namespace kmath = ::Kokkos;
#else
namespace kmath = ::Kokkos::Experimental;
#endif

template <class T>
KOKKOS_INLINE_FUNCTION T fabs(T x) {
  return kmath::fabs(x);
}
template <class T>
KOKKOS_INLINE_FUNCTION T sqrt(T x) {
  return kmath::sqrt(x);
}
template <class T>
KOKKOS_INLINE_FUNCTION bool isnan(T x) {
  return kmath::isnan(x);
}
template <class T>
KOKKOS_INLINE_FUNCTION bool isinf(T x) {
  return kmath::isinf(x);
}
template <class T>
KOKKOS_INLINE_FUNCTION bool isfinite(T x) {
  return kmath::isfinite(x);
}
template <class T>
KOKKOS_INLINE_FUNCTION T fmin(T a, T b) {
  return kmath::fmin(a, b);
}
template <class T>
KOKKOS_INLINE_FUNCTION T fmax(T a, T b) {
  return kmath::fmax(a, b);
}

// A fused multiply-add with a single rounding. TwoProd depends on this being a real fma: the
// C library's fma is correctly rounded on every platform ExKokkos supports, and CUDA/HIP declare
// ::fma for host and device.
KOKKOS_INLINE_FUNCTION double fma(double a, double b, double c) {
#if KOKKOS_VERSION >= 40000
  return ::Kokkos::fma(a, b, c);
#else
  return ::fma(a, b, c);
#endif
}
KOKKOS_INLINE_FUNCTION float fma(float a, float b, float c) {
#if KOKKOS_VERSION >= 40000
  return ::Kokkos::fma(a, b, c);
#else
  return ::fmaf(a, b, c);
#endif
}

// Reinterpret the bits of a trivially copyable value. memcpy is the portable pre-C++20 way and
// compiles to a register move on host and device.
template <class To, class From>
KOKKOS_INLINE_FUNCTION To bit_cast(const From& from) {
  static_assert(sizeof(To) == sizeof(From), "bit_cast needs equal sizes");
#if KOKKOS_VERSION >= 40100
  return ::Kokkos::bit_cast<To>(from);
#else
  To to;
  memcpy(&to, &from, sizeof(To));
  return to;
#endif
}

// Atomic add of an exactly typed 64-bit unsigned value (3.4 deduces the type from both arguments;
// unsigned 64-bit is also the only 64-bit type with a native atomicAdd on CUDA).
KOKKOS_INLINE_FUNCTION void atomic_add(std::uint64_t* dest, std::uint64_t value) {
  ::Kokkos::atomic_add(dest, value);
}
KOKKOS_INLINE_FUNCTION void atomic_or(std::uint32_t* dest, std::uint32_t value) {
  ::Kokkos::atomic_fetch_or(dest, value);
}
// Reads what other threads' atomics left at `src` (atomically: a plain load could be served by a
// cache that never saw them) and leaves zero there.
KOKKOS_INLINE_FUNCTION std::uint64_t atomic_take(std::uint64_t* src) {
  return ::Kokkos::atomic_exchange(src, std::uint64_t(0));
}
KOKKOS_INLINE_FUNCTION std::uint32_t atomic_take(std::uint32_t* src) {
  return ::Kokkos::atomic_exchange(src, std::uint32_t(0));
}
KOKKOS_INLINE_FUNCTION std::uint32_t atomic_fetch_add(std::uint32_t* dest, std::uint32_t value) {
  return ::Kokkos::atomic_fetch_add(dest, value);
}

// Reducers need join(volatile T&, const volatile T&) before Kokkos 4.0, may have it until 4.2, and
// must not have it from 4.2 on. ExactSum enables its volatile join from this flag.
constexpr bool reducers_take_volatile_join = KOKKOS_VERSION < 40200;

// The stream on which a GPU execution space instance runs its kernels one after another, for state
// that consecutive kernels share (LeagueAccumulator). CUDA and HIP instances name it the same way
// in 3.4 and 4.x; other spaces have none that this header knows.
struct KernelQueue {
  bool known;
  const void* id;
};
template <class ExecSpace>
auto stream_of(const ExecSpace& space, int) -> decltype(KernelQueue{true, space.cuda_stream()}) {
  return KernelQueue{true, space.cuda_stream()};
}
template <class ExecSpace>
auto stream_of(const ExecSpace& space, long) -> decltype(KernelQueue{true, space.hip_stream()}) {
  return KernelQueue{true, space.hip_stream()};
}
template <class ExecSpace>
KernelQueue stream_of(const ExecSpace&, ...) {
  return KernelQueue{false, nullptr};
}
template <class ExecSpace>
KernelQueue kernel_queue(const ExecSpace& space) {
  return stream_of(space, 0);
}

// concurrency() is static before 4.0 and a member from 4.0; calling it on an instance works in
// both.
template <class ExecSpace>
int concurrency(const ExecSpace& space) {
  return static_cast<int>(space.concurrency());
}

// Whether Kokkos' OpenMP backend would refuse to start a kernel from the calling thread. Kokkos 3
// runs OpenMP kernels only from the thread that initialized Kokkos and outside parallel regions
// (anything else throws "in parallel or not initialized" at the launch, after a routine may have
// launched other kernels); OpenMP::in_parallel tells. From 4.0 every thread may launch (each
// launch holds its instance's mutex) and in_parallel is deprecated, so only a parallel region
// (omp_in_parallel, tested by the caller) is left to refuse.
template <class ExecSpace>
bool openmp_refuses_this_thread(const ExecSpace&) {
#if defined(KOKKOS_ENABLE_OPENMP) && KOKKOS_VERSION < 40000
  if constexpr (std::is_same<ExecSpace, Kokkos::OpenMP>::value)
    return Kokkos::OpenMP::in_parallel();
#endif
  return false;
}

}  // namespace compat
}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_COMPAT_HPP
