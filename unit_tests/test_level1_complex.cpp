// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The level-1 reductions on Kokkos::complex<double> and Kokkos::complex<float>, against the MPFR
// oracle bit for bit, from their definitions in real arithmetic: exsum's real and imaginary parts
// each the exact sum of the parts rounded once; exasum BLAS' sum of |re| + |im|; exnrm2 the
// correctly rounded square root of the exact sum of re^2 + im^2, exnrm2_squared that sum rounded
// once; exdot conj(x) . y as KokkosBlas::dot (re = sum xr yr + xi yi, im = sum xr yi - xi yr), each
// part rounded once; exnrminf the largest modulus sqrt(re^2 + im^2) rounded once (NaN when a part
// is NaN), exiamax the first index of the largest exact modulus as reference IxAMAX's loop would
// find it comparing exact moduli (ties to the smallest index; moduli that round alike are told
// apart). Every generator of the real suites (wide ranges, cancellation, ties, NaN and
// infinities, signed zeros) for both parts; 0 to 5003 elements; contiguous and strided vectors;
// Kokkos::Serial and the default host space under several launch options (the same bits: the
// oracle's; ctest runs the suite with 1, 2 and 3 threads), and in a GPU build the default
// execution space; shuffled input; the rank-0 result and
// space-less forms; the multivector forms (every column the rank-1 routine's bits).
#include <ExKokkos.hpp>

#include <ExKokkosTest_Generators.hpp>
#include <ExKokkosTest_Oracle.hpp>

