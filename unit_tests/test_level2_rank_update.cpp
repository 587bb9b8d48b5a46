// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The rank-1 and rank-2 updates against the MPFR oracle, bit for bit: the element
// RN(a + alpha (x_1 y_1 + ... + x_K y_K)) (rounded_rank_update, K = 1 and 2) over uniform data,
// the whole range of the doubles (products that over- and underflow, subnormal results),
// cancellation to a few bits, exact rounding ties with and without a tiny term deciding them,
// signed zeros and IEEE's special values; then exger, exsyr and exsyr2 element by element on
// LayoutLeft, LayoutRight and LayoutStride matrices, strided vectors, both triangles (the other
// one untouched), alpha = 0 (nothing read) and empty shapes, on Kokkos::Serial and the default
// host space, double and float. Each element is the oracle's, so the bits cannot depend on the
// partition, thread count or layout.
#include <ExKokkos.hpp>

#include <ExKokkosTest_GemvOracle.hpp>
#include <ExKokkosTest_Generators.hpp>
#include <ExKokkosTest_Oracle.hpp>

#include "ExKokkosTest_HostMatrix.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace {
// A name of its own: the suites of one executable compile as one translation unit (CMakeLists.txt).
namespace RankUpdateSuite {

using ExKokkosTest::describe;
using ExKokkosTest::same_bits;
using Host = Kokkos::DefaultHostExecutionSpace;
template <class T, class Layout>
using Matrix = ExKokkosTest::HostMatrix<T, Layout>;

// One element of an update: a + alpha (x[0] y[0] + ... + x[K-1] y[K-1]).
template <class T>
struct Element {
  T a, alpha;
  T x[2], y[2];
};

template <class T>
std::string show(const Element<T>& e, int K) {
  std::string s = "a = " + describe(e.a) + ", alpha = " + describe(e.alpha);
  for (int k = 0; k < K; ++k)
    s += ", x" + std::to_string(k) + " = " + describe(e.x[k]) + ", y" + std::to_string(k) + " = " +
         describe(e.y[k]);
  return s;
}

// The oracle (finite inputs): exgemv's element RN(alpha sum_k row_k col_k + 1 a), in MPFR.
template <int K, class T>
T oracle(const Element<T>& e) {
  return ExKokkosTest::exact_gemv_entry(e.alpha, std::vector<T>(e.x, e.x + K),
                                        std::vector<T>(e.y, e.y + K), T(1), e.a);
}

template <int K, class T>
T computed(const Element<T>& e) {
  T x[K], y[K];
  for (int k = 0; k < K; ++k) {
    x[k] = e.x[k];
    y[k] = e.y[k];
  }
  return ExKokkos::Impl::rounded_rank_update(e.a, e.alpha, x, y);
}

// +-m 2^e with a random 53-bit m in [1, 2) and e uniform in [lo, hi] (subnormal or zero below
// 2^-1074: ldexp rounds).
double scaled(ExKokkosTest::Rng& rng, int lo, int hi) {
  std::uniform_real_distribution<double> m(1, 2);
  std::uniform_int_distribution<int> e(lo, hi);
  std::bernoulli_distribution negative(0.5);
  const double v = std::ldexp(m(rng), e(rng));
  return negative(rng) ? -v : v;
}

// The elements tried, by kind; every kind has elements for both K = 1 and K = 2 (the second pair
// is ignored for K = 1).
std::vector<std::pair<std::string, std::vector<Element<double>>>> element_cases() {
  ExKokkosTest::Rng rng(8191);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<std::pair<std::string, std::vector<Element<double>>>> out;
  const int count = 4000;

  std::vector<Element<double>> v;
  for (int i = 0; i < count; ++i) v.push_back({u(rng), u(rng), {u(rng), u(rng)}, {u(rng), u(rng)}});
  out.emplace_back("uniform", v);

  // The whole range: each factor from 2^-1100 (zero after rounding) to 2^1023, so products
  // over- and underflow, the value spans thousands of bits, results overflow or are subnormal.
  v.clear();
  for (int i = 0; i < count; ++i)
    v.push_back({scaled(rng, -1100, 1023),
                 scaled(rng, -1100, 1023),
                 {scaled(rng, -1100, 1023), scaled(rng, -1100, 1023)},
                 {scaled(rng, -1100, 1023), scaled(rng, -1100, 1023)}});
  out.emplace_back("full range", v);

  // Factors near the edges of TwoProd's exact range, results near the subnormals.
  v.clear();
  for (int i = 0; i < count; ++i)
    v.push_back({scaled(rng, -1074, -1000),
                 scaled(rng, -30, 30),
                 {scaled(rng, -560, -480), scaled(rng, -560, -480)},
                 {scaled(rng, -560, -480), scaled(rng, -560, -480)}});
  out.emplace_back("tiny", v);

  // Cancellation: a is minus the value's rounding (or a neighbour of it), so the exact result
  // is the few bits the roundings lost.
  std::vector<Element<double>> c1, c2;
  for (int i = 0; i < count; ++i) {
    Element<double> e{0.0,
                      scaled(rng, -20, 20),
                      {scaled(rng, -40, 40), scaled(rng, -40, 40)},
                      {scaled(rng, -40, 40), scaled(rng, -40, 40)}};
    const double one = e.alpha * (e.x[0] * e.y[0]);
    const double two = e.alpha * (e.x[0] * e.y[0] + e.x[1] * e.y[1]);
    const int step = i % 3 - 1;
    e.a = -std::nextafter(one, step > 0 ? 1e308 : (step < 0 ? -1e308 : one));
    c1.push_back(e);
    e.a = -std::nextafter(two, step > 0 ? 1e308 : (step < 0 ? -1e308 : two));
    c2.push_back(e);
  }
  out.emplace_back("cancellation (K = 1)", c1);
  out.emplace_back("cancellation (K = 2)", c2);

  // Exact ties: a in [1, 2) (its last bit 2^-52) plus alpha x0 y0 = k 2^-53 with k odd lies half
  // way between two doubles; the second product, when present, is either zero or a tiny term
  // 2^-300 that decides the tie either way.
  v.clear();
  std::uniform_int_distribution<int> odd(0, (1 << 20) - 1);
  for (int i = 0; i < count; ++i) {
    const double a = std::ldexp(std::floor(std::ldexp(1 + (u(rng) + 1) / 2, 52)), -52);
    const double k = 2.0 * odd(rng) + 1;
    const double sign = i % 2 == 0 ? 1.0 : -1.0;
    const double tiny = (i / 2) % 3 == 0 ? 0.0 : ((i / 2) % 3 == 1 ? 0x1p-300 : -0x1p-300);
    // alpha x0 y0 = sign k 2^-53 and alpha x1 y1 = tiny, with alpha = 2^-3.
    v.push_back({sign * a, 0x1p-3, {sign * k * 0x1p-30, tiny}, {0x1p-20, 1.0}});
  }
  out.emplace_back("ties", v);

  // Signed zeros: every combination of zero and non-zero factors, both signs.
  v.clear();
  const double z[] = {0.0, -0.0, 1.5, -1.5};
  for (double a : z)
    for (double alpha : {1.25, -1.25})
      for (double x0 : z)
        for (double y0 : z)
          for (double x1 : {0.0, -0.0, 2.0})
            for (double y1 : {0.0, -0.0, -2.0}) v.push_back({a, alpha, {x0, x1}, {y0, y1}});
  out.emplace_back("signed zeros", v);
  return out;
}

template <int K, class T>
void expect_elements_match_oracle() {
  for (const auto& kind : element_cases()) {
    int failures = 0, tried = 0;
    for (const auto& d : kind.second) {
      const Element<T> e{T(d.a), T(d.alpha), {T(d.x[0]), T(d.x[1])}, {T(d.y[0]), T(d.y[1])}};
      bool finite = std::isfinite(e.a) && std::isfinite(e.alpha);
      for (int k = 0; k < 2; ++k) finite = finite && std::isfinite(e.x[k]) && std::isfinite(e.y[k]);
      if (!finite) continue;  // float: a double beyond float's range; the special cases follow
      // alpha == 0: the routines return before any element (BLAS), and the oracle, exgemv's,
      // follows that convention (RN(1 a), even where IEEE gives -0 + 0 = +0).
      if (e.alpha == T(0)) continue;
      ++tried;
      const T want = oracle<K>(e), got = computed<K>(e);
      if (!same_bits(got, want) && ++failures <= 5)
        ADD_FAILURE() << kind.first << ", K = " << K << ": " << show(e, K) << ": got "
                      << describe(got) << ", expected " << describe(want);
    }
    EXPECT_EQ(failures, 0) << kind.first << ", K = " << K;
    EXPECT_GT(tried, 0) << kind.first;
  }
}

TEST(RankUpdate, ElementsAreCorrectlyRounded) {
  expect_elements_match_oracle<1, double>();
  expect_elements_match_oracle<2, double>();
  expect_elements_match_oracle<1, float>();
  expect_elements_match_oracle<2, float>();
}

// IEEE's special values, by hand: the value of a + alpha (x0 y0 + x1 y1) as IEEE arithmetic
// gives it when a NaN or an infinity takes part.
template <class T>
void expect_special_values() {
  const T nan = std::numeric_limits<T>::quiet_NaN(), inf = std::numeric_limits<T>::infinity();
  const T big = std::numeric_limits<T>::max();
  struct Case {
    Element<T> e;
    T want;
  };
  const Case cases[] = {
      {{T(1), T(1), {nan, T(0)}, {T(2), T(0)}}, nan},     // NaN factor
      {{T(1), T(1), {nan, T(0)}, {T(0), T(0)}}, nan},     // NaN times zero
      {{nan, T(1), {T(1), T(0)}, {T(2), T(0)}}, nan},     // NaN a
      {{T(1), nan, {T(1), T(0)}, {T(2), T(0)}}, nan},     // NaN alpha
      {{T(1), T(1), {inf, T(0)}, {T(2), T(0)}}, inf},     // an infinite product
      {{T(1), T(-1), {inf, T(0)}, {T(2), T(0)}}, -inf},   // ... times a negative alpha
      {{T(1), T(1), {inf, T(0)}, {T(0), T(0)}}, nan},     // inf * 0
      {{inf, T(1), {T(3), T(0)}, {T(2), T(0)}}, inf},     // an infinite a wins
      {{inf, T(1), {-inf, T(0)}, {T(2), T(0)}}, nan},     // inf - inf
      {{T(1), inf, {T(3), T(0)}, {T(2), T(0)}}, inf},     // infinite alpha
      {{T(1), inf, {T(0), T(0)}, {T(2), T(0)}}, nan},     // infinite alpha times a zero sum
      {{-inf, T(1), {big, big}, {big, big}}, -inf},       // a finite sum beyond the range
      {{T(0), T(1), {big, -big}, {big, big}}, T(0)},      // its exact cancellation: +0
      {{T(1), T(2), {big, T(0)}, {big, T(0)}}, inf},      // overflow of the exact value
      {{big, T(-1), {big, T(0)}, {T(-1), T(0)}}, inf},    // big + big
      {{-big, T(0.5), {big, T(0)}, {T(2), T(0)}}, T(0)},  // an exact zero
  };
  for (const auto& c : cases) {
    const T got = computed<2>(c.e);
    EXPECT_TRUE(same_bits(got, c.want))
        << show(c.e, 2) << ": got " << describe(got) << ", expected " << describe(c.want);
  }
}

TEST(RankUpdate, SpecialValuesFollowIeee) {
  expect_special_values<double>();
  expect_special_values<float>();
}

// A rank-1 host view of v in Layout (LayoutStride: every third element of a larger array).
template <class Layout, class T>
auto vector_of(const std::vector<T>& v) {
  const auto m = Matrix<T, Layout>::make(v.size(), 1);
  for (std::size_t i = 0; i < v.size(); ++i) m(i, 0) = v[i];
  return Kokkos::subview(m, Kokkos::ALL(), 0);
}

template <class T, class Layout>
typename Matrix<T, Layout>::type matrix_of(const std::vector<T>& v, std::size_t m, std::size_t n) {
  const auto A = Matrix<T, Layout>::make(m, n);
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j) A(i, j) = v[i * n + j];
  return A;
}

