// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// exger, exsyr, exsyr2 and extrmm on Kokkos::complex<double> and Kokkos::complex<float>, against
// the MPFR oracle bit for bit. The definitions, each part of each result its exact value rounded
// once to the part type (RN):
//  - exger "T": a_ij = RN(a_ij + alpha x_i y_j); "H": RN(a_ij + alpha x_i conj(y_j)); every
//    element of A.
//  - exsyr "T": RN(a_ij + alpha x_i x_j); "H": RN(a_ij + alpha x_i conj(x_j)), alpha as given
//    (complex too) and the diagonal not forced real (KokkosBlas::syr).
//  - exsyr2 "T": RN(a_ij + alpha (x_i y_j + y_i x_j)); "H": RN(a_ij + alpha x_i conj(y_j) +
//    conj(alpha) y_i conj(x_j)) (KokkosBlas::syr2's Hermitian form).
//    exsyr and exsyr2 read and write only the triangle uplo names (diagonal included): the other
//    triangle keeps its bits.
//  - alpha == 0 (both parts zero) or an empty A: nothing is read or written.
//  - extrmm: b_ij = RN(alpha * sum_k op(A)_ik b_kj) (side "L"), RN(alpha * sum_k b_ik op(A)_kj)
//    (side "R"), op(A) = A, A^T ("T") or conj(A)^T ("C", "H"), only A's triangle read (not a unit
//    diagonal); the sum and its product with alpha exact. alpha == 0 gives +0 in both parts of
//    every element without reading A or B.
// The sign of an exact zero (the definitions leave it to the formula): exgemv's rule, which the
// real forms document (docs/level2.md): +0 after cancellation; when every term is an exact zero,
// the IEEE sum of the zeros of Kokkos::complex's formulas (re = cr S_re - ci S_im + a_re, im =
// ci S_re + cr S_im + a_im for a coefficient c times an exact sum of products S), S's zero -0 only
// when all its products are -0; exsyr2 "H" on the grouping it documents (exact_element). Only the
// SignedZeros test has elements whose every term is zero.
//
// Coverage: LayoutLeft, LayoutRight and LayoutStride (strided subviews, whose neighbours must keep
// their sentinel), KokkosBlas' mixed call (x LayoutStride, y LayoutLeft, A LayoutRight) once per
// routine; Test_Blas2_ger's shapes (shrunk) and orders 0 to 128; alpha complex, purely real and
// purely imaginary; data from random parts and from the support library's finite generators
// (floats' exponents within +-60, as parts_from keeps them), a fifth of A's elements cancelling
// their update to a few bits; Kokkos::Serial and the default host space, both against the same
// expected bits. NaN in x, y or A reaches the elements it touches (a NaN part, no rule for which),
// and no other. The oracle of each case is computed once and shared by every layout and space.
#include <ExKokkos.hpp>

#include <ExKokkosTest_GemvOracle.hpp>
#include <ExKokkosTest_Generators.hpp>
#include <ExKokkosTest_Oracle.hpp>

#include "ExKokkosTest_Complex.hpp"
#include "ExKokkosTest_HostMatrix.hpp"

