// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The level-1 reductions of Kokkos::complex values as exact reductions of real terms, so that
// each part of a result is its exact value rounded once by the real kernels (ExactReduce_impl):
//   exsum:  re = sum re(x_i), im = sum im(x_i)                       (n terms each)
//   exasum: sum |re(x_i)| + |im(x_i)|, BLAS' dzasum                     (2n terms)
//   exnrm2: sqrt(sum re(x_i)^2 + im(x_i)^2), one rounding of the root   (2n squares)
//   exdot:  conj(x) . y, as KokkosBlas::dot: re = sum re(x_i) re(y_i) + im(x_i) im(y_i),
//           im = sum re(x_i) im(y_i) - im(x_i) re(y_i)                (2n products each)
// Term j of the 2n comes from element j / 2: its real parts for even j, its imaginary parts for
// odd j. Negating a factor is exact, so -im(x_i) re(y_i) is one exact product like the others.
// A product of two floats is exact in double: the float forms are sum-like terms, budgeted as
// products as the real FloatDotTerms are.
#ifndef EXKOKKOS_COMPLEXTERMS_IMPL_HPP
#define EXKOKKOS_COMPLEXTERMS_IMPL_HPP

#include <ExKokkos_Compat.hpp>
#include "ExKokkos_RealifiedViews_impl.hpp"

#include <impl/ExKokkos_CanonicalViews_impl.hpp>
#include <impl/ExKokkos_ViewTraits_impl.hpp>

#include <cstdint>
#include <type_traits>

namespace ExKokkos {
namespace Impl {

// The real (odd = false) or imaginary part of a complex value, as a double.
template <class C>
KOKKOS_INLINE_FUNCTION double complex_part(const C& v, bool odd) {
  return static_cast<double>(odd ? v.imag() : v.real());
}

// exsum's real (Imag = false) or imaginary part: one term an element.
template <class XView, bool Imag>
struct ComplexPartTerms {
  static constexpr bool is_product = false;
  static constexpr int deposits_per_element = 1;
  XView x;
  KOKKOS_INLINE_FUNCTION double operator()(std::int64_t i) const {
    return complex_part(x(i), Imag);
  }
};

// exasum: |re| and |im| of every element, 2n terms.
template <class XView>
struct ComplexAbsTerms {
  static constexpr bool is_product = false;
  static constexpr int deposits_per_element = 1;
  XView x;
  KOKKOS_INLINE_FUNCTION double operator()(std::int64_t j) const {
    return compat::fabs(complex_part(x(j >> 1), j & 1));
  }
};

// exnrm2 and exnrm2_squared: re^2 and im^2 of every element, 2n products (exact terms for
// floats).
template <class XView,
          bool IsDouble =
              std::is_same<typename complex_traits<typename XView::non_const_value_type>::real_type,
                           double>::value>
struct ComplexSquareTerms {
  static constexpr bool is_product = true;
  static constexpr int deposits_per_element = 2;
  XView x;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t j, double& a, double& b) const {
    a = b = complex_part(x(j >> 1), j & 1);
  }
};
template <class XView>
struct ComplexSquareTerms<XView, false> {
  static constexpr bool is_product = false;
  static constexpr int deposits_per_element = 2;
  XView x;
  KOKKOS_INLINE_FUNCTION double operator()(std::int64_t j) const {
    const double v = complex_part(x(j >> 1), j & 1);
    return v * v;
  }
};

// The factors of term j of conj(x) . y's real (Imag = false) or imaginary part.
template <bool Imag, class C>
KOKKOS_INLINE_FUNCTION void conj_dot_factors(const C& xv, const C& yv, bool odd, double& a,
                                             double& b) {
  if (!Imag) {  // re(x) re(y), im(x) im(y)
    a = complex_part(xv, odd);
    b = complex_part(yv, odd);
  } else {  // re(x) im(y), -im(x) re(y)
    a = odd ? -complex_part(xv, true) : complex_part(xv, false);
    b = complex_part(yv, !odd);
  }
}

// exdot's real (Imag = false) or imaginary part: 2n products.
template <class XView, class YView, bool Imag,
          bool IsDouble =
              std::is_same<typename complex_traits<typename XView::non_const_value_type>::real_type,
                           double>::value>
struct ComplexDotTerms {
  static constexpr bool is_product = true;
  static constexpr int deposits_per_element = 2;
  XView x;
  YView y;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t j, double& a, double& b) const {
    conj_dot_factors<Imag>(x(j >> 1), y(j >> 1), j & 1, a, b);
  }
};
template <class XView, class YView, bool Imag>
struct ComplexDotTerms<XView, YView, Imag, false> {
  static constexpr bool is_product = false;
  static constexpr int deposits_per_element = 2;
  XView x;
  YView y;
  KOKKOS_INLINE_FUNCTION double operator()(std::int64_t j) const {
    double a, b;
    conj_dot_factors<Imag>(x(j >> 1), y(j >> 1), j & 1, a, b);
    return a * b;
  }
};

// exdot's imaginary part on contiguous vectors seen as 2n reals (RealifiedViews_impl): term j
// is x_r(j) times y_r(j ^ 1), negated for odd j: re(x_k) im(y_k) and -im(x_k) re(y_k). The
// partner is the neighbouring real of the same element, so the lanes' loads stay contiguous
// (pairwise swapped).
template <class XRView, class YRView,
          bool IsDouble = std::is_same<typename XRView::non_const_value_type, double>::value>
struct SwappedDotTerms {
  static constexpr bool is_product = true;
  static constexpr int deposits_per_element = 2;
  XRView x;
  YRView y;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t j, double& a, double& b) const {
    a = x(j);
    const double partner = y(j ^ 1);
    b = (j & 1) != 0 ? -partner : partner;
  }
};
template <class XRView, class YRView>
struct SwappedDotTerms<XRView, YRView, false> {
  static constexpr bool is_product = false;
  static constexpr int deposits_per_element = 2;
  XRView x;
  YRView y;
  KOKKOS_INLINE_FUNCTION double operator()(std::int64_t j) const {
    const double p = static_cast<double>(x(j)) * static_cast<double>(y(j ^ 1));
    return (j & 1) != 0 ? -p : p;
  }
};

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_COMPLEXTERMS_IMPL_HPP
