// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The reduction behind exnrminf and exiamax: the largest magnitude of a vector, the smallest index
// where it occurs and the smallest index of a NaN, in one pass. The combining step is a
// lexicographic maximum of (exact magnitude, -index) beside a minimum of NaN indices: associative
// and commutative, so every partition of the elements over threads, teams and backends gives the
// same result.
//  - Real values: |x(i)| is exact (and a float converts to double exactly); no rounding happens.
//  - Kokkos::complex values: the magnitude is the modulus sqrt(re^2 + im^2) (KokkosBlas' norm of a
//    complex value, not BLAS' |re| + |im|), kept as its correctly rounded value (exabs'). Rounding
//    is monotone, so the largest rounded modulus is the largest modulus rounded once, which is
//    exnrminf's answer; two elements whose rounded moduli tie are ordered by their exact squared
//    moduli (compare_complex_magnitudes), so exiamax picks the element of largest exact modulus.
//    An element with a NaN part is NaN (its exact re^2 + im^2 is); one with an infinite part and no
//    NaN has modulus +inf.
// The routines then read their answer off it:
//  - exnrminf: NaN when any element is NaN (as LAPACK's xLANGE/xLANST; comparisons alone would
//    drop a NaN and depend on where it falls in a partition), otherwise the largest magnitude;
//  - exiamax: reference BLAS' IxAMAX, 1-based like KokkosBlas::iamax: 1 when x(1) is NaN (the
//    reference loop starts from |x(1)| and no comparison with NaN succeeds), otherwise the first
//    index of the largest magnitude among the elements that are not NaN.
// An empty vector gives 0 for both (KokkosBlas' values).
#ifndef EXKOKKOS_MAXMAGNITUDE_IMPL_HPP
#define EXKOKKOS_MAXMAGNITUDE_IMPL_HPP

#include <ExKokkos_Compat.hpp>
#include <ExKokkos_ErrorFreeTransforms.hpp>
#include <ExKokkos_RoundedComplex.hpp>
#include <impl/ExKokkos_FloatBits.hpp>
#include <impl/ExKokkos_HostCall_impl.hpp>
#include <impl/ExKokkos_ViewTraits_impl.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <limits>
#include <type_traits>

namespace ExKokkos {
namespace Impl {

// Parts is 1 for real values, 2 for complex ones (whose rounded moduli may tie where the exact ones
// differ: re and im keep the element to compare exactly).
template <int Parts>
struct MaxMagnitude {
  double magnitude;        // the largest |x(i)| of the elements that are not NaN; -1 when none
  double re, im;           // the parts of x(index) (complex values only)
  double square;           // re^2 + im^2 in floating point (complex values only; -1 when none)
  std::int64_t index;      // the smallest i where it occurs
  std::int64_t first_nan;  // the smallest i with x(i) NaN; none when there is none

  static constexpr std::int64_t none = std::numeric_limits<std::int64_t>::max();

  // Whether (m, r, j) comes before (magnitude, re, im, index) in the order the reduction keeps.
  KOKKOS_INLINE_FUNCTION bool before(double m, double r, double j, std::int64_t i) const {
    if (m != magnitude) return m > magnitude;
    int order = 0;
    if constexpr (Parts == 2) order = compare_complex_magnitudes(r, j, re, im);
    return order > 0 || (order == 0 && i < index);
  }
  KOKKOS_INLINE_FUNCTION void take(double m, double r, double j, std::int64_t i) {
    if (before(m, r, j, i)) {
      magnitude = m;
      re = r;
      im = j;
      square = approximate_square(r, j);
      index = i;
    }
  }
  // Whether the complex value (r, j), its parts not NaN, certainly has a smaller modulus than
  // x(index), from the floating-point squares alone (no rounded modulus needed). q = r^2 + j^2 in
  // floating point is within 2.01 u of the exact |.|^2 (u = 2^-53; two roundings) when
  // nothing over- or underflows, and an underflowed q is off by a few 2^-1074 at most. With the
  // kept square s in [2^-900, 2^960], q < RN(s (1 - 2^-45)) gives exact |.|^2 < q (1 + 2.01 u) <
  // s (1 - 2^-45) (1 + u) (1 + 2.01 u) < s (1 - 2^-46) < the exact |x(index)|^2 (at most s
  // (1 + 2.01 u)), so the element can neither win nor tie: skipping it leaves the reduction's
  // value unchanged. An infinite q (or one beyond the range) is never below, and goes the full way.
  KOKKOS_INLINE_FUNCTION bool certainly_smaller(double r, double j) const {
    const bool usable = square >= 0x1p-900 && square <= 0x1p960;
    return usable && approximate_square(r, j) < square * (1.0 - 0x1p-45);
  }
  // r^2 + j^2 with two roundings (an explicit fma: nothing a compiler could contract differently).
  KOKKOS_INLINE_FUNCTION static double approximate_square(double r, double j) {
    return compat::fma(r, r, mul_rn(j, j));
  }
  KOKKOS_INLINE_FUNCTION void take_nan(std::int64_t i) {
    if (i < first_nan) first_nan = i;
  }
  // Element i of value v (double, float or their Kokkos::complex, Parts matching).
  template <class X>
  KOKKOS_INLINE_FUNCTION void visit(const X& v, std::int64_t i) {
    if constexpr (Parts == 2) {
      const double re = v.real(), im = v.imag();
      if (compat::isnan(re) || compat::isnan(im))
        take_nan(i);
      else if (!certainly_smaller(re, im))  // most elements of a long vector stop here
        take(static_cast<double>(rounded_complex_abs(v)), re, im, i);
    } else {
      const double d = static_cast<double>(v);
      if (compat::isnan(d))
        take_nan(i);
      else
        take(compat::fabs(d), 0.0, 0.0, i);
    }
  }
  // The state before any element: no number, no NaN.
  KOKKOS_INLINE_FUNCTION static MaxMagnitude empty() {
    return MaxMagnitude{-1.0, 0.0, 0.0, -1.0, none, none};
  }
  KOKKOS_INLINE_FUNCTION void merge(const MaxMagnitude& other) {
    take(other.magnitude, other.re, other.im, other.index);
    take_nan(other.first_nan);
  }
};

// A Kokkos reducer of MaxMagnitude values (the interface of Kokkos' built-in reducers).
template <class Space, int Parts>
struct MaxMagnitudeReducer {
  using reducer = MaxMagnitudeReducer<Space, Parts>;
  using value_type = MaxMagnitude<Parts>;
  using result_view_type = Kokkos::View<value_type, Space>;