template <class T>
std::vector<T> wide(std::size_t n, ExKokkosTest::Rng& rng, int spread) {
  std::vector<T> v(n);
  for (auto& x : v) x = T(scaled(rng, -spread, spread));
  return v;
}

enum class Routine { ger, syr, syr2 };

// One routine on one shape, layout and space: every element of the updated part equals the
// oracle's, the rest is untouched.
template <class Space, class T, class Layout, class VectorLayout>
void check_routine(Routine routine, const char* uplo, std::size_t m, std::size_t n, T alpha,
                   int spread, std::uint64_t seed, int& failures) {
  ExKokkosTest::Rng rng(seed);
  if (routine != Routine::ger) n = m;
  const auto hx = wide<T>(m, rng, spread), hy = wide<T>(n, rng, spread);
  auto ha = wide<T>(m * n, rng, 2 * spread);
  // Some elements cancel their update to a few bits.
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j)
      if ((i + 2 * j) % 5 == 0) {
        const T s = routine == Routine::syr2 ? hx[i] * hy[j] + hy[i] * hx[j]
                                             : hx[i] * (routine == Routine::syr ? hx[j] : hy[j]);
        ha[i * n + j] = -(alpha * s);
      }
  const auto A = matrix_of<T, Layout>(ha, m, n);
  const auto x = vector_of<VectorLayout>(hx);
  const auto y = vector_of<VectorLayout>(hy);
  const Space space;
  const char* name =
      routine == Routine::ger ? "exger" : (routine == Routine::syr ? "exsyr" : "exsyr2");
  if (routine == Routine::ger) ExKokkos::exger(space, "T", alpha, x, y, A);
  if (routine == Routine::syr) ExKokkos::exsyr(space, "T", uplo, alpha, x, A);
  if (routine == Routine::syr2) ExKokkos::exsyr2(space, "H", uplo, alpha, x, y, A);
  space.fence();
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      const bool updated =
          routine == Routine::ger || (std::toupper(uplo[0]) == 'L' ? j <= i : i <= j);
      T want = ha[i * n + j];
      if (updated) {
        const T yj = routine == Routine::syr ? hx[j] : hy[j];
        const T yi = routine == Routine::syr ? hx[i] : hy[i];
        if (routine == Routine::syr2)
          want = oracle<2>(Element<T>{ha[i * n + j], alpha, {hx[i], yi}, {yj, hx[j]}});
        else
          want = oracle<1>(Element<T>{ha[i * n + j], alpha, {hx[i], T(0)}, {yj, T(0)}});
      }
      if (!same_bits(A(i, j), want) && ++failures <= 8)
        ADD_FAILURE() << name << " uplo " << uplo << ", " << m << " x " << n << ", element (" << i
                      << ", " << j << "): got " << describe(T(A(i, j))) << ", expected "
                      << describe(want) << (updated ? "" : " (outside the triangle)");
    }
}

