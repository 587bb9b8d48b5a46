// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The correctly rounded square root of the exact value held by a LongAccumulator (exnrm2).
//
// sqrt(RN(S)) rounds twice and can be an ulp off; scaling by 1e300 before and after loses bits in
// the subnormal range. Instead: take an estimate r within an ulp or two of sqrt(S), then decide
// exactly on which side of the two midpoints around r the true root lies. sqrt(S) > r + g/2
// (g the gap to the next double up) exactly when 4S > (2r + g)^2. Both sides are integers in a
// common unit: 2r + g = M 2^e with M < 2^56 (e the lower of the last-bit exponents of 2r and g),
// so (2r + g)^2 is the 112-bit integer M^2 at bit 2e, and the test compares S's normalized digits
// with the digits of M^2 / 4 at that offset: the top non-zero digits decide at once, five digits
// at most, and only an exact tie reads S's lower digits. Nothing rounds and nothing is copied (on
// a GPU thread a copy of the accumulator lives in local memory, and every pass over its 132 digits
// is a chain of dependent accesses). An exact midpoint (a tie) rounds to the even neighbour; beyond
// the largest finite value plus half its ulp the result is +inf. The estimate comes from S's top
// three digits, scaled by exact powers of two, so that it neither over- nor underflows on the way:
// sqrt(1e300^2 + 1e300^2) and sqrt(1e-300^2 + 1e-300^2) are both exact to the last bit.
#ifndef EXKOKKOS_CORRECTLYROUNDEDSQRT_HPP
#define EXKOKKOS_CORRECTLYROUNDEDSQRT_HPP

#include "ExKokkos_LongAccumulator.hpp"
#include "impl/ExKokkos_WideMultiply.hpp"

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

// Digit i (0 .. num_digits) of a normalized non-negative value: the top stored digit may hold
// more than 32 bits, so it is read as two.
KOKKOS_INLINE_FUNCTION std::uint64_t normalized_digit(const std::uint64_t* digits, int i) {
  constexpr int n = AccumulatorFormat::num_digits;
  if (i < n - 1) return digits[i];
  if (i == n - 1) return digits[n - 1] & AccumulatorFormat::digit_mask;
  return digits[n - 1] >> AccumulatorFormat::digit_bits;
}

// sign(S - M^2 2^scale) for the normalized non-negative S of `digits`, whose top non-zero digit is
// `top` (normalized_digit's numbering), and an integer 0 < M < 2^56.
KOKKOS_INLINE_FUNCTION int compare_with_square(const std::uint64_t* digits, int top,
                                               std::uint64_t m, int scale) {
  constexpr std::uint64_t mask = AccumulatorFormat::digit_mask;
  constexpr int bits = AccumulatorFormat::digit_bits;
  std::uint64_t high, low;
  multiply_wide(m, m, high, low);
  int offset = scale - AccumulatorFormat::lsb_exponent;  // of M^2's bit 0 in S's frame
  bool fraction = false;
  if (offset < 0) {
    // Only the smallest gaps come here (offset -2): M^2 2^offset = q + f, 0 <= f < 1. S is an
    // integer, so S > q means S > q + f, S < q means S < q + f, and S = q leaves f to decide.
    const int k = -offset;
    fraction = (low & ((std::uint64_t(1) << k) - 1)) != 0;
    low = (low >> k) | (high << (64 - k));
    high >>= k;
    offset = 0;
  }
  // M^2 (< 2^112) shifted left by offset % 32 in five 32-bit digits from digit offset / 32.
  const int first = offset / bits, shift = offset % bits;
  std::uint64_t w[4];
  wide_digits(high, low, w);
  std::uint64_t t[5];
  int t_top = 0;
  for (int k = 0; k < 5; ++k) {
    const std::uint64_t here = k < 4 ? w[k] : 0, below = k > 0 ? w[k - 1] : 0;
    t[k] = ((here << shift) & mask) | (shift != 0 ? below >> (bits - shift) : 0);
    if (t[k] != 0) t_top = k;
  }
  if (top != first + t_top) return top > first + t_top ? 1 : -1;
  for (int i = top; i >= first; --i) {
    const std::uint64_t s = normalized_digit(digits, i);
    if (s != t[i - first]) return s > t[i - first] ? 1 : -1;
  }
  for (int i = first - 1; i >= 0; --i)
    if (normalized_digit(digits, i) != 0) return 1;
  return fraction ? -1 : 0;
}

