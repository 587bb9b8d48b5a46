// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The semantics of Kokkos Kernels' own unit tests of the routines ExKokkos stands in for
// (Test_Blas1_dot, _nrm1, _nrm2, _sum, _axpby, _scal, Test_Blas2_gemv, Test_Blas3_gemm), ported
// (not copied) so that ExKokkos is held to the peer's test matrix: the same value types (float,
// double, Kokkos::complex<float>, Kokkos::complex<double>), layouts (LayoutLeft, LayoutRight,
// LayoutStride), ranks (1, and 2 for the multivector forms), call forms (scalar return, rank-0
// result view, rank-1 R of one entry per column, a rank-1 y paired with every column of X in dot)
// and sizes. Where Kokkos Kernels compares with a tolerance, every result here must have the bits
// of the MPFR oracle computed from the definition, each part rounded once.
//
// Sizes: vectors 0, 13, 1024 and 132231 (the last only for rank-1 double and complex<double>, to
// keep the oracle's time modest); multivectors 0 x 5, 13 x 5, 1024 x 5 and 789 x 1. gemv: m x n
// of 0 x 1024, 13 x 1024, 50 x 40 and 1024 x 0, trans N, T and C, alpha and beta
// as Kokkos Kernels (3 and 5), beta 0 with NaN in y (not read), alpha 0, and 1 / 1. gemm: m x n x k
// of 0 x 0 x 0, 13 x 15 x 17, 50 x 1 x 40 and 20 x 14 x 0 for every pair of modes (N, T, and C for
// complex), alpha 4.5 (4.5 - 1.25i for complex), beta 0 (C full of NaN, not read) and 3;
// 179 x 15 x 211 for N N and T N only, and 12 x 3071 x 517 shrunk to 12 x 307 x 52 (the oracle of
// the full size runs for minutes). gemm is instantiated for LayoutLeft and LayoutRight with
// double and complex<double>, and LayoutLeft with float and complex<float>, to keep this
// translation unit's compile time modest. Kokkos::Serial runs a subset beside the default space.
#include <ExKokkos.hpp>

#include <ExKokkosTest_Oracle.hpp>