#include <gtest/gtest.h>

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
namespace RankUpdateComplexSuite {

using ExKokkosTest::describe;
using ExKokkosTest::same_bits;
using Host = Kokkos::DefaultHostExecutionSpace;
using LL = Kokkos::LayoutLeft;
using LR = Kokkos::LayoutRight;
using LS = Kokkos::LayoutStride;
template <class T>
using C = Kokkos::complex<T>;
template <class T>
using Dense = std::vector<std::vector<C<T>>>;  // a[i][j] = A(i, j)

template <class T>
std::string type_name() {
  return std::is_same<T, double>::value ? "complex<double>" : "complex<float>";
}
template <class L>
std::string layout_name() {
  return std::is_same<L, LL>::value ? "LayoutLeft"
                                    : (std::is_same<L, LR>::value ? "LayoutRight" : "LayoutStride");
}
template <class S>
std::string space_name() {
  return std::is_same<S, Kokkos::Serial>::value ? "Serial" : "DefaultHostExecutionSpace";
}

template <class T>
C<T> conjugate(const C<T>& v) {
  return C<T>(v.real(), -v.imag());
}

// ---- The oracle ----

// One term of an update: the coefficient c times the exact sum S of the complex products
// e[k] v[k].
template <class T>
struct Term {
  C<T> c;
  std::vector<C<T>> e, v;
};

// RN(sum_t c_t S_t + a), part by part, from exact sums (the support library's
// exact_scaled_sums, the complex exgemv oracle's). S's parts follow Kokkos::complex's product,
// re = re e re v - im e im v and im = im e re v + re e im v, and c S's: re = re c re S - im c
// im S, im = im c re S + re c im S.
template <class T>
C<T> exact_update(const std::vector<Term<T>>& terms, const C<T>& a) {
  std::vector<double> coef_re, coef_im;
  std::vector<std::vector<double>> f, g;
  for (const Term<T>& t : terms) {
    std::vector<double> f_re, g_re, f_im, g_im;
    for (std::size_t k = 0; k < t.e.size(); ++k) {
      const double er = t.e[k].real(), ei = t.e[k].imag();
      const double vr = t.v[k].real(), vi = t.v[k].imag();
      f_re.insert(f_re.end(), {er, -ei});
      g_re.insert(g_re.end(), {vr, vi});
      f_im.insert(f_im.end(), {ei, er});
      g_im.insert(g_im.end(), {vr, vi});
    }
    f.push_back(f_re);
    g.push_back(g_re);
    f.push_back(f_im);
    g.push_back(g_im);
    const double cr = t.c.real(), ci = t.c.imag();
    coef_re.insert(coef_re.end(), {cr, -ci});
    coef_im.insert(coef_im.end(), {ci, cr});
  }
  const bool to_float = std::is_same<T, float>::value;
  const T re =
      T(ExKokkosTest::exact_scaled_sums(coef_re, f, g, {1.0}, {double(a.real())}, true, to_float));
  const T im =
      T(ExKokkosTest::exact_scaled_sums(coef_im, f, g, {1.0}, {double(a.imag())}, true, to_float));
  return C<T>(re, im);
}

// Which rank update: exger ('g'), exsyr ('s') or exsyr2 ('2'), trans 'T' or 'H', uplo 'L'/'U'.
struct Update {
  char routine, trans, uplo;
  bool in_triangle(std::size_t i, std::size_t j) const {
    return routine == 'g' || (uplo == 'L' ? j <= i : i <= j);
  }
  std::string name() const {
    const std::string r = routine == 'g' ? "exger" : (routine == 's' ? "exsyr" : "exsyr2");
    return r + " " + trans + (routine == 'g' ? std::string() : std::string(" ") + uplo);
  }
};

// The terms of element (i, j) of an update, from the definitions above.
template <class T>
std::vector<Term<T>> update_terms(const Update& u, const C<T>& alpha, const std::vector<C<T>>& x,
                                  const std::vector<C<T>>& y, std::size_t i, std::size_t j) {
  const bool h = u.trans == 'H';
  if (u.routine == 'g') return {{alpha, {x[i]}, {h ? conjugate(y[j]) : y[j]}}};
  if (u.routine == 's') return {{alpha, {x[i]}, {h ? conjugate(x[j]) : x[j]}}};
  if (!h) return {{alpha, {x[i], y[i]}, {y[j], x[j]}}};
  return {{alpha, {x[i]}, {conjugate(y[j])}}, {conjugate(alpha), {y[i]}, {conjugate(x[j])}}};
}

// Element (i, j) of the update, each part rounded once. The sign of an exact zero follows the
// grouping each routine documents: the terms above for every form but exsyr2 "H", whose parts
// ExKokkos evaluates as re(a + alpha (P + Q)) and im(a + alpha (P - Q)) with P = x_i conj(y_j),
// Q = conj(y_i) x_j (docs/level2.md): the same exact values (conj(alpha) y_i conj(x_j) =
// conj(alpha Q)), with P's and Q's products in one exact sum a part, which decides the sign of
// an all-zero part.
template <class T>
C<T> exact_element(const Update& u, const C<T>& alpha, const std::vector<C<T>>& x,
                   const std::vector<C<T>>& y, std::size_t i, std::size_t j, const C<T>& a) {
  if (u.routine != '2' || u.trans != 'H')
    return exact_update(update_terms(u, alpha, x, y, i, j), a);
  const C<T> q = conjugate(y[i]);
  const C<T> plus = exact_update<T>({{alpha, {x[i], q}, {conjugate(y[j]), x[j]}}}, a);
  const C<T> minus = exact_update<T>({{alpha, {x[i], -q}, {conjugate(y[j]), x[j]}}}, a);
  return C<T>(plus.real(), minus.imag());
}

// A after the update (finite data): the updated part from the oracle, the rest as it was;
// alpha == 0 or an empty A leaves every element.
template <class T>
Dense<T> expected_update(const Update& u, const C<T>& alpha, const std::vector<C<T>>& x,
                         const std::vector<C<T>>& y, const Dense<T>& a) {
  Dense<T> out = a;
  if (alpha == C<T>(T(0), T(0))) return out;
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t j = 0; j < a[i].size(); ++j)
      if (u.in_triangle(i, j)) out[i][j] = exact_element(u, alpha, x, y, i, j, a[i][j]);
  return out;
}

// extrmm's modes.
struct Trmm {
  char side, uplo, trans, diag;
  std::string name() const { return std::string("extrmm ") + side + uplo + trans + diag; }
};

// The n x n matrix A's triangle stands for: the triangle named by uplo, 1 on a unit diagonal, 0
// elsewhere (extrmm's definition reads nothing else).
template <class T>
Dense<T> full_triangle(const Trmm& t, const Dense<T>& a) {
  const std::size_t n = a.size();
  Dense<T> full(n, std::vector<C<T>>(n, C<T>(T(0), T(0))));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      if (i == j)
        full[i][j] = t.diag == 'U' ? C<T>(T(1), T(0)) : a[i][j];
      else if (t.uplo == 'L' ? j < i : j > i)
        full[i][j] = a[i][j];
    }
  return full;
}