// The sign of 4S - (2r + side g)^2 (side = +1 or -1) for finite r > 0 and a gap g > 0 that is a
// power of two: 2r + side g = M 2^e exactly, with e the lower of the two last-bit exponents
// (M < 2^56: for doubles g is ulp(r) or half of it, for floats 2r's significand has 24 bits).
KOKKOS_INLINE_FUNCTION int midpoint_side(const std::uint64_t* digits, int top, double r, double g,
                                         int side) {
  const DecomposedDouble dr = decompose(r), dg = decompose(g);
  int eg = dg.exponent;
  for (std::uint64_t gs = dg.significand; (gs & 1u) == 0; gs >>= 1) ++eg;
  const int e = dr.exponent + 1 < eg ? dr.exponent + 1 : eg;
  const std::uint64_t two_r = dr.significand << (dr.exponent + 1 - e);
  const std::uint64_t gap = std::uint64_t(1) << (eg - e);
  return compare_with_square(digits, top, side > 0 ? two_r + gap : two_r - gap, 2 * e - 2);
}

// The correctly rounded square root (in T = double or float) of the value of normalized digits
// and flags, as the finishing step of a reduction receives them.
template <class T>
KOKKOS_INLINE_FUNCTION T sqrt_rounded_normalized(const std::uint64_t* digits, std::uint32_t flags) {
  using Fmt = FloatFormat<T>;
  constexpr int n = AccumulatorFormat::num_digits;
  T special;
  if (special_result<T>(flags, special)) return special > T(0) ? special : quiet_nan<T>();
  if (normalized_is_negative(digits, n)) return quiet_nan<T>();
  int top = n;
  while (top >= 0 && normalized_digit(digits, top) == 0) --top;
  if (top < 0) return round_normalized<T>(digits, flags);  // sqrt(+-0) = +-0

  // An estimate within a few ulps from the top three digits, S ~ x 2^e with x < 2^96, its root
  // scaled by two exact powers of two so that nothing over- or underflows before the last one.
  const auto digit_or_zero = [&](int i) {
    return i >= 0 ? double(normalized_digit(digits, i)) : 0.0;
  };
  const double x =
      digit_or_zero(top) * 0x1p64 + digit_or_zero(top - 1) * 0x1p32 + digit_or_zero(top - 2);
  // e is even (both terms are), so sqrt(x 2^e) = sqrt(x) 2^(e / 2).
  const int e = AccumulatorFormat::digit_bits * (top - 2) + AccumulatorFormat::lsb_exponent;
  static_assert(AccumulatorFormat::digit_bits % 2 == 0 && AccumulatorFormat::lsb_exponent % 2 == 0,
                "the estimate's exponent must be even");
  // top lies in [0, n], so e in [-2 digit_bits + lsb_exponent, (n - 2) digit_bits + lsb_exponent]
  // = [-2212, 2012]: both halves of e / 2 lie in [-553, 503], and each power is a normal double.
  constexpr int e_low = -2 * AccumulatorFormat::digit_bits + AccumulatorFormat::lsb_exponent;
  constexpr int e_high = (n - 2) * AccumulatorFormat::digit_bits + AccumulatorFormat::lsb_exponent;
  static_assert(e_low / 4 >= -1022 && e_high / 2 - e_high / 4 <= 1023,
                "the root's scale factors must be normal doubles");
  const double estimate = compat::sqrt(x) * power_of_two(e / 4) * power_of_two(e / 2 - e / 4);
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
    const int above = midpoint_side(digits, top, r, gap_up, +1);
    if (above > 0 || (above == 0 && (at_top || !is_even(r)))) {
      if (at_top) return signed_infinity<T>(false);  // at or beyond largest + ulp/2
      if (above == 0) return up;                     // a tie, and up is the even neighbour
      r = up;
      continue;
    }
    if (above == 0) return r;  // a tie, and r is even
    if (r == smallest) return r;
    const T down = next_down_positive(r);
    const int below = midpoint_side(digits, top, r, double(r) - double(down), -1);
    if (below < 0 || (below == 0 && !is_even(r))) {
      if (below == 0) return down;
      r = down;
      continue;
    }
    return r;
  }
  return r;  // not reached: the estimate is within a few ulps
}

template <class T>
KOKKOS_INLINE_FUNCTION T sqrt_rounded(const LongAccumulator& s) {
  LongAccumulator normalized = s;
  normalized.normalize();
  return sqrt_rounded_normalized<T>(normalized.digits(), normalized.flags());
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_CORRECTLYROUNDEDSQRT_HPP