#include "ExKokkosTest_Complex.hpp"
#include "ExKokkosTest_HostMatrix.hpp"
#include "ExKokkosTest_Views.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace {
// A name of its own: the suites of one executable compile as one translation unit (CMakeLists.txt).
namespace Level1ComplexSuite {

using ExKokkosTest::complexes;
using ExKokkosTest::describe;
using ExKokkosTest::ExactSum;
using ExKokkosTest::same_bits;
using ExKokkosTest::vector_of;
using Host = Kokkos::DefaultHostExecutionSpace;
template <class T>
using C = Kokkos::complex<T>;

using ExKokkosTest::rounded;

// The oracle, from the definitions.
template <class T>
struct Expected {
  C<T> sum, dot;
  T asum, nrm2, nrm2_squared, nrminf;
  std::size_t iamax;
};

bool has_nan(double re, double im) {
  return std::isnan(re) || std::isnan(im);
}
bool has_inf(double re, double im) {
  return std::isinf(re) || std::isinf(im);
}

// Whether |a| > |b|, exactly (the parts are not NaN).
template <class T>
bool larger_modulus(const C<T>& a, const C<T>& b) {
  if (has_inf(a.real(), a.imag())) return !has_inf(b.real(), b.imag());
  if (has_inf(b.real(), b.imag())) return false;
  ExactSum d;
  d.add_product(a.real(), a.real());
  d.add_product(a.imag(), a.imag());
  d.add_product(-double(b.real()), b.real());
  d.add_product(-double(b.imag()), b.imag());
  return d.sign() > 0;
}

// Reference IxAMAX's loop with exact moduli, 1-based (0 when empty): x(1) NaN keeps 1, and no
// comparison with a NaN succeeds.
template <class T>
std::size_t oracle_iamax(const std::vector<C<T>>& x) {
  if (x.empty()) return 0;
  std::size_t best = 0;
  for (std::size_t i = 1; i < x.size(); ++i) {
    if (has_nan(x[i].real(), x[i].imag()) || has_nan(x[best].real(), x[best].imag())) continue;
    if (larger_modulus(x[i], x[best])) best = i;
  }
  return best + 1;
}

template <class T>
T oracle_nrminf(const std::vector<C<T>>& x) {
  T m = T(0);
  for (const auto& v : x) {
    if (has_nan(v.real(), v.imag())) return std::numeric_limits<T>::quiet_NaN();
    m = std::max(m, ExKokkosTest::exact_abs(v));
  }
  return m;
}

template <class T>
Expected<T> oracle(const std::vector<C<T>>& x, const std::vector<C<T>>& y) {
  const auto r = ExKokkosTest::exact_complex_reductions(x, y);
  Expected<T> e;
  e.sum = r.sum;
  e.dot = r.dot;
  e.asum = r.asum;
  e.nrm2 = r.nrm2;
  e.nrm2_squared = r.nrm2_squared;
  e.nrminf = oracle_nrminf(x);
  e.iamax = oracle_iamax(x);
  return e;
}

template <class V>
void expect_bits(const V& got, const V& want, const std::string& what, int& failures) {
  if (!same_bits(got, want) && ++failures <= 10)
    ADD_FAILURE() << what << " = " << describe(got) << ", expected " << describe(want);
}

// Every routine on x and y (views in Layout) on `space` with `options`, against the oracle.
template <class T, class Layout, class Space>
void check_routines(const Space& space, const std::vector<C<T>>& xs, const std::vector<C<T>>& ys,
                    const Expected<T>& e, const ExKokkos::Options& options,
                    const std::string& where, int& failures) {
  const auto x = ExKokkosTest::space_copy<Space>(vector_of<Layout>(xs));
  const auto y = ExKokkosTest::space_copy<Space>(vector_of<Layout>(ys));
  expect_bits(ExKokkos::exsum(space, x, options), e.sum, "exsum " + where, failures);
  expect_bits(ExKokkos::exdot(space, x, y, options), e.dot, "exdot " + where, failures);
  expect_bits(ExKokkos::exasum(space, x, options), e.asum, "exasum " + where, failures);
  expect_bits(ExKokkos::exnrm2(space, x, options), e.nrm2, "exnrm2 " + where, failures);
  expect_bits(ExKokkos::exnrm2_squared(space, x, options), e.nrm2_squared,
              "exnrm2_squared " + where, failures);
  // (exnrminf and exiamax take no options: one launch, no tuning.)
  expect_bits(ExKokkos::exnrminf(space, x), e.nrminf, "exnrminf " + where, failures);
  const std::size_t i = ExKokkos::exiamax(space, x);
  if (i != e.iamax && ++failures <= 10)
    ADD_FAILURE() << "exiamax " << where << " = " << i << ", expected " << e.iamax;
}

std::vector<std::pair<std::string, ExKokkos::Options>> launch_options() {
  std::vector<std::pair<std::string, ExKokkos::Options>> all(1);
  all[0].first = "default";
  ExKokkos::Options many;
  many.league_size = 5;
  all.emplace_back("league 5", many);
  if (Host().concurrency() >= 2) {  // a team of two needs two threads
    ExKokkos::Options teams;
    teams.team_size = 2;
    teams.league_size = 3;
    teams.accumulators_per_team = 1;
    all.emplace_back("teams of 2", teams);
  }
  ExKokkos::Options scalar;
  scalar.early_exit = 1;
  scalar.expansion_size = 4;
  all.emplace_back("early exit", scalar);
  return all;
}

template <class T>
void check_everything(const std::vector<C<T>>& x, const std::vector<C<T>>& y,
                      const std::string& what, int& failures) {
  const Expected<T> e = oracle(x, y);
  for (const auto& [name, options] : launch_options()) {
    const std::string where = what + ", " + name;
    check_routines<T, Kokkos::LayoutLeft>(Host(), x, y, e, options, where + ", contiguous",
                                          failures);
    check_routines<T, Kokkos::LayoutStride>(Host(), x, y, e, options, where + ", strided",
                                            failures);
  }
  check_routines<T, Kokkos::LayoutStride>(Kokkos::Serial(), x, y, e, {}, what + ", Serial",
                                          failures);
  if constexpr (ExKokkosTest::default_space_is_a_device()) {
    check_routines<T, Kokkos::LayoutLeft>(Kokkos::DefaultExecutionSpace(), x, y, e, {},
                                          what + ", default space", failures);
    check_routines<T, Kokkos::LayoutStride>(Kokkos::DefaultExecutionSpace(), x, y, e, {},
                                            what + ", default space, strided", failures);
  }
}

template <class T>
void check_generators() {
  int failures = 0;
  std::mt19937_64 rng(3301);
  for (const std::size_t n :
       {std::size_t(0), std::size_t(1), std::size_t(7), std::size_t(1000), std::size_t(5003)}) {
    for (const auto& g : ExKokkosTest::sum_generators()) {
      auto x = complexes<T>(g.generate(n, rng), g.generate(n, rng));
      auto y = complexes<T>(g.generate(n, rng), g.generate(n, rng));
      x.resize(std::min(x.size(), y.size()));
      y.resize(x.size());
      check_everything(x, y, g.name + " n = " + std::to_string(x.size()), failures);
    }
    // Products built to cancel, overflow or underflow: x = (a, a'), y = (b, b') from two pairs,
    // so that the real part of conj(x) . y holds both designed dot products.
    for (const auto& g : ExKokkosTest::product_generators()) {
      auto [a, b] = g.generate(n, rng);
      auto [a2, b2] = g.generate(n, rng);
      // (A generator may return a pair shorter than asked for.)
      const std::size_t m = std::min({a.size(), b.size(), a2.size(), b2.size()});
      for (auto* v : {&a, &b, &a2, &b2}) v->resize(m);
      check_everything(complexes<T>(a, a2), complexes<T>(b, b2),
                       g.name + " products n = " + std::to_string(m), failures);
    }
  }
  EXPECT_EQ(failures, 0);
}

// Shuffled input: the same elements in another order give the same bits (each part is an exact
// sum, which no order changes).
template <class T>
void check_shuffled() {
  std::mt19937_64 rng(29);
  int failures = 0;
  for (const auto& g : ExKokkosTest::sum_generators()) {
    auto x = complexes<T>(g.generate(3001, rng), g.generate(3001, rng));
    auto y = complexes<T>(g.generate(3001, rng), g.generate(3001, rng));
    x.resize(std::min(x.size(), y.size()));
    y.resize(x.size());
    std::vector<std::size_t> order(x.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::shuffle(order.begin(), order.end(), rng);
    std::vector<C<T>> xs(x.size()), ys(y.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
      xs[i] = x[order[i]];
      ys[i] = y[order[i]];
    }
    const auto xv = vector_of<Kokkos::LayoutLeft>(x), yv = vector_of<Kokkos::LayoutLeft>(y);
    const auto xsv = vector_of<Kokkos::LayoutLeft>(xs), ysv = vector_of<Kokkos::LayoutLeft>(ys);
    const std::string what = " of shuffled " + g.name;
    expect_bits(ExKokkos::exdot(xsv, ysv), ExKokkos::exdot(xv, yv), "exdot" + what, failures);
    expect_bits(ExKokkos::exsum(xsv), ExKokkos::exsum(xv), "exsum" + what, failures);
    expect_bits(ExKokkos::exasum(xsv), ExKokkos::exasum(xv), "exasum" + what, failures);
    expect_bits(ExKokkos::exnrm2(xsv), ExKokkos::exnrm2(xv), "exnrm2" + what, failures);
    expect_bits(ExKokkos::exnrminf(xsv), ExKokkos::exnrminf(xv), "exnrminf" + what, failures);
  }
  EXPECT_EQ(failures, 0);
}

TEST(Level1Complex, ShuffledInputGivesTheSameBits) {
  check_shuffled<double>();
  check_shuffled<float>();
}

TEST(Level1Complex, DoubleAgainstTheOracle) {
  check_generators<double>();
}
TEST(Level1Complex, FloatAgainstTheOracle) {
  check_generators<float>();
}

// The rank-0 result forms (with and without a space) write what the value forms return; an empty
// vector gives +0 in both parts.
template <class T>
void check_result_views() {
  std::mt19937_64 rng(7);
  const auto x = complexes<T>(ExKokkosTest::full_range(513, rng), ExKokkosTest::normal(513, rng));
  const auto y = complexes<T>(ExKokkosTest::normal(513, rng), ExKokkosTest::full_range(513, rng));
  const auto xv = vector_of<Kokkos::LayoutRight>(x), yv = vector_of<Kokkos::LayoutRight>(y);
  const Expected<T> e = oracle(x, y);
  Kokkos::View<C<T>, Kokkos::HostSpace> rc("rc");
  Kokkos::View<T, Kokkos::HostSpace> rr("rr");
  int failures = 0;
  ExKokkos::exdot(rc, xv, yv);
  expect_bits(rc(), e.dot, "exdot(r, x, y)", failures);
  ExKokkos::exsum(Kokkos::Serial(), rc, xv);
  expect_bits(rc(), e.sum, "exsum(Serial, r, x)", failures);
  ExKokkos::exasum(rr, xv);
  expect_bits(rr(), e.asum, "exasum(r, x)", failures);
  ExKokkos::exnrm2(Host(), rr, xv);
  expect_bits(rr(), e.nrm2, "exnrm2(space, r, x)", failures);
  expect_bits(ExKokkos::exdot(xv, yv), e.dot, "exdot(x, y)", failures);
  expect_bits(ExKokkos::exnrm2_squared(xv), e.nrm2_squared, "exnrm2_squared(x)", failures);

  const auto empty = vector_of<Kokkos::LayoutLeft>(std::vector<C<T>>());
  rc() = C<T>(T(5), T(5));
  ExKokkos::exdot(rc, empty, empty);
  expect_bits(rc(), C<T>(T(0), T(0)), "exdot of empty vectors", failures);
  expect_bits(ExKokkos::exsum(empty), C<T>(T(0), T(0)), "exsum of an empty vector", failures);
  EXPECT_EQ(failures, 0);
}

TEST(Level1Complex, ResultViewsAndEmptyVectors) {
  check_result_views<double>();
  check_result_views<float>();
}

// exiamax where rounded moduli tie: (1, 2^-31) and (1, 2^-30) both have modulus 1 once rounded
// (and in float too), yet the second is larger; (3, 4), (4, 3), (-5, 0) and (0, 5) tie exactly
// (the first index wins); one infinite part beats any finite modulus, and two infinite moduli tie.
// Every position of the largest element, on Serial and the default host space, under every
// partition the thread counts give (ctest runs 1 to 3 threads).
template <class T>
void check_iamax_ties(int& failures) {
  const T tiny = T(std::ldexp(1.0, -31)), small = T(std::ldexp(1.0, -30));
  const T inf = std::numeric_limits<T>::infinity();
  const std::vector<std::vector<C<T>>> cases = {
      {C<T>(1, tiny), C<T>(1, small), C<T>(-1, tiny), C<T>(tiny, -1)},
      {C<T>(1, tiny), C<T>(tiny, 1), C<T>(-small, 1), C<T>(1, -small), C<T>(1, tiny)},
      {C<T>(3, 4), C<T>(4, 3), C<T>(-5, 0), C<T>(0, 5), C<T>(4, -3)},
      {C<T>(1, 0), C<T>(-inf, 1), C<T>(1, inf), C<T>(T(3e38), T(3e38))},
      {C<T>(T(3e38), T(3e38)), C<T>(T(3e38), -T(3e38)), C<T>(-T(3e38), T(3e38))}};
  for (const auto& base : cases) {
    for (std::size_t pad = 0; pad < 40; pad += 13) {
      // Small fillers around the case move its elements across partitions.
      std::vector<C<T>> x(pad, C<T>(T(0.25), T(-0.5)));
      x.insert(x.end(), base.begin(), base.end());
      x.insert(x.end(), pad, C<T>(T(-0.5), T(0.25)));
      for (int r = 0; r < int(base.size()); ++r) {
        std::rotate(x.begin() + pad, x.begin() + pad + 1, x.begin() + pad + base.size());
        const auto xv = vector_of<Kokkos::LayoutLeft>(x);
        const std::size_t want = oracle_iamax(x);
        const std::string what = describe(x[want - 1]) + " at " + std::to_string(want);
        for (const std::size_t got :
             {ExKokkos::exiamax(Kokkos::Serial(), xv), ExKokkos::exiamax(Host(), xv)})
          if (got != want && ++failures <= 10)
            ADD_FAILURE() << "exiamax with ties, largest " << what << ": got " << got;
        expect_bits(ExKokkos::exnrminf(Host(), xv), oracle_nrminf(x), "exnrminf with ties " + what,
                    failures);
      }
    }
  }
}

TEST(Level1Complex, IamaxTellsApartModuliThatRoundAlike) {
  int failures = 0;
  check_iamax_ties<double>(failures);
  check_iamax_ties<float>(failures);
  EXPECT_EQ(failures, 0);
}

// The multivector forms: R(j) has the bits of the rank-1 routine on column j, in every layout;
// a rank-1 y is paired with every column of X.
template <class T, class Layout>
void check_multivector(int& failures) {
  const std::size_t rows = 777, cols = 3;
  std::mt19937_64 rng(11);
  const auto X = ExKokkosTest::HostMatrix<C<T>, Layout>::make(rows, cols);
  const auto Y = ExKokkosTest::HostMatrix<C<T>, Layout>::make(rows, cols);
  const auto generators = ExKokkosTest::sum_generators();
  for (std::size_t j = 0; j < cols; ++j) {
    const auto& g = generators[(3 * j + 1) % generators.size()];
    const auto re = g.generate(rows, rng), im = g.generate(rows, rng);
    const auto re2 = g.generate(rows, rng), im2 = g.generate(rows, rng);
    for (std::size_t i = 0; i < rows; ++i) {
      X(i, j) = C<T>(T(re[i]), T(im[i]));
      Y(i, j) = C<T>(T(re2[i]), T(im2[i]));
    }
  }
  const auto y0 = Kokkos::subview(Y, Kokkos::ALL(), 0);
  Kokkos::View<C<T>*, Kokkos::HostSpace> sums("sums", cols), dots("dots", cols),
      dots0("dots0", cols);
  Kokkos::View<T*, Kokkos::HostSpace> asums("asums", cols), norms("norms", cols),
      maxima("maxima", cols);
  Kokkos::View<int*, Kokkos::HostSpace> places("places", cols);
  ExKokkos::exsum(Host(), sums, X);
  ExKokkos::exdot(Host(), dots, X, Y);
  ExKokkos::exdot(dots0, X, y0);
  ExKokkos::exasum(asums, X);
  ExKokkos::exnrm2(Host(), norms, X);
  ExKokkos::exnrminf(Host(), maxima, X);
  ExKokkos::exiamax(places, X);
  Host().fence();
  for (std::size_t j = 0; j < cols; ++j) {
    const auto x = Kokkos::subview(X, Kokkos::ALL(), j);
    const auto y = Kokkos::subview(Y, Kokkos::ALL(), j);
    const std::string col = " column " + std::to_string(j);
    expect_bits(sums(j), ExKokkos::exsum(x), "exsum(R, X)" + col, failures);
    expect_bits(dots(j), ExKokkos::exdot(x, y), "exdot(R, X, Y)" + col, failures);
    expect_bits(dots0(j), ExKokkos::exdot(x, y0), "exdot(R, X, y)" + col, failures);
    expect_bits(asums(j), ExKokkos::exasum(x), "exasum(R, X)" + col, failures);
    expect_bits(norms(j), ExKokkos::exnrm2(x), "exnrm2(R, X)" + col, failures);
    expect_bits(maxima(j), ExKokkos::exnrminf(x), "exnrminf(R, X)" + col, failures);
    if (std::size_t(places(j)) != ExKokkos::exiamax(x) && ++failures <= 10)
      ADD_FAILURE() << "exiamax(R, X)" << col << " = " << places(j);
  }
}

TEST(Level1Complex, MultivectorColumnsHaveTheRank1Bits) {
  int failures = 0;
  check_multivector<double, Kokkos::LayoutLeft>(failures);
  check_multivector<double, Kokkos::LayoutRight>(failures);
  check_multivector<double, Kokkos::LayoutStride>(failures);
  check_multivector<float, Kokkos::LayoutLeft>(failures);
  check_multivector<float, Kokkos::LayoutStride>(failures);
  EXPECT_EQ(failures, 0);
}

}  // namespace Level1ComplexSuite
}  // namespace
