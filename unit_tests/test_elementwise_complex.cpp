// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The elementwise routines on Kokkos::complex<double> and Kokkos::complex<float>, against the
// MPFR oracle bit for bit, from their definitions in real arithmetic: exscal, exaxpby, exaxpy and
// exupdate give each part of sum_k c_k v_k (re = sum re(c) re(v) - im(c) im(v), im = sum re(c)
// im(v) + im(c) re(v)) rounded once, over the terms whose coefficient is not zero (as in
// KokkosBlas, a zero coefficient's view is not read: its NaN does not propagate; no term at all
// gives +0); exmult each part of gamma y + alpha a x rounded once; exinvscal and exreciprocal each
// part of x / a the exact quotient of its exact numerator and |a|^2 rounded once; exabs the
// square root of the exact re^2 + im^2 rounded once, into a complex or a real view; exfill stores
// its value. Every generator of the real suites (wide ranges, cancellation, ties, NaN and
// infinities, signed zeros) for every part, coefficients from ordinary to special; contiguous and
// strided vectors; Kokkos::Serial and the default host space (ctest runs the suite with 1, 2 and
// 3 threads), and in a GPU build the default execution space; designed cancellation and ties for
// exmult, ties and the whole range for the quotients; the multivector forms (every column the
// rank-1 routine's bits) and a coefficient view.
#include <ExKokkos.hpp>

