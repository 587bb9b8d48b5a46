// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// RN(alpha * S + beta * y) for an exact sum S held in a long accumulator, correctly rounded as
// one expression: the last step of every row of exgemv (and of every element of exgemm). Rounding
// S first and then computing alpha * RN(S) + beta * y would round two or three times, and
// ignoring alpha is wrong outright (docs/design.md, "Pitfalls the tests guard against").
//
// Method. alpha = ma 2^ea with an odd-or-not integer ma < 2^53. The exact value
//     alpha S + beta y = ma |S|_int 2^(ea - 2148) (+-) mb my 2^(eb + ey)
// is formed as one integer in a wider fixed-point frame whose last bit has weight
// 2^F, F = -2148 + min(ea, 0) >= -3222, so that both terms are integers there:
//   - ma |S|_int: |S| < 2^4256 in the accumulator's units, times ma < 2^53, moved up by
//     max(ea, 0) <= 971 bits: below bit 5280;
//   - beta * y: an exact product of two doubles, whose last bit has weight >= 2^-2148 >= 2^F and
//     whose magnitude is below 2^2048: at bit position <= 4196 + 1074 = 5270.
// 170 digits of 32 bits (5440 bits) hold the sum with room for the sign. The frame uses the
// accumulator's carry-save digits (each digit takes at most seven chunks below 2^32 here, far
// from the headroom), is normalized once and rounded once with the same integer rounding as the
// accumulator (docs/design.md, "One correct rounding"), but with frame exponent F.
//
// IEEE special values: NaN, infinities and signed zeros come out as IEEE arithmetic on
// alpha * S + beta * y would give them, with S's own specials and signed zero taken from its
// flags: a NaN anywhere, inf * 0, or inf - inf give NaN; a genuine infinity (in S, alpha, beta or
// y) wins over finite terms even if those would overflow in floating point; an exact zero is +0
// after cancellation, and otherwise carries the IEEE sign of alpha * (+-0) + beta * y. As in
// BLAS, read_y == false means beta == 0: y is not read (a NaN in y is not propagated).
#ifndef EXKOKKOS_SCALEDSUMROUNDING_HPP
#define EXKOKKOS_SCALEDSUMROUNDING_HPP

#include "ExKokkos_LongAccumulator.hpp"

