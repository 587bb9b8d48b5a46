// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// exgemv on Kokkos::complex values. Each part of y_i is the exact value of the formula
// Kokkos::complex's operators evaluate, rounded once:
//   re(y_i) = RN(re(alpha) re(S_i) - im(alpha) im(S_i) + re(beta) re(y_i) - im(beta) im(y_i)),
//   im(y_i) = RN(re(alpha) im(S_i) + im(alpha) re(S_i) + re(beta) im(y_i) + im(beta) re(y_i)),
// S_i = sum_k op(A)_ik x_k exactly, op(A) conjugated for trans "C". Both parts of S_i enter each
// part of y_i, so no single real sum rounds to it; the work runs in two passes:
//   1. two runs of the real engine (ExKokkos_Gemv_impl.hpp, every schedule and option) on A's
//      memory seen as reals give real sums whose combinations are the parts of S_i (the split and
//      interleaved forms below), with a Finish that keeps each as three doubles and a bound on
//      their distance to it (KeepPartSums);
//   2. one thread per output certifies each part of y_i from those (round_scaled_parts_within;
//      for floats, round_scaled_parts_to_float_within, straight to float); an output it
//      cannot certify (or with a NaN or an infinity about) is summed again exactly, both parts in
//      long accumulators, and rounded once from them (round_scaled_sums), the bits the certificate
//      gives where it answers.
#ifndef EXKOKKOS_COMPLEXGEMV_IMPL_HPP
#define EXKOKKOS_COMPLEXGEMV_IMPL_HPP

#include "ExKokkos_Gemv_impl.hpp"
#include "ExKokkos_RealifiedViews_impl.hpp"

#include <ExKokkos_CompensatedScaledRounding.hpp>
#include <ExKokkos_RoundedComplex.hpp>
#include <ExKokkos_ScaledSumRounding.hpp>
#include <impl/ExKokkos_ViewTraits_impl.hpp>

namespace ExKokkos {
namespace Impl {

// op(A)(i, k) of a complex matrix: A(i, k) or A(k, i), conjugated for "C", its parts as doubles.
template <class AView, bool Transposed, bool Conjugated>
KOKKOS_INLINE_FUNCTION void complex_operand_parts(const AView& A, std::int64_t i, std::int64_t k,
                                                  double& re, double& im) {
  const auto a = Transposed ? A(k, i) : A(i, k);
  re = static_cast<double>(a.real());
  im = Conjugated ? -static_cast<double>(a.imag()) : static_cast<double>(a.imag());
}

// Pass 1 runs the real engine on A's memory seen as reals, in one of two forms, by which of A's
// dimensions has stride 1 (realified_matrix):
//   split (op(A)'s outputs along that dimension: A LayoutLeft for "N", LayoutRight for "T"): the
//     2m real outputs 2i + p hold part p of row i of op(A) (unconjugated); two runs, one per part
//     q of x, give the four sums T_pq = sum_k part p of op(A)_ik times part q of x_k, of which
//     pass 2 combines re(S_i) = T_00 - T_11 and im(S_i) = T_10 + T_01 ("C" negates T_1q there);
//     each lane of the host schedule reads consecutive reals of a column;
//   interleaved (the terms along that dimension: LayoutRight "N", LayoutLeft "T" and "C"): the m
//     real outputs walk the 2n reals of their row of op(A), re(a_k), im(a_k) in turn, against
//     x's parts rearranged (InterleavedFactors): re(S_i) with re(x_k), -im(x_k), im(S_i) with
//     im(x_k), re(x_k) (for "C", +im(x_k) and -re(x_k): negation is exact); one run per part.
// Neither (a strided matrix with no dimension of stride 1): ComplexRowParts reads part p of each
// element, in the split form.
template <class AView, bool Transposed>
struct ComplexRowParts {
  AView A;
  KOKKOS_INLINE_FUNCTION double operator()(std::int64_t i, std::int64_t k) const {
    const auto a = Transposed ? A(k, i >> 1) : A(i >> 1, k);
    return static_cast<double>((i & 1) != 0 ? a.imag() : a.real());
  }
  std::int64_t outputs() const {
    return 2 * static_cast<std::int64_t>(A.extent(Transposed ? 1 : 0));
  }
  std::int64_t inner() const { return static_cast<std::int64_t>(A.extent(Transposed ? 0 : 1)); }
  bool inner_contiguous() const { return A.stride(Transposed ? 0 : 1) == 1; }
};

// The interleaved form's second factors, 2n reals each: f(0, 2k + q) for re(S) and f(1, 2k + q)
// for im(S), as in the comment above.
template <class XView, class FView, bool Conjugated>
struct InterleavedFactors {
  XView x;
  FView f;  // 4n reals: re(S)'s factors, then im(S)'s
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t k) const {
    const std::int64_t n = static_cast<std::int64_t>(x.extent(0));
    const auto v = x(k);
    const auto re = v.real(), im = v.imag();
    f(2 * k) = re;
    f(2 * k + 1) = Conjugated ? im : -im;
    f(2 * n + 2 * k) = im;
    f(2 * n + 2 * k + 1) = Conjugated ? -re : re;
  }
};

// Pass 1's Finish (blas/impl/ExKokkos_Finish_impl.hpp): each real output's sum T kept as four
// doubles h, l, r, e with |T - h - l - r| <= e: in the split form T_pq (real output 2i + p of the
// run for q) at parts(16 i + 8 p + 4 q), in the interleaved form part q of S_i (output i of the
// run for q) at parts(8 i + 4 q); or e = -1 when pass 2 must sum the output again (a NaN or an
// infinity among the terms, or a sum beyond the double range). From a compensated sum: its head and
// errors and its margin (r = 0). From a long accumulator: h = RN(T), l = RN(T - h), r = RN(T - h -
// l), each subtraction exact in the accumulator, so the remainder is at most half an ulp of r:
// below |r| 2^-52 + 2^-1074 (r normal or not), which e = |r| 2^-52 + 2^-1073 bounds after its own
// rounding.
template <class Real, class PartsView>
struct KeepPartSums {
  using value_type = Real;
  static constexpr bool certifies_compensated = std::is_same<Real, double>::value;
  PartsView parts;
  int q;
  bool split;

