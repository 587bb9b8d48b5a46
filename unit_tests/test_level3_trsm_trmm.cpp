// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// extrsm and extrmm, bit for bit, for every side, uplo, trans ("C" included) and diag, double and
// float, B of other rows than columns, alpha 1, 2, 0.1 and 0, A and B in LayoutLeft, LayoutRight,
// a gapped LayoutStride and a strided subview of a larger matrix, the triangle that must not be
// read holding NaN:
//  - extrsm against its definition: each right-hand side (column for side L, row for side R) is
//    extrsv's solve, called separately on a copy, of RN(alpha b), with trans flipped for side R,
//    with and without refinement; with three refinement steps on well-conditioned systems, the
//    MPFR oracle's correctly rounded solution;
//  - extrmm against the MPFR oracle: every element RN(alpha * sum_k op(A)_ik B_kj) rounded once;
//  - every layout combination gives the bits of LayoutLeft;
//  - alpha = 0 writes zeros without reading A or B; empty B and A of order 0.
#include "ExKokkosTest_Trsv.hpp"

#include <ExKokkosTest_GemvOracle.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace {
// A name of its own: the suites of one executable compile as one translation unit (CMakeLists.txt).
namespace TrsmSuite {

using ExKokkosTest::describe;
using ExKokkosTest::expect_bits;
using ExKokkosTest::Rng;
using ExKokkosTest::same_bits;
using ExKokkosTest::TrsvTest::Space;
using ExKokkosTest::TrsvTest::Variant;

// A side, uplo, trans ("C" too) and diag.
struct Case {
  char side, uplo, trans, diag;
  bool left() const { return side == 'L'; }
  // trans as extrsv takes it ("C" is "T" for real values).
  char real_trans() const { return trans == 'N' ? 'N' : 'T'; }
  // The extrsv variant each right-hand side solves: side R flips trans.
  Variant solve() const {
    const bool t = (real_trans() == 'T') == left();
    return Variant{uplo, t ? 'T' : 'N', diag};
  }
  std::string name() const { return std::string("side ") + side + " " + uplo + trans + diag; }
};

std::vector<Case> all_cases() {
  std::vector<Case> all;
  for (char side : {'L', 'R'})
    for (char uplo : {'L', 'U'})
      for (char trans : {'N', 'T', 'C'})
        for (char diag : {'N', 'U'}) all.push_back({side, uplo, trans, diag});
  return all;
}

// A matrix of the given rows and columns, a[i * cols + j] at (i, j), as a test view: a Kokkos
// layout (ExKokkosTest::to_matrix: LayoutStride there leaves gaps), or SubviewOf<Layout>, a
// submatrix of a larger matrix of that layout (a LayoutStride view with the parent's strides)
// whose surroundings hold NaN that must not leak.
template <class ParentLayout>
struct SubviewOf {};

template <class Kind>
struct MakeMatrix {
  template <class T>
  static auto make(const std::vector<T>& a, std::size_t rows, std::size_t cols) {
    return ExKokkosTest::to_matrix<Kind, Space>(a, rows, cols);
  }
  static std::string name() { return ExKokkosTest::name(ExKokkosTest::layout_of<Kind>()); }
};

template <class ParentLayout>
struct MakeMatrix<SubviewOf<ParentLayout>> {
  template <class T>
  static auto make(const std::vector<T>& a, std::size_t rows, std::size_t cols) {
    const std::size_t R = rows + 3, C = cols + 2;
    std::vector<T> big(R * C, std::numeric_limits<T>::quiet_NaN());
    for (std::size_t i = 0; i < rows; ++i)
      for (std::size_t j = 0; j < cols; ++j) big[(i + 2) * C + j + 1] = a[i * cols + j];
    const auto parent = ExKokkosTest::to_matrix<ParentLayout, Space>(big, R, C);
    return Kokkos::subview(parent, std::make_pair(std::size_t(2), rows + 2),
                           std::make_pair(std::size_t(1), cols + 1));
  }
  static std::string name() {
    return std::string("subview of ") + ExKokkosTest::name(ExKokkosTest::layout_of<ParentLayout>());
  }
};

// One problem: op(A) of order `order` (B's rows for side L, its columns for side R), A row-major
// with NaN outside the triangle (and on a unit diagonal), B m x n row-major.
template <class T>
struct Problem {
  Case c;
  std::size_t m = 0, n = 0, order = 0;
  std::vector<T> a, b;
  T alpha = 1;
  std::string name() const {
    return c.name() + " " + std::to_string(m) + " x " + std::to_string(n) + " alpha " +
           describe(alpha);
  }
};

template <class T>
Problem<T> random_problem(const Case& c, std::size_t m, std::size_t n, T alpha, Rng& rng) {
  Problem<T> p;
  p.c = c;
  p.m = m;
  p.n = n;
  p.order = c.left() ? m : n;
  p.alpha = alpha;
  p.a = ExKokkosTest::TrsvTest::random_triangle<T>(Variant{c.uplo, 'N', c.diag}, p.order, rng);
  std::uniform_real_distribution<double> u(-1, 1);
  p.b.resize(m * n);
  for (auto& e : p.b) e = T(u(rng));
  return p;
}

template <class AKind, class BKind, class T>
std::vector<T> run_trsm(const Problem<T>& p, const ExKokkos::Options& options = {},
                        int* steps = nullptr) {
  const auto A = MakeMatrix<AKind>::make(p.a, p.order, p.order);
  const auto B = MakeMatrix<BKind>::make(p.b, p.m, p.n);
  const char side[2] = {p.c.side, 0}, uplo[2] = {p.c.uplo, 0}, trans[2] = {p.c.trans, 0},
             diag[2] = {p.c.diag, 0};
  const int s = ExKokkos::extrsm(Space(), side, uplo, trans, diag, p.alpha, A, B, options);
  if (steps) *steps = s;
  return ExKokkosTest::matrix_elements(B);
}

template <class AKind, class BKind, class T>
std::vector<T> run_trmm(const Problem<T>& p) {
  const auto A = MakeMatrix<AKind>::make(p.a, p.order, p.order);
  const auto B = MakeMatrix<BKind>::make(p.b, p.m, p.n);
  const char side[2] = {p.c.side, 0}, uplo[2] = {p.c.uplo, 0}, trans[2] = {p.c.trans, 0},
             diag[2] = {p.c.diag, 0};
  ExKokkos::extrmm(Space(), side, uplo, trans, diag, p.alpha, A, B);
  return ExKokkosTest::matrix_elements(B);
}

// Right-hand side r of B (column r for side L, row r for side R) and its count.
template <class T>
std::size_t rhs_count(const Problem<T>& p) {
  return p.c.left() ? p.n : p.m;
}
template <class T>
std::vector<T> rhs(const Problem<T>& p, const std::vector<T>& b, std::size_t r) {
  std::vector<T> out(p.order);
  for (std::size_t k = 0; k < p.order; ++k) out[k] = p.c.left() ? b[k * p.n + r] : b[r * p.n + k];
  return out;
}
template <class T>
void set_rhs(const Problem<T>& p, std::vector<T>& b, std::size_t r, const std::vector<T>& x) {
  for (std::size_t k = 0; k < p.order; ++k) (p.c.left() ? b[k * p.n + r] : b[r * p.n + k]) = x[k];
}

// RN(alpha b), one multiplication per element (in T: no wider intermediate on x86-64).
template <class T>
std::vector<T> scaled(T alpha, std::vector<T> b) {
  for (auto& e : b) {
    volatile T product = alpha * e;
    e = product;
  }
  return b;
}

// The definition: each right-hand side through extrsv, separately, on a copy of RN(alpha b).
// `most_steps`: the most refinement steps any of these solves took.
template <class T>
std::vector<T> trsm_by_extrsv(const Problem<T>& p, const ExKokkos::Options& options = {},
                              int* most_steps = nullptr) {
  std::vector<T> x(p.m * p.n, T(0));
  int most = 0;
  for (std::size_t r = 0; r < rhs_count(p) && p.alpha != T(0); ++r) {
    int steps = 0;
    set_rhs(p, x, r,
            ExKokkosTest::TrsvTest::run<Kokkos::LayoutLeft>(
                p.c.solve(), p.a, p.order, scaled(p.alpha, rhs(p, p.b, r)), options, &steps));
    most = std::max(most, steps);
  }
  if (most_steps) *most_steps = most;
  return x;
}

// MPFR: each right-hand side's correctly rounded solution of op(A) x = RN(alpha b) (doubles).
std::vector<double> trsm_exact(const Problem<double>& p) {
  std::vector<double> x(p.m * p.n, 0.0);
  const Variant v = p.c.solve();
  for (std::size_t r = 0; r < rhs_count(p); ++r)
    set_rhs(p, x, r,
            ExKokkosTest::exact_trsv(v.uplo, v.trans, v.diag, p.a, p.order,
                                     scaled(p.alpha, rhs(p, p.b, r))));
  return x;
}

// MPFR: every element of alpha op(A) B (side L) or alpha B op(A) (side R) rounded once, op(A)'s
// entries outside the triangle zero and its unit diagonal one.
template <class T>
std::vector<T> trmm_exact(const Problem<T>& p) {
  const std::size_t n = p.order;
  const auto op = [&](std::size_t i, std::size_t j) -> T {
    const std::size_t r = p.c.real_trans() == 'T' ? j : i, c = p.c.real_trans() == 'T' ? i : j;
    if (r == c) return p.c.diag == 'U' ? T(1) : p.a[r * n + c];
    return (p.c.uplo == 'L' ? r > c : r < c) ? p.a[r * n + c] : T(0);
  };
  std::vector<T> out(p.m * p.n);
  std::vector<T> row(n), col(n);
  for (std::size_t i = 0; i < p.m; ++i)
    for (std::size_t j = 0; j < p.n; ++j) {
      for (std::size_t k = 0; k < n; ++k) {
        row[k] = p.c.left() ? op(i, k) : p.b[i * p.n + k];
        col[k] = p.c.left() ? p.b[k * p.n + j] : op(k, j);
      }
      out[i * p.n + j] = ExKokkosTest::exact_gemv_entry(p.alpha, row, col, T(0), T(0));
    }
  return out;
}

// Every combination of A's and B's layouts gives the bits `trsm` and `trmm` (extrsm's and
// extrmm's expected results).
template <class T>
void expect_every_layout(const Problem<T>& p, const std::vector<T>& trsm,
                         const std::vector<T>& trmm) {
  using LL = Kokkos::LayoutLeft;
  using LR = Kokkos::LayoutRight;
  using LS = Kokkos::LayoutStride;
  using SubL = SubviewOf<Kokkos::LayoutLeft>;
  using SubR = SubviewOf<Kokkos::LayoutRight>;
  const auto with_a = [&](auto a_kind) {
    using AKind = decltype(a_kind);
    const auto check = [&](auto b_kind) {
      using BKind = decltype(b_kind);
      const std::string what =
          p.name() + " A " + MakeMatrix<AKind>::name() + " B " + MakeMatrix<BKind>::name();
      expect_bits(trsm, run_trsm<AKind, BKind>(p), "extrsm " + what, "B");
      expect_bits(trmm, run_trmm<AKind, BKind>(p), "extrmm " + what, "B");
    };
    check(LL{});
    check(LR{});
    check(LS{});
    check(SubL{});
    check(SubR{});
  };
  with_a(LL{});
  with_a(LR{});
  with_a(LS{});
  with_a(SubR{});
}

// Every side, uplo, trans and diag, alpha 1, 2 and 0.1, B 13 x 6: extrsm against extrsv on each
// right-hand side, extrmm against the MPFR oracle; with alpha 2, every layout combination.
template <class T>
void expect_all_cases(Rng::result_type seed) {
  Rng rng(seed);
  for (const Case& c : all_cases())
    for (T alpha : {T(1), T(2), T(0.1)}) {
      const auto p = random_problem<T>(c, 13, 6, alpha, rng);
      const auto trsm = trsm_by_extrsv(p);
      const auto trmm = trmm_exact(p);
      expect_bits(trsm, run_trsm<Kokkos::LayoutLeft, Kokkos::LayoutLeft>(p), "extrsm " + p.name(),
                  "B");
      expect_bits(trmm, run_trmm<Kokkos::LayoutLeft, Kokkos::LayoutLeft>(p), "extrmm " + p.name(),
                  "B");
      if (alpha == T(2)) expect_every_layout(p, trsm, trmm);
    }
}

TEST(Trsm, EveryCaseMatchesTheDefinitions) {
  expect_all_cases<double>(1);
}

TEST(Trsm, EveryCaseInFloat) {
  expect_all_cases<float>(2);
}

// Refinement: the options reach every right-hand side (the same bits as extrsv with them), the
// count returned is the largest, and on these well-conditioned systems three steps reach the
// correctly rounded solution of every right-hand side (which the plain solve misses somewhere:
// the comparison can fail).
TEST(Trsm, RefinementGivesTheCorrectlyRoundedSolution) {
  Rng rng(3);
  ExKokkos::Options refine;
  refine.refinement_steps = 3;
  std::size_t plain_missed = 0;
  for (const Case& c : all_cases())
    for (double alpha : {1.0, 0.1}) {
      const auto p = random_problem<double>(c, 40, 9, alpha, rng);
      const auto exact = trsm_exact(p);
      int steps = -1;
      const auto refined =
          run_trsm<Kokkos::LayoutRight, SubviewOf<Kokkos::LayoutLeft>>(p, refine, &steps);
      int extrsv_steps = -1;
      expect_bits(trsm_by_extrsv(p, refine, &extrsv_steps), refined,
                  "refined, as extrsv " + p.name(), "B");
      expect_bits(exact, refined, "refined, MPFR " + p.name(), "B");
      EXPECT_EQ(steps, extrsv_steps) << p.name();
      EXPECT_GE(steps, 1) << p.name();
      EXPECT_LE(steps, 3) << p.name();
      int plain_steps = -1;
      const auto plain = run_trsm<Kokkos::LayoutLeft, Kokkos::LayoutLeft>(p, {}, &plain_steps);
      EXPECT_EQ(plain_steps, 0);
      for (std::size_t i = 0; i < plain.size(); ++i) plain_missed += !same_bits(plain[i], exact[i]);
    }
  EXPECT_GT(plain_missed, 0u) << "the data cannot tell a refined solve from a plain one";
}

// More rows than extrsv's default block (128 on the host), so each right-hand side is solved in
// several blocks, and extrmm's exgemm sums of a length beyond its lanes.
TEST(Trsm, SeveralBlocksOfRows) {
  Rng rng(4);
  for (const Case& c : {Case{'L', 'L', 'N', 'N'}, Case{'R', 'U', 'T', 'U'}}) {
    const auto p = random_problem<double>(c, c.left() ? 150 : 3, c.left() ? 3 : 150, 0.1, rng);
    expect_bits(trsm_by_extrsv(p), run_trsm<Kokkos::LayoutLeft, Kokkos::LayoutRight>(p),
                "extrsm " + p.name(), "B");
    expect_bits(trmm_exact(p), run_trmm<Kokkos::LayoutRight, Kokkos::LayoutLeft>(p),
                "extrmm " + p.name(), "B");
  }
}

// alpha = 0 (BLAS): B becomes +0 everywhere; A and B are not read (NaN in both does not
// propagate).
TEST(Trsm, AlphaZeroWritesZerosWithoutReading) {
  Rng rng(5);
  for (const Case& c : all_cases()) {
    auto p = random_problem<double>(c, 5, 4, 0.0, rng);
    for (auto& e : p.a) e = std::numeric_limits<double>::quiet_NaN();
    p.b[3] = std::numeric_limits<double>::quiet_NaN();
    p.b[7] = std::numeric_limits<double>::infinity();
    const std::vector<double> zeros(p.m * p.n, 0.0);
    expect_bits(zeros, run_trsm<Kokkos::LayoutLeft, Kokkos::LayoutStride>(p), "extrsm " + p.name(),
                "B");
    expect_bits(zeros, run_trmm<Kokkos::LayoutLeft, Kokkos::LayoutStride>(p), "extrmm " + p.name(),
                "B");
  }
}

// Empty B (no rows or no columns) with A of the matching order: valid, nothing written.
TEST(Trsm, EmptyInputs) {
  Rng rng(6);
  for (const Case& c : all_cases())
    for (const auto& mn : {std::make_pair(0, 0), std::make_pair(0, 4), std::make_pair(4, 0)}) {
      const auto p = random_problem<double>(c, mn.first, mn.second, 2.0, rng);
      int steps = -1;
      const auto x = run_trsm<Kokkos::LayoutLeft, Kokkos::LayoutRight>(p, {}, &steps);
      EXPECT_TRUE(x.empty());
      EXPECT_EQ(steps, 0);
      const auto y = run_trmm<Kokkos::LayoutRight, Kokkos::LayoutLeft>(p);
      EXPECT_TRUE(y.empty());
    }
  // A of order 4 and B 4 x 0 (side L): no right-hand side; B 0 x 4 (side R): none either. The
  // overloads without an execution space.
  Kokkos::View<double**> A("A", 4, 4), B40("B", 4, 0), B04("B", 0, 4);
  EXPECT_EQ(ExKokkos::extrsm("L", "L", "N", "N", 1.0, A, B40), 0);
  EXPECT_EQ(ExKokkos::extrsm("R", "U", "T", "U", 1.0, A, B04), 0);
  ExKokkos::extrmm("L", "L", "N", "N", 1.0, A, B40);
  ExKokkos::extrmm("R", "U", "T", "U", 1.0, A, B04);
}

// The overloads without an execution space: B's default space, the same bits.
TEST(Trmm, OverloadsWithoutSpace) {
  Rng rng(7);
  const auto p = random_problem<double>(Case{'R', 'L', 'T', 'N'}, 7, 5, 0.1, rng);
  const auto A = ExKokkosTest::to_matrix<Kokkos::LayoutLeft, Space>(p.a, p.order, p.order);
  const auto B = ExKokkosTest::to_matrix<Kokkos::LayoutLeft, Space>(p.b, p.m, p.n);
  ExKokkos::extrmm("R", "L", "T", "N", p.alpha, A, B);
  expect_bits(trmm_exact(p), ExKokkosTest::matrix_elements(B), "extrmm " + p.name(), "B");
  const auto X = ExKokkosTest::to_matrix<Kokkos::LayoutLeft, Space>(p.b, p.m, p.n);
  EXPECT_EQ(ExKokkos::extrsm("R", "L", "T", "N", p.alpha, A, X), 0);
  expect_bits(trsm_by_extrsv(p), ExKokkosTest::matrix_elements(X), "extrsm " + p.name(), "B");
}

// The single rounding of extrmm: with alpha = 0.1, rounding the sum before scaling gives other
// bits in some elements, which the oracle comparison above would see.
TEST(Trmm, RoundsOnceWithAlpha) {
  Rng rng(8);
  const auto p = random_problem<double>(Case{'L', 'U', 'N', 'N'}, 30, 8, 0.1, rng);
  const auto e = trmm_exact(p);
  expect_bits(e, run_trmm<Kokkos::LayoutLeft, Kokkos::LayoutLeft>(p), "extrmm " + p.name(), "B");
  Problem<double> unscaled = p;
  unscaled.alpha = 1.0;
  const auto sums = trmm_exact(unscaled);
  std::size_t twice_differs = 0;
  for (std::size_t i = 0; i < e.size(); ++i) twice_differs += !same_bits(0.1 * sums[i], e[i]);
  EXPECT_GT(twice_differs, 0u) << "the data cannot tell one rounding from two";
}

}  // namespace TrsmSuite
}  // namespace
