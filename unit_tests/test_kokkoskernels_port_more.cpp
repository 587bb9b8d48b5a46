// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The semantics of Kokkos Kernels' own unit tests of the routines test_kokkoskernels_port.cpp
// does not cover, ported (not copied) so that ExKokkos is held to the peer's test matrix:
// Test_Blas1_abs, _iamax, _nrminf, _nrm2_squared, _mult, _reciprocal, _update, _team_dot,
// _team_nrm2, Test_Blas2_team_gemv, _ger, _syr, _syr2, Test_Blas3_trsm and _trmm, for exabs,
// exiamax, exnrminf, exnrm2_squared, exmult, exreciprocal, exupdate, the team forms
// Experimental::exdot / exsum / exasum / exnrm2 / exgemv, exger, exsyr, exsyr2, extrsm, extrmm and
// extrsv (Kokkos Kernels 4.6 has no trsv test: extrsv is held to extrsm's modes and orders, since
// extrsm is defined as extrsv per right-hand side). Where Kokkos Kernels compares with a
// tolerance, every result here must have the bits of the MPFR oracle evaluated from ExKokkos'
// documented definition (docs/level1.md, level2.md, level3.md), each part rounded once.
//
// Level 1 (double, float, complex<double>, complex<float>; LayoutLeft, LayoutRight, LayoutStride):
// vectors of 0, 13 and 1024 elements and multivectors of 0 x 5, 13 x 5 and 1024 x 5 (and 789 x 1,
// as Test_Blas1_nrm2_squared), every call form (scalar return, rank-0 result, rank-1 R of one entry
// per column); Kokkos Kernels' coefficients (update 3, 5, 7, and 3, 5, 5 for multivectors; mult 3
// and 5), complex ones with an imaginary part so that the cross terms count, and each coefficient
// zero with NaN in the operand that is then not read; the mixed-layout calls of the abs,
// reciprocal, mult and update tests (x LayoutStride with y LayoutLeft and z LayoutRight, and
// x LayoutLeft with y LayoutStride) at 1024. update's 132231 x 5 multivector runs for double and
// LayoutLeft only (the oracle's time). One tie of the largest magnitude is planted in each
// vector: exiamax returns the first index of the largest magnitude (the reference IxAMAX, where
// KokkosBlas' tie depends on the partition), and complex magnitudes are moduli compared exactly.
//
// Team forms: dot on 4 teams that each take a quarter of one vector (0, 13, 124 elements), and
// dot, sum, nrm1 and nrm2 with one team per column of 0 x 5, 13 x 5 and 124 x 5 multivectors;
// team gemv on one team, trans N, T and C, alpha 3 and beta 5 (complex: 3 - 1.5i, 5 + 0.75i) and
// beta 0 with NaN in y, y of 0, 0, 4, 1..16, 1024, 1024, 1024 entries against x of 0, 4, 0, n, 1,
// 13, 124, with A, x, y all LayoutLeft, all LayoutRight, all strided, and A LayoutRight, x
// LayoutLeft, y LayoutRight. Each runs with Kokkos Kernels' team size (AUTO, or 1 for gemv) and
// with every thread in one team: the values must not change.
//
// ger, syr, syr2 (double and float; their complex forms are tested on Kokkos Kernels' shapes,
// modes and layouts in test_rank_update_complex.cpp): alpha 3; mode "T" and "H" (the same for real
// values), uplo "L" and "U"; Kokkos Kernels' hand-computed 1 x 1, 1 x 2 and 2 x 2 cases with their
// expected integers; m x n of 0 x 13, 1024 x 0, 13 x 13, 13 x 1024 and 50 x 40 (ger) and orders
// 0, 13 and 50 (syr, syr2); 1024 x 1024 and 2131 x 2131 are shrunk to 128 x 128 and 213 x 213
// (the oracle of millions of elements runs for minutes). Layouts: all LayoutLeft, all LayoutRight,
// all strided, and Test_Blas2_ger's mixed x LayoutStride, y LayoutLeft, A LayoutRight. syr and
// syr2 must leave the other triangle's bits alone; alpha 0 must leave A alone.
//
// trsm (all four types) and trmm (double and float; complex in test_rank_update_complex.cpp):
// every side, uplo, trans (and "C" for complex) and diag, at Kokkos Kernels' alpha 4.5 on
// LayoutLeft with B of 0 x 0, 101 x 19, 19 x 101 and the largest shape shrunk (trsm's 343 x 201
// to 343 x 3 and 3 x 343: order 343, three of extrsv's 128-row blocks, with 3 right-hand sides;
// trmm's 12 x 731 to 12 x 131 for side R, whose order is the 731), and at alpha 1 on LayoutRight
// with 0 x 0 and one shape (trsm: the one of 19 right-hand sides), since each right-hand side is
// one extrsv solve and Kokkos Kernels' every-alpha-every-layout product runs for minutes here.
// The unread triangle, and a unit diagonal, hold NaN. A is well conditioned (diagonal in [1, 2),
// off-diagonal O(1 / n)) rather than Kokkos Kernels' random fill, since bits, not a tolerance, are
// checked. alpha 0 must write +0 without reading B.
#include <ExKokkos.hpp>

#include <ExKokkosTest_Oracle.hpp>

