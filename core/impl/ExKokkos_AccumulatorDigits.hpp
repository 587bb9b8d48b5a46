// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The fixed-point format of ExKokkos' long (Kulisch) accumulator and the integer operations on it:
// cutting a double or an exact product of two doubles into digit-sized chunks, carry
// normalization, and negation. Shared by the host LongAccumulator and the team accumulators in
// scratch memory, which differ only in how a chunk is added to a digit (plainly or atomically).
//
// Format. The accumulator is the integer
//     A = sum_{i=0}^{num_digits-1} digit_i * 2^(32 i)      (digit_i read as a signed 64-bit value)
// and represents the real number A * 2^lsb_exponent. Bit 0 has weight 2^-2148, the weight of the
// last bit of the smallest exact product of two doubles (2^-1074 * 2^-1074); the largest product is
// below 2^2048, whose bit sits at position 4195. 132 digits of 32 bits reach position 4223.
//
// Carry-save headroom. Digits are unsigned 64-bit words that nominally hold 32 bits; the 32 bits
// above are headroom, so a deposit adds (or subtracts) a chunk < 2^32 to a digit without carrying.
// A normalized accumulator has every digit but the top one in [0, 2^32). After k deposits, each
// of which adds to a given digit at most one chunk in (-2^32, 2^32), that digit read as a signed
// 64-bit number lies in (-k 2^32, (k+1) 2^32); it stays inside the signed 64-bit range as long as
// (k+1) 2^32 <= 2^63, i.e. k <= 2^31 - 1 = deposit_capacity. Additions wrap modulo 2^64 in
// unsigned arithmetic (no undefined behaviour), and since the true signed value fits, the wrapped
// word is its two's complement. Normalization restores the invariant; whoever deposits counts
// deposits and normalizes before the capacity is reached.
//
// The top digit keeps the sign and whatever the 32-bit digits below cannot: with 132 digits its
// unit is 2^(32*131 - 2148) = 2^2044, and every term is below 2^2048, so after N terms it holds
// at most about 16 N, far inside 63 bits for any N a machine can produce.
#ifndef EXKOKKOS_IMPL_ACCUMULATORDIGITS_HPP
#define EXKOKKOS_IMPL_ACCUMULATORDIGITS_HPP

#include "ExKokkos_FloatBits.hpp"
#include "ExKokkos_WideMultiply.hpp"

#include <cstdint>