  KOKKOS_INLINE_FUNCTION void keep(std::int64_t i, double h, double l, double r, double e) const {
    const std::int64_t at = split ? 16 * (i >> 1) + 8 * (i & 1) + 4 * q : 8 * i + 4 * q;
    parts(at) = h;
    parts(at + 1) = l;
    parts(at + 2) = r;
    parts(at + 3) = e;
  }
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, const LongAccumulator& s) const {
    double special;
    double h, l;
    if (special_result(s.flags(), special)) return keep(i, 0.0, 0.0, 0.0, -1.0);
    s.round_pair(h, l);
    if (!compat::isfinite(h)) return keep(i, 0.0, 0.0, 0.0, -1.0);
    LongAccumulator rest = s;
    rest.add(-h);
    rest.add(-l);
    const double r = rest.round();
    keep(i, h, l, r, compat::fabs(r) * 0x1p-52 + 0x1p-1073);
  }
  KOKKOS_INLINE_FUNCTION bool round_compensated(std::int64_t i, const CompensatedSum& sum,
                                                double& r) const {
    double margin;
    if (!compensated_margin(sum.magnitude(), sum.terms(), margin)) return false;
    keep(i, sum.head(), sum.errors(), 0.0, margin);
    r = 0.0;
    return true;
  }
  KOKKOS_INLINE_FUNCTION void store(std::int64_t, double) const {}
};

// Output i exactly: both parts of S_i = sum_k op(A)_ik x_k in long accumulators, then each part
// of alpha S_i + beta y_i rounded once (ys: y_i's parts, not read when read_y is false). Pass 2's
// answer where the certificate refuses, and the team forms' (ExKokkos_TeamGemv.hpp) answer.
template <class Real, bool Transposed, bool Conjugated, class AView, class XView, class C>
KOKKOS_INLINE_FUNCTION Kokkos::complex<Real> complex_gemv_exact(
    const AView& A, const XView& x, std::int64_t i, std::int64_t k_count, const C& alpha,
    const C& beta, const double (&ys)[2], bool read_y) {
  LongAccumulator s[2];
  for (std::int64_t k = 0; k < k_count; ++k) {
    double re, im;
    complex_operand_parts<AView, Transposed, Conjugated>(A, i, k, re, im);
    const auto xv = x(k);
    add_complex_product(s, re, im, static_cast<double>(xv.real()), static_cast<double>(xv.imag()));
  }
  return round_complex_scaled_sum<Real>(s, alpha, beta, ys, read_y);
}