#include "ExKokkosTest_Complex.hpp"
#include "ExKokkosTest_HostMatrix.hpp"
#include "ExKokkosTest_KokkosKernelsPort.hpp"
#include "ExKokkosTest_Views.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace {
namespace KokkosKernelsPortMore {

using namespace ExKokkosTest::KokkosKernelsTests;
using ExKokkosTest::describe;
using ExKokkosTest::same_bits;
using Space = Kokkos::DefaultExecutionSpace;
using Mem = Space::memory_space;
using LL = Kokkos::LayoutLeft;
using LR = Kokkos::LayoutRight;
using LS = Kokkos::LayoutStride;

template <class S>
S nan_value() {
  const double q = std::numeric_limits<double>::quiet_NaN();
  return make<S>(q, q);
}

std::string at(std::size_t i) {
  return "index " + std::to_string(i);
}
std::string at(std::size_t i, std::size_t j) {
  return "(" + std::to_string(i) + ", " + std::to_string(j) + ")";
}

template <class S>
std::vector<std::vector<S>> random_columns(std::size_t rows, std::size_t cols, std::uint64_t seed) {
  std::vector<std::vector<S>> m(cols);
  for (std::size_t j = 0; j < cols; ++j) m[j] = random_values<S>(rows, seed + 7 * j);
  return m;
}

// ---- The oracle, from the definitions (docs/level1.md, level2.md, level3.md) ----

// |x|: exact for real values; for complex ones the square root of the exact re^2 + im^2, rounded
// once (exabs, and each element's magnitude in exnrminf).
template <class S>
real_t<S> oracle_abs(const S& x) {
  if constexpr (is_complex<S>)
    return ExKokkosTest::exact_abs(x);
  else
    return std::fabs(x);
}

// RN(sum_i re x_i^2 + im x_i^2), a real result.
template <class S>
real_t<S> oracle_nrm2_squared(const std::vector<S>& x) {
  ExKokkosTest::ExactSum s;
  for (const auto& v : x) {
    s.add_product(re(v), re(v));
    if (is_complex<S>) s.add_product(im(v), im(v));
  }
  return ExKokkosTest::rounded<real_t<S>>(s);
}

// max_i |x_i| (rounding is monotone: the largest rounded modulus is the rounded largest); 0 when
// empty.
template <class S>
real_t<S> oracle_nrminf(const std::vector<S>& x) {
  real_t<S> m = 0;
  for (const auto& v : x) m = std::max(m, oracle_abs(v));
  return m;
}

// The sign of |a|^2 - |b|^2, exactly.
template <class S>
int compare_magnitudes(const S& a, const S& b) {
  ExKokkosTest::ExactSum d;
  d.add_product(re(a), re(a));
  d.add_product(im(a), im(a));
  d.add_product(-re(b), re(b));
  d.add_product(-im(b), im(b));
  return d.sign();
}

// The reference IxAMAX: 1-based, the first index of the largest magnitude (a later element wins
// only when strictly larger); 0 when empty. Finite data here.
template <class S>
std::size_t oracle_iamax(const std::vector<S>& x) {
  if (x.empty()) return 0;
  std::size_t best = 0;
  for (std::size_t i = 1; i < x.size(); ++i)
    if (compare_magnitudes(x[i], x[best]) > 0) best = i;
  return best + 1;
}

// Plants a tie of the largest magnitude (the same modulus, other bits) at another index.
template <class S>
void plant_tie(std::vector<S>& x) {
  if (x.size() < 2) return;
  const std::size_t k = oracle_iamax(x) - 1;
  const std::size_t j = k == x.size() - 1 ? 0 : x.size() - 1;
  x[j] = make<S>(-re(x[k]), im(x[k]));
}

// RN(1 / x): the exact quotient rounded once (complex: each part of (1 + 0i) / x, the exact
// numerator over the exact |x|^2).
template <class S>
S oracle_reciprocal(const S& x) {
  if constexpr (is_complex<S>) {
    return ExKokkosTest::exact_complex_quotient(S(1, 0), x);
  } else {
    ExKokkosTest::ExactSum n, d;
    n.add(1.0);
    d.add(x);
    return ExKokkosTest::exact_quotient<S>(n, d);
  }
}

// RN(sum_k c_k v_k) as one expression over the terms whose coefficient is not zero (exupdate,
// exscal): each part rounded once; +0 when no term is left.
template <class S>
S oracle_combination(const std::vector<S>& c, const std::vector<S>& v) {
  std::vector<S> cc, vv;
  for (std::size_t k = 0; k < c.size(); ++k)
    if (!is_zero(c[k])) cc.push_back(c[k]), vv.push_back(v[k]);
  if constexpr (is_complex<S>) {
    return ExKokkosTest::exact_combination(cc, vv);
  } else {
    ExKokkosTest::ExactSum s;
    for (std::size_t k = 0; k < cc.size(); ++k) s.add_product(cc[k], vv[k]);
    return ExKokkosTest::rounded<S>(s);
  }
}

// RN(alpha sum_k row[k] x[k] + beta y), rounded once (each part, for complex values, of the
// formula of Kokkos::complex's operators): alpha == 0 reads neither row nor x, beta == 0 not y.
// exgemv's output; exmult's gamma y + alpha (a x); exger's a_ij + alpha (x_i y_j) and exsyr2's
// a_ij + alpha (x_i y_j + y_i x_j) with beta 1; extrmm's alpha (op(A) B)_ij with beta 0.
template <class S>
S oracle_entry(const S& alpha, const std::vector<S>& row, const std::vector<S>& x, const S& beta,
               const S& y) {
  if constexpr (is_complex<S>)
    return ExKokkosTest::exact_gemv_entry('N', std::vector<std::vector<S>>{row}, 0, x, alpha, beta,
                                          y);
  else
    return ExKokkosTest::exact_gemv_entry(alpha, row, x, beta, y);
}

// extrsv's definition on one right-hand side b of the n x n system t(i, j) (lower or upper
// triangular): in order of substitution x_i = RN(RN(b_i - sum_j t_ij x_j) / t_ii) with the sum
// exact (each part rounded once for complex values, the quotient each part's exact numerator
// over the exact |t_ii|^2 rounded once); unit: x_i = RN(b_i - sum_j t_ij x_j), t_ii not read.
template <class S>
std::vector<S> oracle_trsv(const std::function<S(std::size_t, std::size_t)>& t, bool lower,
                           bool unit, std::vector<S> b) {
  using R = real_t<S>;
  const std::size_t n = b.size();
  for (std::size_t q = 0; q < n; ++q) {
    const std::size_t i = lower ? q : n - 1 - q;
    ExKokkosTest::ExactSum sr, si;
    sr.add(re(b[i]));
    si.add(im(b[i]));
    for (std::size_t p = 0; p < q; ++p) {
      const std::size_t j = lower ? p : n - 1 - p;
      const S tij = t(i, j);
      sr.add_product(-re(tij), re(b[j]));
      if constexpr (is_complex<S>) {
        sr.add_product(im(tij), im(b[j]));
        si.add_product(-im(tij), re(b[j]));
        si.add_product(-re(tij), im(b[j]));
      }
    }
    if constexpr (is_complex<S>) {
      const S r(ExKokkosTest::rounded<R>(sr), ExKokkosTest::rounded<R>(si));
      b[i] = unit ? r : ExKokkosTest::exact_complex_quotient(r, t(i, i));
    } else {
      const S r = ExKokkosTest::rounded<S>(sr);
      ExKokkosTest::ExactSum num, den;
      num.add(r);
      den.add(t(i, i));
      b[i] = unit ? r : ExKokkosTest::exact_quotient<S>(num, den);
    }
  }
  return b;
}

// ---- Views in the layouts Kokkos Kernels tests ----

// A rank-1 host view of v: contiguous for LayoutLeft and LayoutRight, every third element of a
// larger array for LayoutStride (as Kokkos Kernels' strided subviews).
template <class Layout, class S>
auto rank1(const std::vector<S>& v) {
  if constexpr (std::is_same<Layout, LS>::value) {
    return ExKokkosTest::vector_of<Layout>(v);
  } else {
    Kokkos::View<S*, Layout, Kokkos::HostSpace> h("v", v.size());
    for (std::size_t i = 0; i < v.size(); ++i) h(i) = v[i];
    return h;
  }
}
template <class Layout, class S>
auto device1(const std::vector<S>& v) {
  return ExKokkosTest::space_copy<Space>(rank1<Layout>(v));
}
template <class Layout, class S>
auto device2(const std::vector<std::vector<S>>& cols_data, std::size_t rows) {
  return ExKokkosTest::space_copy<Space>(rank2<Layout>(cols_data, rows));
}
template <class T>
T rank0_value(const Kokkos::View<T, Mem>& r) {
  auto h = Kokkos::create_mirror_view(r);
  Kokkos::deep_copy(h, r);
  return h();
}

// Coefficients: Kokkos Kernels' integers, complex ones with an imaginary part so that conjugation
// and the cross terms matter.
template <class S>
S coef(double r, double i) {
  return make<S>(r, i);
}

// ---- Level 1, rank 1: nrm2_squared, nrminf, iamax, abs, reciprocal, update, mult ----

template <class S, class Layout>
void level1_more_rank1(std::size_t n, std::uint64_t seed) {
  using R = real_t<S>;
  const Space space;
  const std::string tag =
      type_name<S>() + " " + layout_name<Layout>() + " rank 1 n " + std::to_string(n);
  auto x = random_values<S>(n, seed);
  plant_tie(x);
  const auto y = random_values<S>(n, seed + 1), z = random_values<S>(n, seed + 2);
  const auto dx = device1<Layout>(x);
  {
    Checker c{"reductions " + tag};
    const R sq = oracle_nrm2_squared(x), inf = oracle_nrminf(x);
    const std::size_t imax = oracle_iamax(x);
    c.check(R(ExKokkos::exnrm2_squared(space, dx)), sq, "exnrm2_squared scalar");
    c.check(R(ExKokkos::exnrminf(space, dx)), inf, "exnrminf scalar");
    c.check_index(std::size_t(ExKokkos::exiamax(space, dx)), imax, "exiamax scalar");
    Kokkos::View<R, Mem> rr("rr");
    Kokkos::View<std::size_t, Mem> ri("ri");
    ExKokkos::exnrm2_squared(space, rr, dx);
    c.check(rank0_value(rr), sq, "exnrm2_squared rank-0");
    ExKokkos::exnrminf(space, rr, dx);
    c.check(rank0_value(rr), inf, "exnrminf rank-0");
    ExKokkos::exiamax(space, ri, dx);
    c.check_index(rank0_value(ri), imax, "exiamax rank-0");
  }
  {
    Checker c{"exabs " + tag};
    const auto dr = device1<Layout>(y);
    ExKokkos::exabs(space, dr, dx);
    const auto got = read_back(dr);
    for (std::size_t i = 0; i < n; ++i) c.check(S(got(i)), make<S>(oracle_abs(x[i]), 0), at(i));
    if constexpr (is_complex<S>) {
      // Into a view of the real type too (Kokkos Kernels' abs writes the complex type).
      const auto drr = device1<Layout>(std::vector<R>(n, R(7)));
      ExKokkos::exabs(space, drr, dx);
      const auto gr = read_back(drr);
      for (std::size_t i = 0; i < n; ++i) c.check(R(gr(i)), oracle_abs(x[i]), "real " + at(i));
    }
  }
  {
    Checker c{"exreciprocal " + tag};
    const auto dr = device1<Layout>(y);
    ExKokkos::exreciprocal(space, dr, dx);
    const auto got = read_back(dr);
    for (std::size_t i = 0; i < n; ++i) c.check(S(got(i)), oracle_reciprocal(x[i]), at(i));
  }
  // update(a, x, b, y, c, z) with Kokkos Kernels' 3, 5, 7, and each coefficient zero with NaN in
  // the operand it would multiply (not read).
  const S a = coef<S>(3, -1.5), b = coef<S>(5, 0.75), g = coef<S>(7, -0.5), zero = make<S>(0, 0);
  const std::vector<std::vector<S>> triples{{a, b, g}, {zero, b, g}, {a, zero, g}, {a, b, zero}};
  for (std::size_t p = 0; p < triples.size(); ++p) {
    const auto& t = triples[p];
    Checker c{"exupdate triple " + std::to_string(p) + " " + tag};
    auto xin = x, yin = y, zin = z;
    if (is_zero(t[0])) xin.assign(n, nan_value<S>());
    if (is_zero(t[1])) yin.assign(n, nan_value<S>());
    if (is_zero(t[2])) zin.assign(n, nan_value<S>());
    const auto dxi = device1<Layout>(xin), dyi = device1<Layout>(yin), dz = device1<Layout>(zin);
    ExKokkos::exupdate(space, t[0], dxi, t[1], dyi, t[2], dz);
    const auto got = read_back(dz);
    for (std::size_t i = 0; i < n; ++i)
      c.check(S(got(i)), oracle_combination(t, {xin[i], yin[i], zin[i]}), at(i));
  }
  // mult(b, z, a, x, y) of Kokkos Kernels: z = b z + a x y, ExKokkos' exmult(gamma, y, alpha, a,
  // x) with the triple product exact; gamma 0 does not read z, alpha 0 reads neither x nor y.
  for (const auto& ga : std::vector<std::pair<S, S>>{{b, a}, {zero, a}, {b, zero}}) {
    Checker c{"exmult gamma " + describe(ga.first) + " alpha " + describe(ga.second) + " " + tag};
    auto xin = x, yin = y, zin = z;
    if (is_zero(ga.first)) zin.assign(n, nan_value<S>());
    if (is_zero(ga.second)) xin.assign(n, nan_value<S>()), yin.assign(n, nan_value<S>());
    const auto dxi = device1<Layout>(xin), dyi = device1<Layout>(yin), dz = device1<Layout>(zin);
    ExKokkos::exmult(space, ga.first, dz, ga.second, dxi, dyi);
    const auto got = read_back(dz);
    for (std::size_t i = 0; i < n; ++i)
      c.check(S(got(i)), oracle_entry(ga.second, {xin[i]}, {yin[i]}, ga.first, zin[i]), at(i));
  }
}

// The mixed-layout calls of Kokkos Kernels' abs, reciprocal, update and mult tests: the first
// operand in LX, the second in LY, the output in LZ.
template <class S, class LX, class LY, class LZ>
void level1_mixed_layouts(std::size_t n, std::uint64_t seed) {
  const Space space;
  const std::string tag = type_name<S>() + " x " + layout_name<LX>() + " y " + layout_name<LY>() +
                          " z " + layout_name<LZ>() + " n " + std::to_string(n);
  const auto x = random_values<S>(n, seed), y = random_values<S>(n, seed + 1),
             z = random_values<S>(n, seed + 2);
  const auto dx = device1<LX>(x);  // one declaration each: the types differ by layout
  const auto dy = device1<LY>(y);
  const S a = coef<S>(3, -1.5), b = coef<S>(5, 0.75), g = coef<S>(7, -0.5);
  Checker c{"mixed layouts " + tag};
  {
    const auto dr = device1<LY>(z);
    ExKokkos::exabs(space, dr, dx);
    const auto got = read_back(dr);
    for (std::size_t i = 0; i < n; ++i)
      c.check(S(got(i)), make<S>(oracle_abs(x[i]), 0), "exabs " + at(i));
    ExKokkos::exreciprocal(space, dr, dx);
    const auto got2 = read_back(dr);
    for (std::size_t i = 0; i < n; ++i)
      c.check(S(got2(i)), oracle_reciprocal(x[i]), "exreciprocal " + at(i));
  }
  {
    const auto dz = device1<LZ>(z);
    ExKokkos::exupdate(space, a, dx, b, dy, g, dz);
    const auto got = read_back(dz);
    for (std::size_t i = 0; i < n; ++i)
      c.check(S(got(i)), oracle_combination<S>({a, b, g}, {x[i], y[i], z[i]}), "exupdate " + at(i));
  }
  {
    const auto dz = device1<LZ>(z);
    ExKokkos::exmult(space, b, dz, a, dx, dy);
    const auto got = read_back(dz);
    for (std::size_t i = 0; i < n; ++i)
      c.check(S(got(i)), oracle_entry(a, {x[i]}, {y[i]}, b, z[i]), "exmult " + at(i));
  }
}

// ---- Level 1, rank 2 (multivectors): R(j) is the routine on column j ----

template <class S, class Layout>
void level1_more_rank2(std::size_t rows, std::size_t cols, std::uint64_t seed,
                       bool update_only = false) {
  using R = real_t<S>;
  const Space space;
  const std::string tag = type_name<S>() + " " + layout_name<Layout>() + " rank 2 " +
                          std::to_string(rows) + " x " + std::to_string(cols);
  auto x = random_columns<S>(rows, cols, seed);
  for (auto& col : x) plant_tie(col);
  const auto y = random_columns<S>(rows, cols, seed + 1000),
             z = random_columns<S>(rows, cols, seed + 2000);
  const auto dX = device2<Layout>(x, rows), dY = device2<Layout>(y, rows);
  const auto expect_matrix = [&](Checker& c, const auto& view, auto oracle) {
    const auto h = read_back(view);
    for (std::size_t j = 0; j < cols; ++j)
      for (std::size_t i = 0; i < rows; ++i) c.check(S(h(i, j)), oracle(i, j), at(i, j));
  };
  {
    // update(a, X, b, Y, c, Z) with Kokkos Kernels' multivector coefficients 3, 5, 5.
    const S a = coef<S>(3, -1.5), b = coef<S>(5, 0.75), g = coef<S>(5, -0.5);
    Checker c{"exupdate(a, X, b, Y, c, Z) " + tag};
    const auto dZ = device2<Layout>(z, rows);
    ExKokkos::exupdate(space, a, dX, b, dY, g, dZ);
    expect_matrix(c, dZ, [&](std::size_t i, std::size_t j) {
      return oracle_combination<S>({a, b, g}, {x[j][i], y[j][i], z[j][i]});
    });
  }
  if (update_only) return;
  {
    Checker c{"multivector reductions " + tag};
    Kokkos::View<R*, Mem> rr("R", cols);
    Kokkos::View<std::size_t*, Mem> ri("Ri", cols);
    ExKokkos::exnrm2_squared(space, rr, dX);
    auto h = read_back(rr);
    for (std::size_t j = 0; j < cols; ++j)
      c.check(R(h(j)), oracle_nrm2_squared(x[j]), "exnrm2_squared column " + std::to_string(j));
    ExKokkos::exnrminf(space, rr, dX);
    h = read_back(rr);
    for (std::size_t j = 0; j < cols; ++j)
      c.check(R(h(j)), oracle_nrminf(x[j]), "exnrminf column " + std::to_string(j));
    ExKokkos::exiamax(space, ri, dX);
    const auto hi = read_back(ri);
    for (std::size_t j = 0; j < cols; ++j)
      c.check_index(hi(j), oracle_iamax(x[j]), "exiamax column " + std::to_string(j));
  }
  {
    Checker c{"exabs(R, X) " + tag};
    const auto dR = device2<Layout>(y, rows);
    ExKokkos::exabs(space, dR, dX);
    expect_matrix(c, dR,
                  [&](std::size_t i, std::size_t j) { return make<S>(oracle_abs(x[j][i]), 0); });
  }
  {
    Checker c{"exreciprocal(R, X) " + tag};
    const auto dR = device2<Layout>(y, rows);
    ExKokkos::exreciprocal(space, dR, dX);
    expect_matrix(c, dR, [&](std::size_t i, std::size_t j) { return oracle_reciprocal(x[j][i]); });
  }
  {
    // mult(b, Z, a, x, Y): Z = b Z + a x Y with x rank 1, one entry per row.
    const S a = coef<S>(3, -1.5), b = coef<S>(5, 0.75);
    const auto w = random_values<S>(rows, seed + 3000);
    const auto dw = device1<Layout>(w);
    const auto dZ = device2<Layout>(z, rows);
    Checker c{"exmult(b, Z, a, x, Y) " + tag};
    ExKokkos::exmult(space, b, dZ, a, dw, dY);
    expect_matrix(c, dZ, [&](std::size_t i, std::size_t j) {
      return oracle_entry(a, {w[i]}, {y[j][i]}, b, z[j][i]);
    });
  }
}

template <class S>
void level1_more_every_layout() {
  std::uint64_t seed = 300;
  for (const std::size_t n : {0, 13, 1024}) {
    level1_more_rank1<S, LL>(n, seed += 10);
    level1_more_rank1<S, LR>(n, seed += 10);
    level1_more_rank1<S, LS>(n, seed += 10);
  }
  level1_mixed_layouts<S, LS, LL, LR>(1024, seed += 10);
  level1_mixed_layouts<S, LL, LS, LR>(1024, seed += 10);
  for (const auto& s :
       std::vector<std::pair<std::size_t, std::size_t>>{{0, 5}, {13, 5}, {1024, 5}, {789, 1}}) {
    level1_more_rank2<S, LL>(s.first, s.second, seed += 10);
    level1_more_rank2<S, LR>(s.first, s.second, seed += 10);
    level1_more_rank2<S, LS>(s.first, s.second, seed += 10);
  }
}

TEST(KokkosKernelsPortMore, Level1Double) {
  level1_more_every_layout<double>();
  // Test_Blas1_update's largest multivector.
  level1_more_rank2<double, LL>(132231, 5, 77, true);
}
TEST(KokkosKernelsPortMore, Level1Float) {
  level1_more_every_layout<float>();
}
TEST(KokkosKernelsPortMore, Level1ComplexDouble) {
  level1_more_every_layout<Kokkos::complex<double>>();
}
TEST(KokkosKernelsPortMore, Level1ComplexFloat) {
  level1_more_every_layout<Kokkos::complex<float>>();
}

// ---- Team level 1: Experimental::exdot, exsum, exasum, exnrm2 inside a TeamPolicy kernel ----

// Team t works on its piece of x and y: a quarter of a rank-1 view (Test_Blas1_team_dot's four
// teams, the last taking the rest), or column t of a rank-2 view.
template <class XV, class YV, class SV, class RV>
void run_team_level1(const XV& x, const YV& y, int league, int team_size, const SV& dot,
                     const SV& sum, const RV& asum, const RV& nrm2) {
  using Policy = Kokkos::TeamPolicy<Space>;
  const Policy policy = team_size > 0 ? Policy(league, team_size) : Policy(league, Kokkos::AUTO);
  const std::size_t n = x.extent(0), chunk = (n + league - 1) / league;
  Kokkos::parallel_for(
      "KokkosKernelsPortMore::team_level1", policy,
      KOKKOS_LAMBDA(const typename Policy::member_type& team) {
        const int t = team.league_rank();
        const auto piece = [&](const auto& v) {
          if constexpr (XV::rank == 1) {
            const std::size_t b = std::min(n, t * chunk);
            const std::size_t e = t < league - 1 ? std::min(n, (t + 1) * chunk) : n;
            return Kokkos::subview(v, Kokkos::make_pair(b, e));
          } else {
            return Kokkos::subview(v, Kokkos::ALL(), t);
          }
        };
        const auto xs = piece(x);
        const auto ys = piece(y);
        const auto d = ExKokkos::Experimental::exdot(team, xs, ys);
        const auto s = ExKokkos::Experimental::exsum(team, xs);
        const auto a = ExKokkos::Experimental::exasum(team, xs);
        const auto r = ExKokkos::Experimental::exnrm2(team, xs);
        Kokkos::single(Kokkos::PerTeam(team), [&]() {
          dot(t) = d;
          sum(t) = s;
          asum(t) = a;
          nrm2(t) = r;
        });
      });
  Kokkos::fence();
}

// conj(x) . y, sum, BLAS' sum of |re| + |im|, and the root of the exact sum of squares, each part
// rounded once: the device-wide routines' definitions, which the team forms share.
template <class S>
S oracle_dot(const std::vector<S>& x, const std::vector<S>& y) {
  std::vector<S> cx;
  for (const auto& v : x) cx.push_back(conj_of(v));
  return oracle_combination(cx, y);
}
template <class S>
S oracle_sum(const std::vector<S>& x) {
  ExKokkosTest::ExactSum r, i;
  for (const auto& v : x) r.add(re(v)), i.add(im(v));
  if constexpr (is_complex<S>)
    return S(ExKokkosTest::rounded<real_t<S>>(r), ExKokkosTest::rounded<real_t<S>>(i));
  else
    return ExKokkosTest::rounded<S>(r);
}
template <class S, class Layout>
void team_level1_case(std::size_t n, bool multivector, std::uint64_t seed) {
  using R = real_t<S>;
  const int league = multivector ? 5 : 4;
  const std::string tag = type_name<S>() + " " + layout_name<Layout>() +
                          (multivector ? " one team a column of " + std::to_string(n) + " x 5"
                                       : " 4 teams on n " + std::to_string(n));
  // The pieces, on the host: columns, or the quarters of one vector.
  std::vector<std::vector<S>> xp(league), yp(league);
  std::vector<S> x, y;
  if (multivector) {
    xp = random_columns<S>(n, league, seed);
    yp = random_columns<S>(n, league, seed + 100);
  } else {
    x = random_values<S>(n, seed);
    y = random_values<S>(n, seed + 1);
    const std::size_t chunk = (n + league - 1) / league;
    for (int t = 0; t < league; ++t) {
      const std::size_t b = std::min(n, t * chunk),
                        e = t < league - 1 ? std::min(n, (t + 1) * chunk) : n;
      xp[t].assign(x.begin() + b, x.begin() + e);
      yp[t].assign(y.begin() + b, y.begin() + e);
    }
  }
  Kokkos::View<S*, Mem> dot("dot", league), sum("sum", league);
  Kokkos::View<R*, Mem> asum("asum", league), nrm2("nrm2", league);
  for (const int team_size : {0, ExKokkosTest::widest_team<Space>()}) {
    if (multivector)
      run_team_level1(device2<Layout>(xp, n), device2<Layout>(yp, n), league, team_size, dot, sum,
                      asum, nrm2);
    else
      run_team_level1(device1<Layout>(x), device1<Layout>(y), league, team_size, dot, sum, asum,
                      nrm2);
    Checker c{"team level 1 " + tag + " team size " +
              (team_size == 0 ? std::string("AUTO") : std::to_string(team_size))};
    const auto hd = read_back(dot), hs = read_back(sum);
    const auto ha = read_back(asum), hn = read_back(nrm2);
    for (int t = 0; t < league; ++t) {
      const std::string where = "team " + std::to_string(t);
      c.check(S(hd(t)), oracle_dot(xp[t], yp[t]), "exdot " + where);
      c.check(S(hs(t)), oracle_sum(xp[t]), "exsum " + where);
      c.check(R(ha(t)), oracle_asum(xp[t]), "exasum " + where);
      c.check(R(hn(t)), oracle_nrm2(xp[t]), "exnrm2 " + where);
    }
  }
}

template <class S>
void team_level1_every_layout() {
  std::uint64_t seed = 900;
  for (const std::size_t n : {0, 13, 124})
    for (const bool mv : {false, true}) {
      team_level1_case<S, LL>(n, mv, seed += 10);
      team_level1_case<S, LR>(n, mv, seed += 10);
      team_level1_case<S, LS>(n, mv, seed += 10);
    }
}

TEST(KokkosKernelsPortMore, TeamLevel1Double) {
  team_level1_every_layout<double>();
}
TEST(KokkosKernelsPortMore, TeamLevel1Float) {
  team_level1_every_layout<float>();
}
TEST(KokkosKernelsPortMore, TeamLevel1ComplexDouble) {
  team_level1_every_layout<Kokkos::complex<double>>();
}
TEST(KokkosKernelsPortMore, TeamLevel1ComplexFloat) {
  team_level1_every_layout<Kokkos::complex<float>>();
}

// ---- Team gemv: Experimental::exgemv(team, trans, alpha, A, x, beta, y) ----

// op(M) of a rows x cols matrix m[r][c] (row-major vectors), for trans 'N', 'T' or 'C'.
template <class S>
std::vector<std::vector<S>> op(char trans, const std::vector<std::vector<S>>& m, std::size_t rows,
                               std::size_t cols) {
  if (trans == 'N') return m;
  std::vector<std::vector<S>> t(cols, std::vector<S>(rows));
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c) t[c][r] = trans == 'C' ? conj_of(m[r][c]) : m[r][c];
  return t;
}
// One team gemv problem: y has ny entries and x nx (Test_Blas2_gemv_util's N and M), A is
// ny x nx for "N" and nx x ny otherwise; the oracle's y, computed once for every layout.
template <class S>
struct GemvProblem {
  char trans;
  std::size_t ny, nx, ar, ac;
  S alpha, beta;
  std::vector<std::vector<S>> a;
  std::vector<S> x, y, expected;
  std::string name() const {
    return std::string(1, trans) + " " + type_name<S>() + " y " + std::to_string(ny) + " x " +
           std::to_string(nx) + " alpha " + describe(alpha) + " beta " + describe(beta);
  }
};