#include "ExKokkosTest_Complex.hpp"
#include "ExKokkosTest_HostMatrix.hpp"
#include "ExKokkosTest_KokkosKernelsPort.hpp"
#include "ExKokkosTest_Views.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace {
namespace KokkosKernelsPort {

using namespace ExKokkosTest::KokkosKernelsTests;
using ExKokkosTest::describe;
using ExKokkosTest::same_bits;
using Space = Kokkos::DefaultExecutionSpace;

template <class ExecSpace>
std::string space_name() {
  return ExecSpace::name();
}

// ---- The oracle, from the definitions (docs/level1.md, level2.md, level3.md) ----

// conj(x) . y for complex (as KokkosBlas::dot), each part rounded once.
template <class S>
S oracle_dot(const std::vector<S>& x, const std::vector<S>& y) {
  ExKokkosTest::ExactSum r, i;
  for (std::size_t k = 0; k < x.size(); ++k) {
    r.add_product(re(x[k]), re(y[k]));
    r.add_product(im(x[k]), im(y[k]));
    i.add_product(re(x[k]), im(y[k]));
    i.add_product(-im(x[k]), re(y[k]));
  }
  if constexpr (is_complex<S>)
    return S(ExKokkosTest::rounded<real_t<S>>(r), ExKokkosTest::rounded<real_t<S>>(i));
  else
    return ExKokkosTest::rounded<S>(r);
}
// Real values: the imaginary products above are exact zeros and leave the sum's value alone,
// but they are +0 terms, which would turn an all -0 sum into +0: add only the real ones.
template <>
double oracle_dot(const std::vector<double>& x, const std::vector<double>& y) {
  return ExKokkosTest::exact_dot(x, y);
}
template <>
float oracle_dot(const std::vector<float>& x, const std::vector<float>& y) {
  return ExKokkosTest::exact_dot(x, y);
}

template <class S>
S oracle_sum(const std::vector<S>& x) {
  ExKokkosTest::ExactSum r, i;
  for (const auto& v : x) {
    r.add(re(v));
    i.add(im(v));
  }
  if constexpr (is_complex<S>)
    return S(ExKokkosTest::rounded<real_t<S>>(r), ExKokkosTest::rounded<real_t<S>>(i));
  else
    return ExKokkosTest::rounded<S>(r);
}

// RN(a x + b y) as one expression; a zero coefficient drops its term (its operand is not read).
template <class S>
S oracle_axpby(const S& a, const S& x, const S& b, const S& y) {
  if constexpr (is_complex<S>) {
    std::vector<S> c, v;
    if (!is_zero(a)) c.push_back(a), v.push_back(x);
    if (!is_zero(b)) c.push_back(b), v.push_back(y);
    return ExKokkosTest::exact_combination(c, v);
  } else {
    ExKokkosTest::ExactSum s;
    if (a != 0) s.add_product(a, x);
    if (b != 0) s.add_product(b, y);
    return ExKokkosTest::rounded<S>(s);
  }
}

// RN(alpha sum_k opa[i][k] x[k] + beta y): one gemv output, or one gemm output with x a column
// of op(B). opa is op(A) already transposed and conjugated (both exact).
template <class S>
S oracle_gemv_entry(const std::vector<std::vector<S>>& opa, std::size_t i, const std::vector<S>& x,
                    const S& alpha, const S& beta, const S& y) {
  if constexpr (is_complex<S>)
    return ExKokkosTest::exact_gemv_entry('N', opa, i, x, alpha, beta, y);
  else
    return ExKokkosTest::exact_gemv_entry(alpha, opa[i], x, beta, y);
}

// op(M) of a rows x cols matrix m[r][c], for trans 'N', 'T' or 'C'.
template <class S>
std::vector<std::vector<S>> op(char trans, const std::vector<std::vector<S>>& m, std::size_t rows,
                               std::size_t cols) {
  if (trans == 'N') return m;
  std::vector<std::vector<S>> t(cols, std::vector<S>(rows));
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c) t[c][r] = trans == 'C' ? conj_of(m[r][c]) : m[r][c];
  return t;
}

// ---- Views in the layouts Kokkos Kernels tests ----

// A rank-1 host view of v: contiguous for LayoutLeft and LayoutRight, every third element of a
// larger array for LayoutStride (as Kokkos Kernels' strided subviews).
template <class Layout, class S>
auto rank1(const std::vector<S>& v) {
  if constexpr (std::is_same<Layout, Kokkos::LayoutStride>::value) {
    return ExKokkosTest::vector_of<Layout>(v);
  } else {
    Kokkos::View<S*, Layout, Kokkos::HostSpace> h("v", v.size());
    for (std::size_t i = 0; i < v.size(); ++i) h(i) = v[i];
    return h;
  }
}

template <class ExecSpace, class T>
T rank0_value(const Kokkos::View<T, typename ExecSpace::memory_space>& r) {
  auto h = Kokkos::create_mirror_view(r);
  Kokkos::deep_copy(h, r);
  return h();
}

// Coefficients as Kokkos Kernels' axpby and scal tests take them (3 and 5), complex ones with an
// imaginary part so that conjugation and the cross terms matter.
template <class S>
S coef_a() {
  return make<S>(3, -1.5);
}
template <class S>
S coef_b() {
  return make<S>(5, 0.75);
}

// ---- Level 1, rank 1: dot, nrm1, nrm2, sum, axpby, axpy, scal ----