// B after extrmm, each element exgemm's (beta = 0) oracle element of the full triangle: the exact
// alpha * sum_k op(A)_ik b_kj (side R: sum_k b_ik op(A)_kj) rounded once a part; the zeros of the
// full triangle change nothing but the sign of an exact zero (the library's rule, Trmm.hpp).
template <class T>
Dense<T> expected_trmm(const Trmm& t, const C<T>& alpha, const Dense<T>& a, const Dense<T>& b) {
  const std::size_t m = b.size(), n = m == 0 ? 0 : b[0].size();
  Dense<T> out(m, std::vector<C<T>>(n));
  const C<T> zero(T(0), T(0));
  if (alpha == zero) {
    for (auto& row : out)
      for (auto& e : row) e = zero;
    return out;
  }
  const Dense<T> full = full_triangle(t, a);
  const char trans = t.trans == 'H' ? 'C' : t.trans;
  if (t.side == 'L') {
    // b_ij = sum_k op(T)_ik b_kj: exgemv's element i of op(T) times column j.
    for (std::size_t j = 0; j < n; ++j) {
      std::vector<C<T>> col(m);
      for (std::size_t k = 0; k < m; ++k) col[k] = b[k][j];
      for (std::size_t i = 0; i < m; ++i)
        out[i][j] = ExKokkosTest::exact_gemv_entry(trans, full, i, col, alpha, zero, zero);
    }
  } else {
    // b_ij = sum_k b_ik op(T)_kj: element j of U times row i with U_jk = op(T)_kj, so U = T^T
    // ("N": exgemv's trans "T"), T ("T": "N") or conj(T) ("C": "N" on conj(T)); complex products
    // commute exactly, signed zeros included.
    Dense<T> conj_full = full;
    for (auto& row : conj_full)
      for (auto& e : row) e = conjugate(e);
    const Dense<T>& u = trans == 'C' ? conj_full : full;
    const char gemv_trans = trans == 'N' ? 'T' : 'N';
    for (std::size_t i = 0; i < m; ++i)
      for (std::size_t j = 0; j < n; ++j)
        out[i][j] = ExKokkosTest::exact_gemv_entry(gemv_trans, u, j, b[i], alpha, zero, zero);
  }
  return out;
}

// ---- Data ----

// m 2^e with m uniform in [1, 2) (rounded to T), a random sign and e uniform in [-spread, spread].
template <class T>
T scaled(ExKokkosTest::Rng& rng, int spread) {
  std::uniform_real_distribution<double> m(1, 2);
  std::uniform_int_distribution<int> e(-spread, spread);
  const double v = std::ldexp(m(rng), e(rng));
  return T(std::bernoulli_distribution(0.5)(rng) ? -v : v);
}

// A kind of data: n complex values from rng.
template <class T>
struct Kind {
  std::string name;
  std::function<std::vector<C<T>>(std::size_t, ExKokkosTest::Rng&)> make;
};

// Random parts over 2^+-20 (float) or 2^+-40 (double), and the support library's finite
// generators, both parts from the generator (parts_from: floats' exponents within +-60): uniform,
// the wide exponent ranges (lognormal_wide, full_range: products over- and underflow for
// doubles), subnormal parts, exact cancellation, cancellation to a tiny value, rounding ties.
template <class T>
std::vector<Kind<T>> kinds() {
  std::vector<Kind<T>> out;
  out.push_back({"random parts", [](std::size_t n, ExKokkosTest::Rng& rng) {
                   const int spread = std::is_same<T, float>::value ? 20 : 40;
                   std::vector<C<T>> v(n);
                   for (auto& e : v) {
                     const T re = scaled<T>(rng, spread);
                     e = C<T>(re, scaled<T>(rng, spread));
                   }
                   return v;
                 }});
  for (const auto& g : ExKokkosTest::sum_generators()) {
    if (!ExKokkosTest::finite_generator(g) || g.name == "signed_zeros" || g.name == "normal")
      continue;
    out.push_back({g.name, [g](std::size_t n, ExKokkosTest::Rng& rng) {
                     if (n == 0) return std::vector<C<T>>();
                     const auto re = ExKokkosTest::parts_from<T>(g, n, rng);
                     const auto im = ExKokkosTest::parts_from<T>(g, n, rng);
                     return ExKokkosTest::complexes<T>(std::vector<double>(re.begin(), re.end()),
                                                       std::vector<double>(im.begin(), im.end()));
                   }});
  }
  return out;
}

template <class T>
Dense<T> dense(const std::vector<C<T>>& v, std::size_t m, std::size_t n) {
  Dense<T> a(m, std::vector<C<T>>(n));
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j) a[i][j] = v[i * n + j];
  return a;
}

// ---- Views ----

