// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Correct rounding of a long accumulator to the nearest double or float (ties to even), in integer
// arithmetic only, following the steps of docs/design.md ("One correct rounding"):
//   1. normalize (done by the caller), 2. take the magnitude, 3. find the most significant bit,
//   4. read the kept bits, the guard bit and the sticky bit across digit boundaries,
//   5. round to nearest even, 6. compose the result, or +-inf beyond the format's range.
// No step converts through a floating-point operation, so there is exactly one rounding.
#ifndef EXKOKKOS_IMPL_ACCUMULATORROUNDING_HPP
#define EXKOKKOS_IMPL_ACCUMULATORROUNDING_HPP

#include "ExKokkos_AccumulatorDigits.hpp"

namespace ExKokkos {
namespace Impl {

// A non-negative integer held in Size digits of exactly 32 bits each (a normalized
// accumulator's top digit may hold more than 32 bits; it is split before it lands here). Wider
// frames than the accumulator's use it too (ExKokkos_ScaledSumRounding.hpp).
template <int Size>
struct MagnitudeDigits {
  static constexpr int size = Size;
  std::uint64_t digit[Size];

  // Bits [position, position + count) as an integer, 0 < count <= 53, 0 <= position.
  KOKKOS_INLINE_FUNCTION std::uint64_t bits(int position, int count) const {
    int d = position >> 5;
    const int offset = position & 31;
    std::uint64_t value = digit[d] >> offset;
    int have = 32 - offset;
    // have < count <= 53 inside the loop, so the shift below never reaches 64.
    for (++d; have < count && d < size; ++d, have += 32) value |= digit[d] << have;
    return value & ((std::uint64_t(1) << count) - 1);
  }

  KOKKOS_INLINE_FUNCTION bool bit(int position) const {
    return ((digit[position >> 5] >> (position & 31)) & 1u) != 0;
  }

  // True when any bit strictly below `position` is set.
  KOKKOS_INLINE_FUNCTION bool any_below(int position) const {
    const int d = position >> 5;
    for (int i = 0; i < d; ++i)
      if (digit[i] != 0) return true;
    return (digit[d] & ((std::uint64_t(1) << (position & 31)) - 1)) != 0;
  }
};

using Magnitude = MagnitudeDigits<AccumulatorFormat::num_digits + 1>;

// The value that the flags alone decide (NaN, infinities), if any.
template <class T>
KOKKOS_INLINE_FUNCTION bool special_result(std::uint32_t flags, T& result) {
  using F = AccumulatorFlags;
  const bool pos_inf = (flags & F::pos_inf) != 0, neg_inf = (flags & F::neg_inf) != 0;
  if ((flags & F::nan) != 0 || (pos_inf && neg_inf)) {
    result = quiet_nan<T>();
    return true;
  }
  if (pos_inf || neg_inf) {
    result = signed_infinity<T>(neg_inf);
    return true;
  }
  return false;
}

// Steps 3 to 6: rounds (-1)^negative * m * 2^frame_lsb to T. The frame must reach below T's
// smallest subnormal by at least one bit (frame_lsb < min_subnormal_lsb), so that the guard bit
// exists; every ExKokkos frame reaches far below (2^-2148 or lower). `flags` decides the sign of
// an exact zero (IEEE addition: -0 only if there were terms and all of them were -0).
template <class T, int Size>
KOKKOS_INLINE_FUNCTION T round_magnitude(const MagnitudeDigits<Size>& m, int frame_lsb,
                                         bool negative, std::uint32_t flags) {
  using Fmt = FloatFormat<T>;
  // Step 3: the most significant set bit.
  int top = Size - 1;
  while (top >= 0 && m.digit[top] == 0) --top;
  if (top < 0) {
    const bool neg_zero =
        (flags & AccumulatorFlags::any_term) != 0 && (flags & AccumulatorFlags::not_neg_zero) == 0;
    return compose<T>(neg_zero, 0, Fmt::min_subnormal_lsb);
  }
  const int msb = 32 * top + bit_width(m.digit[top]) - 1;

  // Step 4: the last kept bit is `precision` bits below the leading one, but never below the
  // last bit of the subnormals.
  const int subnormal_lsb_position = Fmt::min_subnormal_lsb - frame_lsb;  // >= 1
  int lsb = msb - (Fmt::precision - 1);
  if (lsb < subnormal_lsb_position) lsb = subnormal_lsb_position;
  std::uint64_t significand = msb >= lsb ? m.bits(lsb, msb - lsb + 1) : 0;
  const bool guard = m.bit(lsb - 1);
  const bool sticky = m.any_below(lsb - 1);

  // Step 5: round to nearest, ties to even; a carry out of the significand moves the exponent.
  if (guard && (sticky || (significand & 1u) != 0)) {
    ++significand;
    if (significand == (std::uint64_t(1) << Fmt::precision)) {
      significand >>= 1;
      ++lsb;
    }
  }

  // Step 6: compose, or overflow to infinity.
  const int lsb_exponent = lsb + frame_lsb;
  if (lsb_exponent + Fmt::precision - 1 > Fmt::max_exponent) return signed_infinity<T>(negative);
  return compose<T>(negative, significand, lsb_exponent);
}

// Step 2 for digits as normalize_digits leaves them (every digit but the top in [0, 2^32), the
// top one signed): the magnitude in Size = n + 1 digits of 32 bits; returns the sign.
template <int Size>
KOKKOS_INLINE_FUNCTION bool magnitude_of_normalized(const std::uint64_t* normalized,
                                                    MagnitudeDigits<Size>& m) {
  constexpr int n = Size - 1;
  for (int i = 0; i < n; ++i) m.digit[i] = normalized[i];
  const bool negative = normalized_is_negative(m.digit, n);
  if (negative) negate_normalized(m.digit, n);
  m.digit[n] = m.digit[n - 1] >> 32;  // the top digit may exceed 32 bits: split it
  m.digit[n - 1] &= AccumulatorFormat::digit_mask;
  return negative;
}

// Rounds the value of a normalized accumulator (digits as left by normalize_digits) to T.
template <class T>
KOKKOS_INLINE_FUNCTION T round_normalized(const std::uint64_t* normalized, std::uint32_t flags) {
  T special;
  if (special_result(flags, special)) return special;
  Magnitude m;
  const bool negative = magnitude_of_normalized(normalized, m);
  return round_magnitude<T>(m, AccumulatorFormat::lsb_exponent, negative, flags);
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_IMPL_ACCUMULATORROUNDING_HPP