template <class S>
GemvProblem<S> gemv_problem(char trans, std::size_t ny, std::size_t nx, const S& alpha,
                            const S& beta, std::uint64_t seed) {
  GemvProblem<S> p{trans, ny, nx, trans == 'N' ? ny : nx, trans == 'N' ? nx : ny, alpha, beta};
  p.a = random_matrix<S>(p.ar, p.ac, seed);
  p.x = random_values<S>(nx, seed + 7919);
  p.y = random_values<S>(ny, seed + 7920);
  if (is_zero(beta)) p.y.assign(ny, nan_value<S>());  // not read
  const auto opa = op(trans, p.a, p.ar, p.ac);
  for (std::size_t i = 0; i < ny; ++i)
    p.expected.push_back(oracle_entry(alpha, opa[i], p.x, beta, p.y[i]));
  return p;
}

template <class S, class LA, class LX, class LY>
void team_gemv_case(const GemvProblem<S>& p) {
  const auto dA = ExKokkosTest::space_copy<Space>(matrix_of<LA>(p.a, p.ar, p.ac));
  const auto dx = device1<LX>(p.x);
  const char trans = p.trans;
  const S alpha = p.alpha, beta = p.beta;
  for (const int team_size : {1, ExKokkosTest::widest_team<Space>()}) {
    const auto dy = device1<LY>(p.y);
    using Policy = Kokkos::TeamPolicy<Space>;
    Kokkos::parallel_for(
        "KokkosKernelsPortMore::team_gemv", Policy(1, team_size),
        KOKKOS_LAMBDA(const typename Policy::member_type& team) {
          ExKokkos::Experimental::exgemv(team, trans, alpha, dA, dx, beta, dy);
        });
    Kokkos::fence();
    const auto got = read_back(dy);
    Checker c{"team exgemv " + p.name() + " A " + layout_name<LA>() + " x " + layout_name<LX>() +
              " y " + layout_name<LY>() + " team size " + std::to_string(team_size)};
    for (std::size_t i = 0; i < p.ny; ++i) c.check(S(got(i)), p.expected[i], at(i));
  }
}