template <class T, class Layout>
using Matrix = typename ExKokkosTest::HostMatrix<C<T>, Layout>::type;

template <class T, class Layout>
Matrix<T, Layout> matrix_of(const Dense<T>& a, std::size_t m, std::size_t n) {
  const auto A = ExKokkosTest::HostMatrix<C<T>, Layout>::make(m, n);
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j) A(i, j) = a[i][j];
  return A;
}

// Collects the mismatches of one test, printing the first few.
struct Failures {
  int count = 0;
  // what: the case's description, or a callable returning it (built only on a failure).
  template <class T, class What>
  void check(const C<T>& got, const C<T>& want, const What& what) {
    if (same_bits(got, want)) return;
    if (++count > 12) return;
    const bool zeros_only = got == want;  // +0 and -0 compare equal
    ADD_FAILURE() << text(what) << ": got " << describe(got) << ", expected " << describe(want)
                  << (zeros_only ? " (only the sign of an exact zero differs)" : "");
  }
  static std::string text(const std::string& s) { return s; }
  template <class F>
  static std::string text(const F& f) {
    return f();
  }
  void fail(const std::string& what) {
    if (++count <= 12) ADD_FAILURE() << what;
  }
};

std::string at(std::size_t i, std::size_t j) {
  return "(" + std::to_string(i) + ", " + std::to_string(j) + ")";
}

// A LayoutStride matrix of HostMatrix is the middle plane of a 3 x m x n array whose other
// planes hold 12345: a write outside the view's elements shows there.
template <class T, class Layout>
void check_neighbours(const Matrix<T, Layout>& A, Failures& f, const std::string& what) {
  if constexpr (std::is_same<Layout, LS>::value) {
    const C<T> sentinel(T(12345));
    for (std::size_t i = 0; i < A.extent(0); ++i)
      for (std::size_t j = 0; j < A.extent(1); ++j) {
        const C<T>* p = &A(i, j);
        if (!same_bits(p[-1], sentinel) || !same_bits(p[1], sentinel))
          f.fail(what + ": a neighbour of the strided element " + at(i, j) + " was written");
      }
  }
}

// Every element of got against want; inputs(i, j) describes element (i, j)'s data.
template <class T, class L, class Inputs>
void compare(const Matrix<T, L>& got, const Dense<T>& want, Failures& f, const std::string& what,
             const Inputs& inputs) {
  for (std::size_t i = 0; i < want.size(); ++i)
    for (std::size_t j = 0; j < want[i].size(); ++j)
      f.check(C<T>(got(i, j)), want[i][j], [&] { return what + " " + at(i, j) + inputs(i, j); });
  check_neighbours<T, L>(got, f, what);
}

// ---- Calls ----

template <class Space, class LX, class LY, class LA, class T>
Matrix<T, LA> run_update(const Update& u, const C<T>& alpha, const std::vector<C<T>>& x,
                         const std::vector<C<T>>& y, const Dense<T>& a, std::size_t m,
                         std::size_t n) {
  const auto A = matrix_of<T, LA>(a, m, n);
  const auto vx = ExKokkosTest::vector_of<LX>(x);
  const auto vy = ExKokkosTest::vector_of<LY>(y);
  const Space space;
  const char trans[2] = {u.trans, 0}, uplo[2] = {u.uplo, 0};
  if (u.routine == 'g')
    ExKokkos::exger(space, trans, alpha, vx, vy, A);
  else if (u.routine == 's')
    ExKokkos::exsyr(space, trans, uplo, alpha, vx, A);
  else
    ExKokkos::exsyr2(space, trans, uplo, alpha, vx, vy, A);
  space.fence();
  return A;
}

template <class Space, class LX, class LY, class LA, class T>
void update_case(const Update& u, const C<T>& alpha, const std::vector<C<T>>& x,
                 const std::vector<C<T>>& y, const Dense<T>& a, std::size_t m, std::size_t n,
                 const Dense<T>& want, const std::string& what, Failures& f) {
  const auto A = run_update<Space, LX, LY, LA>(u, alpha, x, y, a, m, n);
  compare<T, LA>(A, want, f,
                 what + " " + space_name<Space>() + " x " + layout_name<LX>() + " y " +
                     layout_name<LY>() + " A " + layout_name<LA>(),
                 [&](std::size_t i, std::size_t j) {
                   std::string s = " (x_i " + describe(x[i]);
                   if (u.routine != 'g') s += ", x_j " + describe(x[j]);
                   if (u.routine == '2') s += ", y_i " + describe(y[i]);
                   if (u.routine != 's') s += ", y_j " + describe(y[j]);
                   return s + ", a_ij " + describe(a[i][j]) + ")";
                 });
}