template <class S, class Layout, class ExecSpace = Space>
void level1_rank1(std::size_t n, std::uint64_t seed) {
  using R = real_t<S>;
  using Mem = typename ExecSpace::memory_space;
  const ExecSpace space;
  const std::string tag = type_name<S>() + " " + layout_name<Layout>() + " rank 1 n " +
                          std::to_string(n) + " " + space_name<ExecSpace>();
  const auto x = random_values<S>(n, seed), y = random_values<S>(n, seed + 1);
  const auto hx = rank1<Layout>(x), hy = rank1<Layout>(y);
  const auto dx = ExKokkosTest::space_copy<ExecSpace>(hx);
  const auto dy = ExKokkosTest::space_copy<ExecSpace>(hy);

  {
    Checker c{"reductions " + tag};
    const S dot = oracle_dot(x, y), sum = oracle_sum(x);
    const R asum = oracle_asum(x), nrm2 = oracle_nrm2(x);
    c.check(ExKokkos::exdot(space, dx, dy), dot, "exdot scalar");
    c.check(ExKokkos::exsum(space, dx), sum, "exsum scalar");
    c.check(ExKokkos::exasum(space, dx), asum, "exasum scalar");
    c.check(ExKokkos::exnrm2(space, dx), nrm2, "exnrm2 scalar");
    Kokkos::View<S, Mem> r("r");
    Kokkos::View<R, Mem> rr("rr");
    ExKokkos::exdot(space, r, dx, dy);
    c.check(rank0_value<ExecSpace>(r), dot, "exdot rank-0");
    ExKokkos::exsum(space, r, dx);
    c.check(rank0_value<ExecSpace>(r), sum, "exsum rank-0");
    ExKokkos::exasum(space, rr, dx);
    c.check(rank0_value<ExecSpace>(rr), asum, "exasum rank-0");
    ExKokkos::exnrm2(space, rr, dx);
    c.check(rank0_value<ExecSpace>(rr), nrm2, "exnrm2 rank-0");
  }

  // axpby with Kokkos Kernels' coefficients, each coefficient zero (its operand then holds NaN,
  // which BLAS does not read), and 1 / 1.
  const S a = coef_a<S>(), b = coef_b<S>(), zero = make<S>(0, 0), one = make<S>(1, 0);
  const S nan =
      make<S>(std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::quiet_NaN());
  const std::vector<std::pair<S, S>> pairs{{a, b}, {zero, b}, {a, zero}, {one, one}};
  for (std::size_t p = 0; p < pairs.size(); ++p) {
    const S pa = pairs[p].first, pb = pairs[p].second;
    Checker c{"exaxpby pair " + std::to_string(p) + " " + tag};
    auto xin = x, yin = y;
    if (is_zero(pa)) xin.assign(n, nan);
    if (is_zero(pb)) yin.assign(n, nan);
    const auto dxi = ExKokkosTest::space_copy<ExecSpace>(rank1<Layout>(xin));
    const auto hyo = rank1<Layout>(yin);
    const auto dyo = ExKokkosTest::space_copy<ExecSpace>(hyo);
    ExKokkos::exaxpby(space, pa, dxi, pb, dyo);
    const auto got = read_back(dyo);
    for (std::size_t i = 0; i < n; ++i)
      c.check(S(got(i)), oracle_axpby(pa, xin[i], pb, yin[i]), "index " + std::to_string(i));
  }
  {
    Checker c{"exaxpy " + tag};
    const auto dyo = ExKokkosTest::space_copy<ExecSpace>(rank1<Layout>(y));
    ExKokkos::exaxpy(space, a, dx, dyo);
    const auto got = read_back(dyo);
    for (std::size_t i = 0; i < n; ++i)
      c.check(S(got(i)), oracle_axpby(a, x[i], one, y[i]), "index " + std::to_string(i));
  }
  for (const S s : {a, zero, make<S>(-1, 0)}) {
    Checker c{"exscal alpha " + describe(s) + " " + tag};
    const auto dyo = ExKokkosTest::space_copy<ExecSpace>(rank1<Layout>(y));
    ExKokkos::exscal(space, dyo, s, dx);
    const auto got = read_back(dyo);
    for (std::size_t i = 0; i < n; ++i)
      c.check(S(got(i)), oracle_axpby(s, x[i], zero, zero), "index " + std::to_string(i));
  }
}

