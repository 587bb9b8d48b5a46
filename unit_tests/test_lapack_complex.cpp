// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The LU routines on Kokkos::complex<double> and Kokkos::complex<float>, bit for bit against their
// definition evaluated with the MPFR oracle (each RN below rounds each part of an exact complex
// value once):
//   exgetf2 (left-looking, as the real definition): at step j, the entries of U above the diagonal
//   of column j and a_ij for i >= j become RN(a_ij - sum_k l_ik u_kj); the pivot is the first
//   index i >= j of the largest exact modulus (re^2 + im^2 compared exactly; an infinite part is
//   an infinite modulus, infinities tie; an entry with a NaN part never wins against one without,
//   and the diagonal stays when all are NaN); whole rows are swapped; l_ij = a_ij / a_jj with each
//   part the exact quotient of its exact numerator and re^2 + im^2 rounded once, unless a_jj is
//   zero (info = the first such j + 1, the column left unscaled, the factorization going on).
//   exgetrs: swaps, then x_q = RN(RN(b_q - sum_r t_qr x_r) / t_qq) down L (unit) and up U for "N";
//   U^T, L^T (conj(U)^T, conj(L)^T for "C" and "H"), then the swaps in reverse for "T".
//   exgesv: exgetf2, exgetrs "N", and refinement: r = RN(b - A x) with the original A, d the
//   solve of r, x = RN(x + d) part by part, until x does not change.
// The batched forms equal the unbatched ones for every team size and staging, and the team and
// serial forms inside the suite's own kernels equal exgetf2 and exgetrs; on
// Kokkos::DefaultHostExecutionSpace and Kokkos::Serial, in three layouts, with random data, the
// support library's generators, ill-conditioned and singular matrices, designed pivot ties, and
// NaN and Inf entries.
#include <ExKokkos.hpp>
#include <ExKokkos_TeamLU.hpp>

#include <ExKokkosTest_Generators.hpp>
#include <ExKokkosTest_Oracle.hpp>

#include "ExKokkosTest_Complex.hpp"
#include "ExKokkosTest_HostMatrix.hpp"
#include "ExKokkosTest_Views.hpp"

#include <gtest/gtest.h>

#include <mpfr.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace {
// A name of its own: the suites of one executable may compile as one translation unit.
namespace LuComplexSuite {

using ExKokkosTest::describe;
using ExKokkosTest::ExactSum;
using ExKokkosTest::rounded;
using ExKokkosTest::same_bits;
using Host = Kokkos::DefaultHostExecutionSpace;
template <class T>
using C = Kokkos::complex<T>;
template <class T>
using Matrix = std::vector<C<T>>;  // row-major m x n

template <class T>
struct Factors {
  Matrix<T> lu;  // row-major
  std::vector<int> piv;
  int info = 0;
};

// ---------------------------------------------------------------------------------------------
// The definition, with the oracle (shares no code with ExKokkos).

template <class T>
bool has_nan(const C<T>& z) {
  return std::isnan(z.real()) || std::isnan(z.imag());
}
template <class T>
bool has_inf(const C<T>& z) {
  return std::isinf(z.real()) || std::isinf(z.imag());
}

// Whether v takes the pivot from best (found earlier in the column): a strictly larger exact
// modulus, a number against a NaN; never a NaN; infinities tie with each other.
template <class T>
bool larger_modulus(const C<T>& v, const C<T>& best) {
  if (has_nan(v)) return false;
  if (has_nan(best)) return true;
  if (has_inf(v) || has_inf(best)) return has_inf(v) && !has_inf(best);
  ExactSum sv, sb;
  sv.add_product(v.real(), v.real());
  sv.add_product(v.imag(), v.imag());
  sb.add_product(best.real(), best.real());
  sb.add_product(best.imag(), best.imag());
  return mpfr_cmp(sv.value(), sb.value()) > 0;
}

// RN(a - sum_k l[k] u[k]): a's parts enter the exact sums as they are (no product), so an entry
// with no term to subtract keeps its bits, the sign of a zero included.
template <class T>
C<T> minus_products(const C<T>& a, const std::vector<std::pair<C<T>, C<T>>>& lu) {
  ExactSum re, im;
  re.add(a.real());
  im.add(a.imag());
  for (const auto& t : lu) {
    const double lr = t.first.real(), li = t.first.imag(), ur = t.second.real(),
                 ui = t.second.imag();
    re.add_product(-lr, ur);
    re.add_product(li, ui);
    im.add_product(-lr, ui);
    im.add_product(-li, ur);
  }
  return C<T>(rounded<T>(re), rounded<T>(im));
}

template <class T>
bool nonzero(const C<T>& z) {
  return z.real() != T(0) || z.imag() != T(0);  // NaN counts as non-zero
}

template <class T>
Factors<T> defined_getf2(Matrix<T> a, int m, int n) {
  Factors<T> f;
  auto at = [&](int i, int j) -> C<T>& { return a[std::size_t(i) * n + j]; };
  auto update = [&](int i, int j, int count) {
    std::vector<std::pair<C<T>, C<T>>> terms;
    for (int k = 0; k < count; ++k) terms.emplace_back(at(i, k), at(k, j));
    at(i, j) = minus_products(at(i, j), terms);
  };
  for (int j = 0; j < n; ++j) {
    const int top = std::min(j, m);
    for (int i = 1; i < top; ++i) update(i, j, i);
    if (j >= m) continue;
    for (int i = j; i < m; ++i) update(i, j, j);
    int p = j;
    for (int i = j + 1; i < m; ++i)
      if (larger_modulus(at(i, j), at(p, j))) p = i;
    f.piv.push_back(p);
    for (int c = 0; c < n; ++c) std::swap(at(j, c), at(p, c));
    if (nonzero(at(j, j))) {
      for (int i = j + 1; i < m; ++i)
        at(i, j) = ExKokkosTest::exact_complex_quotient(at(i, j), at(j, j));
    } else if (f.info == 0) {
      f.info = j + 1;
    }
  }
  f.lu = a;
  return f;
}

// The parts of op(T)(i, j) for T stored in lu (n x n): trans 'N', 'T' or 'C'.
template <class T>
void op_parts(const Matrix<T>& lu, int n, char trans, int i, int j, double& re, double& im) {
  const C<T> v = trans == 'N' ? lu[std::size_t(i) * n + j] : lu[std::size_t(j) * n + i];
  re = v.real();
  im = trans == 'C' ? -double(v.imag()) : double(v.imag());
}

// One substitution: with the upper triangle of lu (upper) or the unit lower one, op by trans.
template <class T>
void defined_substitution(const Matrix<T>& lu, int n, std::vector<C<T>>& b, bool upper, char trans,
                          bool unit) {
  const auto op = [&](std::size_t i, std::size_t j, double& re, double& im) {
    op_parts(lu, n, trans, int(i), int(j), re, im);
  };
  ExKokkosTest::exact_complex_substitution(op, std::size_t(n), b, upper == (trans != 'N'), unit);
}

// trans 'N', 'T' or 'C' ('H' is 'C').
template <class T>
std::vector<C<T>> defined_getrs(char trans, const Matrix<T>& lu, const std::vector<int>& piv, int n,
                                std::vector<C<T>> b) {
  if (trans == 'H') trans = 'C';
  if (trans == 'N') {
    for (int j = 0; j < n; ++j) std::swap(b[j], b[piv[j]]);
    defined_substitution(lu, n, b, false, 'N', true);
    defined_substitution(lu, n, b, true, 'N', false);
  } else {
    defined_substitution(lu, n, b, true, trans, false);
    defined_substitution(lu, n, b, false, trans, true);
    for (int j = n - 1; j >= 0; --j) std::swap(b[j], b[piv[j]]);
  }
  return b;
}

template <class T>
struct Solution {
  std::vector<C<T>> x;
  int steps = 0;
};

// exgesv's definition for one right-hand side, given the defined factors of a.
template <class T>
Solution<T> defined_gesv(const Matrix<T>& a, const Factors<T>& f, int n, const std::vector<C<T>>& b,
                         int most) {
  Solution<T> s;
  if (f.info != 0) {
    s.x = b;
    return s;
  }
  std::vector<std::vector<C<T>>> dense(n, std::vector<C<T>>(n));
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) dense[i][j] = a[std::size_t(i) * n + j];
  s.x = defined_getrs('N', f.lu, f.piv, n, b);
  while (s.steps < most) {
    std::vector<C<T>> r(n);
    for (int i = 0; i < n; ++i)
      r[i] = ExKokkosTest::exact_gemv_entry<T>('N', dense, i, s.x, C<T>(T(-1), T(0)),
                                               C<T>(T(1), T(0)), b[i]);
    const std::vector<C<T>> d = defined_getrs('N', f.lu, f.piv, n, r);
    bool changed = false;
    for (int i = 0; i < n; ++i) {
      const C<T> updated(s.x[i].real() + d[i].real(), s.x[i].imag() + d[i].imag());
      if (!(updated == s.x[i])) changed = true;
      s.x[i] = updated;
    }
    ++s.steps;
    if (!changed) break;
  }
  return s;
}