#include <ExKokkosTest_GemvOracle.hpp>
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
namespace ElementwiseComplexSuite {

using ExKokkosTest::complexes;
using ExKokkosTest::describe;
using ExKokkosTest::same_bits;
using ExKokkosTest::vector_of;
using Host = Kokkos::DefaultHostExecutionSpace;
template <class T>
using C = Kokkos::complex<T>;

// The oracle: sum_k c_k v_k over the terms with a non-zero coefficient, each part rounded once;
// +0 +0i without any.
template <class T>
C<T> combination(const std::vector<C<T>>& c, const std::vector<C<T>>& v) {
  std::vector<C<T>> kept_c, kept_v;
  for (std::size_t k = 0; k < c.size(); ++k) {
    if (c[k] == C<T>(T(0), T(0))) continue;
    kept_c.push_back(c[k]);
    kept_v.push_back(v[k]);
  }
  return ExKokkosTest::exact_combination(kept_c, kept_v);
}

// exmult's oracle: gamma y + alpha a x, each part the exact value rounded once; alpha == 0 gives
// gamma y alone (+0 +0i when gamma is zero too), gamma == 0 leaves y unread. With S = a x exactly,
// part p is alpha's parts times S's parts plus gamma's times y's (the gemv oracle of one term).
template <class T>
C<T> mult_oracle(C<T> gamma, C<T> y, C<T> alpha, C<T> a, C<T> x) {
  const C<T> zero(T(0), T(0));
  if (alpha == zero) return combination<T>({gamma}, {y});
  const std::vector<std::vector<double>> f{{a.real(), -a.imag()}, {a.imag(), a.real()}};
  const std::vector<std::vector<double>> g{{x.real(), x.imag()}, {x.real(), x.imag()}};
  const std::vector<double> ys{y.real(), y.imag()};
  const bool read_y = gamma != zero, to_float = sizeof(T) == sizeof(float);
  const auto part = [&](const std::vector<double>& al, const std::vector<double>& be) {
    return T(ExKokkosTest::exact_scaled_sums(al, f, g, be, ys, read_y, to_float));
  };
  return C<T>(part({alpha.real(), -alpha.imag()}, {gamma.real(), -gamma.imag()}),
              part({alpha.imag(), alpha.real()}, {gamma.imag(), gamma.real()}));
}

// exinvscal's and exreciprocal's oracle (ExKokkosTest_Complex.hpp).
template <class T>
C<T> quotient_oracle(C<T> x, C<T> a) {
  return ExKokkosTest::exact_complex_quotient(x, a);
}

template <class T>
bool finite(const C<T>& v) {
  return std::isfinite(v.real()) && std::isfinite(v.imag());
}

template <class T>
void expect_same(const C<T>& got, const C<T>& want, const std::string& what, int& failures) {
  if (!same_bits(got, want) && ++failures <= 10)
    ADD_FAILURE() << what << " = " << describe(got) << ", expected " << describe(want);
}

// Coefficient triples (alpha, beta, gamma): ordinary, purely real or imaginary, zero in each
// place (a dropped term), huge and tiny (products out of TwoProd's range), signed zeros and
// special values.
template <class T>
std::vector<std::vector<C<T>>> coefficient_sets() {
  const T inf = std::numeric_limits<T>::infinity(), nan = std::numeric_limits<T>::quiet_NaN();
  const T big = std::numeric_limits<T>::max() / T(4), tiny = std::numeric_limits<T>::min();
  return {{C<T>(T(0.7), T(-1.3)), C<T>(T(-2.5), T(0.25)), C<T>(T(1.5), T(3))},
          {C<T>(T(1), T(0)), C<T>(T(1), T(0)), C<T>(T(-1), T(0))},
          {C<T>(T(0), T(1)), C<T>(T(0), T(-1)), C<T>(T(3), T(0))},
          {C<T>(T(0), T(0)), C<T>(T(0.5), T(2)), C<T>(T(-1), T(1))},
          {C<T>(T(2), T(-3)), C<T>(T(0), T(0)), C<T>(T(-0.0), T(-0.0))},
          {C<T>(T(-0.0), T(0)), C<T>(T(0), T(-0.0)), C<T>(T(0), T(0))},
          {C<T>(big, tiny), C<T>(tiny, -big), C<T>(T(1), T(1))},
          {C<T>(inf, T(0)), C<T>(T(1), nan), C<T>(T(0), T(2))}};
}

template <class T, class Layout, class Space>
void check_routines(const Space& space, const std::vector<C<T>>& x, const std::vector<C<T>>& y,
                    const std::vector<C<T>>& z, const std::vector<C<T>>& c, const std::string& what,
                    int& failures) {
  using ExKokkosTest::copy_span;
  using ExKokkosTest::space_copy;
  const std::size_t n = x.size();
  // Host views and their copies in Space's memory (the same views where that is the host's).
  const auto xh = vector_of<Layout>(x), outh = vector_of<Layout>(y);
  const auto yh = vector_of<Layout>(y), zh = vector_of<Layout>(z);
  const auto xv = space_copy<Space>(xh), out = space_copy<Space>(outh);
  const auto yv = space_copy<Space>(yh), zv = space_copy<Space>(zh);
  const auto set = [&](const auto& dev, const auto& host, const std::vector<C<T>>& v) {
    for (std::size_t i = 0; i < n; ++i) host(i) = v[i];
    copy_span(dev, host);
  };
  const auto result = [&](const auto& dev, const auto& host) {
    space.fence();
    copy_span(host, dev);
    return host;
  };
  const C<T> one(T(1), T(0));

  ExKokkos::exscal(space, out, c[0], xv);
  auto r = result(out, outh);
  for (std::size_t i = 0; i < n; ++i)
    expect_same(C<T>(r(i)), combination<T>({c[0]}, {x[i]}), "exscal " + what, failures);

  ExKokkos::exaxpby(space, c[0], xv, c[1], yv);
  r = result(yv, yh);
  for (std::size_t i = 0; i < n; ++i)
    expect_same(C<T>(r(i)), combination<T>({c[0], c[1]}, {x[i], y[i]}), "exaxpby " + what,
                failures);

  set(yv, yh, y);
  ExKokkos::exaxpy(space, c[1], xv, yv);
  r = result(yv, yh);
  for (std::size_t i = 0; i < n; ++i)
    expect_same(C<T>(r(i)), combination<T>({c[1], one}, {x[i], y[i]}), "exaxpy " + what, failures);

  set(yv, yh, y);
  ExKokkos::exupdate(space, c[0], xv, c[1], yv, c[2], zv);
  r = result(zv, zh);
  for (std::size_t i = 0; i < n; ++i)
    expect_same(C<T>(r(i)), combination<T>({c[0], c[1], c[2]}, {x[i], y[i], z[i]}),
                "exupdate " + what, failures);

  // exinvscal: x / c0; exreciprocal: (1 + 0i) / x.
  ExKokkos::exinvscal(space, out, c[0], xv);
  r = result(out, outh);
  for (std::size_t i = 0; i < n; ++i)
    expect_same(C<T>(r(i)), quotient_oracle(x[i], c[0]), "exinvscal " + what, failures);
  ExKokkos::exreciprocal(space, out, xv);
  r = result(out, outh);
  for (std::size_t i = 0; i < n; ++i)
    expect_same(C<T>(r(i)), quotient_oracle(C<T>(T(1), T(0)), x[i]), "exreciprocal " + what,
                failures);

  // exmult: z = c2 z + c0 y .* x, on finite data and coefficients (special values: below).
  bool all_finite = finite(c[0]) && finite(c[2]);
  for (std::size_t i = 0; i < n; ++i)
    all_finite = all_finite && finite(x[i]) && finite(y[i]) && finite(z[i]);
  if (!all_finite) return;
  set(yv, yh, y);
  set(zv, zh, z);
  ExKokkos::exmult(space, c[2], zv, c[0], yv, xv);
  r = result(zv, zh);
  for (std::size_t i = 0; i < n; ++i)
    expect_same(C<T>(r(i)), mult_oracle(c[2], z[i], c[0], y[i], x[i]), "exmult " + what, failures);
}

template <class T>
void check_generators() {
  int failures = 0;
  std::mt19937_64 rng(4099);
  const auto sets = coefficient_sets<T>();
  for (const std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(7), std::size_t(333)}) {
    std::size_t s = 0;
    for (const auto& g : ExKokkosTest::sum_generators()) {
      std::vector<std::vector<double>> parts;
      for (int p = 0; p < 6; ++p) parts.push_back(g.generate(n, rng));
      std::size_t m = n;
      for (const auto& p : parts) m = std::min(m, p.size());
      const auto x = complexes<T>(parts[0], parts[1], m);
      const auto y = complexes<T>(parts[2], parts[3], m);
      const auto z = complexes<T>(parts[4], parts[5], m);
      // Two coefficient sets a generator, taking turns, so that every set meets every kind of data.
      for (int k = 0; k < 2; ++k, ++s) {
        const auto& c = sets[s % sets.size()];
        const std::string what =
            g.name + " n = " + std::to_string(m) + ", set " + std::to_string(s % sets.size());
        check_routines<T, Kokkos::LayoutLeft>(Host(), x, y, z, c, what + ", contiguous", failures);
        check_routines<T, Kokkos::LayoutStride>(Host(), x, y, z, c, what + ", strided", failures);
        check_routines<T, Kokkos::LayoutStride>(Kokkos::Serial(), x, y, z, c, what + ", Serial",
                                                failures);
        if constexpr (ExKokkosTest::default_space_is_a_device()) {
          check_routines<T, Kokkos::LayoutLeft>(Kokkos::DefaultExecutionSpace(), x, y, z, c,
                                                what + ", default space", failures);
          check_routines<T, Kokkos::LayoutStride>(Kokkos::DefaultExecutionSpace(), x, y, z, c,
                                                  what + ", default space, strided", failures);
        }
      }
    }
    // Products built to cancel, overflow or underflow: x's and the coefficient's parts from one
    // designed pair, so that re(alpha x) holds a designed difference of products.
    for (const auto& g : ExKokkosTest::product_generators()) {
      auto [a, b] = g.generate(n, rng);
      const std::size_t m = std::min(a.size(), b.size());
      for (std::size_t i = 0; i < m; ++i) {
        const C<T> alpha(T(a[i]), T(-b[(i + 1) % m]));
        const std::vector<C<T>> x{C<T>(T(b[i]), T(a[(i + 1) % m]))};
        const auto out = vector_of<Kokkos::LayoutLeft>(x);
        ExKokkos::exscal(Host(), out, alpha, out);
        Host().fence();
        expect_same(C<T>(out(0)), combination<T>({alpha}, x), g.name + " products", failures);
      }
    }
  }
  EXPECT_EQ(failures, 0);
}