// ---- Level 1, rank 2 (multivectors): R(j) is the routine on column j ----

template <class S, class Layout, class ExecSpace = Space>
void level1_rank2(std::size_t rows, std::size_t cols, std::uint64_t seed) {
  using R = real_t<S>;
  using Mem = typename ExecSpace::memory_space;
  const ExecSpace space;
  const std::string tag = type_name<S>() + " " + layout_name<Layout>() + " rank 2 " +
                          std::to_string(rows) + " x " + std::to_string(cols) + " " +
                          space_name<ExecSpace>();
  std::vector<std::vector<S>> x(cols), y(cols);
  for (std::size_t j = 0; j < cols; ++j) {
    x[j] = random_values<S>(rows, seed + 2 * j);
    y[j] = random_values<S>(rows, seed + 2 * j + 1);
  }
  const auto dX = ExKokkosTest::space_copy<ExecSpace>(rank2<Layout>(x, rows));
  const auto dY = ExKokkosTest::space_copy<ExecSpace>(rank2<Layout>(y, rows));
  // The rank-1 y that Kokkos Kernels' dot pairs with every column of X.
  const auto y0 = random_values<S>(rows, seed + 1000);
  const auto dy0 = ExKokkosTest::space_copy<ExecSpace>(rank1<Kokkos::LayoutLeft>(y0));
  {
    Checker c{"multivector reductions " + tag};
    Kokkos::View<S*, Mem> r("R", cols);
    Kokkos::View<R*, Mem> rr("Rr", cols);
    const auto expect_each = [&](const auto& view, auto oracle, const std::string& name) {
      const auto h = read_back(view);
      for (std::size_t j = 0; j < cols; ++j)
        c.check(h(j), oracle(j), name + " column " + std::to_string(j));
    };
    ExKokkos::exdot(space, r, dX, dY);
    expect_each(
        r, [&](std::size_t j) { return oracle_dot(x[j], y[j]); }, "exdot(R, X, Y)");
    ExKokkos::exdot(space, r, dX, dy0);
    expect_each(
        r, [&](std::size_t j) { return oracle_dot(x[j], y0); }, "exdot(R, X, y)");
    ExKokkos::exdot(space, r, dy0, dY);
    expect_each(
        r, [&](std::size_t j) { return oracle_dot(y0, y[j]); }, "exdot(R, y, Y)");
    ExKokkos::exsum(space, r, dX);
    expect_each(
        r, [&](std::size_t j) { return oracle_sum(x[j]); }, "exsum(R, X)");
    ExKokkos::exasum(space, rr, dX);
    expect_each(
        rr, [&](std::size_t j) { return oracle_asum(x[j]); }, "exasum(R, X)");
    ExKokkos::exnrm2(space, rr, dX);
    expect_each(
        rr, [&](std::size_t j) { return oracle_nrm2(x[j]); }, "exnrm2(R, X)");
  }
  const S a = coef_a<S>(), b = coef_b<S>(), zero = make<S>(0, 0), one = make<S>(1, 0);
  const auto expect_matrix = [&](Checker& c, const auto& view, auto oracle) {
    const auto h = read_back(view);
    for (std::size_t j = 0; j < cols; ++j)
      for (std::size_t i = 0; i < rows; ++i)
        c.check(S(h(i, j)), oracle(i, j), "(" + std::to_string(i) + ", " + std::to_string(j) + ")");
  };
  for (const auto& ab : std::vector<std::pair<S, S>>{{a, b}, {zero, b}, {a, zero}}) {
    Checker c{"exaxpby(a, X, b, Y) a " + describe(ab.first) + " b " + describe(ab.second) + " " +
              tag};
    const auto dYo = ExKokkosTest::space_copy<ExecSpace>(rank2<Layout>(y, rows));
    ExKokkos::exaxpby(space, ab.first, dX, ab.second, dYo);
    expect_matrix(c, dYo, [&](std::size_t i, std::size_t j) {
      return oracle_axpby(ab.first, x[j][i], ab.second, y[j][i]);
    });
  }
  {
    Checker c{"exaxpy(a, X, Y) " + tag};
    const auto dYo = ExKokkosTest::space_copy<ExecSpace>(rank2<Layout>(y, rows));
    ExKokkos::exaxpy(space, a, dX, dYo);
    expect_matrix(c, dYo, [&](std::size_t i, std::size_t j) {
      return oracle_axpby(a, x[j][i], one, y[j][i]);
    });
  }
  {
    Checker c{"exscal(Y, a, X) " + tag};
    const auto dYo = ExKokkosTest::space_copy<ExecSpace>(rank2<Layout>(y, rows));
    ExKokkos::exscal(space, dYo, a, dX);
    expect_matrix(
        c, dYo, [&](std::size_t i, std::size_t j) { return oracle_axpby(a, x[j][i], zero, zero); });
  }
}