// ---------------------------------------------------------------------------------------------
// Data.

template <class T>
Matrix<T> random_matrix(int m, int n, ExKokkosTest::Rng& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Matrix<T> a(std::size_t(m) * n);
  for (auto& v : a) v = C<T>(T(u(rng)), T(u(rng)));
  return a;
}

// Parts from one of the real generators (ExKokkosTest::parts_from: for float, exponents brought
// to +-60).
template <class T>
Matrix<T> generated_matrix(const ExKokkosTest::NamedSumGenerator& g, int m, int n,
                           ExKokkosTest::Rng& rng) {
  const std::size_t size = std::size_t(m) * n;
  const auto re = ExKokkosTest::parts_from<T>(g, size, rng),
             im = ExKokkosTest::parts_from<T>(g, size, rng);
  Matrix<T> a(size);
  for (std::size_t e = 0; e < size; ++e) a[e] = C<T>(re[e], im[e]);
  return a;
}

// A square matrix of condition about cond: L U with L unit lower (random parts in [-1, 1)) and U
// upper with diagonal moduli falling from 1 to 1 / cond at random angles, the product in complex
// double arithmetic, rounded to T, rows shuffled so that the pivoting has work to do.
template <class T>
Matrix<T> ill_conditioned(int n, double cond, ExKokkosTest::Rng& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  using Z = C<double>;
  std::vector<Z> l(std::size_t(n) * n, Z(0, 0)), r(std::size_t(n) * n, Z(0, 0));
  for (int i = 0; i < n; ++i) {
    const double d = std::pow(cond, -double(i) / std::max(1, n - 1)), angle = 3.14159 * u(rng);
    l[i * n + i] = Z(1, 0);
    r[i * n + i] = Z(d * std::cos(angle), d * std::sin(angle));
    for (int j = 0; j < i; ++j) l[i * n + j] = Z(u(rng), u(rng));
    for (int j = i + 1; j < n; ++j) r[i * n + j] = Z(u(rng) * d, u(rng) * d);
  }
  Matrix<T> a(std::size_t(n) * n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      Z s(0, 0);
      for (int k = 0; k < n; ++k) s += l[i * n + k] * r[k * n + j];
      a[i * n + j] = C<T>(T(s.real()), T(s.imag()));
    }
  for (int i = n - 1; i > 0; --i) {
    const int k = std::uniform_int_distribution<int>(0, i)(rng);
    for (int j = 0; j < n; ++j) std::swap(a[i * n + j], a[k * n + j]);
  }
  return a;
}

// Well-conditioned: random parts plus a diagonal of modulus about 2 at a random angle.
template <class T>
Matrix<T> well_conditioned(int n, ExKokkosTest::Rng& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Matrix<T> a = random_matrix<T>(n, n, rng);
  for (int i = 0; i < n; ++i) {
    const double angle = 3.14159 * u(rng);
    a[i * n + i] += C<T>(T(2 * std::cos(angle)), T(2 * std::sin(angle)));
  }
  return a;
}

template <class T>
std::vector<C<T>> random_vector(int n, ExKokkosTest::Rng& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<C<T>> b(n);
  for (auto& v : b) v = C<T>(T(u(rng)), T(u(rng)));
  return b;
}

// ---------------------------------------------------------------------------------------------
// Runs and comparisons.

template <class T, class Layout, class Space>
Factors<T> run_getf2(const Space& space, const Matrix<T>& a, int m, int n,
                     const ExKokkos::Options& o = {}) {
  auto h = ExKokkosTest::HostMatrix<C<T>, Layout>::make(m, n);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) h(i, j) = a[std::size_t(i) * n + j];
  const auto A = ExKokkosTest::space_copy<Space>(h);
  Kokkos::View<int*, typename Space::memory_space> ipiv("ipiv", std::min(m, n));
  Kokkos::deep_copy(ipiv, -7);
  Factors<T> f;
  f.info = ExKokkos::exgetf2(space, A, ipiv, o);
  ExKokkosTest::copy_span(h, A);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) f.lu.push_back(h(i, j));
  f.piv = ExKokkosTest::to_host(ipiv);
  return f;
}

template <class T>
void expect_same(const Factors<T>& want, const Factors<T>& got, const std::string& what,
                 int n = 0) {
  EXPECT_EQ(want.info, got.info) << what;
  EXPECT_EQ(want.piv, got.piv) << what;
  ASSERT_EQ(want.lu.size(), got.lu.size()) << what;
  int failures = 0;
  for (std::size_t e = 0; e < want.lu.size(); ++e)
    if (!same_bits(want.lu[e], got.lu[e]) && ++failures <= 5)
      ADD_FAILURE() << what << ": LU(" << (n > 0 ? e / n : e) << ", " << (n > 0 ? e % n : 0)
                    << ") = " << describe(got.lu[e]) << ", expected " << describe(want.lu[e]);
}

template <class T>
void expect_same(const std::vector<C<T>>& want, const std::vector<C<T>>& got,
                 const std::string& what) {
  ASSERT_EQ(want.size(), got.size()) << what;
  int failures = 0;
  for (std::size_t i = 0; i < want.size(); ++i)
    if (!same_bits(want[i], got[i]) && ++failures <= 5)
      ADD_FAILURE() << what << ": x(" << i << ") = " << describe(got[i]) << ", expected "
                    << describe(want[i]);
}

std::string shape_name(int m, int n) {
  return std::to_string(m) + "x" + std::to_string(n);
}

template <class T>
const char* type_name() {
  return sizeof(T) == sizeof(float) ? "complex<float>" : "complex<double>";
}

// ---------------------------------------------------------------------------------------------
// exgetf2 against the definition.

const std::vector<std::pair<int, int>>& getf2_shapes() {
  static const std::vector<std::pair<int, int>> shapes{
      {0, 0},  {1, 1},  {2, 2},  {3, 3},  {5, 5}, {8, 8}, {17, 17}, {33, 33}, {40, 40},
      {7, 12}, {12, 7}, {40, 5}, {5, 40}, {1, 4}, {4, 1}, {0, 3},   {3, 0}};
  return shapes;
}

// Random data, every shape, three layouts on the default host space, LayoutRight on Serial.
template <class T>
void getf2_random(std::uint64_t seed) {
  ExKokkosTest::Rng rng(seed);
  for (const auto& shape : getf2_shapes()) {
    const int m = shape.first, n = shape.second;
    const Matrix<T> a = random_matrix<T>(m, n, rng);
    const Factors<T> want = defined_getf2(a, m, n);
    const std::string what = std::string(type_name<T>()) + " " + shape_name(m, n);
    expect_same(want, run_getf2<T, Kokkos::LayoutLeft>(Host(), a, m, n), what + " Left", n);
    expect_same(want, run_getf2<T, Kokkos::LayoutRight>(Host(), a, m, n), what + " Right", n);
    expect_same(want, run_getf2<T, Kokkos::LayoutStride>(Host(), a, m, n), what + " Stride", n);
    expect_same(want, run_getf2<T, Kokkos::LayoutRight>(Kokkos::Serial(), a, m, n),
                what + " Right Serial", n);
    if constexpr (ExKokkosTest::default_space_is_a_device())
      expect_same(want, run_getf2<T, Kokkos::LayoutLeft>(Kokkos::DefaultExecutionSpace(), a, m, n),
                  what + " default space", n);
  }
}