TEST(ElementwiseComplex, DoubleAgainstTheOracle) {
  check_generators<double>();
}
TEST(ElementwiseComplex, FloatAgainstTheOracle) {
  check_generators<float>();
}

// exmult on values built to cancel and to tie. Cancellation: the product generators' designed
// pairs as a's and x's parts, so that re(a x) = a_i b_i + a_j b_j is a designed difference of
// products, scaled by a complex alpha into four triple products a part, beside gamma y. Ties:
// y's real part 1 + k ulp(1) and re(alpha a x) half an ulp of it (or a bit beside) through the
// cross term im(alpha) im(a) re(x), so that only an exact rounding gets the even neighbour.
template <class T>
void check_mult_designed() {
  int failures = 0;
  std::mt19937_64 rng(8191);
  using V = Kokkos::View<C<T>*, Kokkos::HostSpace>;
  const auto run = [](C<T> gamma, C<T> y, C<T> alpha, C<T> a, C<T> x) {
    V yv("y", 1), av("a", 1), xv("x", 1);
    yv(0) = y;
    av(0) = a;
    xv(0) = x;
    ExKokkos::exmult(Host(), gamma, yv, alpha, av, xv);
    Host().fence();
    return C<T>(yv(0));
  };
  for (const auto& g : ExKokkosTest::product_generators()) {
    auto [p, q] = g.generate(64, rng);
    const std::size_t m = std::min(p.size(), q.size());
    for (std::size_t i = 0; i + 1 < m; ++i) {
      const C<T> a{T(p[i]), T(p[i + 1])}, x{T(q[i]), T(-q[i + 1])};
      if (!finite(a) || !finite(x)) continue;
      const C<T> alpha(T(0.75), T(std::ldexp(1.0, -int(i % 40)))), gamma(T(-1), T(0.5));
      const C<T> y{T(q[(i + 2) % m]), T(p[(i + 3) % m])};
      if (!finite(y)) continue;
      expect_same(run(gamma, y, alpha, a, x), mult_oracle(gamma, y, alpha, a, x),
                  g.name + " exmult " + std::to_string(i), failures);
      expect_same(run(C<T>(T(0), T(0)), y, alpha, a, x),
                  mult_oracle(C<T>(T(0), T(0)), y, alpha, a, x),
                  g.name + " exmult, gamma 0, " + std::to_string(i), failures);
    }
  }
  const int digits = std::numeric_limits<T>::digits;
  for (int k = 0; k < 4; ++k)
    for (int beside = -1; beside <= 1; ++beside)
      for (const T sign : {T(1), T(-1)}) {
        // im(alpha) im(a) re(x) = +-2^-10 2^-20 2^(30 - digits) (1 + beside 2^-20): half an ulp
        // of y's real part (k > 0), or a bit beside it.
        const T half_ulp = T(std::ldexp(1.0 + beside * 0x1p-20, -digits + 30));
        const C<T> alpha(T(0), sign * T(std::ldexp(1.0, -10))), a(T(0), T(std::ldexp(1.0, -20)));
        const C<T> x(half_ulp, T(0));
        const C<T> y(T(1) + T(k) * std::numeric_limits<T>::epsilon(), T(0.5));
        const C<T> gamma(T(1), T(0));
        expect_same(run(gamma, y, alpha, a, x), mult_oracle(gamma, y, alpha, a, x),
                    "exmult tie k " + std::to_string(k) + " beside " + std::to_string(beside),
                    failures);
      }
  EXPECT_EQ(failures, 0);
}