// One update on every layout (and the mixed call when `mixed`) on the default host space, and on
// Serial in the layout `serial` picks (0 to 2, taken in turn by the callers): the expected bits
// computed once.
template <class T>
void update_everywhere(const Update& u, const C<T>& alpha, const std::vector<C<T>>& x,
                       const std::vector<C<T>>& y, const Dense<T>& a, std::size_t m, std::size_t n,
                       bool mixed, std::size_t serial, const std::string& what, Failures& f) {
  const Dense<T> want = expected_update(u, alpha, x, y, a);
  update_case<Host, LL, LL, LL>(u, alpha, x, y, a, m, n, want, what, f);
  update_case<Host, LS, LS, LR>(u, alpha, x, y, a, m, n, want, what, f);
  update_case<Host, LS, LS, LS>(u, alpha, x, y, a, m, n, want, what, f);
  if (serial % 3 == 0)
    update_case<Kokkos::Serial, LL, LL, LL>(u, alpha, x, y, a, m, n, want, what, f);
  if (serial % 3 == 1)
    update_case<Kokkos::Serial, LS, LS, LR>(u, alpha, x, y, a, m, n, want, what, f);
  if (serial % 3 == 2)
    update_case<Kokkos::Serial, LS, LS, LS>(u, alpha, x, y, a, m, n, want, what, f);
  if (mixed) {
    update_case<Host, LS, LL, LR>(u, alpha, x, y, a, m, n, want, what, f);
    update_case<Kokkos::Serial, LS, LL, LR>(u, alpha, x, y, a, m, n, want, what, f);
  }
}

// alpha complex, purely real, purely imaginary (none a power of two: the product rounds).
template <class T>
std::vector<C<T>> alphas() {
  return {C<T>(T(0.1), T(-1.3)), C<T>(T(-0.7), T(0)), C<T>(T(0), T(2.9))};
}

// A's data: the kind's values, with a fifth of the updated elements set to minus their update
// computed in T's arithmetic (where finite), so that the exact sum cancels to a few bits.
template <class T>
Dense<T> a_for(const Update& u, const Kind<T>& kind, const C<T>& alpha, const std::vector<C<T>>& x,
               const std::vector<C<T>>& y, std::size_t m, std::size_t n, ExKokkosTest::Rng& rng) {
  Dense<T> a = dense(kind.make(m * n, rng), m, n);
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      if ((i + 2 * j) % 5 != 0 || !u.in_triangle(i, j)) continue;
      C<T> s(T(0), T(0));
      for (const Term<T>& t : update_terms(u, alpha, x, y, i, j)) {
        C<T> p(T(0), T(0));
        for (std::size_t k = 0; k < t.e.size(); ++k) p += t.e[k] * t.v[k];
        s += t.c * p;
      }
      if (std::isfinite(s.real()) && std::isfinite(s.imag())) a[i][j] = -s;
    }
  return a;
}

// Every shape (exger m x n, exsyr and exsyr2 of order m), trans, uplo and alpha (on 128 x 128 the
// alphas taken in turn), the data kinds taken in turn (all of them on the smallest shapes), every
// layout and both spaces.
template <class T>
void updates(char routine, std::uint64_t seed) {
  ExKokkosTest::Rng rng(seed);
  const auto all_kinds = kinds<T>();
  std::vector<std::pair<std::size_t, std::size_t>> shapes;
  if (routine == 'g')
    shapes = {{0, 13}, {13, 0}, {1, 1}, {1, 2}, {2, 2}, {13, 13}, {13, 64}, {50, 40}, {128, 128}};
  else
    for (const std::size_t n : {0, 1, 2, 13, 50, 128}) shapes.push_back({n, n});
  const std::vector<char> uplos =
      routine == 'g' ? std::vector<char>{'L'} : std::vector<char>{'L', 'U'};
  Failures f;
  std::size_t turn = 0;
  bool mixed_done = false;
  for (const auto& shape : shapes) {
    const std::size_t m = shape.first, n = shape.second;
    for (const char trans : {'T', 'H'})
      for (const char uplo : uplos)
        for (std::size_t w = 0; w < alphas<T>().size(); ++w) {
          // 128 x 128: one alpha per trans and uplo, in turn (the oracle's time).
          if (m * n > 4096 && w != (turn + m) % alphas<T>().size()) continue;
          const C<T> alpha = alphas<T>()[w];
          const std::size_t first = turn++, count = m * n <= 4 ? all_kinds.size() : 1;
          for (std::size_t k = 0; k < count; ++k) {
            const Kind<T>& kind = all_kinds[(first + k) % all_kinds.size()];
            const Update u{routine, trans, uplo};
            const auto x = kind.make(m, rng), y = kind.make(n, rng);
            const Dense<T> a = a_for(u, kind, alpha, x, y, m, n, rng);
            const bool mixed = !mixed_done && m >= 13;
            mixed_done = mixed_done || mixed;
            update_everywhere(u, alpha, x, y, a, m, n, mixed, first + k,
                              u.name() + " " + type_name<T>() + " " + std::to_string(m) + " x " +
                                  std::to_string(n) + " alpha " + describe(alpha) + " " + kind.name,
                              f);
          }
        }
  }
  EXPECT_EQ(f.count, 0);
}

