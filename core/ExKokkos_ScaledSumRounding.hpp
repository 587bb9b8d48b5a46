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

// RN(sum_j alpha_j S_j + sum_p beta_p y_p) in T (double or float; float arguments convert to
// double exactly), for NS exact sums S_j given as normalize_digits leaves them (`normalized[j]`,
// with flags `flags[j]`) and NP exact products beta_p y_p, left out when !read_y. NS = 1, NP = 1 is
// exgemv's alpha S + beta y; NS = 2, NP = 2 each part of a complex output (re(alpha S + beta y) =
// re(alpha) re(S) - im(alpha) im(S) + re(beta) re(y) - im(beta) im(y): the negations are exact).
//
// The frame for NS >= 2: F = -2148 + min(0, min_j ea_j) >= -3222, and term j sits
// ea_j - min(0, min ea) <= 971 + 1074 = 2045 bits up, so below bit 4256 + 53 + 2045 = 6354; the
// products stay below bit 5270 as above. NS + NP <= 4 terms below 2^6354 sum below 2^6356: 200
// digits (6400 bits) hold them with room for the sign, each digit taking at most 6 chunks a sum
// and 3 a product (at most 24 below 2^32 each), far from the headroom. Special values generalize
// the rule above: term j is a genuine special when S_j is one or alpha_j is not finite, product p
// when beta_p or y_p is not finite; the genuine ones alone, evaluated in IEEE arithmetic with S_j
// replaced by its proxy, decide the result (finite terms cannot change an infinity or a NaN, and
// leaving them out keeps their floating-point overflow from making a spurious inf - inf). When
// every term is an exact zero the result is their IEEE sum, signed zeros and all.
// The frame's digits: 170 for one scaled sum (the bound in the header), 200 for two (above).
template <int NS>
struct ScaledSumsFrame {
  static_assert(NS >= 1 && NS <= 2, "frame sizes are proved for one or two scaled sums");
  static constexpr int num_digits = NS == 1 ? 170 : 200;
};