namespace ExKokkos {
namespace Impl {

struct ScaledSumFrame {
  static constexpr int num_digits = 170;
};

// Adds (or subtracts) value * 2^position, value < 2^64, to carry-save digits: three chunks below
// 2^32, each to its own digit.
KOKKOS_INLINE_FUNCTION void add_shifted(std::uint64_t* digits, std::uint64_t value, int position,
                                        bool negative) {
  constexpr std::uint64_t mask = AccumulatorFormat::digit_mask;
  const int d = position >> 5, s = position & 31;
  const std::uint64_t c0 = (value << s) & mask;
  const std::uint64_t rest = s == 0 ? value >> 32 : value >> (32 - s);  // value 2^s / 2^32
  const std::uint64_t chunk[3] = {c0, rest & mask, rest >> 32};
  for (int k = 0; k < 3; ++k)
    if (chunk[k] != 0) digits[d + k] += negative ? std::uint64_t(0) - chunk[k] : chunk[k];
}

// The IEEE result when a NaN or an infinity takes part (see above); false when all is finite.
KOKKOS_INLINE_FUNCTION bool scaled_sum_special(bool s_special, double s_proxy, double alpha,
                                               double beta, double y, bool read_y, double& result) {
  // s_proxy: S's special value, or a signed zero, or +-1 standing for a finite non-zero S (enough
  // for IEEE's rules on alpha * S when alpha is not finite).
  const bool genuine1 = s_special || !compat::isfinite(alpha);
  const bool genuine2 = read_y && (!compat::isfinite(beta) || !compat::isfinite(y));
  if (!genuine1 && !genuine2) return false;
  const double v1 = alpha * s_proxy, v2 = read_y ? beta * y : 0.0;
  result = genuine1 && genuine2 ? v1 + v2 : (genuine1 ? v1 : v2);
  return true;
}

// RN(alpha * S + beta * y) in T (double or float; float arguments convert to double exactly).
// `normalized`: S's digits as normalize_digits leaves them, `flags`: its flags.
template <class T>
KOKKOS_INLINE_FUNCTION T round_scaled_sum(const std::uint64_t* normalized, std::uint32_t flags,
                                          double alpha, double beta, double y, bool read_y) {
  double special = 0.0;
  const bool s_special = special_result(flags, special);
  Magnitude m;
  const bool s_negative = magnitude_of_normalized(normalized, m);
  int lo = 0, hi = Magnitude::size - 1;
  while (hi >= 0 && m.digit[hi] == 0) --hi;
  while (lo < hi && m.digit[lo] == 0) ++lo;
  const bool s_zero = hi < 0;
  const bool s_neg_zero =
      (flags & AccumulatorFlags::any_term) != 0 && (flags & AccumulatorFlags::not_neg_zero) == 0;
  const double s_proxy =
      s_special ? special : (s_zero ? (s_neg_zero ? -0.0 : 0.0) : (s_negative ? -1.0 : 1.0));

  double r;
  if (scaled_sum_special(s_special, s_proxy, alpha, beta, y, read_y, r)) return static_cast<T>(r);

  const bool y_zero = !read_y || beta == 0.0 || y == 0.0;
  if (alpha == 0.0 || s_zero) {
    // alpha S is an exact (signed) zero: the result is RN(beta y), which floating-point
    // multiplication gives directly (one rounding; float products are exact in double), or a
    // zero whose sign IEEE addition decides.
    const double z1 = alpha * s_proxy;
    if (!y_zero) return static_cast<T>(beta * y);
    return static_cast<T>(read_y ? z1 + beta * y : z1);
  }
  const std::uint32_t nonzero_flags = AccumulatorFlags::any_term | AccumulatorFlags::not_neg_zero;
  if (y_zero && (alpha == 1.0 || alpha == -1.0))  // RN(+-S): the accumulator's own rounding
    return round_magnitude<T>(m, AccumulatorFormat::lsb_exponent, s_negative != (alpha < 0.0),
                              nonzero_flags);

  // The frame: F = -2148 + min(ea, 0); alpha |S| sits max(ea, 0) bits up.
  const DecomposedDouble da = decompose(alpha);
  const int frame_lsb = AccumulatorFormat::lsb_exponent + (da.exponent < 0 ? da.exponent : 0);
  const int shift = da.exponent > 0 ? da.exponent : 0;
  constexpr int W = ScaledSumFrame::num_digits;
  std::uint64_t frame[W];
  for (int i = 0; i < W; ++i) frame[i] = 0;
  // ma = m_low + m_high 2^26 with m_low < 2^26, m_high < 2^27: every digit product fits in 59
  // bits.
  const std::uint64_t m_low = da.significand & ((std::uint64_t(1) << 26) - 1);
  const std::uint64_t m_high = da.significand >> 26;
  const bool term_negative = s_negative != da.negative;
  for (int i = lo; i <= hi; ++i) {
    add_shifted(frame, m.digit[i] * m_low, 32 * i + shift, term_negative);
    add_shifted(frame, m.digit[i] * m_high, 32 * i + 26 + shift, term_negative);
  }
  if (!y_zero) {
    const ProductWords p = product_words(beta, y);
    const int position = p.exponent - frame_lsb;
    for (int k = 0; k < 4; ++k) add_shifted(frame, p.w[k], position + 32 * k, p.negative);
  }
  normalize_digits(frame, W);
  MagnitudeDigits<W + 1> total;
  const bool negative = magnitude_of_normalized(frame, total);
  return round_magnitude<T>(total, frame_lsb, negative, nonzero_flags);
}

// The same for a LongAccumulator.
template <class T>
KOKKOS_INLINE_FUNCTION T round_scaled_sum(const LongAccumulator& s, double alpha, double beta,
                                          double y, bool read_y) {
  LongAccumulator copy = s;
  copy.normalize();
  return round_scaled_sum<T>(copy.digits(), copy.flags(), alpha, beta, y, read_y);
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_SCALEDSUMROUNDING_HPP