template <class S, class ExecSpace = Space>
void level1_every_layout(bool largest) {
  std::vector<std::size_t> sizes{0, 13, 1024};
  if (largest) sizes.push_back(132231);
  std::uint64_t seed = 100;
  for (const std::size_t n : sizes) {
    level1_rank1<S, Kokkos::LayoutLeft, ExecSpace>(n, ++seed);
    level1_rank1<S, Kokkos::LayoutRight, ExecSpace>(n, ++seed);
    level1_rank1<S, Kokkos::LayoutStride, ExecSpace>(n, ++seed);
  }
  const std::vector<std::pair<std::size_t, std::size_t>> shapes{
      {0, 5}, {13, 5}, {1024, 5}, {789, 1}};
  for (const auto& s : shapes) {
    level1_rank2<S, Kokkos::LayoutLeft, ExecSpace>(s.first, s.second, seed += 10);
    level1_rank2<S, Kokkos::LayoutRight, ExecSpace>(s.first, s.second, seed += 10);
    level1_rank2<S, Kokkos::LayoutStride, ExecSpace>(s.first, s.second, seed += 10);
  }
}

TEST(KokkosKernelsPort, Level1Double) {
  level1_every_layout<double>(true);
}
TEST(KokkosKernelsPort, Level1Float) {
  level1_every_layout<float>(false);
}
TEST(KokkosKernelsPort, Level1ComplexDouble) {
  level1_every_layout<Kokkos::complex<double>>(true);
}
TEST(KokkosKernelsPort, Level1ComplexFloat) {
  level1_every_layout<Kokkos::complex<float>>(false);
}

// ---- gemv ----

template <class S, class Layout, class ExecSpace = Space>
void gemv_case(char trans, std::size_t m, std::size_t n, const S& alpha, const S& beta,
               std::uint64_t seed) {
  const ExecSpace space;
  const std::size_t xn = trans == 'N' ? n : m, yn = trans == 'N' ? m : n;
  const auto a = random_matrix<S>(m, n, seed);
  const auto x = random_values<S>(xn, seed + 7919);
  auto y = random_values<S>(yn, seed + 7920);
  // beta == 0: y is not read, so NaN there must not show (Kokkos Kernels checks the same).
  if (is_zero(beta)) y.assign(yn, make<S>(std::numeric_limits<double>::quiet_NaN(), 0));
  const auto dA = ExKokkosTest::space_copy<ExecSpace>(matrix_of<Layout>(a, m, n));
  const auto dx = ExKokkosTest::space_copy<ExecSpace>(rank1<Layout>(x));
  const auto dy = ExKokkosTest::space_copy<ExecSpace>(rank1<Layout>(y));
  const char mode[2] = {trans, 0};
  ExKokkos::exgemv(space, mode, alpha, dA, dx, beta, dy);
  const auto got = read_back(dy);
  const auto opa = op(trans, a, m, n);
  Checker c{"exgemv " + std::string(mode) + " " + type_name<S>() + " " + layout_name<Layout>() +
            " " + std::to_string(m) + " x " + std::to_string(n) + " alpha " + describe(alpha) +
            " beta " + describe(beta) + " " + space_name<ExecSpace>()};
  for (std::size_t i = 0; i < yn; ++i)
    c.check(S(got(i)), oracle_gemv_entry(opa, i, x, alpha, beta, y[i]),
            "index " + std::to_string(i));
}