template <class T, int NS, int NP>
KOKKOS_INLINE_FUNCTION T round_scaled_sums(const std::uint64_t* const (&normalized)[NS],
                                           const std::uint32_t (&flags)[NS],
                                           const double (&alpha)[NS], const double (&beta)[NP],
                                           const double (&y)[NP], bool read_y) {
  static_assert(NP <= 2, "frame sizes are proved for at most two products");
  Magnitude m[NS];
  bool s_negative[NS];
  int lo[NS], hi[NS];
  double s_proxy[NS];
  bool any_genuine = false, all_zero = true;
  bool genuine_s[NS], genuine_p[NP > 0 ? NP : 1];
  for (int j = 0; j < NS; ++j) {
    double special = 0.0;
    const bool s_special = special_result(flags[j], special);
    s_negative[j] = magnitude_of_normalized(normalized[j], m[j]);
    hi[j] = Magnitude::size - 1;
    lo[j] = 0;
    while (hi[j] >= 0 && m[j].digit[hi[j]] == 0) --hi[j];
    while (lo[j] < hi[j] && m[j].digit[lo[j]] == 0) ++lo[j];
    const bool s_zero = hi[j] < 0;
    const bool s_neg_zero = (flags[j] & AccumulatorFlags::any_term) != 0 &&
                            (flags[j] & AccumulatorFlags::not_neg_zero) == 0;
    s_proxy[j] =
        s_special ? special : (s_zero ? (s_neg_zero ? -0.0 : 0.0) : (s_negative[j] ? -1.0 : 1.0));
    genuine_s[j] = s_special || !compat::isfinite(alpha[j]);
    any_genuine = any_genuine || genuine_s[j];
    all_zero = all_zero && !s_special && (alpha[j] == 0.0 || s_zero);
  }
  for (int p = 0; p < NP; ++p) {
    genuine_p[p] = read_y && (!compat::isfinite(beta[p]) || !compat::isfinite(y[p]));
    any_genuine = any_genuine || genuine_p[p];
    all_zero = all_zero && (!read_y || beta[p] == 0.0 || y[p] == 0.0);
  }
  if (any_genuine || all_zero) {
    // IEEE arithmetic on the genuine specials alone, or on exact zeros (all_zero), where the
    // proxies are the sums' signed zeros and each product is a signed zero too.
    double r = 0.0;
    bool first = true;
    const auto add = [&](double v) {
      r = first ? v : r + v;
      first = false;
    };
    for (int j = 0; j < NS; ++j)
      if (all_zero || genuine_s[j]) add(alpha[j] * s_proxy[j]);
    for (int p = 0; p < NP; ++p)
      if (read_y && (all_zero || genuine_p[p])) add(beta[p] * y[p]);
    return static_cast<T>(r);
  }
  const std::uint32_t nonzero_flags = AccumulatorFlags::any_term | AccumulatorFlags::not_neg_zero;
  bool products_zero = true;
  for (int p = 0; p < NP; ++p)
    products_zero = products_zero && (!read_y || beta[p] == 0.0 || y[p] == 0.0);
  if (NS == 1 && products_zero && (alpha[0] == 1.0 || alpha[0] == -1.0))
    // RN(+-S): the accumulator's own rounding
    return round_magnitude<T>(m[0], AccumulatorFormat::lsb_exponent,
                              s_negative[0] != (alpha[0] < 0.0), nonzero_flags);

  // The frame: F = -2148 + min(0, min_j ea_j); alpha_j |S_j| sits ea_j - min(0, min ea) bits up.
  DecomposedDouble da[NS];
  int min_exponent = 0;
  for (int j = 0; j < NS; ++j) {
    da[j] = decompose(alpha[j]);
    if (alpha[j] != 0.0 && da[j].exponent < min_exponent) min_exponent = da[j].exponent;
  }
  const int frame_lsb = AccumulatorFormat::lsb_exponent + min_exponent;
  constexpr int W = ScaledSumsFrame<NS>::num_digits;
  std::uint64_t frame[W];
  for (int i = 0; i < W; ++i) frame[i] = 0;
  for (int j = 0; j < NS; ++j) {
    if (alpha[j] == 0.0 || hi[j] < 0) continue;
    const int shift = da[j].exponent - min_exponent;
    // ma = m_low + m_high 2^26 with m_low < 2^26, m_high < 2^27: every digit product fits in 59
    // bits.
    const std::uint64_t m_low = da[j].significand & ((std::uint64_t(1) << 26) - 1);
    const std::uint64_t m_high = da[j].significand >> 26;
    const bool term_negative = s_negative[j] != da[j].negative;
    for (int i = lo[j]; i <= hi[j]; ++i) {
      add_shifted(frame, m[j].digit[i] * m_low, 32 * i + shift, term_negative);
      add_shifted(frame, m[j].digit[i] * m_high, 32 * i + 26 + shift, term_negative);
    }
  }
  for (int p = 0; p < NP; ++p) {
    if (!read_y || beta[p] == 0.0 || y[p] == 0.0) continue;
    const ProductWords w = product_words(beta[p], y[p]);
    const int position = w.exponent - frame_lsb;
    for (int k = 0; k < 4; ++k) add_shifted(frame, w.w[k], position + 32 * k, w.negative);
  }
  normalize_digits(frame, W);
  MagnitudeDigits<W + 1> total;
  const bool negative = magnitude_of_normalized(frame, total);
  return round_magnitude<T>(total, frame_lsb, negative, nonzero_flags);
}

// RN(alpha * S + beta * y) in T (double or float; float arguments convert to double exactly).
// `normalized`: S's digits as normalize_digits leaves them, `flags`: its flags.
template <class T>
KOKKOS_INLINE_FUNCTION T round_scaled_sum(const std::uint64_t* normalized, std::uint32_t flags,
                                          double alpha, double beta, double y, bool read_y) {
  const std::uint64_t* const sums[1] = {normalized};
  const std::uint32_t sum_flags[1] = {flags};
  const double alphas[1] = {alpha}, betas[1] = {beta}, ys[1] = {y};
  return round_scaled_sums<T, 1, 1>(sums, sum_flags, alphas, betas, ys, read_y);
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