TEST(LuComplex, Getf2RandomMatchesTheDefinitionDouble) {
  getf2_random<double>(101);
}
TEST(LuComplex, Getf2RandomMatchesTheDefinitionFloat) {
  getf2_random<float>(102);
}

// Every finite generator (cancellation-heavy, wide exponent range, subnormal, ties, signed
// zeros) on square and rectangular shapes, and a few of them at 33 x 33.
template <class T>
void getf2_generators(std::uint64_t seed) {
  ExKokkosTest::Rng rng(seed);
  std::size_t used = 0;
  for (const auto& g : ExKokkosTest::sum_generators()) {
    if (!ExKokkosTest::finite_generator(g)) continue;
    for (const auto& shape : std::vector<std::pair<int, int>>{{8, 8}, {7, 12}, {12, 7}, {33, 33}}) {
      const int m = shape.first, n = shape.second;
      if (m == 33 && used % 3 != 0) continue;
      const Matrix<T> a = generated_matrix<T>(g, m, n, rng);
      const std::string what = std::string(type_name<T>()) + " " + g.name + " " + shape_name(m, n);
      const Factors<T> want = defined_getf2(a, m, n);
      expect_same(want, run_getf2<T, Kokkos::LayoutLeft>(Host(), a, m, n), what, n);
      ExKokkos::Options o;
      o.team_size = std::min(2, ExKokkosTest::widest_team<Host>());
      expect_same(want, run_getf2<T, Kokkos::LayoutRight>(Host(), a, m, n, o),
                  what + " team " + std::to_string(o.team_size), n);
    }
    ++used;
  }
}

TEST(LuComplex, Getf2GeneratorsMatchTheDefinitionDouble) {
  getf2_generators<double>(111);
}
TEST(LuComplex, Getf2GeneratorsMatchTheDefinitionFloat) {
  getf2_generators<float>(112);
}

// The host's schedules (the left-looking lanes, the trailing update where it applies), expansion
// sizes from 2 (the most spills to the long accumulator) to 8, and teams, on data whose sums
// cancel or spread over the exponent range: the definition's bits every time.
template <class T>
void getf2_options(std::uint64_t seed) {
  ExKokkosTest::Rng rng(seed);
  const int widest = ExKokkosTest::widest_team<Host>();
  std::vector<ExKokkos::Options> settings;
  for (const auto schedule :
       {ExKokkos::Schedule::output_lanes, ExKokkos::Schedule::trailing_update})
    for (const int expansion : {2, 8}) {
      ExKokkos::Options o;
      o.schedule = schedule;
      o.expansion_size = expansion;
      settings.push_back(o);
    }
  for (const int expansion : {2, 3, 6}) {
    ExKokkos::Options o;
    o.team_size = std::min(widest, expansion == 3 ? 3 : 2);
    o.expansion_size = expansion;
    o.stage_in_scratch = expansion == 6;
    settings.push_back(o);
  }
  for (const auto& g : ExKokkosTest::sum_generators()) {
    if (!ExKokkosTest::finite_generator(g)) continue;
    const int m = 17, n = 15;
    const Matrix<T> a = generated_matrix<T>(g, m, n, rng);
    const Factors<T> want = defined_getf2(a, m, n);
    for (const auto& o : settings)
      expect_same(want, run_getf2<T, Kokkos::LayoutLeft>(Host(), a, m, n, o),
                  std::string(type_name<T>()) + " " + g.name + " schedule " +
                      std::to_string(int(o.schedule)) + " expansion " +
                      std::to_string(o.expansion_size) + " team " + std::to_string(o.team_size),
                  n);
  }
}

TEST(LuComplex, Getf2EveryScheduleExpansionAndTeamDouble) {
  getf2_options<double>(115);
}
TEST(LuComplex, Getf2EveryScheduleExpansionAndTeamFloat) {
  getf2_options<float>(116);
}

TEST(LuComplex, Getf2IllConditionedMatchesTheDefinition) {
  ExKokkosTest::Rng rng(121);
  for (const double cond : {1e2, 1e10, 1e20, 1e30}) {
    const int n = 24;
    const Matrix<double> a = ill_conditioned<double>(n, cond, rng);
    const Factors<double> want = defined_getf2(a, n, n);
    expect_same(want, run_getf2<double, Kokkos::LayoutLeft>(Host(), a, n, n),
                "complex<double> cond " + describe(cond), n);
    const Matrix<float> af = ill_conditioned<float>(n, std::min(cond, 1e12), rng);
    expect_same(defined_getf2(af, n, n), run_getf2<float, Kokkos::LayoutStride>(Host(), af, n, n),
                "complex<float> cond " + describe(cond), n);
  }
}

// A column made to test the pivot rule at step k: column k of an m x (k + 3) matrix whose first k
// columns are the identity's (no swaps, l_ik = 0 below it: column k reaches step k with its
// values, up to the signs of zeros, which the definition computes the same way), followed by two
// ordinary columns. The values of col lie at rows k + position(q) of `length` >= col.size() rows,
// NaN between them (a NaN never wins, so the rule's choice among col is the choice in the
// column), so that a column longer than a team's share is searched by several threads.
inline int position(int q, int count, int length) {
  return count == 1 ? 0 : q * (length - 1) / (count - 1);
}

template <class T>
Matrix<T> pivot_matrix(const std::vector<C<T>>& col, int k, int length, int& m, int& n) {
  const int count = static_cast<int>(col.size());
  m = k + length;
  n = k + 3;
  Matrix<T> a(std::size_t(m) * n);
  const T nan = std::numeric_limits<T>::quiet_NaN();
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < k; ++j) a[i * n + j] = C<T>(T(i == j ? 1 : 0), T(0));
    a[i * n + k] = i < k ? C<T>(T(0.5), T(-0.25)) : C<T>(nan, T(i % 2 ? 1 : -1));
    a[i * n + k + 1] = C<T>(T(1 + i), T(0.5));
    a[i * n + k + 2] = C<T>(T(i % 2 ? -0.5 : 2.0), T(i % 3));
  }
  for (int q = 0; q < count; ++q) a[(k + position(q, count, length)) * n + k] = col[q];
  return a;
}

template <class T>
struct PivotCase {
  std::string name;
  std::vector<C<T>> col;
  int expected;  // index in col
};