template <class Space, class T, class Layout, class VectorLayout>
void check_all_routines(int& failures) {
  std::uint64_t seed = 1;
  for (const T alpha : {T(1), T(-0.75), T(3.0e-5)})
    for (const int spread : {2, 60}) {
      for (const auto& shape :
           {std::make_pair(37, 23), std::make_pair(1, 9), std::make_pair(64, 1)})
        check_routine<Space, T, Layout, VectorLayout>(Routine::ger, "", shape.first, shape.second,
                                                      alpha, spread, ++seed, failures);
      for (const char* uplo : {"L", "U", "l", "u"})
        for (const std::size_t n : {1, 29}) {
          check_routine<Space, T, Layout, VectorLayout>(Routine::syr, uplo, n, n, alpha, spread,
                                                        ++seed, failures);
          check_routine<Space, T, Layout, VectorLayout>(Routine::syr2, uplo, n, n, alpha, spread,
                                                        ++seed, failures);
        }
    }
}

template <class Space, class T>
void check_every_layout() {
  int failures = 0;
  check_all_routines<Space, T, Kokkos::LayoutLeft, Kokkos::LayoutLeft>(failures);
  check_all_routines<Space, T, Kokkos::LayoutRight, Kokkos::LayoutStride>(failures);
  check_all_routines<Space, T, Kokkos::LayoutStride, Kokkos::LayoutStride>(failures);
  EXPECT_EQ(failures, 0);
}