TEST(ElementwiseComplex, MultCancellationAndTies) {
  check_mult_designed<double>();
  check_mult_designed<float>();
}

// exinvscal and exreciprocal on values built to tie and to land beside ties, from normal to
// subnormal quotients: a = s (1 + i) gives |a|^2 = 2 s^2 and re(x / a) = (re x + im x) / (2 s), a
// midpoint when re x = 1 and im x = 2^-p (p the precision), a bit beside it with im x moved by
// one ulp; then random values with exponents up to +-range (wide: the exact path; narrow: the
// fast path, which certifies no tie) against the oracle.
template <class T>
void check_quotients_designed() {
  int failures = 0;
  using V = Kokkos::View<C<T>*, Kokkos::HostSpace>;
  const int p = std::numeric_limits<T>::digits;
  const int emin = std::numeric_limits<T>::min_exponent,
            emax = std::numeric_limits<T>::max_exponent;
  const auto check = [&](C<T> x, C<T> a, const std::string& what) {
    V xv("x", 1), out("out", 1);
    xv(0) = x;
    ExKokkos::exinvscal(Host(), out, a, xv);
    expect_same(C<T>(out(0)), quotient_oracle(x, a), "exinvscal " + what, failures);
    xv(0) = a;
    ExKokkos::exreciprocal(Host(), out, xv);
    expect_same(C<T>(out(0)), quotient_oracle(C<T>(T(1), T(0)), a), "exreciprocal " + what,
                failures);
  };
  for (int e = emin + p; e < emax; e += 37)
    for (int beside = -1; beside <= 1; ++beside) {
      const T s = T(std::ldexp(1.0, e));
      const T small =
          T(std::ldexp(1.0, -p)) * (T(1) + T(beside) * std::numeric_limits<T>::epsilon());
      check(C<T>(T(1), small), C<T>(s, s),
            "tie, scale 2^" + std::to_string(e) + ", beside " + std::to_string(beside));
      check(C<T>(T(-1), -small), C<T>(s, -s), "tie, -, scale 2^" + std::to_string(e));
    }
  std::mt19937_64 rng(65537);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (const int range : {emax - 8, 200, 20, 2}) {
    std::uniform_int_distribution<int> ex(-range, range);
    for (int trial = 0; trial < 3000; ++trial) {
      const auto v = [&]() { return T(std::ldexp(u(rng), ex(rng))); };
      const C<T> x(v(), v()), a(v(), v());
      check(x, a, "random, range " + std::to_string(range));
    }
  }
  EXPECT_EQ(failures, 0);
}