template <class T>
std::vector<PivotCase<T>> pivot_cases() {
  const T nan = std::numeric_limits<T>::quiet_NaN(), inf = std::numeric_limits<T>::infinity();
  // A modulus that rounds to 1 in T but exceeds it exactly: 1 + eps^2 / 2 under the root.
  const T small = sizeof(T) == sizeof(float) ? T(std::ldexp(1.0, -13)) : T(std::ldexp(1.0, -27));
  // Squares that underflow (or overflow) in T but differ exactly.
  const T tiny = sizeof(T) == sizeof(float) ? T(std::ldexp(1.0, -80)) : T(std::ldexp(1.0, -600));
  const T tinier =
      sizeof(T) == sizeof(float) ? T(std::ldexp(1.0, -120)) : T(std::ldexp(1.0, -1000));
  const T huge = sizeof(T) == sizeof(float) ? T(std::ldexp(1.0, 80)) : T(std::ldexp(1.0, 600));
  const T less_huge = sizeof(T) == sizeof(float) ? T(std::ldexp(1.0, 50)) : T(std::ldexp(1.0, 400));
  using Z = C<T>;
  return {
      {"equal moduli 5: the first", {Z(3, 4), Z(4, 3), Z(-5, 0), Z(0, 5)}, 0},
      {"equal moduli 5 after a smaller", {Z(1, 0), Z(4, -3), Z(3, 4), Z(-5, 0), Z(0, -5)}, 1},
      {"purely imaginary beats real", {Z(2, 0), Z(0, -3), Z(-3, 0), Z(0, 1)}, 1},
      {"purely real column", {Z(-1, 0), Z(2, 0), Z(-2, 0), Z(0.5, 0)}, 1},
      {"modulus rounding to 1 but larger", {Z(1, 0), Z(0, -1), Z(-1, small), Z(1, -small)}, 2},
      {"modulus rounding to 1, imaginary", {Z(0, 1), Z(small, 1), Z(-small, -1)}, 1},
      {"exactly equal moduli with small parts", {Z(1, small), Z(-small, 1), Z(1, -small)}, 0},
      {"squares underflow", {Z(tiny, 0), Z(0, tiny), Z(tiny, tinier), Z(-tinier, tiny)}, 2},
      {"squares overflow", {Z(huge, 0), Z(0, -huge), Z(-huge, less_huge), Z(less_huge, huge)}, 2},
      {"infinities tie: the first", {Z(2, 0), Z(0, -inf), Z(inf, 1), Z(-inf, -inf)}, 1},
      {"NaN never wins", {Z(nan, 0), Z(0, -0.0), Z(1, 0), Z(0, nan)}, 2},
      {"NaN beside an infinity is NaN", {Z(inf, nan), Z(0, 1), Z(nan, -inf), Z(0, -1)}, 1},
      {"a zero after a NaN", {Z(0, nan), Z(-0.0, 0), Z(0, -0.0), Z(nan, nan)}, 1},
      {"all NaN: the diagonal", {Z(nan, nan), Z(nan, 0), Z(1, nan)}, 0},
      {"all zero: the diagonal, info", {Z(-0.0, 0), Z(0, -0.0), Z(-0.0, -0.0), Z(0, 0)}, 0},
  };
}

template <class T>
void pivot_rule() {
  int cases = 0;
  struct Placement {
    int k, length;  // 0: the column's own length
  };
  for (const auto& c : pivot_cases<T>())
    for (const Placement at : {Placement{0, 0}, Placement{3, 0}, Placement{2, 40}}) {
      const int count = static_cast<int>(c.col.size()), length = std::max(at.length, count);
      const int k = at.k;
      int m, n;
      const Matrix<T> a = pivot_matrix(c.col, k, length, m, n);
      const Factors<T> want = defined_getf2(a, m, n);
      const std::string what = std::string(type_name<T>()) + " " + c.name + " at step " +
                               std::to_string(k) + " over " + std::to_string(length) + " rows";
      ASSERT_EQ(want.piv[k], k + position(c.expected, count, length))
          << what << ": the oracle's rule";
      for (const int team : {1, 2, 3}) {
        if (team > ExKokkosTest::widest_team<Host>()) continue;
        for (const int staged : {0, 1}) {
          ExKokkos::Options o;
          o.team_size = team;
          o.stage_in_scratch = staged;
          expect_same(want, run_getf2<T, Kokkos::LayoutRight>(Host(), a, m, n, o),
                      what + " team " + std::to_string(team) + (staged ? " in scratch" : ""), n);
        }
      }
      expect_same(want, run_getf2<T, Kokkos::LayoutLeft>(Kokkos::Serial(), a, m, n),
                  what + " Serial", n);
      ++cases;
    }
  EXPECT_GT(cases, 0);
}

TEST(LuComplex, PivotRuleDouble) {
  pivot_rule<double>();
}
TEST(LuComplex, PivotRuleFloat) {
  pivot_rule<float>();
}

// Singular matrices: a zero column, a zero pivot mid-way (column 1 exactly (1 + 2i) times column
// 0, with quotients exact, so step 1 finds only zeros), a column zero from step 3 on, two zero
// columns, a 1 x 1 zero; info is the first zero pivot and the factorization continues as defined.
template <class T>
void singular() {
  ExKokkosTest::Rng rng(sizeof(T) == 4 ? 131 : 132);
  using Z = C<T>;
  const int n = 6;
  std::vector<std::pair<std::string, Matrix<T>>> cases;
  {
    Matrix<T> a = random_matrix<T>(n, n, rng);
    for (int i = 0; i < n; ++i) a[i * n + 2] = Z(T(i % 2 ? -0.0 : 0.0), T(0));
    cases.emplace_back("zero column 2", a);
  }
  {
    Matrix<T> a = random_matrix<T>(n, n, rng);
    const std::vector<Z> c0{Z(1, 0), Z(-2, 0), Z(0, 3), Z(4, 0), Z(2, 2), Z(-1, 1)};
    for (int i = 0; i < n; ++i) {
      a[i * n + 0] = c0[i];
      a[i * n + 1] = c0[i] * Z(1, 2);
    }
    cases.emplace_back("zero pivot at step 1", a);
  }
  {
    // Rows 3.. of columns 0..3 zero and the top-left 3 x 3 triangular: step 3 sees zeros.
    Matrix<T> a = random_matrix<T>(n, n, rng);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < 4; ++j)
        if (i >= 3 || j < i) a[i * n + j] = Z(0, 0);
    for (int i = 0; i < 3; ++i) a[i * n + i] = Z(T(2 + i), T(-1));
    cases.emplace_back("zero pivot at step 3", a);
  }
  {
    // Two zero columns: info is the first.
    Matrix<T> a = random_matrix<T>(n, n, rng);
    for (int i = 0; i < n; ++i) a[i * n + 1] = a[i * n + 4] = Z(0, 0);
    cases.emplace_back("zero columns 1 and 4", a);
  }
  for (const auto& c : cases) {
    const Factors<T> want = defined_getf2(c.second, n, n);
    EXPECT_GT(want.info, 0) << c.first;
    const std::string what = std::string(type_name<T>()) + " " + c.first;
    expect_same(want, run_getf2<T, Kokkos::LayoutLeft>(Host(), c.second, n, n), what, n);
    expect_same(want, run_getf2<T, Kokkos::LayoutStride>(Kokkos::Serial(), c.second, n, n),
                what + " Serial", n);
  }
  EXPECT_EQ(defined_getf2(cases[0].second, n, n).info, 3);
  EXPECT_EQ(defined_getf2(cases[1].second, n, n).info, 2);
  EXPECT_EQ(defined_getf2(cases[2].second, n, n).info, 4);
  EXPECT_EQ(defined_getf2(cases[3].second, n, n).info, 2);
  const Matrix<T> zero{Z(T(-0.0), T(0))};
  const Factors<T> z = run_getf2<T, Kokkos::LayoutLeft>(Host(), zero, 1, 1);
  EXPECT_EQ(z.info, 1);
  expect_same(defined_getf2(zero, 1, 1), z, "1 x 1 zero");
}

TEST(LuComplex, SingularMatricesReportInfoAndContinue) {
  singular<double>();
  singular<float>();
}

// NaN and Inf entries: the oracle where it is defined (IEEE rules in every exact sum and
// quotient); a NaN never takes the pivot from a number, and it spreads.
template <class T>
void special_values() {
  ExKokkosTest::Rng rng(141);
  const T nan = std::numeric_limits<T>::quiet_NaN(), inf = std::numeric_limits<T>::infinity();
  const int n = 7;
  for (const auto& special :
       {C<T>(nan, T(0)), C<T>(T(0), nan), C<T>(inf, T(1)), C<T>(T(-1), -inf), C<T>(inf, nan)}) {
    for (const int where : {0, 2 * n + 3, n * n - 1}) {
      Matrix<T> a = random_matrix<T>(n, n, rng);
      a[where] = special;
      const Factors<T> want = defined_getf2(a, n, n);
      const Factors<T> got = run_getf2<T, Kokkos::LayoutLeft>(Host(), a, n, n);
      const std::string what = std::string(type_name<T>()) + " " + describe(special) +
                               " at entry " + std::to_string(where);
      expect_same(want, got, what, n);
      if (has_nan(special)) {
        if (where == 0) EXPECT_NE(got.piv[0], 0) << what << ": a NaN took the pivot";
        bool spread = false;
        for (const auto& v : got.lu) spread = spread || has_nan(v);
        EXPECT_TRUE(spread) << what << ": the NaN vanished";
      }
    }
  }
}