// A, x, y all LayoutLeft, all LayoutRight, all strided, and A LayoutRight, x LayoutLeft,
// y LayoutRight (Test_Blas2_gemv_util's layouts).
template <class S>
void team_gemv_every_layout() {
  std::vector<std::pair<std::size_t, std::size_t>> sizes{{0, 0}, {0, 4}, {4, 0}};
  for (std::size_t n = 1; n <= 16; ++n) sizes.push_back({n, n});
  for (const std::size_t m : {1, 13, 124}) sizes.push_back({1024, m});
  const S alpha = coef<S>(3, -1.5), beta = coef<S>(5, 0.75);
  std::uint64_t seed = 11000;
  for (const char t : {'N', 'T', 'C'})
    for (const auto& s : sizes)
      for (const S b : {beta, make<S>(0, 0)}) {
        // beta 0 (Kokkos Kernels leaves it as a to-do): y is not read.
        if (is_zero(b) && s.first != 13 && s.second != 13) continue;
        const auto p = gemv_problem(t, s.first, s.second, alpha, b, seed += 100);
        team_gemv_case<S, LL, LL, LL>(p);
        team_gemv_case<S, LR, LR, LR>(p);
        team_gemv_case<S, LS, LS, LS>(p);
        team_gemv_case<S, LR, LL, LR>(p);
      }
}