template <class S, class ExecSpace = Space>
void gemv_every_layout() {
  // "C" for real values too (KokkosBlas::gemv accepts it), where it is "T".
  const std::vector<char> modes{'N', 'T', 'C'};
  const std::vector<std::pair<std::size_t, std::size_t>> shapes{
      {0, 1024}, {13, 1024}, {50, 40}, {1024, 0}};
  const S a = coef_a<S>(), b = coef_b<S>(), zero = make<S>(0, 0), one = make<S>(1, 0);
  const std::vector<std::pair<S, S>> coefs{{a, b}, {a, zero}, {zero, b}, {one, one}};
  std::uint64_t seed = 5000;
  for (const char t : modes)
    for (const auto& s : shapes)
      for (const auto& ab : coefs) {
        gemv_case<S, Kokkos::LayoutLeft, ExecSpace>(t, s.first, s.second, ab.first, ab.second,
                                                    seed += 100);
        gemv_case<S, Kokkos::LayoutRight, ExecSpace>(t, s.first, s.second, ab.first, ab.second,
                                                     seed += 100);
        gemv_case<S, Kokkos::LayoutStride, ExecSpace>(t, s.first, s.second, ab.first, ab.second,
                                                      seed += 100);
      }
}

TEST(KokkosKernelsPort, GemvDouble) {
  gemv_every_layout<double>();
}
TEST(KokkosKernelsPort, GemvFloat) {
  gemv_every_layout<float>();
}
TEST(KokkosKernelsPort, GemvComplexDouble) {
  gemv_every_layout<Kokkos::complex<double>>();
}
TEST(KokkosKernelsPort, GemvComplexFloat) {
  gemv_every_layout<Kokkos::complex<float>>();
}

// ---- gemm ----

template <class S, class Layout>
void gemm_case(char ta, char tb, std::size_t m, std::size_t n, std::size_t k, const S& alpha,
               const S& beta, std::uint64_t seed) {
  const Space space;
  // A is m x k after op, B k x n after op: their stored shapes follow the modes.
  const std::size_t ar = ta == 'N' ? m : k, ac = ta == 'N' ? k : m;
  const std::size_t br = tb == 'N' ? k : n, bc = tb == 'N' ? n : k;
  const auto a = random_matrix<S>(ar, ac, seed);
  const auto b = random_matrix<S>(br, bc, seed + 50000);
  auto c0 = random_matrix<S>(m, n, seed + 90000);
  // beta == 0: C is not read, so NaN there must not show.
  if (is_zero(beta))
    for (auto& row : c0) row.assign(n, make<S>(std::numeric_limits<double>::quiet_NaN(), 0));
  const auto dA = ExKokkosTest::space_copy<Space>(matrix_of<Layout>(a, ar, ac));
  const auto dB = ExKokkosTest::space_copy<Space>(matrix_of<Layout>(b, br, bc));
  const auto dC = ExKokkosTest::space_copy<Space>(matrix_of<Layout>(c0, m, n));
  const char ma[2] = {ta, 0}, mb[2] = {tb, 0};
  ExKokkos::exgemm(space, ma, mb, alpha, dA, dB, beta, dC);
  const auto got = read_back(dC);
  const auto opa = op(ta, a, ar, ac), opb = op(tb, b, br, bc);  // m x k, k x n
  Checker c{"exgemm " + std::string(ma) + " " + std::string(mb) + " " + type_name<S>() + " " +
            layout_name<Layout>() + " " + std::to_string(m) + " x " + std::to_string(n) + " x " +
            std::to_string(k) + " alpha " + describe(alpha) + " beta " + describe(beta)};
  std::vector<S> col(k);
  for (std::size_t j = 0; j < n; ++j) {
    for (std::size_t l = 0; l < k; ++l) col[l] = opb[l][j];
    for (std::size_t i = 0; i < m; ++i)
      c.check(S(got(i, j)), oracle_gemv_entry(opa, i, col, alpha, beta, c0[i][j]),
              "(" + std::to_string(i) + ", " + std::to_string(j) + ")");
  }
}