TEST(LuComplex, NaNAndInfFollowTheDefinition) {
  special_values<double>();
  special_values<float>();
}

// Purely real and purely imaginary matrices, and columns of either kind mixed: the definition's
// bits; and beside the real exgetf2 of the real matrix R: A = R gives R's factors as real parts,
// A = i R gives L real and U = i U_R (the exact quotients (i a) / (i b) = a / b, the products
// real times imaginary), compared as values, since the complex sums carry the zero products of
// the other part, which may change the sign of an exactly zero entry.
template <class T>
void real_and_imaginary() {
  ExKokkosTest::Rng rng(sizeof(T) == 4 ? 145 : 146);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const int m = 13, n = 9;
  std::vector<T> r(std::size_t(m) * n);
  for (auto& v : r) v = T(u(rng));
  Matrix<T> real(r.size()), imaginary(r.size()), mixed(r.size());
  for (std::size_t e = 0; e < r.size(); ++e) {
    real[e] = C<T>(r[e], T(0));
    imaginary[e] = C<T>(T(0), r[e]);
    mixed[e] =
        (e % n) % 3 == 0 ? real[e] : ((e % n) % 3 == 1 ? imaginary[e] : C<T>(r[e], T(u(rng))));
  }
  const Kokkos::View<T**, Kokkos::LayoutRight, Kokkos::HostSpace> R("R", m, n);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) R(i, j) = r[std::size_t(i) * n + j];
  const Kokkos::View<int*, Kokkos::HostSpace> rp("rp", n);
  const int real_info = ExKokkos::exgetf2(Host(), R, rp);
  const std::string type = type_name<T>();
  for (const auto& c :
       {std::make_pair("purely real", &real), std::make_pair("purely imaginary", &imaginary),
        std::make_pair("real, imaginary and complex columns", &mixed)}) {
    const Factors<T> want = defined_getf2(*c.second, m, n);
    const Factors<T> got = run_getf2<T, Kokkos::LayoutLeft>(Host(), *c.second, m, n);
    expect_same(want, got, type + " " + c.first, n);
    if (c.second == &mixed) continue;
    EXPECT_EQ(got.info, real_info) << c.first;
    EXPECT_EQ(got.piv, ExKokkosTest::to_host(rp)) << c.first;
    int failures = 0;
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) {
        const C<T> v = got.lu[std::size_t(i) * n + j];
        const bool rotated = c.second == &imaginary && i <= j;  // U of i R
        const T part = rotated ? v.imag() : v.real(), other = rotated ? v.real() : v.imag();
        if (!(part == R(i, j) && other == T(0)) && ++failures <= 5)
          ADD_FAILURE() << type << " " << c.first << ": LU(" << i << ", " << j
                        << ") = " << describe(v) << ", the real exgetf2's " << describe(R(i, j));
      }
  }
}

TEST(LuComplex, RealAndImaginaryMatrices) {
  real_and_imaginary<double>();
  real_and_imaginary<float>();
}

// ---------------------------------------------------------------------------------------------
// Batched exgetf2 equals exgetf2.

template <class T, class Space>
void batched_getf2(const Space& space, int m, int n, ExKokkosTest::Rng& rng) {
  const int batch = 7;
  std::vector<Matrix<T>> mats;
  for (int b = 0; b < batch; ++b) {
    mats.push_back(random_matrix<T>(m, n, rng));
    if (b == 3)
      for (int i = 0; i < m; ++i) mats.back()[i * n + std::min(1, n - 1)] = C<T>(0, 0);
    if (b == 5) mats.back()[0] = C<T>(std::numeric_limits<T>::quiet_NaN(), T(1));
  }
  std::vector<Factors<T>> single;
  for (const auto& a : mats) single.push_back(run_getf2<T, Kokkos::LayoutLeft>(Host(), a, m, n));
  using Mem = typename Space::memory_space;
  Kokkos::View<C<T>***, Kokkos::LayoutRight, Mem> A("A", batch, m, n);
  Kokkos::View<int**, Mem> ipiv("ipiv", batch, std::min(m, n));
  Kokkos::View<int*, Mem> info("info", batch);
  auto hA = Kokkos::create_mirror(A);
  for (const int team : {0, 1, 2, 3}) {  // 0: the default, one thread a system without refinement
    if (team > ExKokkosTest::widest_team<Space>()) continue;
    for (const int staged : {0, 1}) {
      for (int b = 0; b < batch; ++b)
        for (int i = 0; i < m; ++i)
          for (int j = 0; j < n; ++j) hA(b, i, j) = mats[b][std::size_t(i) * n + j];
      Kokkos::deep_copy(A, hA);
      Kokkos::deep_copy(ipiv, -7);
      Kokkos::deep_copy(info, -9);
      ExKokkos::Options o;
      o.team_size = team;
      o.stage_in_scratch = staged;
      ExKokkos::exgetf2_batched(space, A, ipiv, info, o);
      const auto rA = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), A);
      const auto rp = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), ipiv);
      const auto ri = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), info);
      for (int b = 0; b < batch; ++b) {
        Factors<T> f;
        f.info = ri(b);
        for (int i = 0; i < m; ++i)
          for (int j = 0; j < n; ++j) f.lu.push_back(rA(b, i, j));
        for (int j = 0; j < std::min(m, n); ++j) f.piv.push_back(rp(b, j));
        expect_same(single[b], f,
                    std::string(type_name<T>()) + " " + Space::name() + " " + shape_name(m, n) +
                        " matrix " + std::to_string(b) + " team " + std::to_string(team) +
                        (staged ? " in scratch" : " in place"),
                    n);
      }
      EXPECT_GT(ri(3), 0);
    }
  }
}

TEST(LuComplex, BatchedGetf2EqualsUnbatched) {
  ExKokkosTest::Rng rng(151);
  for (const auto& shape : std::vector<std::pair<int, int>>{{12, 12}, {10, 6}, {6, 10}}) {
    batched_getf2<double>(Host(), shape.first, shape.second, rng);
    batched_getf2<float>(Host(), shape.first, shape.second, rng);
    batched_getf2<double>(Kokkos::Serial(), shape.first, shape.second, rng);
    batched_getf2<float>(Kokkos::Serial(), shape.first, shape.second, rng);
  }
}

// ---------------------------------------------------------------------------------------------
// exgetrs, exgesv and their batched forms.

// exgetrs of the factors f (LU in Layout) with B rank 1 (strided, one call per right-hand side)
// or rank 2 (n x nrhs in Layout).
template <class T, class Layout, class Space>
std::vector<std::vector<C<T>>> run_getrs(const Space& space, const char* trans, const Factors<T>& f,
                                         int n, const std::vector<std::vector<C<T>>>& rhs,
                                         bool rank1, const ExKokkos::Options& o = {}) {
  auto hLU = ExKokkosTest::HostMatrix<C<T>, Layout>::make(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) hLU(i, j) = f.lu[std::size_t(i) * n + j];
  const auto LU = ExKokkosTest::space_copy<Space>(hLU);
  const auto ipiv = ExKokkosTest::to_view<Space>(f.piv);
  std::vector<std::vector<C<T>>> out;
  if (rank1) {
    for (const auto& b : rhs) {
      const auto x =
          ExKokkosTest::space_copy<Space>(ExKokkosTest::vector_of<Kokkos::LayoutStride>(b));
      ExKokkos::exgetrs(space, trans, LU, ipiv, x, o);
      out.push_back(ExKokkosTest::to_host(x));
    }
  } else {
    auto hB = ExKokkosTest::HostMatrix<C<T>, Layout>::make(n, rhs.size());
    for (std::size_t c = 0; c < rhs.size(); ++c)
      for (int i = 0; i < n; ++i) hB(i, c) = rhs[c][i];
    const auto B = ExKokkosTest::space_copy<Space>(hB);
    ExKokkos::exgetrs(space, trans, LU, ipiv, B, o);
    ExKokkosTest::copy_span(hB, B);
    for (std::size_t c = 0; c < rhs.size(); ++c) {
      std::vector<C<T>> x(n);
      for (int i = 0; i < n; ++i) x[i] = hB(i, c);
      out.push_back(x);
    }
  }
  return out;
}