  result_view_type value_;

  KOKKOS_INLINE_FUNCTION explicit MaxMagnitudeReducer(const result_view_type& value)
      : value_(value) {}

  KOKKOS_INLINE_FUNCTION void join(value_type& dest, const value_type& src) const {
    dest.merge(src);
  }
  // Kokkos before 4.2 calls this overload; from 4.2 on it must not exist
  // (compat::reducers_take_volatile_join).
  template <bool Enable = compat::reducers_take_volatile_join,
            typename std::enable_if<Enable, int>::type = 0>
  KOKKOS_INLINE_FUNCTION void join(volatile value_type& dest,
                                   const volatile value_type& src) const {
    value_type d{dest.magnitude, dest.re, dest.im, dest.square, dest.index, dest.first_nan};
    d.merge(value_type{src.magnitude, src.re, src.im, src.square, src.index, src.first_nan});
    dest.magnitude = d.magnitude;
    dest.re = d.re;
    dest.im = d.im;
    dest.square = d.square;
    dest.index = d.index;
    dest.first_nan = d.first_nan;
  }
  KOKKOS_INLINE_FUNCTION void init(value_type& v) const { v = value_type::empty(); }
  KOKKOS_INLINE_FUNCTION value_type& reference() const { return *value_.data(); }
  KOKKOS_INLINE_FUNCTION result_view_type view() const { return value_; }
  KOKKOS_INLINE_FUNCTION bool references_scalar() const { return false; }
};

template <class XView>
struct MaxMagnitudeFunctor {
  using X = typename XView::non_const_value_type;
  static constexpr int parts = is_exact_complex<X>() ? 2 : 1;
  XView x;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i, MaxMagnitude<parts>& m) const {
    m.visit(x(i), i);
  }
};

// What exnrminf stores: T's NaN, or the largest magnitude (exactly a T, the real type of x's).
template <class RView, class T, int Parts>
struct NrminfFinish {
  RView r;
  Kokkos::View<MaxMagnitude<Parts>, typename RView::memory_space> m;
  KOKKOS_INLINE_FUNCTION void operator()(const int) const {
    const MaxMagnitude<Parts> v = m();
    r() = v.first_nan != MaxMagnitude<Parts>::none ? quiet_nan<T>() : static_cast<T>(v.magnitude);
  }
};

// What exiamax stores: the 1-based index (see the header comment).
template <class RView, class T, int Parts>
struct IamaxFinish {
  RView r;
  Kokkos::View<MaxMagnitude<Parts>, typename RView::memory_space> m;
  KOKKOS_INLINE_FUNCTION void operator()(const int) const {
    const MaxMagnitude<Parts> v = m();
    using R = typename RView::non_const_value_type;
    r() = v.first_nan == 0 ? R(1) : static_cast<R>(v.index + 1);
  }
};

// Runs the reduction over the canonical x asynchronously on `space` and stores Finish's answer in
// the rank-0 r (0 for an empty x). Two launches: the reduction into scratch, then one thread that
// writes r, so that r is written once and only after every element was read.
template <template <class, class, int> class Finish, class ExecSpace, class RView, class XView>
void max_magnitude_into(const ExecSpace& space, const RView& r, const XView& x,
                        const char* routine) {
  using T = magnitude_t<typename XView::non_const_value_type>;
  using Functor = MaxMagnitudeFunctor<XView>;
  constexpr int parts = Functor::parts;
  using Memory = typename ExecSpace::memory_space;
  const HostCall<ExecSpace> call(space, routine);
  const std::int64_t n = static_cast<std::int64_t>(x.extent(0));
  if (n == 0) {
    Kokkos::deep_copy(space, r, typename RView::non_const_value_type(0));
    return;
  }
  // Not initialized: the reduction writes it.
  const Kokkos::View<MaxMagnitude<parts>, Memory> m(
      Kokkos::ViewAllocateWithoutInitializing("ExKokkos::max_magnitude"));
  Kokkos::parallel_reduce(
      routine, Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, n),
      Functor{x}, MaxMagnitudeReducer<Memory, parts>(m));
  Kokkos::parallel_for(routine, Kokkos::RangePolicy<ExecSpace>(space, 0, 1),
                       Finish<RView, T, parts>{r, m});
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_MAXMAGNITUDE_IMPL_HPP
