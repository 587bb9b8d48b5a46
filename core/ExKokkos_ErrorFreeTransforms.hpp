// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Error-free transformations (EFT): a floating-point operation together with its exact rounding
// error, so that a + b == s + e and a * b == p + e hold exactly in real arithmetic.
//
// They are exact only with round-to-nearest binary arithmetic, no extended-precision (x87)
// intermediates and no reassociation or contraction. Nothing here contains a pattern a*b + c that a
// compiler could contract, and the only fused operation is the explicit fma of TwoProd. A unit test
// (test_error_free_transforms) checks the compiled code against MPFR, so a build that breaks
// these assumptions fails its tests.
#ifndef EXKOKKOS_ERRORFREETRANSFORMS_HPP
#define EXKOKKOS_ERRORFREETRANSFORMS_HPP

#include "ExKokkos_Compat.hpp"

namespace ExKokkos {
namespace Impl {

// A product rounded once. On CUDA __dmul_rn/__fmul_rn are never contracted into an fma, whatever
// --fmad says, so TwoProd stays exact even in code built without --fmad=false.
KOKKOS_INLINE_FUNCTION double mul_rn(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dmul_rn(a, b);
#else
  return a * b;
#endif
}
KOKKOS_INLINE_FUNCTION float mul_rn(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fmul_rn(a, b);
#else
  return a * b;
#endif
}

// Knuth's TwoSum (TAOCP vol. 2, 4.2.2, Theorem B): s = RN(a + b) and e = a + b - s exactly, for
// any finite a and b whose sum does not overflow. Six flops, no branch; the error of a
// floating-point addition is always representable, also for subnormal operands.
template <class T>
KOKKOS_INLINE_FUNCTION void two_sum(T a, T b, T& s, T& e) {
  s = a + b;
  const T bb = s - a;
  e = (a - (s - bb)) + (b - bb);
}

// Dekker's FastTwoSum: the same result in three flops, exact when |a| >= |b| (or a == 0).
template <class T>
KOKKOS_INLINE_FUNCTION void fast_two_sum(T a, T b, T& s, T& e) {
  s = a + b;
  e = b - (s - a);
}

// TwoProd with a fused multiply-add: p = RN(a * b), e = a * b - p, since fma(a, b, -p) rounds the
// exact a*b - p once and that difference is representable. Exact when e does not underflow and
// p does not overflow; with 53-bit significands that holds whenever 2^-969 <= |p| < 2^1024
// (then ulp(a) * ulp(b) >= 2^-1074, the grid e lives on; see two_prod_is_exact).
template <class T>
KOKKOS_INLINE_FUNCTION void two_prod(T a, T b, T& p, T& e) {
  p = Impl::mul_rn(a, b);
  e = Impl::compat::fma(a, b, -p);
}

// Thresholds that keep the expansions (see ExKokkos_Expansion.hpp) away from overflow and from
// inexact TwoProds. Values at or beyond them take the exact integer path of the long accumulator.
template <class T>
struct EftLimits;

template <>
struct EftLimits<double> {
  // |x| < 2^1000: the sum of two such values, and of up to 2^20 of them, cannot overflow.
  static constexpr double big = 0x1p1000;
  // |a*b| >= 2^-969 = 2^-1074 * 2^105: the product's exact error lies on a grid of at least
  // 2^-1074, so fma(a, b, -p) returns it exactly.
  static constexpr double small_product = 0x1p-969;
};

template <>
struct EftLimits<float> {
  static constexpr float big = 0x1p100f;
  static constexpr float small_product = 0x1p-101f;  // 2^-149 * 2^48
};

// True when two_prod(a, b) is exact and its result is far enough from overflow to be summed in an
// expansion. False for zero, NaN and infinite products, and for products that over- or underflow.
template <class T>
KOKKOS_INLINE_FUNCTION bool two_prod_is_exact(T p) {
  const T ap = compat::fabs(p);
  return ap >= EftLimits<T>::small_product && ap < EftLimits<T>::big;
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_ERRORFREETRANSFORMS_HPP