namespace ExKokkos {
namespace Impl {

struct AccumulatorFormat {
  static constexpr int digit_bits = 32;
  static constexpr std::uint64_t digit_mask = (std::uint64_t(1) << digit_bits) - 1;
  static constexpr int lsb_exponent = -2148;  // weight of bit 0: 2^-1074 * 2^-1074
  static constexpr int num_digits = 132;      // 4224 bits: products < 2^2048 need 4196
  // Deposits (or merges of normalized accumulators) allowed between two normalizations.
  static constexpr std::uint32_t deposit_capacity = (std::uint32_t(1) << 31) - 1;
};

// The 128-bit integer high 2^64 + low as four 32-bit digits, the lowest first (an exact product
// of two significands, or the square of a root's midpoint, in the accumulator's digit size).
KOKKOS_INLINE_FUNCTION void wide_digits(std::uint64_t high, std::uint64_t low, std::uint64_t* w) {
  static_assert(AccumulatorFormat::digit_bits == 32, "two digits a 64-bit word");
  constexpr std::uint64_t mask = AccumulatorFormat::digit_mask;
  w[0] = low & mask;
  w[1] = low >> 32;
  w[2] = high & mask;
  w[3] = high >> 32;
}

// IEEE special values and signs of zero, kept beside the digits in sticky flags (never in the
// digits: a NaN or an infinity has no place in a fixed-point number).
struct AccumulatorFlags {
  static constexpr std::uint32_t nan = 1u;            // a NaN term, or inf * 0
  static constexpr std::uint32_t pos_inf = 2u;        // a +inf term
  static constexpr std::uint32_t neg_inf = 4u;        // a -inf term
  static constexpr std::uint32_t any_term = 8u;       // at least one term was added
  static constexpr std::uint32_t not_neg_zero = 16u;  // a term other than -0 was added
};

// Flags for one double term x, which adds nothing to the digits unless finite and non-zero.
KOKKOS_INLINE_FUNCTION std::uint32_t term_flags(FloatClass c, bool negative) {
  using F = AccumulatorFlags;
  switch (c) {
    case FloatClass::nan:
      return F::any_term | F::not_neg_zero | F::nan;
    case FloatClass::infinite:
      return F::any_term | F::not_neg_zero | (negative ? F::neg_inf : F::pos_inf);
    case FloatClass::zero:
      return F::any_term | (negative ? 0u : F::not_neg_zero);
    default:
      return F::any_term | F::not_neg_zero;
  }
}

// Flags for the exact product a * b; sets is_finite_nonzero when the product must be deposited.
KOKKOS_INLINE_FUNCTION std::uint32_t product_flags(double a, double b, bool& is_finite_nonzero) {
  using F = AccumulatorFlags;
  const FloatClass ca = classify(a), cb = classify(b);
  const bool negative = sign_bit(a) != sign_bit(b);
  is_finite_nonzero = false;
  if (ca == FloatClass::nan || cb == FloatClass::nan) return term_flags(FloatClass::nan, false);
  if (ca == FloatClass::infinite || cb == FloatClass::infinite) {
    // inf * 0 is NaN; inf * (anything else) is an infinity with the product's sign.
    if (ca == FloatClass::zero || cb == FloatClass::zero) return term_flags(FloatClass::nan, false);
    return term_flags(FloatClass::infinite, negative);
  }
  if (ca == FloatClass::zero || cb == FloatClass::zero)
    return term_flags(FloatClass::zero, negative);
  is_finite_nonzero = true;
  return term_flags(FloatClass::finite, negative);
}

// Adds the integer w * 2^shift, w = w0 + w1 2^32 + w2 2^64 + w3 2^96 given as 32-bit words and
// 0 <= shift < 32, to the digits first_digit, first_digit+1, ... as chunks below 2^32 (subtracts
// when negative). Each digit receives at most one chunk, so this counts as one deposit.
template <class DigitAdder>
KOKKOS_INLINE_FUNCTION void deposit_words(DigitAdder& add, int first_digit, int shift,
                                          bool negative, const std::uint64_t (&w)[4],
                                          int num_words) {
  constexpr std::uint64_t mask = AccumulatorFormat::digit_mask;
  constexpr int bits = AccumulatorFormat::digit_bits;
  std::uint64_t below = 0;  // the word under the current one (its top `shift` bits move up)
  for (int j = 0; j <= num_words; ++j) {
    const std::uint64_t word = j < num_words ? w[j] : 0;
    // (below >> (32 - shift)) is 0 when shift == 0: below < 2^32 and shifting a 64-bit word by 32
    // is defined.
    const std::uint64_t chunk = ((word << shift) & mask) | (below >> (bits - shift));
    below = word;
    if (chunk != 0) add(first_digit + j, negative ? std::uint64_t(0) - chunk : chunk);
  }
}

// Deposits the finite non-zero double x = (-1)^s m 2^e: the integer m < 2^53 lands at bit position
// e + 2148 >= 1074, i.e. in at most three consecutive digits. Forced inline: it sits inside the
// host walk's drain of the expansion lanes, where GCC may otherwise make it a call per term,
// which slows the walk measurably (docs/performance.md, "Wide data on the CPU").
template <class DigitAdder>
KOKKOS_FORCEINLINE_FUNCTION void deposit_double(DigitAdder& add, double x) {
  const DecomposedDouble d = decompose(x);
  const int position = d.exponent - AccumulatorFormat::lsb_exponent;
  const std::uint64_t w[4] = {d.significand & AccumulatorFormat::digit_mask, d.significand >> 32, 0,
                              0};
  deposit_words(add, position >> 5, position & 31, d.negative, w, 2);
}

// Deposits (-1)^negative (high 2^64 + low) 2^exponent for -2148 <= exponent and a value below
// 2^2076 (32 bits above the top digit's unit 2^2044), so that every non-zero chunk lands in a
// digit: one deposit (a bin of ExKokkos_BinnedSink.hpp).
template <class DigitAdder>
KOKKOS_INLINE_FUNCTION void deposit_magnitude(DigitAdder& add, std::uint64_t high,
                                              std::uint64_t low, int exponent, bool negative) {
  std::uint64_t w[4];
  wide_digits(high, low, w);
  const int position = exponent - AccumulatorFormat::lsb_exponent;
  deposit_words(add, position >> 5, position & 31, negative, w, 4);
}

// The exact product of two finite non-zero doubles as an integer of four 32-bit words times
// 2^exponent: ma * mb < 2^106 (multiply_wide).
struct ProductWords {
  std::uint64_t w[4];
  int exponent;  // of bit 0 of w[0], >= -2148
  bool negative;
};

KOKKOS_INLINE_FUNCTION ProductWords product_words(double a, double b) {
  const DecomposedDouble da = decompose(a), db = decompose(b);
  std::uint64_t high, low;
  multiply_wide(da.significand, db.significand, high, low);
  ProductWords p;
  wide_digits(high, low, p.w);
  p.exponent = da.exponent + db.exponent;
  p.negative = da.negative != db.negative;
  return p;
}

// Deposits the exact product of two finite non-zero doubles at bit position
// ea + eb + 2148 >= 0, i.e. in at most five consecutive digits. Exact whatever a * b would do in
// floating point (overflow, underflow, subnormal factors).
template <class DigitAdder>
KOKKOS_INLINE_FUNCTION void deposit_product(DigitAdder& add, double a, double b) {
  const ProductWords p = product_words(a, b);
  const int position = p.exponent - AccumulatorFormat::lsb_exponent;
  deposit_words(add, position >> 5, position & 31, p.negative, p.w, 4);
}

// Carry propagation: afterwards digits 0 .. n-2 lie in [0, 2^32) and the top digit, read as a
// signed number, carries the sign of the whole value. Precondition: no digit has taken more than
// deposit_capacity deposits since the last normalization, so every signed digit value and every
// carry fits in 64 bits. An arithmetic right shift of a negative signed value is floor division
// (guaranteed from C++20 and by every compiler ExKokkos supports before it).
KOKKOS_INLINE_FUNCTION void normalize_digits(std::uint64_t* digits, int n) {
  std::uint64_t carry = 0;  // two's complement of a signed carry
  for (int i = 0; i + 1 < n; ++i) {
    const std::uint64_t v = digits[i] + carry;
    carry =
        static_cast<std::uint64_t>(static_cast<std::int64_t>(v) >> AccumulatorFormat::digit_bits);
    digits[i] = v & AccumulatorFormat::digit_mask;
  }
  digits[n - 1] += carry;
}

KOKKOS_INLINE_FUNCTION bool normalized_is_negative(const std::uint64_t* digits, int n) {
  return static_cast<std::int64_t>(digits[n - 1]) < 0;
}

// Replaces a normalized negative value by its magnitude (normalized, non-negative): 0 - A computed
// as (~A) + 1 digit by digit.
KOKKOS_INLINE_FUNCTION void negate_normalized(std::uint64_t* digits, int n) {
  std::uint64_t carry = 1;
  for (int i = 0; i + 1 < n; ++i) {
    const std::uint64_t v = ((~digits[i]) & AccumulatorFormat::digit_mask) + carry;
    digits[i] = v & AccumulatorFormat::digit_mask;
    carry = v >> AccumulatorFormat::digit_bits;
  }
  digits[n - 1] = ~digits[n - 1] + carry;
}

// A plain (non-atomic) adder for digits owned by one thread.
struct PlainDigitAdder {
  std::uint64_t* digits;
  KOKKOS_INLINE_FUNCTION void operator()(int i, std::uint64_t chunk) const { digits[i] += chunk; }
};

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_IMPL_ACCUMULATORDIGITS_HPP