template <class S, class Layout>
void gemm_layout() {
  std::vector<char> modes{'N', 'T'};
  if (is_complex<S>) modes.push_back('C');
  struct Shape {
    std::size_t m, n, k;
  };
  const std::vector<Shape> shapes{{0, 0, 0}, {13, 15, 17}, {50, 1, 40}, {20, 14, 0}};
  const S alpha = make<S>(4.5, -1.25), zero = make<S>(0, 0);
  std::uint64_t seed = 20000;
  for (const S beta : {zero, make<S>(3, 0)})
    for (const char ta : modes)
      for (const char tb : modes)
        for (const auto& s : shapes)
          gemm_case<S, Layout>(ta, tb, s.m, s.n, s.k, alpha, beta, seed += 1000);
  // Kokkos Kernels' larger shapes, for fewer modes (the oracle's time).
  gemm_case<S, Layout>('N', 'N', 179, 15, 211, alpha, make<S>(3, 0), seed += 1000);
  gemm_case<S, Layout>('T', 'N', 179, 15, 211, alpha, zero, seed += 1000);
  gemm_case<S, Layout>('N', 'N', 12, 307, 52, alpha, make<S>(3, 0), seed += 1000);
  // alpha == 0 reads neither A nor B: C = RN(beta C).
  gemm_case<S, Layout>('N', 'T', 13, 15, 17, zero, make<S>(3, 0), seed += 1000);
}

TEST(KokkosKernelsPort, GemmDouble) {
  gemm_layout<double, Kokkos::LayoutLeft>();
  gemm_layout<double, Kokkos::LayoutRight>();
}
TEST(KokkosKernelsPort, GemmFloat) {
  gemm_layout<float, Kokkos::LayoutLeft>();
}
TEST(KokkosKernelsPort, GemmComplexDouble) {
  gemm_layout<Kokkos::complex<double>, Kokkos::LayoutLeft>();
  gemm_layout<Kokkos::complex<double>, Kokkos::LayoutRight>();
}
TEST(KokkosKernelsPort, GemmComplexFloat) {
  gemm_layout<Kokkos::complex<float>, Kokkos::LayoutLeft>();
}

// ---- Kokkos::Serial: the same semantics on another backend (a subset, for compile time) ----

#ifdef KOKKOS_ENABLE_SERIAL
TEST(KokkosKernelsPort, SerialSubset) {
  level1_rank1<double, Kokkos::LayoutLeft, Kokkos::Serial>(1024, 7);
  level1_rank1<Kokkos::complex<double>, Kokkos::LayoutStride, Kokkos::Serial>(1024, 8);
  level1_rank2<double, Kokkos::LayoutRight, Kokkos::Serial>(13, 5, 9);
  gemv_case<double, Kokkos::LayoutLeft, Kokkos::Serial>('T', 13, 1024, 3.0, 5.0, 10);
  gemv_case<Kokkos::complex<double>, Kokkos::LayoutLeft, Kokkos::Serial>(
      'C', 50, 40, coef_a<Kokkos::complex<double>>(), coef_b<Kokkos::complex<double>>(), 11);
}
#endif

}  // namespace KokkosKernelsPort
}  // namespace