TEST(ElementwiseComplex, QuotientsAtTiesAndAcrossTheRange) {
  check_quotients_designed<double>();
  check_quotients_designed<float>();
}

// exmult with NaN and infinities: each part as Kokkos::complex's operators give it on
// gamma y + alpha (a x) (a NaN where they give a NaN, the same infinity, else a finite value: its
// value is the oracle's business, checked above); and BLAS' zero rules: alpha == 0 reads neither
// a nor x, gamma == 0 does not read y.
TEST(ElementwiseComplex, MultSpecialValuesFollowIeee) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  using V = Kokkos::View<C<double>*, Kokkos::HostSpace>;
  struct Case {
    C<double> gamma, y, alpha, a, x;
  };
  const std::vector<Case> cases{
      {C<double>(1, 0), C<double>(1, 1), C<double>(1, 0), C<double>(inf, 0), C<double>(2, 0)},
      {C<double>(1, 0), C<double>(1, 1), C<double>(1, 0), C<double>(inf, 0), C<double>(1, 1)},
      {C<double>(1, 0), C<double>(inf, 0), C<double>(1, 2), C<double>(1, 0), C<double>(3, 0)},
      {C<double>(-inf, 0), C<double>(1, 0), C<double>(1, 2), C<double>(1, 0), C<double>(3, 0)},
      {C<double>(1, 0), C<double>(1, nan), C<double>(1, 2), C<double>(1, 0), C<double>(3, 0)},
      {C<double>(0.5, 0), C<double>(1, 0), C<double>(0, inf), C<double>(1, 0), C<double>(3, 1)},
      {C<double>(0.5, 0), C<double>(1, 0), C<double>(1, 0), C<double>(nan, 0), C<double>(3, 1)},
      {C<double>(0.5, 0), C<double>(1, 0), C<double>(1, 1), C<double>(2, 0), C<double>(-inf, inf)}};
  const auto same = [](double got, double w) {
    return std::isnan(w) ? std::isnan(got) : std::isinf(w) ? got == w : std::isfinite(got);
  };
  for (std::size_t c = 0; c < cases.size(); ++c) {
    const Case& k = cases[c];
    V y("y", 1), a("a", 1), x("x", 1);
    y(0) = k.y;
    a(0) = k.a;
    x(0) = k.x;
    ExKokkos::exmult(Host(), k.gamma, y, k.alpha, a, x);
    const C<double> want = k.gamma * k.y + k.alpha * (k.a * k.x);
    EXPECT_TRUE(same(y(0).real(), want.real()) && same(y(0).imag(), want.imag()))
        << "case " << c << ": " << describe(C<double>(y(0))) << ", the operators give "
        << describe(want);
  }
  // Zero coefficients: their views are not read.
  V y("y", 1), a("a", 1), x("x", 1);
  y(0) = C<double>(1, -2);
  a(0) = C<double>(nan, inf);
  x(0) = C<double>(1, 1);
  ExKokkos::exmult(Host(), C<double>(0, 2), y, C<double>(0, 0), a, x);
  EXPECT_TRUE(same_bits(C<double>(y(0)), C<double>(4, 2))) << describe(C<double>(y(0)));
  y(0) = C<double>(nan, nan);
  a(0) = C<double>(2, 1);
  ExKokkos::exmult(Host(), C<double>(0, 0), y, C<double>(1, 0), a, x);
  EXPECT_TRUE(same_bits(C<double>(y(0)), C<double>(1, 3))) << describe(C<double>(y(0)));
  y(0) = C<double>(nan, nan);
  ExKokkos::exmult(Host(), C<double>(0, 0), y, C<double>(0, 0), a, x);
  EXPECT_TRUE(same_bits(C<double>(y(0)), C<double>(0, 0))) << describe(C<double>(y(0)));
}