template <class T>
std::vector<C<T>> rhs_from(const ExKokkosTest::NamedSumGenerator& g, int n,
                           ExKokkosTest::Rng& rng) {
  return generated_matrix<T>(g, n, 1, rng);
}

template <class T>
void getrs_against_the_oracle(std::uint64_t seed) {
  ExKokkosTest::Rng rng(seed);
  const auto generators = ExKokkosTest::sum_generators();
  for (const int n : {0, 1, 2, 5, 17, 33}) {
    const Matrix<T> a = n == 17 ? ill_conditioned<T>(n, 1e6, rng) : well_conditioned<T>(n, rng);
    const Factors<T> f = defined_getf2(a, n, n);
    std::vector<std::vector<C<T>>> rhs;
    for (const auto& g : generators)
      if (ExKokkosTest::finite_generator(g) && (n < 33 || rhs.size() < 3))
        rhs.push_back(rhs_from<T>(g, n, rng));
    rhs.push_back(random_vector<T>(n, rng));
    if (n >= 2) {  // NaN and Inf spread as the exact sums' and quotients' IEEE rules say
      std::vector<C<T>> special = random_vector<T>(n, rng);
      special[0] = C<T>(T(0.5), std::numeric_limits<T>::quiet_NaN());
      special[n - 1] = C<T>(-std::numeric_limits<T>::infinity(), T(1));
      rhs.push_back(special);
    }
    for (const char* trans : {"N", "T", "C", "H"}) {
      std::vector<std::vector<C<T>>> want;
      for (const auto& b : rhs) want.push_back(defined_getrs(trans[0], f.lu, f.piv, n, b));
      const std::string what =
          std::string(type_name<T>()) + " n = " + std::to_string(n) + " trans " + trans;
      const auto compare = [&](const std::vector<std::vector<C<T>>>& got, const std::string& how) {
        ASSERT_EQ(got.size(), want.size());
        for (std::size_t c = 0; c < want.size(); ++c)
          expect_same(want[c], got[c], what + " " + how + " right-hand side " + std::to_string(c));
      };
      compare(run_getrs<T, Kokkos::LayoutLeft>(Host(), trans, f, n, rhs, true), "rank 1");
      compare(run_getrs<T, Kokkos::LayoutLeft>(Host(), trans, f, n, rhs, false),
              "rank 2 LayoutLeft");
      compare(run_getrs<T, Kokkos::LayoutRight>(Kokkos::Serial(), trans, f, n, rhs, false),
              "rank 2 LayoutRight Serial");
      compare(run_getrs<T, Kokkos::LayoutStride>(Host(), trans, f, n, rhs, false),
              "rank 2 LayoutStride");
      // extrsv's options reach the substitutions: blocks, teams, expansion sizes.
      ExKokkos::Options o;
      o.schedule = ExKokkos::Schedule::output_block;
      o.block_size = 4;
      o.team_size = std::min(2, ExKokkosTest::widest_team<Host>());
      o.expansion_size = 2;
      compare(run_getrs<T, Kokkos::LayoutLeft>(Host(), trans, f, n, rhs, false, o),
              "rank 2, block 4, expansion 2");
    }
  }
}

TEST(LuComplex, GetrsMatchesTheDefinitionDouble) {
  getrs_against_the_oracle<double>(161);
}
TEST(LuComplex, GetrsMatchesTheDefinitionFloat) {
  getrs_against_the_oracle<float>(162);
}

// exgesv with B n x nrhs (or one column as rank 1): the solutions, info and the steps (the most
// over the columns).
template <class T, class Space>
std::vector<std::vector<C<T>>> run_gesv(const Space& space, const Matrix<T>& a, int n,
                                        const std::vector<std::vector<C<T>>>& rhs, bool rank1,
                                        const ExKokkos::Options& o, ExKokkos::GesvResult& result,
                                        Factors<T>* factors = nullptr) {
  auto hA = ExKokkosTest::HostMatrix<C<T>, Kokkos::LayoutLeft>::make(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) hA(i, j) = a[std::size_t(i) * n + j];
  const auto A = ExKokkosTest::space_copy<Space>(hA);
  Kokkos::View<int*, typename Space::memory_space> ipiv("ipiv", n);
  std::vector<std::vector<C<T>>> out;
  if (rank1) {
    const auto x =
        ExKokkosTest::space_copy<Space>(ExKokkosTest::vector_of<Kokkos::LayoutStride>(rhs[0]));
    result = ExKokkos::exgesv(space, A, ipiv, x, o);
    out.push_back(ExKokkosTest::to_host(x));
  } else {
    auto hB = ExKokkosTest::HostMatrix<C<T>, Kokkos::LayoutRight>::make(n, rhs.size());
    for (std::size_t c = 0; c < rhs.size(); ++c)
      for (int i = 0; i < n; ++i) hB(i, c) = rhs[c][i];
    const auto B = ExKokkosTest::space_copy<Space>(hB);
    result = ExKokkos::exgesv(space, A, ipiv, B, o);
    ExKokkosTest::copy_span(hB, B);
    for (std::size_t c = 0; c < rhs.size(); ++c) {
      std::vector<C<T>> x(n);
      for (int i = 0; i < n; ++i) x[i] = hB(i, c);
      out.push_back(x);
    }
  }
  if (factors != nullptr) {
    ExKokkosTest::copy_span(hA, A);
    factors->lu.clear();
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) factors->lu.push_back(hA(i, j));
    factors->piv = ExKokkosTest::to_host(ipiv);
    factors->info = result.info;
  }
  return out;
}

template <class T>
void gesv_against_the_oracle(std::uint64_t seed) {
  ExKokkosTest::Rng rng(seed);
  int refined = 0;  // systems whose refinement changed x (more than one step)
  for (const int n : {1, 4, 17, 30}) {
    for (const double cond : {0.0, sizeof(T) == 4 ? 1e4 : 1e9}) {
      const Matrix<T> a =
          cond == 0.0 ? well_conditioned<T>(n, rng) : ill_conditioned<T>(n, cond, rng);
      const Factors<T> f = defined_getf2(a, n, n);
      std::vector<std::vector<C<T>>> rhs;
      for (int c = 0; c < 3; ++c) rhs.push_back(random_vector<T>(n, rng));
      for (const int most : {0, 3}) {
        std::vector<Solution<T>> want;
        int want_steps = 0;
        for (const auto& b : rhs) {
          want.push_back(defined_gesv(a, f, n, b, most));
          want_steps = std::max(want_steps, want.back().steps);
        }
        if (want_steps > 1) ++refined;
        ExKokkos::Options o;
        o.refinement_steps = most;
        const std::string what = std::string(type_name<T>()) + " n = " + std::to_string(n) +
                                 " cond " + describe(cond) + " refinement " + std::to_string(most);
        for (const bool rank1 : {true, false}) {
          for (const bool serial : {false, true}) {
            ExKokkos::GesvResult r;
            Factors<T> got_f;
            const auto got = serial ? run_gesv<T>(Kokkos::Serial(), a, n, rhs, rank1, o, r, &got_f)
                                    : run_gesv<T>(Host(), a, n, rhs, rank1, o, r, &got_f);
            const std::string how =
                what + (rank1 ? " rank 1" : " rank 2") + (serial ? " Serial" : "");
            EXPECT_EQ(r.info, 0) << how;
            expect_same(f, got_f, how + " factors", n);
            const int steps = rank1 ? want[0].steps : want_steps;
            EXPECT_EQ(r.refinement_steps, steps) << how;
            for (std::size_t c = 0; c < got.size(); ++c)
              expect_same(want[c].x, got[c], how + " column " + std::to_string(c));
          }
        }
      }
    }
  }
  EXPECT_GT(refined, 0) << "no refinement step changed x: the systems test nothing";
}

