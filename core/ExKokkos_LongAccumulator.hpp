// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ExKokkos::LongAccumulator: the exact sum of any number of doubles and of exact products of two
// doubles, rounded once at the end. A plain value type, usable on the host and inside kernels by a
// single thread (for concurrent deposits from a team see ExKokkos_TeamAccumulator.hpp).
//
//   ExKokkos::LongAccumulator acc;
//   acc.add(x);                 // exact
//   acc.add_product(a, b);      // exact, even when a * b over- or underflows in double
//   acc.merge(other);           // exact
//   double r = acc.round();     // correctly rounded (to nearest, ties to even)
//   float f = acc.round<float>();
//
// The format and its headroom proof are in impl/ExKokkos_AccumulatorDigits.hpp, the rounding in
// impl/ExKokkos_AccumulatorRounding.hpp. IEEE special values follow sequential IEEE addition: any
// NaN, or +inf and -inf together, or inf * 0, gives NaN; otherwise an infinite term gives that
// infinity; an exact zero is -0 only when every term was -0; a fresh accumulator rounds to +0.
// A finite exact sum beyond the double range rounds to +-inf.
#ifndef EXKOKKOS_LONGACCUMULATOR_HPP
#define EXKOKKOS_LONGACCUMULATOR_HPP

#include "impl/ExKokkos_AccumulatorDigits.hpp"
#include "impl/ExKokkos_AccumulatorRounding.hpp"

namespace ExKokkos {

class LongAccumulator {
 public:
  using Format = Impl::AccumulatorFormat;
  static constexpr int num_digits = Format::num_digits;

  KOKKOS_INLINE_FUNCTION LongAccumulator() : flags_(0), deposits_(0) {
    for (int i = 0; i < num_digits; ++i) digits_[i] = 0;
  }

  // Adds the double x exactly.
  KOKKOS_INLINE_FUNCTION void add(double x) {
    const Impl::FloatClass c = Impl::classify(x);
    flags_ |= Impl::term_flags(c, Impl::sign_bit(x));
    if (c != Impl::FloatClass::finite) return;
    count_deposit();
    Impl::PlainDigitAdder adder{digits_};
    Impl::deposit_double(adder, x);
  }

  // A float converts to double exactly.
  KOKKOS_INLINE_FUNCTION void add(float x) { add(static_cast<double>(x)); }

  // Adds the exact product a * b.
  KOKKOS_INLINE_FUNCTION void add_product(double a, double b) {
    bool deposit = false;
    flags_ |= Impl::product_flags(a, b, deposit);
    if (!deposit) return;
    count_deposit();
    Impl::PlainDigitAdder adder{digits_};
    Impl::deposit_product(adder, a, b);
  }

  // The product of two floats has at most 48 significant bits and lies far inside the double
  // range, so it is computed exactly in double.
  KOKKOS_INLINE_FUNCTION void add_product(float a, float b) {
    add(static_cast<double>(a) * static_cast<double>(b));
  }

  // Adds (-1)^negative (high 2^64 + low) 2^exponent exactly, with the flags of a finite non-zero
  // term (conditions: Impl::deposit_magnitude). The long accumulator is then a sink of
  // ExKokkos_BinnedSink.hpp.
  KOKKOS_INLINE_FUNCTION void add_scaled_magnitude(std::uint64_t high, std::uint64_t low,
                                                   int exponent, bool negative) {
    flags_ |= Impl::term_flags(Impl::FloatClass::finite, false);
    if ((high | low) == 0) return;
    count_deposit();
    Impl::PlainDigitAdder adder{digits_};
    Impl::deposit_magnitude(adder, high, low, exponent, negative);
  }

  // Adds another accumulator exactly.
  KOKKOS_INLINE_FUNCTION void merge(const LongAccumulator& other) {
    LongAccumulator normalized_other = other;
    normalized_other.normalize();
    merge_normalized(normalized_other.digits_, normalized_other.flags_);
  }

  // Adds digits in normalized form (each below 2^32 but the top) and flags: one deposit.
  KOKKOS_INLINE_FUNCTION void merge_normalized(const std::uint64_t* digits, std::uint32_t flags) {
    flags_ |= flags;
    count_deposit();
    for (int i = 0; i < num_digits; ++i) digits_[i] += digits[i];
  }