TEST(KokkosKernelsPortMore, TeamGemvDouble) {
  team_gemv_every_layout<double>();
}
TEST(KokkosKernelsPortMore, TeamGemvFloat) {
  team_gemv_every_layout<float>();
}
TEST(KokkosKernelsPortMore, TeamGemvComplexDouble) {
  team_gemv_every_layout<Kokkos::complex<double>>();
}
TEST(KokkosKernelsPortMore, TeamGemvComplexFloat) {
  team_gemv_every_layout<Kokkos::complex<float>>();
}

// ---- ger, syr, syr2 ----

// What the three rank updates share: A m x n (square for syr and syr2), x of m, y of n.
struct RankUpdateCase {
  char routine;  // 'g' ger, 's' syr, '2' syr2
  char trans, uplo;
  std::size_t m, n;
};

// a_ij after the update, from the definition: RN(a_ij + alpha x_i y_j) (syr: y = x; syr2:
// RN(a_ij + alpha (x_i y_j + y_i x_j))), one rounding; syr and syr2 leave the other triangle,
// and alpha 0 every element, as they were.
template <class S>
S oracle_rank_update(const RankUpdateCase& k, const S& alpha, const std::vector<S>& x,
                     const std::vector<S>& y, const S& a, std::size_t i, std::size_t j) {
  const bool in_triangle = k.routine == 'g' || (k.uplo == 'L' ? j <= i : j >= i);
  if (!in_triangle || is_zero(alpha)) return a;
  const S one = make<S>(1, 0);
  if (k.routine == 'g') return oracle_entry(alpha, {x[i]}, {y[j]}, one, a);
  if (k.routine == 's') return oracle_entry(alpha, {x[i]}, {x[j]}, one, a);
  return oracle_entry(alpha, {x[i], y[i]}, {y[j], x[j]}, one, a);
}