TEST(LuComplex, GesvMatchesTheDefinitionDouble) {
  gesv_against_the_oracle<double>(171);
}
TEST(LuComplex, GesvMatchesTheDefinitionFloat) {
  gesv_against_the_oracle<float>(172);
}

// A singular system: info > 0, B untouched (rank 1 and rank 2), with and without refinement.
template <class T>
void singular_gesv() {
  ExKokkosTest::Rng rng(181);
  const int n = 5;
  Matrix<T> a = random_matrix<T>(n, n, rng);
  for (int i = 0; i < n; ++i) a[i * n + 3] = C<T>(0, 0);
  const Factors<T> f = defined_getf2(a, n, n);
  ASSERT_EQ(f.info, 4);
  std::vector<std::vector<C<T>>> rhs{random_vector<T>(n, rng), random_vector<T>(n, rng)};
  for (const int most : {0, 3})
    for (const bool rank1 : {true, false}) {
      ExKokkos::Options o;
      o.refinement_steps = most;
      ExKokkos::GesvResult r;
      Factors<T> got_f;
      const auto got = run_gesv<T>(Host(), a, n, rhs, rank1, o, r, &got_f);
      const std::string what = std::string(type_name<T>()) + " singular, refinement " +
                               std::to_string(most) + (rank1 ? " rank 1" : " rank 2");
      EXPECT_EQ(r.info, 4) << what;
      EXPECT_EQ(r.refinement_steps, 0) << what;
      expect_same(f, got_f, what + " factors", n);
      for (std::size_t c = 0; c < got.size(); ++c)
        expect_same(rhs[c], got[c], what + " B unchanged, column " + std::to_string(c));
    }
}

TEST(LuComplex, SingularGesvLeavesBUnchanged) {
  singular_gesv<double>();
  singular_gesv<float>();
}

// exgetrs_batched and exgesv_batched against exgetrs and exgesv system by system, with team
// sizes 1 to 3, on the default host space and Serial; one singular system in the batch.
template <class T, class Space>
void batched_solves(const Space& space, ExKokkosTest::Rng& rng) {
  using Mem = typename Space::memory_space;
  const int batch = 6, n = 9;
  std::vector<Matrix<T>> mats;
  std::vector<std::vector<C<T>>> rhs;
  for (int b = 0; b < batch; ++b) {
    mats.push_back(b == 4 ? ill_conditioned<T>(n, sizeof(T) == 4 ? 1e4 : 1e9, rng)
                          : well_conditioned<T>(n, rng));
    rhs.push_back(random_vector<T>(n, rng));
  }
  for (int i = 0; i < n; ++i) mats[2][i * n + 5] = C<T>(0, 0);  // singular: info 6
  Kokkos::View<C<T>***, Kokkos::LayoutRight, Mem> A("A", batch, n, n);
  Kokkos::View<C<T>**, Kokkos::LayoutRight, Mem> B("B", batch, n);
  Kokkos::View<int**, Mem> ipiv("ipiv", batch, n);
  Kokkos::View<int*, Mem> info("info", batch), steps("steps", batch), none("none", 0);
  auto hA = Kokkos::create_mirror(A);
  auto hB = Kokkos::create_mirror(B);
  const auto load = [&]() {
    for (int b = 0; b < batch; ++b)
      for (int i = 0; i < n; ++i) {
        hB(b, i) = rhs[b][i];
        for (int j = 0; j < n; ++j) hA(b, i, j) = mats[b][std::size_t(i) * n + j];
      }
    Kokkos::deep_copy(A, hA);
    Kokkos::deep_copy(B, hB);
    Kokkos::deep_copy(info, -9);
    Kokkos::deep_copy(steps, -9);
  };
  const std::string where = std::string(type_name<T>()) + " " + Space::name();
  for (const int team : {0, 1, 2, 3}) {  // 0: the default, one thread a system without refinement
    if (team > ExKokkosTest::widest_team<Space>()) continue;
    for (const int most : {0, 3}) {
      ExKokkos::Options o;
      o.team_size = team;
      o.refinement_steps = most;
      for (const bool with_steps : {true, false}) {
        if (most > 0 && !with_steps) continue;
        load();
        ExKokkos::exgesv_batched(space, A, ipiv, B, info, with_steps ? steps : none, o);
        const auto rB = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), B);
        const auto ri = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), info);
        const auto rs = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), steps);
        for (int b = 0; b < batch; ++b) {
          ExKokkos::GesvResult r;
          ExKokkos::Options single;
          single.refinement_steps = most;
          const auto x = run_gesv<T>(Host(), mats[b], n, {rhs[b]}, true, single, r)[0];
          const std::string what = where + " exgesv_batched system " + std::to_string(b) +
                                   " team " + std::to_string(team) + " refinement " +
                                   std::to_string(most);
          EXPECT_EQ(ri(b), r.info) << what;
          // The steps of an unsolved system are not defined (exgesv stops before solving).
          if (with_steps && r.info == 0) EXPECT_EQ(rs(b), r.refinement_steps) << what;
          std::vector<C<T>> got(n);
          for (int i = 0; i < n; ++i) got[i] = rB(b, i);
          expect_same(x, got, what);
          if (r.info != 0) expect_same(rhs[b], got, what + " B unchanged");
        }
        EXPECT_EQ(ri(2), 6) << where;
      }
    }
    // exgetrs_batched on the factors exgesv_batched left (the singular system's too: its
    // factors are complete).
    for (const char* trans : {"N", "T", "C", "H"}) {
      load();
      ExKokkos::Options o;
      o.team_size = team;
      ExKokkos::exgetf2_batched(space, A, ipiv, info, o);
      const auto fA = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), A);
      const auto fp = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), ipiv);
      ExKokkos::exgetrs_batched(space, trans, A, ipiv, B, o);
      const auto rB = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), B);
      for (int b = 0; b < batch; ++b) {
        Factors<T> f;
        for (int i = 0; i < n; ++i)
          for (int j = 0; j < n; ++j) f.lu.push_back(fA(b, i, j));
        for (int j = 0; j < n; ++j) f.piv.push_back(fp(b, j));
        const auto x = run_getrs<T, Kokkos::LayoutLeft>(Host(), trans, f, n, {rhs[b]}, true)[0];
        std::vector<C<T>> got(n);
        for (int i = 0; i < n; ++i) got[i] = rB(b, i);
        expect_same(x, got,
                    where + " exgetrs_batched " + trans + " system " + std::to_string(b) +
                        " team " + std::to_string(team));
        if (b != 2)  // and the definition, on the defined factors
          expect_same(defined_getrs(trans[0], defined_getf2(mats[b], n, n).lu,
                                    defined_getf2(mats[b], n, n).piv, n, rhs[b]),
                      got, where + " exgetrs_batched " + trans + " vs the definition");
      }
    }
  }
}

TEST(LuComplex, BatchedSolvesEqualUnbatched) {
  ExKokkosTest::Rng rng(191);
  batched_solves<double>(Host(), rng);
  batched_solves<float>(Host(), rng);
  batched_solves<double>(Kokkos::Serial(), rng);
  batched_solves<float>(Kokkos::Serial(), rng);
}

// ---------------------------------------------------------------------------------------------
// TeamGetf2, SerialGetf2, TeamGetrs and SerialGetrs in the suite's own kernels.