// exabs into a complex view (imaginary part +0) and into a real view; exfill.
template <class T>
void check_abs_and_fill() {
  int failures = 0;
  std::mt19937_64 rng(5);
  for (const auto& g : ExKokkosTest::sum_generators()) {
    const auto re = g.generate(501, rng), im = g.generate(501, rng);
    const auto x = complexes<T>(re, im);
    const auto xv = vector_of<Kokkos::LayoutStride>(x);
    Kokkos::View<C<T>*, Kokkos::HostSpace> rc("rc", x.size());
    Kokkos::View<T*, Kokkos::HostSpace> rr("rr", x.size());
    ExKokkos::exabs(Host(), rc, xv);
    ExKokkos::exabs(Kokkos::Serial(), rr, xv);
    Host().fence();
    for (std::size_t i = 0; i < x.size(); ++i) {
      const T want = ExKokkosTest::exact_abs(x[i]);
      expect_same(C<T>(rc(i)), C<T>(want, T(0)), "exabs (complex R) of " + g.name, failures);
      if (!same_bits(rr(i), want) && ++failures <= 10)
        ADD_FAILURE() << "exabs (real R) of " << g.name << " = " << describe(rr(i)) << ", expected "
                      << describe(want);
    }
    const C<T> value(T(re.empty() ? 1 : re[0]), T(-0.0));
    ExKokkos::exfill(xv, value);
    for (std::size_t i = 0; i < x.size(); ++i)
      expect_same(C<T>(xv(i)), value, "exfill of " + g.name, failures);
  }
  EXPECT_EQ(failures, 0);
}

// |x| at and around rounding midpoints: with a = m and b = sqrt(m ulp(m)), sqrt(a^2 + b^2) is
// within a hair of m + ulp(m) / 2; b's neighbours land on either side of that midpoint, where the
// fast path of exabs must refuse or decide right. Pythagorean triples give exact results.
template <class T>
void check_abs_midpoints() {
  int failures = 0;
  std::mt19937_64 rng(17);
  std::uniform_real_distribution<double> unit(1, 2);
  std::vector<C<T>> x;
  for (int trial = 0; trial < 200; ++trial) {
    const T m = T(std::ldexp(unit(rng), int(rng() % 200) - 100));
    const T ulp = std::nextafter(m, std::numeric_limits<T>::infinity()) - m;
    T b = T(std::sqrt(double(m) * double(ulp)));
    for (int k = 0; k < 4; ++k) b = std::nextafter(b, T(0));
    for (int k = 0; k < 9; ++k, b = std::nextafter(b, std::numeric_limits<T>::infinity())) {
      x.emplace_back(m, b);
      x.emplace_back(-b, m);
    }
    const T scale = T(std::ldexp(1.0, int(rng() % 100) - 50));
    x.emplace_back(T(3) * scale, T(-4) * scale);
    x.emplace_back(T(20) * scale, T(21) * scale);
  }
  const auto xv = vector_of<Kokkos::LayoutLeft>(x);
  Kokkos::View<T*, Kokkos::HostSpace> r("r", x.size());
  ExKokkos::exabs(Host(), r, xv);
  Host().fence();
  for (std::size_t i = 0; i < x.size(); ++i) {
    const T want = ExKokkosTest::exact_abs(x[i]);
    if (!same_bits(r(i), want) && ++failures <= 10)
      ADD_FAILURE() << "exabs" << describe(x[i]) << " = " << describe(r(i)) << ", expected "
                    << describe(want);
  }
  EXPECT_EQ(failures, 0);
}