template <class S, class LX, class LY, class LA>
void rank_update_case(const RankUpdateCase& k, const S& alpha, std::vector<S> x, std::vector<S> y,
                      std::vector<std::vector<S>> a, const std::vector<std::vector<S>>& expected,
                      std::uint64_t seed) {
  const Space space;
  if (x.empty() && y.empty() && a.empty()) {
    x = random_values<S>(k.m, seed);
    y = random_values<S>(k.n, seed + 1);
    a = random_matrix<S>(k.m, k.n, seed + 2);
  }
  const auto dx = device1<LX>(x);  // one declaration each: the types differ by layout
  const auto dy = device1<LY>(y);
  const auto dA = ExKokkosTest::space_copy<Space>(matrix_of<LA>(a, k.m, k.n));
  const char trans[2] = {k.trans, 0}, uplo[2] = {k.uplo, 0};
  std::string name = "exger";
  if (k.routine == 'g') {
    ExKokkos::exger(space, trans, alpha, dx, dy, dA);
  } else if (k.routine == 's') {
    name = "exsyr";
    ExKokkos::exsyr(space, trans, uplo, alpha, dx, dA);
  } else {
    name = "exsyr2";
    ExKokkos::exsyr2(space, trans, uplo, alpha, dx, dy, dA);
  }
  const auto got = read_back(dA);
  Checker c{name + " " + trans + (k.routine == 'g' ? "" : std::string(" ") + uplo) + " " +
            type_name<S>() + " x " + layout_name<LX>() + " y " + layout_name<LY>() + " A " +
            layout_name<LA>() + " " + std::to_string(k.m) + " x " + std::to_string(k.n) +
            " alpha " + describe(alpha)};
  for (std::size_t i = 0; i < k.m; ++i)
    for (std::size_t j = 0; j < k.n; ++j) {
      const S want =
          expected.empty() ? oracle_rank_update(k, alpha, x, y, a[i][j], i, j) : expected[i][j];
      c.check(S(got(i, j)), want, at(i, j));
      // The hand-computed cases check the oracle too.
      if (!expected.empty())
        c.check(oracle_rank_update(k, alpha, x, y, a[i][j], i, j), want, "oracle " + at(i, j));
    }
}

template <class S, class LX, class LY, class LA>
void rank_updates(std::uint64_t seed) {
  using M = std::vector<std::vector<S>>;
  using V = std::vector<S>;
  const S three = make<S>(3, 0);
  for (const char t : {'T', 'H'}) {
    // Test_Blas2_ger's hand-computed cases.
    rank_update_case<S, LX, LY, LA>({'g', t, 'L', 1, 1}, three, V{2}, V{3}, M{{7}}, M{{25}}, 0);
    rank_update_case<S, LX, LY, LA>({'g', t, 'L', 1, 2}, three, V{2}, V{3, 4}, M{{7, -6}},
                                    M{{25, 18}}, 0);
    rank_update_case<S, LX, LY, LA>({'g', t, 'L', 2, 2}, three, V{2, 9}, V{-3, 7},
                                    M{{17, -43}, {29, 101}}, M{{-1, -1}, {-52, 290}}, 0);
    for (const auto& s : std::vector<std::pair<std::size_t, std::size_t>>{
             {0, 13}, {1024, 0}, {13, 13}, {13, 1024}, {50, 40}, {128, 128}, {213, 213}})
      rank_update_case<S, LX, LY, LA>({'g', t, 'L', s.first, s.second}, three, {}, {}, {}, {},
                                      seed += 10);
    for (const char u : {'L', 'U'}) {
      // Test_Blas2_syr's and _syr2's hand-computed cases.
      rank_update_case<S, LX, LY, LA>({'s', t, u, 1, 1}, three, V{2}, V{}, M{{7}}, M{{19}}, 0);
      rank_update_case<S, LX, LY, LA>(
          {'s', t, u, 2, 2}, three, V{-2, 9}, V{}, M{{17, -43}, {-43, 101}},
          u == 'U' ? M{{29, -97}, {-43, 344}} : M{{29, -43}, {-97, 344}}, 0);
      rank_update_case<S, LX, LY, LA>({'2', t, u, 1, 1}, three, V{2}, V{4}, M{{7}}, M{{55}}, 0);
      rank_update_case<S, LX, LY, LA>(
          {'2', t, u, 2, 2}, three, V{-2, 9}, V{5, -4}, M{{17, -43}, {-43, 101}},
          u == 'U' ? M{{-43, 116}, {-43, -115}} : M{{-43, -43}, {116, -115}}, 0);
      for (const std::size_t n : {0, 13, 50, 128, 213}) {
        rank_update_case<S, LX, LY, LA>({'s', t, u, n, n}, three, {}, {}, {}, {}, seed += 10);
        rank_update_case<S, LX, LY, LA>({'2', t, u, n, n}, three, {}, {}, {}, {}, seed += 10);
      }
    }
  }
  // alpha 0 reads nothing and leaves A alone.
  rank_update_case<S, LX, LY, LA>({'g', 'T', 'L', 13, 13}, make<S>(0, 0), {}, {}, {}, {}, 5);
  rank_update_case<S, LX, LY, LA>({'2', 'T', 'U', 13, 13}, make<S>(0, 0), {}, {}, {}, {}, 6);
}

