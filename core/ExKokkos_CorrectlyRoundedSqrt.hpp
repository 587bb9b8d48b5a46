// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The correctly rounded square root of the exact value held by a LongAccumulator (exnrm2).
//
// sqrt(RN(S)) rounds twice and can be an ulp off; scaling by 1e300 before and after loses bits in
// the subnormal range. Instead: take an estimate r within an ulp or two of sqrt(S), then decide
// exactly on which side of the two midpoints around r the true root lies. sqrt(S) > r + g/2
// (g the gap to the next double up) exactly when S > (r + g/2)^2, i.e. when
//     4S - (2r + g)^2 = 4S - 4r^2 - 4rg - g^2 > 0,
// and every term on the right is an exact product of two doubles, so the sign is decided in a
// long accumulator with no rounding at all. An exact midpoint (a tie) rounds to the even
// neighbour; beyond the largest finite value plus half its ulp the result is +inf. The estimate
// comes from RN(S) scaled by 2^(+-1088) (moving 34 digits) when RN(S) over- or underflows, so
// that sqrt(1e300^2 + 1e300^2) and sqrt(1e-300^2 + 1e-300^2) are both exact to the last bit.
#ifndef EXKOKKOS_CORRECTLYROUNDEDSQRT_HPP
#define EXKOKKOS_CORRECTLYROUNDEDSQRT_HPP

#include "ExKokkos_LongAccumulator.hpp"

namespace ExKokkos {
namespace Impl {

template <class T>
KOKKOS_INLINE_FUNCTION T next_up_nonnegative(T x) {
  using bits_type = typename FloatFormat<T>::bits_type;
  return compat::bit_cast<T>(static_cast<bits_type>(compat::bit_cast<bits_type>(x) + 1));
}

template <class T>
KOKKOS_INLINE_FUNCTION T next_down_positive(T x) {
  using bits_type = typename FloatFormat<T>::bits_type;
  return compat::bit_cast<T>(static_cast<bits_type>(compat::bit_cast<bits_type>(x) - 1));
}

template <class T>
KOKKOS_INLINE_FUNCTION bool is_even(T x) {
  using bits_type = typename FloatFormat<T>::bits_type;
  return (compat::bit_cast<bits_type>(x) & 1u) == 0;
}

// The sign of 4S - (2r + side g)^2 = 4S - 4r^2 - side 4rg - g^2 (side = +1 or -1), exactly.
KOKKOS_INLINE_FUNCTION int midpoint_side(const LongAccumulator& s, double r, double g, int side) {
  LongAccumulator d = s;
  for (int k = 0; k < 3; ++k) d.merge(s);
  for (int k = 0; k < 4; ++k) {
    d.add_product(-r, r);
    d.add_product(side > 0 ? -r : r, g);
  }
  d.add_product(-g, g);
  return d.sign();
}

template <class T>
KOKKOS_INLINE_FUNCTION T sqrt_rounded(const LongAccumulator& s) {
  using Fmt = FloatFormat<T>;
  T special;
  if (special_result<T>(s.flags(), special)) return special > T(0) ? special : quiet_nan<T>();
  const int sign = s.sign();
  if (sign < 0) return quiet_nan<T>();
  if (sign == 0) return s.template round<T>();  // sqrt(+-0) = +-0

  // An estimate within a few ulps, with no over- or underflow on the way.
  const double h = s.round<double>();
  double estimate;
  if (!(h < 0x1p1000) || h < 0x1p-900) {
    const int digits = h < 0x1p-900 ? 34 : -34;  // multiply S by 2^(+-1088)
    LongAccumulator scaled = s;
    scaled.shift_digits(digits);
    estimate = compat::sqrt(scaled.round<double>()) * (digits > 0 ? 0x1p-544 : 0x1p544);
  } else {
    estimate = compat::sqrt(h);
  }
  const T largest = compose<T>(false, (std::uint64_t(1) << Fmt::precision) - 1,
                               Fmt::max_exponent - (Fmt::precision - 1));
  const T smallest = compose<T>(false, 1, Fmt::min_subnormal_lsb);
  T r = static_cast<T>(estimate);
  if (!(r <= largest)) r = largest;
  if (r < smallest) r = smallest;

  // Walk to the correctly rounded value: the estimate is off by a few ulps at most.
  for (int step = 0; step < 64; ++step) {
    const bool at_top = r == largest;
    const T up = next_up_nonnegative(r);
    const double gap_up =
        at_top ? static_cast<double>(r - next_down_positive(r)) : double(up) - double(r);
    const int above = midpoint_side(s, r, gap_up, +1);
    if (above > 0 || (above == 0 && (at_top || !is_even(r)))) {
      if (at_top) return signed_infinity<T>(false);  // at or beyond largest + ulp/2
      if (above == 0) return up;                     // a tie, and up is the even neighbour
      r = up;
      continue;
    }
    if (above == 0) return r;  // a tie, and r is even
    if (r == smallest) return r;
    const T down = next_down_positive(r);
    const int below = midpoint_side(s, r, double(r) - double(down), -1);
    if (below < 0 || (below == 0 && !is_even(r))) {
      if (below == 0) return down;
      r = down;
      continue;
    }
    return r;
  }
  return r;  // not reached: the estimate is within a few ulps
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_CORRECTLYROUNDEDSQRT_HPP
