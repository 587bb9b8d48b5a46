// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// KokkosBlas' coefficient views in exaxpby, exaxpy and exscal: a rank-0 view, a rank-1 view of
// one value per column or of one value, mixed with scalars. Every column must have the bits of
// the scalar form with that column's value (zero rules included: a zero coefficient does not read
// its vector), which the MPFR oracle checks as well; a view of another length is refused before
// anything is written. Double and float, LayoutLeft and LayoutRight, Kokkos::Serial and the
// default host space.
#include <ExKokkos.hpp>

#include <ExKokkosTest_Generators.hpp>
#include <ExKokkosTest_Oracle.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace {
// A name of its own: the suites of one executable compile as one translation unit (CMakeLists.txt).
namespace Level1CoefficientViewsSuite {

using ExKokkosTest::describe;
using ExKokkosTest::same_bits;
using Host = Kokkos::DefaultHostExecutionSpace;

template <class T, class Layout>
using Matrix = Kokkos::View<T**, Layout, Kokkos::HostSpace>;
template <class T>
using Vector = Kokkos::View<T*, Kokkos::HostSpace>;

template <class M>
M filled(std::size_t rows, std::size_t cols, std::uint64_t seed) {
  using T = typename M::non_const_value_type;
  M m("m", rows, cols);
  ExKokkosTest::Rng rng(seed);
  const std::vector<double> v = ExKokkosTest::nan_inf_mix(rows * cols + 8, rng);
  for (std::size_t j = 0; j < cols; ++j)
    for (std::size_t i = 0; i < rows; ++i) m(i, j) = static_cast<T>(v[j * rows + i]);
  return m;
}

template <class M>
M copy_of(const M& m) {
  M c("c", m.extent(0), m.extent(1));
  Kokkos::deep_copy(c, m);
  return c;
}

template <class T>
T oracle(T a, T x, T b, T y, bool with_b) {
  // The scalar forms' rules: a == 0 does not read x, b == 0 does not read y.
  ExKokkosTest::ExactSum s;
  if (a != T(0)) s.add_product(double(a), double(x));
  if (with_b && b != T(0)) s.add_product(double(b), double(y));
  return std::is_same<T, float>::value ? T(s.round_float()) : T(s.round_double());
}

template <class T>
void expect_same(T got, T want, const std::string& what, int& failures) {
  if (!same_bits(got, want) && ++failures <= 8)
    ADD_FAILURE() << what << " = " << describe(got) << ", expected " << describe(want);
}

template <class Space, class T, class Layout>
void coefficient_views(int& failures) {
  const Space space;
  const std::size_t rows = 300, cols = 3;
  const auto X = filled<Matrix<T, Layout>>(rows, cols, 1);
  const auto Y = filled<Matrix<T, Layout>>(rows, cols, 2);
  Vector<T> a("a", cols), b("b", cols), one("one", 1);
  Kokkos::View<T, Kokkos::HostSpace> a0("a0");
  a(0) = T(0.75), a(1) = T(0), a(2) = T(-3);
  b(0) = T(0), b(1) = T(1.25), b(2) = T(0.5);
  one(0) = T(-2.5);
  a0() = T(1.5);

  // Each call, and the scalar values of column j it must match.
  struct Case {
    std::string name;
    std::function<void(const Matrix<T, Layout>&)> call;
    std::function<T(std::size_t)> alpha, beta;
    bool with_b;
  };
  const std::vector<Case> cases = {
      {"exaxpby(a, X, b, Y)", [&](const auto& W) { ExKokkos::exaxpby(space, a, X, b, W); },
       [&](std::size_t j) { return a(j); }, [&](std::size_t j) { return b(j); }, true},
      {"exaxpby(a0, X, scalar, Y)",
       [&](const auto& W) { ExKokkos::exaxpby(space, a0, X, T(-0.5), W); },
       [&](std::size_t) { return a0(); }, [&](std::size_t) { return T(-0.5); }, true},
      {"exaxpby(scalar, X, one, Y)", [&](const auto& W) { ExKokkos::exaxpby(T(2), X, one, W); },
       [&](std::size_t) { return T(2); }, [&](std::size_t) { return one(0); }, true},
      {"exaxpy(a, X, Y)", [&](const auto& W) { ExKokkos::exaxpy(space, a, X, W); },
       [&](std::size_t j) { return a(j); }, [&](std::size_t) { return T(1); }, true},
      {"exscal(Y, a, X)", [&](const auto& W) { ExKokkos::exscal(space, W, a, X); },
       [&](std::size_t j) { return a(j); }, [&](std::size_t) { return T(0); }, false},
      {"exscal(Y, a0, X)", [&](const auto& W) { ExKokkos::exscal(W, a0, X); },
       [&](std::size_t) { return a0(); }, [&](std::size_t) { return T(0); }, false},
  };
  for (const Case& c : cases) {
    const auto W = copy_of(Y);
    c.call(W);
    Kokkos::fence();
    for (std::size_t j = 0; j < cols; ++j) {
      // The scalar form on column j.
      const auto S = copy_of(Y);
      const auto sj = Kokkos::subview(S, Kokkos::ALL(), j);
      const auto xj = Kokkos::subview(X, Kokkos::ALL(), j);
      if (c.with_b)
        ExKokkos::exaxpby(space, c.alpha(j), xj, c.beta(j), sj);
      else
        ExKokkos::exscal(space, sj, c.alpha(j), xj);
      space.fence();
      for (std::size_t i = 0; i < rows; ++i) {
        const std::string at = c.name + " (" + std::to_string(i) + ", " + std::to_string(j) + ")";
        expect_same(W(i, j), sj(i), at + " vs the scalar form", failures);
        expect_same(W(i, j), oracle(c.alpha(j), X(i, j), c.beta(j), Y(i, j), c.with_b), at,
                    failures);
      }
    }
  }

  // A view of another length is refused, and nothing is written.
  Vector<T> two("two", 2);
  const auto W = copy_of(Y);
  EXPECT_THROW(ExKokkos::exaxpby(space, two, X, T(1), W), std::invalid_argument);
  EXPECT_THROW(ExKokkos::exaxpby(space, T(1), X, two, W), std::invalid_argument);
  EXPECT_THROW(ExKokkos::exaxpy(space, two, X, W), std::invalid_argument);
  EXPECT_THROW(ExKokkos::exscal(space, W, two, X), std::invalid_argument);
  for (std::size_t j = 0; j < cols; ++j)
    for (std::size_t i = 0; i < rows; ++i)
      expect_same(W(i, j), Y(i, j), "after a refused call", failures);
}

template <class Space, class T>
void all() {
  int failures = 0;
  coefficient_views<Space, T, Kokkos::LayoutLeft>(failures);
  coefficient_views<Space, T, Kokkos::LayoutRight>(failures);
  EXPECT_EQ(failures, 0);
}

TEST(Level1CoefficientViews, SerialDouble) {
  all<Kokkos::Serial, double>();
}
TEST(Level1CoefficientViews, SerialFloat) {
  all<Kokkos::Serial, float>();
}
TEST(Level1CoefficientViews, DefaultHostDouble) {
  all<Host, double>();
}
TEST(Level1CoefficientViews, DefaultHostFloat) {
  all<Host, float>();
}

}  // namespace Level1CoefficientViewsSuite
}  // namespace
