// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Reading a binary floating-point number as sign * significand * 2^exponent with integer
// operations only, and building one back. No conversion through a floating-point operation is
// involved, so nothing here can round.
#ifndef EXKOKKOS_IMPL_FLOATBITS_HPP
#define EXKOKKOS_IMPL_FLOATBITS_HPP

#include "../ExKokkos_Compat.hpp"

#include <cstdint>

namespace ExKokkos {
namespace Impl {

// The IEEE 754 binary formats ExKokkos rounds to. precision counts the hidden bit.
template <class T>
struct FloatFormat;

template <>
struct FloatFormat<double> {
  using bits_type = std::uint64_t;
  static constexpr int precision = 53;
  static constexpr int exponent_bits = 11;
  static constexpr int bias = 1023;
  static constexpr int max_exponent = 1023;        // largest unbiased exponent of a finite value
  static constexpr int min_subnormal_lsb = -1074;  // weight of the last bit of every subnormal
};

template <>
struct FloatFormat<float> {
  using bits_type = std::uint32_t;
  static constexpr int precision = 24;
  static constexpr int exponent_bits = 8;
  static constexpr int bias = 127;
  static constexpr int max_exponent = 127;
  static constexpr int min_subnormal_lsb = -149;
};

// A finite, non-zero double as (-1)^negative * significand * 2^exponent, significand < 2^53.
struct DecomposedDouble {
  std::uint64_t significand;
  int exponent;
  bool negative;
};

enum class FloatClass : int { zero, finite, infinite, nan };

KOKKOS_INLINE_FUNCTION FloatClass classify(double x) {
  const std::uint64_t bits = compat::bit_cast<std::uint64_t>(x);
  const std::uint64_t exponent_field = (bits >> 52) & 0x7ffu;
  const std::uint64_t fraction = bits & ((std::uint64_t(1) << 52) - 1);
  if (exponent_field == 0x7ffu) return fraction != 0 ? FloatClass::nan : FloatClass::infinite;
  if (exponent_field == 0 && fraction == 0) return FloatClass::zero;
  return FloatClass::finite;
}

KOKKOS_INLINE_FUNCTION bool sign_bit(double x) {
  return (compat::bit_cast<std::uint64_t>(x) >> 63) != 0;
}

// Precondition: classify(x) == FloatClass::finite.
KOKKOS_INLINE_FUNCTION DecomposedDouble decompose(double x) {
  const std::uint64_t bits = compat::bit_cast<std::uint64_t>(x);
  const int exponent_field = static_cast<int>((bits >> 52) & 0x7ffu);
  const std::uint64_t fraction = bits & ((std::uint64_t(1) << 52) - 1);
  DecomposedDouble d;
  d.negative = (bits >> 63) != 0;
  if (exponent_field == 0) {  // subnormal: no hidden bit, same exponent as the smallest normal
    d.significand = fraction;
    d.exponent = -1074;
  } else {
    d.significand = fraction | (std::uint64_t(1) << 52);
    d.exponent = exponent_field - 1075;
  }
  return d;
}

// The value (-1)^negative * significand * 2^lsb_exponent for an already rounded significand:
// significand < 2^precision, and either significand >= 2^(precision-1) (normal) or lsb_exponent ==
// min_subnormal_lsb (subnormal or zero). Overflow is the caller's business.
template <class T>
KOKKOS_INLINE_FUNCTION T compose(bool negative, std::uint64_t significand, int lsb_exponent) {
  using F = FloatFormat<T>;
  using bits_type = typename F::bits_type;
  constexpr int fraction_bits = F::precision - 1;
  const std::uint64_t hidden = std::uint64_t(1) << fraction_bits;
  std::uint64_t bits;
  if (significand >= hidden) {
    const std::uint64_t biased = static_cast<std::uint64_t>(lsb_exponent + fraction_bits + F::bias);
    bits = (biased << fraction_bits) | (significand - hidden);
  } else {
    bits = significand;  // biased exponent 0
  }
  if (negative) bits |= std::uint64_t(1) << (F::precision + F::exponent_bits - 1);
  return compat::bit_cast<T>(static_cast<bits_type>(bits));
}

template <class T>
KOKKOS_INLINE_FUNCTION T signed_infinity(bool negative) {
  using F = FloatFormat<T>;
  using bits_type = typename F::bits_type;
  std::uint64_t bits = ((std::uint64_t(1) << F::exponent_bits) - 1) << (F::precision - 1);
  if (negative) bits |= std::uint64_t(1) << (F::precision + F::exponent_bits - 1);
  return compat::bit_cast<T>(static_cast<bits_type>(bits));
}

template <class T>
KOKKOS_INLINE_FUNCTION T quiet_nan() {
  using F = FloatFormat<T>;
  using bits_type = typename F::bits_type;
  const std::uint64_t bits = (((std::uint64_t(1) << F::exponent_bits) - 1) << (F::precision - 1)) |
                             (std::uint64_t(1) << (F::precision - 2));
  return compat::bit_cast<T>(static_cast<bits_type>(bits));
}

// Number of significant bits of x (0 for 0): a portable count-leading-zeros by binary search.
KOKKOS_INLINE_FUNCTION int bit_width(std::uint64_t x) {
  int width = 0;
  for (int shift = 32; shift > 0; shift >>= 1) {
    if (x >> shift) {
      x >>= shift;
      width += shift;
    }
  }
  return width + static_cast<int>(x);
}

// The exact double 2^e, -1074 <= e <= 1023.
KOKKOS_INLINE_FUNCTION double power_of_two(int e) {
  return e >= -1022 ? compose<double>(false, std::uint64_t(1) << 52, e - 52)
                    : compose<double>(false, std::uint64_t(1) << (e + 1074), -1074);
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_IMPL_FLOATBITS_HPP