TEST(RankUpdateComplex, GerDouble) {
  updates<double>('g', 101);
}
TEST(RankUpdateComplex, GerFloat) {
  updates<float>('g', 102);
}
TEST(RankUpdateComplex, SyrDouble) {
  updates<double>('s', 103);
}
TEST(RankUpdateComplex, SyrFloat) {
  updates<float>('s', 104);
}
TEST(RankUpdateComplex, Syr2Double) {
  updates<double>('2', 105);
}
TEST(RankUpdateComplex, Syr2Float) {
  updates<float>('2', 106);
}

// ---- extrmm ----

template <class Space, class LA, class LB, class T>
Matrix<T, LB> run_trmm(const Trmm& t, const C<T>& alpha, const Dense<T>& a, const Dense<T>& b,
                       std::size_t m, std::size_t n) {
  const std::size_t k = a.size();
  const auto A = matrix_of<T, LA>(a, k, k);
  const auto B = matrix_of<T, LB>(b, m, n);
  const Space space;
  const char side[2] = {t.side, 0}, uplo[2] = {t.uplo, 0}, trans[2] = {t.trans, 0},
             diag[2] = {t.diag, 0};
  ExKokkos::extrmm(space, side, uplo, trans, diag, alpha, A, B);
  space.fence();
  return B;
}

template <class Space, class LA, class LB, class T>
void trmm_case(const Trmm& t, const C<T>& alpha, const Dense<T>& a, const Dense<T>& b,
               std::size_t m, std::size_t n, const Dense<T>& want, const std::string& what,
               Failures& f) {
  const auto B = run_trmm<Space, LA, LB>(t, alpha, a, b, m, n);
  compare<T, LB>(
      B, want, f,
      what + " " + space_name<Space>() + " A " + layout_name<LA>() + " B " + layout_name<LB>(),
      [](std::size_t, std::size_t) { return std::string(); });
}

// As update_everywhere: every layout on the default host space, one on Serial.
template <class T>
void trmm_everywhere(const Trmm& t, const C<T>& alpha, const Dense<T>& a, const Dense<T>& b,
                     std::size_t m, std::size_t n, bool mixed, std::size_t serial,
                     const std::string& what, Failures& f) {
  const Dense<T> want = expected_trmm(t, alpha, a, b);
  trmm_case<Host, LL, LL>(t, alpha, a, b, m, n, want, what, f);
  trmm_case<Host, LR, LR>(t, alpha, a, b, m, n, want, what, f);
  trmm_case<Host, LS, LS>(t, alpha, a, b, m, n, want, what, f);
  if (serial % 3 == 0) trmm_case<Kokkos::Serial, LL, LL>(t, alpha, a, b, m, n, want, what, f);
  if (serial % 3 == 1) trmm_case<Kokkos::Serial, LR, LR>(t, alpha, a, b, m, n, want, what, f);
  if (serial % 3 == 2) trmm_case<Kokkos::Serial, LS, LS>(t, alpha, a, b, m, n, want, what, f);
  if (mixed) {
    trmm_case<Host, LS, LR>(t, alpha, a, b, m, n, want, what, f);
    trmm_case<Kokkos::Serial, LR, LL>(t, alpha, a, b, m, n, want, what, f);
  }
}

// A triangle for extrmm: parts m 2^e over 2^+-spread in the triangle (the diagonal too unless
// unit); NaN in both parts of the unread triangle and of a unit diagonal.
template <class T>
Dense<T> triangle(const Trmm& t, std::size_t n, ExKokkosTest::Rng& rng) {
  const int spread = std::is_same<T, float>::value ? 10 : 30;
  const T nan = std::numeric_limits<T>::quiet_NaN();
  Dense<T> a(n, std::vector<C<T>>(n, C<T>(nan, nan)));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      if ((i == j && t.diag == 'N') || (i != j && (t.uplo == 'L' ? j < i : j > i))) {
        const T re = scaled<T>(rng, spread);
        a[i][j] = C<T>(re, scaled<T>(rng, spread));
      }
  return a;
}