TEST(KokkosKernelsPortMore, RankUpdatesDouble) {
  rank_updates<double, LL, LL, LL>(40000);
  rank_updates<double, LR, LR, LR>(41000);
  rank_updates<double, LS, LS, LS>(42000);
  rank_updates<double, LS, LL, LR>(43000);
}
TEST(KokkosKernelsPortMore, RankUpdatesFloat) {
  rank_updates<float, LL, LL, LL>(44000);
  rank_updates<float, LR, LR, LR>(45000);
  rank_updates<float, LS, LS, LS>(46000);
  rank_updates<float, LS, LL, LR>(47000);
}

// ---- trsm, trmm, trsv ----

struct TriMode {
  char side, uplo, trans, diag;
  std::string name() const { return std::string{side, uplo, trans, diag}; }
};

template <class S>
std::vector<TriMode> tri_modes() {
  std::vector<TriMode> v;
  std::vector<char> transes{'N', 'T'};
  if (is_complex<S>) transes.push_back('C');
  for (const char s : {'L', 'R'})
    for (const char u : {'L', 'U'})
      for (const char t : transes)
        for (const char d : {'N', 'U'}) v.push_back({s, u, t, d});
  return v;
}

// A k x k triangle (row-major vectors): diagonal parts of magnitude in [1, 2) with random signs,
// the named triangle's other parts uniform in (-1, 1) / k; the other triangle, and a unit
// diagonal, NaN (neither is read).
template <class S>
std::vector<std::vector<S>> random_triangle(char uplo, char diag, std::size_t k,
                                            std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  const auto d = [&]() { return (1 + std::fabs(u(rng))) * (u(rng) < 0 ? -1 : 1); };
  std::vector<std::vector<S>> a(k, std::vector<S>(k, nan_value<S>()));
  for (std::size_t i = 0; i < k; ++i)
    for (std::size_t j = 0; j < k; ++j) {
      if (i == j) {
        if (diag == 'N') a[i][j] = make<S>(d(), is_complex<S> ? u(rng) : 0.0);
      } else if (uplo == 'L' ? j < i : j > i) {
        const double r = u(rng) / double(k), q = u(rng) / double(k);
        a[i][j] = make<S>(r, q);
      }
    }
  return a;
}

// op(A)(i, j) for trans 'N', 'T' or 'C'.
template <class S>
S op_at(const std::vector<std::vector<S>>& a, char trans, std::size_t i, std::size_t j) {
  if (trans == 'N') return a[i][j];
  return trans == 'C' ? conj_of(a[j][i]) : a[j][i];
}

// op(A) lower triangular.
bool lower_op(char uplo, char trans) {
  return (uplo == 'L') != (trans != 'N');
}

// One extrsm or extrmm call as Kokkos Kernels' tests make it: A a random triangle of order k (m
// for side L, n for side R), B random m x n (NaN where alpha is zero: it must not be read), both
// copied to Space in Layout; routine(space, side, uplo, trans, diag, alpha, A, B) runs, and
// check(a, b, k, got, checker) compares B's new values (got) with the oracle's.
template <class S, class Layout, class Routine, class Check>
void triangular_case(const char* name, const TriMode& md, std::size_t m, std::size_t n,
                     const S& alpha, std::uint64_t seed, const Routine& routine,
                     const Check& check) {
  const Space space;
  const std::size_t k = md.side == 'L' ? m : n;
  const auto a = random_triangle<S>(md.uplo, md.diag, k, seed);
  auto b = random_matrix<S>(m, n, seed + 1);
  if (is_zero(alpha))
    for (auto& row : b) row.assign(n, nan_value<S>());  // not read
  const auto dA = ExKokkosTest::space_copy<Space>(matrix_of<Layout>(a, k, k));
  const auto dB = ExKokkosTest::space_copy<Space>(matrix_of<Layout>(b, m, n));
  const char side[2] = {md.side, 0}, uplo[2] = {md.uplo, 0}, trans[2] = {md.trans, 0},
             diag[2] = {md.diag, 0};
  routine(space, side, uplo, trans, diag, alpha, dA, dB);
  const auto got = read_back(dB);
  Checker c{std::string(name) + " " + md.name() + " " + type_name<S>() + " " +
            layout_name<Layout>() + " " + std::to_string(m) + " x " + std::to_string(n) +
            " alpha " + describe(alpha)};
  check(a, b, k, got, c);
}

template <class S, class Layout>
void trsm_case(const TriMode& md, std::size_t m, std::size_t n, const S& alpha,
               std::uint64_t seed) {
  const auto routine = [](const auto&... args) { ExKokkos::extrsm(args...); };
  const auto check = [&](const auto& a, const auto& b, std::size_t k, const auto& got, Checker& c) {
    // Each right-hand side is extrsv's solve of RN(alpha b). Side L: the columns of B, with
    // t = op(A). Side R: X op(A) = alpha B is op(A)^T X^T = alpha B^T: the rows of B, with
    // t(i, j) = op(A)(j, i) (for "C", conj(A) itself, neither transposed nor conjugate-transposed).
    const bool left = md.side == 'L';
    const std::function<S(std::size_t, std::size_t)> t = [&](std::size_t i, std::size_t j) {
      return left ? op_at(a, md.trans, i, j) : op_at(a, md.trans, j, i);
    };
    const bool lower = left ? lower_op(md.uplo, md.trans) : !lower_op(md.uplo, md.trans);
    const std::size_t rhs = left ? n : m;
    for (std::size_t r = 0; r < rhs; ++r) {
      std::vector<S> v(k);
      for (std::size_t q = 0; q < k; ++q) {
        const S bq = left ? b[q][r] : b[r][q];
        v[q] = is_zero(alpha) ? make<S>(0, 0) : oracle_combination<S>({alpha}, {bq});
      }
      const auto xs = is_zero(alpha) ? v : oracle_trsv(t, lower, md.diag == 'U', v);
      for (std::size_t q = 0; q < k; ++q) {
        const std::size_t i = left ? q : r, j = left ? r : q;
        c.check(S(got(i, j)), xs[q], at(i, j));
      }
    }
  };
  triangular_case<S, Layout>("extrsm", md, m, n, alpha, seed, routine, check);
}