TEST(RankUpdate, RoutinesMatchTheOracleOnEveryLayout) {
  check_every_layout<Kokkos::Serial, double>();
  check_every_layout<Host, double>();
  check_every_layout<Host, float>();
}

// alpha == 0 reads nothing (a NaN in x does not reach A) and writes nothing; empty shapes are
// valid; the forms without a space run on the views' space.
TEST(RankUpdate, ZeroAlphaAndEmptyShapes) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  using M = Kokkos::View<double**, Kokkos::LayoutLeft, Kokkos::HostSpace>;
  using V = Kokkos::View<double*, Kokkos::HostSpace>;
  M A("A", 3, 3);
  V x("x", 3), y("y", 3);
  Kokkos::deep_copy(A, 2.5);
  Kokkos::deep_copy(x, nan);
  Kokkos::deep_copy(y, 1.0);
  ExKokkos::exger("T", 0.0, x, y, A);
  ExKokkos::exsyr("T", "U", 0.0, x, A);
  ExKokkos::exsyr2("T", "L", 0.0, x, y, A);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) EXPECT_EQ(A(i, j), 2.5);
  M A0("A0", 0, 3), A00("A00", 0, 0);
  V x0("x0", 0);
  ExKokkos::exger(Host(), "T", 1.0, x0, y, A0);
  ExKokkos::exsyr(Host(), "T", "L", 1.0, x0, A00);
  ExKokkos::exsyr2(Host(), "T", "U", 1.0, x0, x0, A00);
  // Without a space, a non-zero alpha: the element of the oracle.
  Kokkos::deep_copy(x, 0.5);
  ExKokkos::exger("H", 0.1, x, y, A);
  Kokkos::fence();
  const double want = oracle<1>(Element<double>{2.5, 0.1, {0.5, 0.0}, {1.0, 0.0}});
  EXPECT_TRUE(same_bits(A(2, 1), want)) << describe(A(2, 1)) << " vs " << describe(want);
}

}  // namespace RankUpdateSuite
}  // namespace