// Every side, uplo, trans ("N", "T", "C"; "H" once) and diag on B of 0 x 0, 19 x 13 and 13 x 19,
// and 64 x 40 for seven of them (the oracle's sums of 64 terms are its slowest), B's data kinds
// and alpha taken in turn, every layout and both spaces.
template <class T>
void trmms(std::uint64_t seed) {
  ExKokkosTest::Rng rng(seed);
  const auto all_kinds = kinds<T>();
  const auto all_alphas = alphas<T>();
  std::vector<Trmm> modes;
  for (const char side : {'L', 'R'})
    for (const char uplo : {'L', 'U'})
      for (const char trans : {'N', 'T', 'C'})
        for (const char diag : {'N', 'U'}) modes.push_back({side, uplo, trans, diag});
  modes.push_back({'R', 'U', 'H', 'N'});
  Failures f;
  std::size_t turn = 0;
  for (std::size_t q = 0; q < modes.size(); ++q) {
    const Trmm& t = modes[q];
    std::vector<std::pair<std::size_t, std::size_t>> shapes{{0, 0}, {19, 13}, {13, 19}};
    // 64 x 40 on LLNN, LLCU, LUCN, RLNU, RLTU, RUTN and RUHN: both sides, uplos and diags, every
    // trans.
    if (q % 5 == 0 || q == 13 || t.trans == 'H') shapes.push_back({64, 40});
    for (const auto& shape : shapes) {
      const std::size_t m = shape.first, n = shape.second, order = t.side == 'L' ? m : n;
      const Kind<T>& kind = all_kinds[turn % all_kinds.size()];
      // The complex alpha twice as often as the purely real or imaginary ones.
      const C<T> alpha = all_alphas[turn % 4 == 3 ? 0 : turn % 4];
      ++turn;
      const Dense<T> a = triangle<T>(t, order, rng);
      const Dense<T> b = dense(kind.make(m * n, rng), m, n);
      trmm_everywhere(t, alpha, a, b, m, n, q == 1 && m > 0, turn,
                      t.name() + " " + type_name<T>() + " B " + std::to_string(m) + " x " +
                          std::to_string(n) + " alpha " + describe(alpha) + " " + kind.name,
                      f);
    }
  }
  EXPECT_EQ(f.count, 0);
}

TEST(RankUpdateComplex, TrmmDouble) {
  trmms<double>(201);
}
TEST(RankUpdateComplex, TrmmFloat) {
  trmms<float>(202);
}

// alpha == 0 (either sign of zero) sets both parts of every element of B to +0 without reading A
// or B: both full of NaN.
template <class T>
void trmm_zero_alpha(Failures& f) {
  const T nan = std::numeric_limits<T>::quiet_NaN();
  const std::size_t m = 19, n = 13;
  for (const C<T>& alpha : {C<T>(T(0), T(0)), C<T>(T(-0.0), T(-0.0))})
    for (const Trmm& t : {Trmm{'L', 'L', 'N', 'N'}, Trmm{'R', 'U', 'C', 'U'}}) {
      const std::size_t order = t.side == 'L' ? m : n;
      const Dense<T> a(order, std::vector<C<T>>(order, C<T>(nan, nan)));
      const Dense<T> b(m, std::vector<C<T>>(n, C<T>(nan, nan)));
      const Dense<T> want(m, std::vector<C<T>>(n, C<T>(T(0), T(0))));
      const std::string what = t.name() + " " + type_name<T>() + " alpha " + describe(alpha);
      trmm_case<Host, LL, LL>(t, alpha, a, b, m, n, want, what, f);
      trmm_case<Kokkos::Serial, LS, LS>(t, alpha, a, b, m, n, want, what, f);
    }
}

TEST(RankUpdateComplex, TrmmZeroAlphaReadsNothing) {
  Failures f;
  trmm_zero_alpha<double>(f);
  trmm_zero_alpha<float>(f);
  EXPECT_EQ(f.count, 0);
}

// ---- alpha == 0, NaN, signed zeros ----

// alpha == 0 (either sign of zero) returns before reading anything: NaN in both parts of every
// element of x and y, and A keeps its bits; likewise an empty A with a non-zero alpha.
template <class T>
void update_zero_alpha(Failures& f) {
  ExKokkosTest::Rng rng(301);
  const T nan = std::numeric_limits<T>::quiet_NaN();
  const std::size_t n = 13;
  const std::vector<C<T>> x(n, C<T>(nan, nan)), y(n, C<T>(nan, nan));
  const Dense<T> a = dense(kinds<T>()[0].make(n * n, rng), n, n);
  for (const C<T>& alpha : {C<T>(T(0), T(0)), C<T>(T(-0.0), T(0)), C<T>(T(0), T(-0.0))})
    for (const char routine : {'g', 's', '2'})
      for (const char trans : {'T', 'H'}) {
        const Update u{routine, trans, routine == '2' ? 'U' : 'L'};
        const std::string what = u.name() + " " + type_name<T>() + " alpha " + describe(alpha);
        update_case<Host, LL, LL, LL>(u, alpha, x, y, a, n, n, a, what, f);
        update_case<Kokkos::Serial, LS, LS, LS>(u, alpha, x, y, a, n, n, a, what, f);
      }
}

TEST(RankUpdateComplex, ZeroAlphaReadsNothing) {
  Failures f;
  update_zero_alpha<double>(f);
  update_zero_alpha<float>(f);
  EXPECT_EQ(f.count, 0);
}