TEST(ElementwiseComplex, AbsAtMidpoints) {
  check_abs_midpoints<double>();
  check_abs_midpoints<float>();
}

TEST(ElementwiseComplex, AbsAndFill) {
  check_abs_and_fill<double>();
  check_abs_and_fill<float>();
}

// The multivector forms: column j has the rank-1 routine's bits, in every layout; exscal with a
// rank-1 coefficient view gives column j the scalar form's bits with coefficient j.
template <class T, class Layout>
void check_multivector(int& failures) {
  const std::size_t rows = 257, cols = 3;
  std::mt19937_64 rng(13);
  using M = ExKokkosTest::HostMatrix<C<T>, Layout>;
  const auto X = M::make(rows, cols), Y = M::make(rows, cols), Z = M::make(rows, cols);
  const auto generators = ExKokkosTest::sum_generators();
  for (std::size_t j = 0; j < cols; ++j) {
    const auto& g = generators[(5 * j + 2) % generators.size()];
    std::vector<std::vector<double>> parts;
    for (int p = 0; p < 6; ++p) parts.push_back(g.generate(rows, rng));
    for (std::size_t i = 0; i < rows; ++i) {
      X(i, j) = C<T>(T(parts[0][i % parts[0].size()]), T(parts[1][i % parts[1].size()]));
      Y(i, j) = C<T>(T(parts[2][i % parts[2].size()]), T(parts[3][i % parts[3].size()]));
      Z(i, j) = C<T>(T(parts[4][i % parts[4].size()]), T(parts[5][i % parts[5].size()]));
    }
  }
  const C<T> a(T(0.3), T(-1.1)), b(T(2), T(0.5)), c(T(-1), T(0.75));
  Kokkos::View<C<T>*, Kokkos::HostSpace> coefficients("coefficients", cols);
  for (std::size_t j = 0; j < cols; ++j) coefficients(j) = C<T>(T(j + 1), T(0.5) - T(j));
  const auto W = M::make(rows, cols), S = M::make(rows, cols), U = M::make(rows, cols);
  Kokkos::deep_copy(W, Y);
  Kokkos::deep_copy(U, Z);
  ExKokkos::exaxpby(Host(), a, X, b, W);
  ExKokkos::exscal(Host(), S, coefficients, X);
  ExKokkos::exupdate(Host(), a, X, b, Y, c, U);
  Host().fence();
  for (std::size_t j = 0; j < cols; ++j) {
    const auto x = Kokkos::subview(X, Kokkos::ALL(), j);
    Kokkos::View<C<T>*, Kokkos::HostSpace> w("w", rows), s("s", rows), u("u", rows);
    Kokkos::deep_copy(w, Kokkos::subview(Y, Kokkos::ALL(), j));
    Kokkos::deep_copy(u, Kokkos::subview(Z, Kokkos::ALL(), j));
    ExKokkos::exaxpby(a, x, b, w);
    ExKokkos::exscal(s, coefficients(j), x);
    ExKokkos::exupdate(a, x, b, Kokkos::subview(Y, Kokkos::ALL(), j), c, u);
    const std::string col = " column " + std::to_string(j);
    for (std::size_t i = 0; i < rows; ++i) {
      expect_same(C<T>(W(i, j)), C<T>(w(i)), "exaxpby(a, X, b, Y)" + col, failures);
      expect_same(C<T>(S(i, j)), C<T>(s(i)), "exscal(R, a, X)" + col, failures);
      expect_same(C<T>(U(i, j)), C<T>(u(i)), "exupdate(a, X, b, Y, c, Z)" + col, failures);
    }
  }
}

TEST(ElementwiseComplex, MultivectorColumnsHaveTheRank1Bits) {
  int failures = 0;
  check_multivector<double, Kokkos::LayoutLeft>(failures);
  check_multivector<double, Kokkos::LayoutRight>(failures);
  check_multivector<double, Kokkos::LayoutStride>(failures);
  check_multivector<float, Kokkos::LayoutLeft>(failures);
  EXPECT_EQ(failures, 0);
}

}  // namespace ElementwiseComplexSuite
}  // namespace