// One system per team: factor in place (or in a scratch copy), then solve op(A) x = b with b
// rank 1 (column 0 of X) and rank 2 (all of X) with trans.
template <class Space, class T, class Layout>
struct TeamLu {
  using Member = typename Kokkos::TeamPolicy<Space>::member_type;
  using Mem = typename Space::memory_space;
  Kokkos::View<C<T>***, Layout, Mem> A;
  Kokkos::View<int**, Mem> ipiv;
  Kokkos::View<C<T>***, Kokkos::LayoutLeft, Mem> X;  // batch x n x nrhs
  Kokkos::View<int**, Mem> info;                     // batch x 3: getf2, getrs rank 1, rank 2
  char trans[2];
  bool staged;
  KOKKOS_INLINE_FUNCTION void operator()(const Member& member) const {
    const int s = member.league_rank();
    const auto a = Kokkos::subview(A, s, Kokkos::ALL(), Kokkos::ALL());
    const auto p = Kokkos::subview(ipiv, s, Kokkos::ALL());
    const auto x = Kokkos::subview(X, s, Kokkos::ALL(), Kokkos::ALL());
    int r;
    if (staged) {
      const int m = static_cast<int>(a.extent(0)), n = static_cast<int>(a.extent(1));
      const auto lu = ExKokkos::team_lu_scratch_matrix<C<T>>(member, m, n);
      ExKokkos::team_lu_copy(member, a, lu);
      r = ExKokkos::TeamGetf2<Member>::invoke(member, lu, p);
      ExKokkos::team_lu_copy(member, lu, a);
    } else {
      r = ExKokkos::TeamGetf2<Member>::invoke(member, a, p);
    }
    const int r1 = ExKokkos::TeamGetrs<Member>::invoke(member, trans, a, p,
                                                       Kokkos::subview(x, Kokkos::ALL(), 0));
    const auto rest = Kokkos::subview(x, Kokkos::ALL(), Kokkos::make_pair(1, int(x.extent(1))));
    const int r2 = ExKokkos::TeamGetrs<Member>::invoke(member, trans, a, p, rest);
    if (member.team_rank() == 0) {
      info(s, 0) = r;
      info(s, 1) = r1;
      info(s, 2) = r2;
    }
  }
};

template <class Space, class T, class Layout>
struct SerialLu {
  using Mem = typename Space::memory_space;
  Kokkos::View<C<T>***, Layout, Mem> A;
  Kokkos::View<int**, Mem> ipiv;
  Kokkos::View<C<T>***, Kokkos::LayoutLeft, Mem> X;
  Kokkos::View<int**, Mem> info;
  char trans[2];
  KOKKOS_INLINE_FUNCTION void operator()(const int s) const {
    const auto a = Kokkos::subview(A, s, Kokkos::ALL(), Kokkos::ALL());
    const auto p = Kokkos::subview(ipiv, s, Kokkos::ALL());
    const auto x = Kokkos::subview(X, s, Kokkos::ALL(), Kokkos::ALL());
    info(s, 0) = ExKokkos::SerialGetf2::invoke(a, p);
    info(s, 1) = ExKokkos::SerialGetrs::invoke(trans, a, p, Kokkos::subview(x, Kokkos::ALL(), 0));
    info(s, 2) = ExKokkos::SerialGetrs::invoke(
        trans, a, p, Kokkos::subview(x, Kokkos::ALL(), Kokkos::make_pair(1, int(x.extent(1)))));
  }
};

template <class T, class Layout>
void team_forms(std::uint64_t seed) {
  using Space = Host;
  using Mem = Space::memory_space;
  ExKokkosTest::Rng rng(seed);
  const int batch = 5, n = 11, nrhs = 3;
  std::vector<Matrix<T>> mats;
  for (int b = 0; b < batch; ++b)
    mats.push_back(b == 1 ? ill_conditioned<T>(n, sizeof(T) == 4 ? 1e5 : 1e12, rng)
                          : well_conditioned<T>(n, rng));
  for (int i = 0; i < n; ++i) mats[3][i * n + 4] = C<T>(0, 0);  // singular: info 5
  mats[4][7] = C<T>(std::numeric_limits<T>::quiet_NaN(), T(0));
  std::vector<std::vector<std::vector<C<T>>>> rhs(batch);
  for (auto& r : rhs)
    for (int c = 0; c < nrhs; ++c) r.push_back(random_vector<T>(n, rng));
  // The library's own results, system by system.
  std::vector<Factors<T>> ref;
  for (const auto& a : mats) ref.push_back(run_getf2<T, Kokkos::LayoutLeft>(Host(), a, n, n));
  Kokkos::View<C<T>***, Layout, Mem> A("A", batch, n, n);
  Kokkos::View<int**, Mem> ipiv("ipiv", batch, n), info("info", batch, 3);
  Kokkos::View<C<T>***, Kokkos::LayoutLeft, Mem> X("X", batch, n, nrhs);
  const auto load = [&]() {
    auto hA = Kokkos::create_mirror_view(A);
    auto hX = Kokkos::create_mirror_view(X);
    for (int b = 0; b < batch; ++b)
      for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) hA(b, i, j) = mats[b][std::size_t(i) * n + j];
        for (int c = 0; c < nrhs; ++c) hX(b, i, c) = rhs[b][c][i];
      }
    Kokkos::deep_copy(A, hA);
    Kokkos::deep_copy(X, hX);
    Kokkos::deep_copy(ipiv, -7);
    Kokkos::deep_copy(info, -9);
  };
  const std::string layout =
      std::is_same<Layout, Kokkos::LayoutLeft>::value ? " LayoutLeft batch" : " LayoutRight batch";
  const auto check = [&](const char* trans, const std::string& what) {
    const auto rA = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), A);
    const auto rp = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), ipiv);
    const auto ri = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), info);
    const auto rX = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), X);
    for (int b = 0; b < batch; ++b) {
      const std::string where = what + layout + " trans " + trans + " system " + std::to_string(b);
      Factors<T> f;
      f.info = ri(b, 0);
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) f.lu.push_back(rA(b, i, j));
      for (int j = 0; j < n; ++j) f.piv.push_back(rp(b, j));
      expect_same(ref[b], f, where + " getf2", n);
      EXPECT_EQ(ri(b, 1), 0) << where;
      EXPECT_EQ(ri(b, 2), 0) << where;
      const auto want = run_getrs<T, Kokkos::LayoutLeft>(Host(), trans, ref[b], n, rhs[b], false);
      for (int c = 0; c < nrhs; ++c) {
        std::vector<C<T>> got(n);
        for (int i = 0; i < n; ++i) got[i] = rX(b, i, c);
        expect_same(want[c], got, where + " getrs column " + std::to_string(c));
      }
    }
  };
  for (const char* trans : {"N", "T", "C"}) {
    for (const bool staged : {false, true}) {
      for (const int team : {1, 2, 3}) {
        if (team > ExKokkosTest::widest_team<Space>()) continue;
        load();
        TeamLu<Space, T, Layout> f{A, ipiv, X, info, {trans[0], 0}, staged};
        const std::size_t scratch = staged ? ExKokkos::team_lu_scratch_size<C<T>>(n, n) : 0;
        Kokkos::parallel_for(Kokkos::TeamPolicy<Space>(Space(), batch, team)
                                 .set_scratch_size(0, Kokkos::PerTeam(scratch)),
                             f);
        Space().fence();
        check(trans, std::string(type_name<T>()) + " TeamGetf2/TeamGetrs team " +
                         std::to_string(team) + (staged ? " in scratch" : " in place"));
      }
    }
    load();
    Kokkos::parallel_for(Kokkos::RangePolicy<Space>(Space(), 0, batch),
                         SerialLu<Space, T, Layout>{A, ipiv, X, info, {trans[0], 0}});
    Space().fence();
    check(trans, std::string(type_name<T>()) + " SerialGetf2/SerialGetrs");
  }
}

TEST(LuComplex, TeamAndSerialFormsEqualExgetf2AndExgetrsDouble) {
  team_forms<double, Kokkos::LayoutRight>(201);
  team_forms<double, Kokkos::LayoutLeft>(203);
}
TEST(LuComplex, TeamAndSerialFormsEqualExgetf2AndExgetrsFloat) {
  team_forms<float, Kokkos::LayoutRight>(202);
  team_forms<float, Kokkos::LayoutLeft>(204);
}

}  // namespace LuComplexSuite
}  // namespace