// A NaN in one part of x_p, of y_q or of a_rs reaches the elements whose terms it is in (a NaN
// in at least one of their parts; which one the definitions do not say), y_z = 0 included, and
// no other element: those keep the oracle's bits. exger: x_p row p, y_q column q; exsyr: x_p row
// and column p; exsyr2: x_p and y_q their rows and columns; a_rs itself; all within the triangle.
// An a outside the triangle keeps its NaN.
template <class T, class Space, class L>
void nan_case(const Update& u, Failures& f) {
  ExKokkosTest::Rng rng(401);
  const T nan = std::numeric_limits<T>::quiet_NaN();
  const std::size_t n = 9, p = 2, q = 6, z = 4, r = 5, s = 3;  // (r, s) in L, (s, r) in U
  const auto all_kinds = kinds<T>();  // kept alive: kind refers into it
  const auto& kind = all_kinds[0];
  const C<T> alpha = alphas<T>()[0];
  std::vector<C<T>> x = kind.make(n, rng), y = kind.make(n, rng);
  Dense<T> a = dense(kind.make(n * n, rng), n, n);
  x[p] = C<T>(nan, x[p].imag());
  y[q] = C<T>(y[q].real(), nan);
  y[z] = C<T>(T(0), T(0));
  x[z] = C<T>(T(0), T(0));
  a[r][s] = C<T>(a[r][s].real(), nan);
  a[s][r] = C<T>(nan, a[s][r].imag());
  const auto A = run_update<Space, L, L, L>(u, alpha, x, y, a, n, n);
  const std::string what =
      u.name() + " " + type_name<T>() + " NaN " + space_name<Space>() + " " + layout_name<L>();
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      const C<T> got = A(i, j);
      const bool got_nan = std::isnan(got.real()) || std::isnan(got.imag());
      const bool holds_nan = (i == r && j == s) || (i == s && j == r);
      if (!u.in_triangle(i, j)) {
        // Not written: the NaN part stays NaN, the other part keeps its bits.
        const bool kept =
            holds_nan ? (std::isnan(a[i][j].real())
                             ? std::isnan(got.real()) && same_bits(got.imag(), a[i][j].imag())
                             : std::isnan(got.imag()) && same_bits(got.real(), a[i][j].real()))
                      : same_bits(got, a[i][j]);
        if (!kept)
          f.fail(what + " " + at(i, j) + " outside the triangle changed: " + describe(got));
        continue;
      }
      bool touched = holds_nan;
      if (u.routine == 'g') touched = touched || i == p || j == q;
      if (u.routine == 's') touched = touched || i == p || j == p;
      if (u.routine == '2') touched = touched || i == p || j == p || i == q || j == q;
      if (touched && !got_nan)
        f.fail(what + " " + at(i, j) + " should hold a NaN part, got " + describe(got));
      if (!touched)
        f.check(got, exact_element(u, alpha, x, y, i, j, a[i][j]), what + " " + at(i, j));
    }
}

template <class T>
void nans(Failures& f) {
  for (const char routine : {'g', 's', '2'})
    for (const char trans : {'T', 'H'})
      for (const char uplo : {'L', 'U'}) {
        if (routine == 'g' && uplo == 'U') continue;
        const Update u{routine, trans, uplo};
        nan_case<T, Host, LS>(u, f);
        nan_case<T, Kokkos::Serial, LL>(u, f);
      }
}

TEST(RankUpdateComplex, NaNReachesTheElementsItTouches) {
  Failures f;
  nans<double>(f);
  nans<float>(f);
  EXPECT_EQ(f.count, 0);
}

// Elements whose every term is an exact zero: x, y and A from signed zeros of either sign (with
// a few non-zero values), alpha complex, real or imaginary; the sign of each zero part is
// exgemv's rule (the header's comment).
template <class T>
void signed_zeros(Failures& f) {
  ExKokkosTest::Rng rng(501);
  const std::size_t n = 6;
  std::uniform_int_distribution<int> pick(0, 5);
  const auto value = [&]() {
    const T v[] = {T(0), T(-0.0), T(0), T(-0.0), T(1.5), T(-0.75)};
    const T re = v[pick(rng)];
    return C<T>(re, v[pick(rng)]);
  };
  for (const C<T>& alpha : {C<T>(T(0.1), T(-1.3)), C<T>(T(-0.7), T(0)), C<T>(T(0), T(2.9)),
                            C<T>(T(-0.7), T(-0.0)), C<T>(T(-0.0), T(2.9))})
    for (const char routine : {'g', 's', '2'})
      for (const char trans : {'T', 'H'}) {
        const Update u{routine, trans, 'L'};
        std::vector<C<T>> x(n), y(n);
        for (auto& e : x) e = value();
        for (auto& e : y) e = value();
        Dense<T> a(n, std::vector<C<T>>(n));
        for (auto& row : a)
          for (auto& e : row) e = value();
        const std::string what =
            u.name() + " " + type_name<T>() + " signed zeros alpha " + describe(alpha);
        const Dense<T> want = expected_update(u, alpha, x, y, a);
        update_case<Host, LL, LL, LL>(u, alpha, x, y, a, n, n, want, what, f);
        update_case<Kokkos::Serial, LS, LS, LR>(u, alpha, x, y, a, n, n, want, what, f);
      }
}

TEST(RankUpdateComplex, SignedZeros) {
  Failures f;
  signed_zeros<double>(f);
  signed_zeros<float>(f);
  EXPECT_EQ(f.count, 0);
}

}  // namespace RankUpdateComplexSuite
}  // namespace