// extrsv on one right-hand side of order k, trans and uplo as extrsm's side L.
template <class S>
void trsv_case(const TriMode& md, std::size_t k, std::uint64_t seed) {
  const Space space;
  const auto a = random_triangle<S>(md.uplo, md.diag, k, seed);
  const auto b = random_values<S>(k, seed + 1);
  const auto dA = ExKokkosTest::space_copy<Space>(matrix_of<LL>(a, k, k));
  const auto db = device1<LL>(b);
  const char uplo[2] = {md.uplo, 0}, trans[2] = {md.trans, 0}, diag[2] = {md.diag, 0};
  ExKokkos::extrsv(space, uplo, trans, diag, dA, db);
  const auto got = read_back(db);
  const std::function<S(std::size_t, std::size_t)> t = [&](std::size_t i, std::size_t j) {
    return op_at(a, md.trans, i, j);
  };
  const auto xs = oracle_trsv(t, lower_op(md.uplo, md.trans), md.diag == 'U', b);
  Checker c{"extrsv " + md.name().substr(1) + " " + type_name<S>() + " n " + std::to_string(k)};
  for (std::size_t i = 0; i < k; ++i) c.check(S(got(i)), xs[i], at(i));
}

// Kokkos Kernels runs alpha 1 and 4.5 on both layouts; the cost here is one extrsv solve per
// right-hand side, so alpha 4.5 runs every shape on LayoutLeft and alpha 1 the shape of 19
// right-hand sides on LayoutRight.
template <class S>
void trsm_every_layout(std::uint64_t seed) {
  const S a45 = make<S>(4.5, 0), one = make<S>(1, 0);
  for (const TriMode& md : tri_modes<S>()) {
    trsm_case<S, LL>(md, 0, 0, a45, seed += 10);
    trsm_case<S, LL>(md, 101, 19, a45, seed += 10);
    trsm_case<S, LL>(md, 19, 101, a45, seed += 10);
    // 343 x 201 shrunk: order 343 with 3 right-hand sides.
    if (md.side == 'L')
      trsm_case<S, LL>(md, 343, 3, a45, seed += 10);
    else
      trsm_case<S, LL>(md, 3, 343, a45, seed += 10);
    trsm_case<S, LR>(md, 0, 0, one, seed += 10);
    if (md.side == 'L')
      trsm_case<S, LR>(md, 101, 19, one, seed += 10);
    else
      trsm_case<S, LR>(md, 19, 101, one, seed += 10);
  }
  // alpha 0 writes +0 without reading B (NaN there).
  trsm_case<S, LL>({'L', 'L', 'N', 'N'}, 19, 7, make<S>(0, 0), seed += 10);
  trsm_case<S, LR>({'R', 'U', 'T', 'U'}, 7, 19, make<S>(0, 0), seed += 10);
}

template <class S>
void trsv_every_mode(std::uint64_t seed) {
  for (const TriMode& md : tri_modes<S>())
    if (md.side == 'L')
      for (const std::size_t k : {0, 19, 101, 343}) trsv_case<S>(md, k, seed += 10);
}

TEST(KokkosKernelsPortMore, TrsmDouble) {
  trsm_every_layout<double>(60000);
  trsv_every_mode<double>(62000);
}
TEST(KokkosKernelsPortMore, TrsmFloat) {
  trsm_every_layout<float>(63000);
  trsv_every_mode<float>(65000);
}
TEST(KokkosKernelsPortMore, TrsmComplexDouble) {
  trsm_every_layout<Kokkos::complex<double>>(66000);
  trsv_every_mode<Kokkos::complex<double>>(68000);
}
TEST(KokkosKernelsPortMore, TrsmComplexFloat) {
  trsm_every_layout<Kokkos::complex<float>>(69000);
  trsv_every_mode<Kokkos::complex<float>>(71000);
}

// b_ij = RN(alpha sum_k op(A)_ik b_kj) (side R: RN(alpha sum_k b_ik op(A)_kj)) over the old B, the
// sum over the triangle op(A) stands for (a unit diagonal a one), one rounding.
template <class S, class Layout>
void trmm_case(const TriMode& md, std::size_t m, std::size_t n, const S& alpha,
               std::uint64_t seed) {
  const auto routine = [](const auto&... args) { ExKokkos::extrmm(args...); };
  const auto check = [&](const auto& a, const auto& b, std::size_t k, const auto& got, Checker& c) {
    const bool lower = lower_op(md.uplo, md.trans);
    // The entries of op(A) in its triangle: t(p, q) for q <= p (lower) or q >= p (upper).
    const auto in_op = [&](std::size_t p, std::size_t q) { return lower ? q <= p : q >= p; };
    const auto t = [&](std::size_t p, std::size_t q) {
      return p == q && md.diag == 'U' ? make<S>(1, 0) : op_at(a, md.trans, p, q);
    };
    for (std::size_t i = 0; i < m; ++i)
      for (std::size_t j = 0; j < n; ++j) {
        std::vector<S> row, col;
        for (std::size_t q = 0; q < k; ++q) {
          if (md.side == 'L' && in_op(i, q)) row.push_back(t(i, q)), col.push_back(b[q][j]);
          if (md.side == 'R' && in_op(q, j)) row.push_back(b[i][q]), col.push_back(t(q, j));
        }
        c.check(S(got(i, j)), oracle_entry(alpha, row, col, make<S>(0, 0), make<S>(0, 0)),
                at(i, j));
      }
  };
  triangular_case<S, Layout>("extrmm", md, m, n, alpha, seed, routine, check);
}

// As trsm's: alpha 4.5 with every shape on LayoutLeft, alpha 1 with one shape on LayoutRight.
template <class S>
void trmm_every_layout(std::uint64_t seed) {
  const S a45 = make<S>(4.5, 0), one = make<S>(1, 0);
  for (const TriMode& md : tri_modes<S>()) {
    trmm_case<S, LL>(md, 0, 0, a45, seed += 10);
    trmm_case<S, LL>(md, 101, 19, a45, seed += 10);
    trmm_case<S, LL>(md, 19, 101, a45, seed += 10);
    // 12 x 731; shrunk to 12 x 131 for side R, whose order is the 731.
    trmm_case<S, LL>(md, 12, md.side == 'L' ? 731 : 131, a45, seed += 10);
    trmm_case<S, LR>(md, 0, 0, one, seed += 10);
    trmm_case<S, LR>(md, 101, 19, one, seed += 10);
  }
  trmm_case<S, LL>({'L', 'U', 'N', 'N'}, 19, 7, make<S>(0, 0), seed += 10);
  trmm_case<S, LR>({'R', 'L', 'T', 'U'}, 7, 19, make<S>(0, 0), seed += 10);
}

TEST(KokkosKernelsPortMore, TrmmDouble) {
  trmm_every_layout<double>(80000);
}
TEST(KokkosKernelsPortMore, TrmmFloat) {
  trmm_every_layout<float>(82000);
}

}  // namespace KokkosKernelsPortMore
}  // namespace