  // Propagates carries (the value is unchanged). Done automatically before the headroom of the
  // digits could run out.
  KOKKOS_INLINE_FUNCTION void normalize() {
    Impl::normalize_digits(digits_, num_digits);
    deposits_ = 0;
  }

  // The exact sum rounded to nearest (ties to even) in T = double or float.
  template <class T = double>
  KOKKOS_INLINE_FUNCTION T round() const {
    LongAccumulator copy = *this;
    copy.normalize();
    return Impl::round_normalized<T>(copy.digits_, copy.flags_);
  }

  // hi = RN(S) and lo = RN(S - hi) for the exact sum S: hi + lo carries about 106 bits of S, and
  // lo's sign tells on which side of hi the exact value lies (nrm2, iterative refinement).
  // When hi is not finite, lo is 0.
  KOKKOS_INLINE_FUNCTION void round_pair(double& hi, double& lo) const {
    LongAccumulator rest = *this;
    rest.normalize();
    hi = Impl::round_normalized<double>(rest.digits_, rest.flags_);
    lo = 0.0;
    const Impl::FloatClass c = Impl::classify(hi);
    if (c == Impl::FloatClass::infinite || c == Impl::FloatClass::nan) return;
    // S - hi is an IEEE subtraction: an exact zero difference is +0 (x - x = +0 when rounding to
    // nearest), whatever the signs of zero in S; a tiny S that rounded to a zero hi keeps its sign.
    rest.add(-hi);
    rest.flags_ |= Impl::AccumulatorFlags::any_term | Impl::AccumulatorFlags::not_neg_zero;
    rest.normalize();
    lo = Impl::round_normalized<double>(rest.digits_, rest.flags_);
  }

  // The sign of the exact finite value: -1, 0 or 1 (the flags, NaN and infinities, are ignored).
  KOKKOS_INLINE_FUNCTION int sign() const {
    LongAccumulator copy = *this;
    copy.normalize();
    if (Impl::normalized_is_negative(copy.digits_, num_digits)) return -1;
    for (int i = 0; i < num_digits; ++i)
      if (copy.digits_[i] != 0) return 1;
    return 0;
  }

  // Multiplies a non-negative exact value by 2^(32 k) by moving digits (k < 0 divides, and drops
  // the digits that fall off the bottom). Exact when no non-zero digit falls off either end: the
  // caller checks the magnitude first (correctly rounded sqrt uses it to scale its estimate).
  KOKKOS_INLINE_FUNCTION void shift_digits(int k) {
    normalize();
    if (k > 0) {
      for (int i = num_digits - 1; i >= 0; --i) digits_[i] = i >= k ? digits_[i - k] : 0;
    } else if (k < 0) {
      for (int i = 0; i < num_digits; ++i) digits_[i] = i - k < num_digits ? digits_[i - k] : 0;
    }
  }

  // Copies through volatile references, for the volatile join that Kokkos before 4.2 requires of
  // reducers: every member is read or written as a volatile scalar, none is cast away.
  KOKKOS_INLINE_FUNCTION static LongAccumulator load(const volatile LongAccumulator& v) {
    LongAccumulator r;
    for (int i = 0; i < num_digits; ++i) r.digits_[i] = v.digits_[i];
    r.flags_ = v.flags_;
    r.deposits_ = v.deposits_;
    return r;
  }
  KOKKOS_INLINE_FUNCTION void store(volatile LongAccumulator& v) const {
    for (int i = 0; i < num_digits; ++i) v.digits_[i] = digits_[i];
    v.flags_ = flags_;
    v.deposits_ = deposits_;
  }

  KOKKOS_INLINE_FUNCTION const std::uint64_t* digits() const { return digits_; }
  KOKKOS_INLINE_FUNCTION std::uint32_t flags() const { return flags_; }

 private:
  // Normalizes before a digit could take more deposits than its headroom allows.
  KOKKOS_INLINE_FUNCTION void count_deposit() {
    if (deposits_ == Format::deposit_capacity) normalize();
    ++deposits_;
  }

  std::uint64_t digits_[num_digits];
  std::uint32_t flags_;
  std::uint32_t deposits_;  // deposits since the last normalization
};

}  // namespace ExKokkos

#endif  // EXKOKKOS_LONGACCUMULATOR_HPP