// The coefficients of the NS kept sums of an output in part p of y. Split (NS = 4), T_00, T_01,
// T_10, T_11:
//   re(y) = re(alpha) (T_00 - T_11) - im(alpha) (T_10 + T_01) + re(beta) re(y) - im(beta) im(y)
//   im(y) = re(alpha) (T_10 + T_01) + im(alpha) (T_00 - T_11) + re(beta) im(y) + im(beta) re(y)
// with T_1q negated for "C" (its part 1 is -im(a)); interleaved (NS = 2), re(S) and im(S)
// themselves, conjugation already in them.
template <int NS, bool Conjugated, class C>
KOKKOS_INLINE_FUNCTION void complex_sum_coefficients(const C& alpha, int p, double (&c)[NS]) {
  const double ar = static_cast<double>(alpha.real()), ai = static_cast<double>(alpha.imag());
  if constexpr (NS == 4) {
    const double s1 = Conjugated ? -1.0 : 1.0;
    if (p == 0) {
      c[0] = ar, c[1] = -ai, c[2] = -ai * s1, c[3] = -ar * s1;
    } else {
      c[0] = ai, c[1] = ar, c[2] = ar * s1, c[3] = -ai * s1;
    }
  } else {
    complex_part_coefficients(alpha, p, c);
  }
}

// Both parts of y_i = alpha S_i + beta y_i into r when each rounding is certified, from the NS
// sums whose combinations are S_i's parts, each known as t[j][0] + t[j][1] + t[j][2] within
// margin[j] (a negative margin: unknown, refused); floats rounded to float directly
// (round_scaled_parts_to_float_within). A NaN or an infinity among alpha, beta and y
// refuses (the exact step follows IEEE's rules for them).
template <class Real, int NS, bool Conjugated, class C>
KOKKOS_INLINE_FUNCTION bool certify_complex_output(const C& alpha, const C& beta,
                                                   const double (&t)[NS][3],
                                                   const double (&margin)[NS],
                                                   const double (&ys)[2], bool read_y,
                                                   double (&r)[2]) {
  const bool finite = compat::isfinite(alpha.real()) && compat::isfinite(alpha.imag()) &&
                      (!read_y || (compat::isfinite(beta.real()) && compat::isfinite(beta.imag()) &&
                                   compat::isfinite(ys[0]) && compat::isfinite(ys[1])));
  if (!finite) return false;
  for (int j = 0; j < NS; ++j)
    if (margin[j] < 0.0) return false;
  for (int p = 0; p < 2; ++p) {
    double c[NS], b[2];
    complex_sum_coefficients<NS, Conjugated>(alpha, p, c);
    complex_part_coefficients(beta, p, b);
    if constexpr (std::is_same<Real, float>::value) {
      float f;
      if (!round_scaled_parts_to_float_within<NS, 2>(c, t, margin, b, ys, read_y, f)) return false;
      r[p] = f;
    } else {
      if (!round_scaled_parts_within<NS, 2>(c, t, margin, b, ys, read_y, r[p])) return false;
    }
  }
  return true;
}

// Pass 2: y_i from the kept parts when certified, else exactly.
template <class Op, class XView, class YView, class PartsView, bool Transposed, bool Conjugated>
struct ComplexGemvCombine {
  using C = typename YView::non_const_value_type;
  using Real = magnitude_t<C>;
  Op A;  // the complex matrix
  XView x;
  YView y;
  PartsView parts;
  C alpha, beta;
  std::int64_t k_count;
  bool split;  // four sums T_pq an output (16 doubles), else re(S) and im(S) (8)

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i) const {
    const bool read_y = beta != C(0);
    const C yv = read_y ? C(y(i)) : C(0);
    const double ys[2] = {static_cast<double>(yv.real()), static_cast<double>(yv.imag())};
    double r[2];
    const bool certified =
        split ? certify_from<4>(i, ys, read_y, r) : certify_from<2>(i, ys, read_y, r);
    if (!certified) {
      const auto v = complex_gemv_exact<Real, Transposed, Conjugated>(A, x, i, k_count, alpha, beta,
                                                                      ys, read_y);
      r[0] = v.real();
      r[1] = v.imag();
    }
    y(i) = C(static_cast<Real>(r[0]), static_cast<Real>(r[1]));
  }

  // Both parts of y_i from the NS kept sums of output i, when each is certified.
  template <int NS>
  KOKKOS_INLINE_FUNCTION bool certify_from(std::int64_t i, const double (&ys)[2], bool read_y,
                                           double (&r)[2]) const {
    double t[NS][3], margin[NS];
    for (int j = 0; j < NS; ++j) {
      for (int f = 0; f < 3; ++f) t[j][f] = parts(4 * NS * i + 4 * j + f);
      margin[j] = parts(4 * NS * i + 4 * j + 3);
    }
    return certify_complex_output<Real, NS, Conjugated>(alpha, beta, t, margin, ys, read_y, r);
  }
};

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_COMPLEXGEMV_IMPL_HPP
