// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The complex suites' helpers: the oracle of complex combinations, moduli and gemv outputs, bits
// and descriptions of Kokkos::complex values, complex vectors built from the real generators'
// parts, and host vectors of them in a chosen layout.
#ifndef EXKOKKOSTEST_COMPLEX_HPP
#define EXKOKKOSTEST_COMPLEX_HPP

#include <ExKokkosTest_GemvOracle.hpp>
#include <ExKokkosTest_Generators.hpp>
#include <ExKokkosTest_Oracle.hpp>

#include "ExKokkosTest_HostMatrix.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <cstddef>
#include <string>
#include <vector>

namespace ExKokkosTest {

// sum_k c_k v_k with each part the exact value rounded once to T: re = sum re c re v - im c im v,
// im = sum re c im v + im c re v (the formulas of Kokkos::complex's operators); +0 +0i when empty.
template <class T>
Kokkos::complex<T> exact_combination(const std::vector<Kokkos::complex<T>>& c,
                                     const std::vector<Kokkos::complex<T>>& v) {
  ExactSum re, im;
  for (std::size_t k = 0; k < c.size(); ++k) {
    re.add_product(c[k].real(), v[k].real());
    re.add_product(-c[k].imag(), v[k].imag());
    im.add_product(c[k].real(), v[k].imag());
    im.add_product(c[k].imag(), v[k].real());
  }
  return Kokkos::complex<T>(rounded<T>(re), rounded<T>(im));
}

// |x|: the square root of the exact re^2 + im^2, rounded once to T.
template <class T>
T exact_abs(const Kokkos::complex<T>& x) {
  return exact_nrm2(std::vector<T>{x.real(), x.imag()});
}

template <class T>
bool same_bits(const Kokkos::complex<T>& a, const Kokkos::complex<T>& b) {
  return same_bits(a.real(), b.real()) && same_bits(a.imag(), b.imag());
}

template <class T>
std::string describe(const Kokkos::complex<T>& v) {
  return "(" + describe(v.real()) + ", " + describe(v.imag()) + ")";
}

// The first n values re[i] + i im[i] (by default as many as both parts hold), rounded to T.
template <class T>
std::vector<Kokkos::complex<T>> complexes(const std::vector<double>& re,
                                          const std::vector<double>& im, std::size_t n) {
  std::vector<Kokkos::complex<T>> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = Kokkos::complex<T>(T(re[i]), T(im[i]));
  return v;
}
template <class T>
std::vector<Kokkos::complex<T>> complexes(const std::vector<double>& re,
                                          const std::vector<double>& im) {
  return complexes<T>(re, im, std::min(re.size(), im.size()));
}

// Complex coefficients for the matrix suites: ordinary, purely real or imaginary, zero of either
// sign, and out of TwoProd's range (huge with tiny).
template <class T>
std::vector<Kokkos::complex<T>> matrix_coefficients() {
  using C = Kokkos::complex<T>;
  const T big = std::numeric_limits<T>::max() / T(8), tiny = std::numeric_limits<T>::min();
  return {C(T(0.75), T(-1.25)), C(T(1), T(0)), C(T(0), T(-1)), C(T(0), T(0)),
          C(T(-0.0), T(0)),     C(T(3), T(5)), C(big, tiny),   C(tiny, T(1e-30))};
}

// n values of one of the real generators (repeated when it gives fewer), rounded to T; for
// floats, exponents beyond +-60 are brought to +-60 first, so that a float matrix product keeps
// its terms inside double's TwoProd range.
template <class T>
std::vector<T> parts_from(const NamedSumGenerator& g, std::size_t n, Rng& rng) {
  const auto v = g.generate(n, rng);
  std::vector<T> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    double w = v[i % v.size()];
    if (sizeof(T) == sizeof(float) && w != 0.0) {
      int e;
      const double f = std::frexp(w, &e);
      w = std::ldexp(f, std::max(-60, std::min(60, e)));
    }
    out[i] = T(w);
  }
  return out;
}

// Whether a generator's data are finite (the NaN and infinity generators are not).
inline bool finite_generator(const NamedSumGenerator& g) {
  return g.name.find("nan") == std::string::npos;
}

// A rank-1 host view of v in Layout (LayoutStride: every third element of a larger array).
template <class Layout, class T>
auto vector_of(const std::vector<T>& v) {
  const auto m = HostMatrix<T, Layout>::make(v.size(), 1);
  for (std::size_t i = 0; i < v.size(); ++i) m(i, 0) = v[i];
  return Kokkos::subview(m, Kokkos::ALL(), 0);
}

// x / a with each part the exact quotient of its exact numerator (re x re a + im x im a,
// im x re a - re x im a) and re a^2 + im a^2, rounded once (exinvscal's division, and extrsv's by
// the diagonal).
template <class T>
Kokkos::complex<T> exact_complex_quotient(const Kokkos::complex<T>& x,
                                          const Kokkos::complex<T>& a) {
  ExactSum d, re, im;
  d.add_product(a.real(), a.real());
  d.add_product(a.imag(), a.imag());
  re.add_product(x.real(), a.real());
  re.add_product(x.imag(), a.imag());
  im.add_product(x.imag(), a.real());
  im.add_product(-double(x.real()), a.imag());
  return Kokkos::complex<T>(exact_quotient<T>(re, d), exact_quotient<T>(im, d));
}

// The definition of one complex triangular substitution, in place on b (n values): row i, taken
// in the order `forward` (0 .. n-1) or backward, becomes s_i = b_i - sum over the rows already
// solved of t_ij x_j, each part the exact value rounded once, then (unit diagonal) x_i = s_i or
// x_i = s_i / t_ii by exact_complex_quotient. op(i, j, re, im) gives the parts of t_ij (the caller
// applies its transposition and conjugation); the diagonal's parts must be values of T. Shared by
// the extrsv and LU suites, whose solves are this definition.
template <class T, class Op>
void exact_complex_substitution(const Op& op, std::size_t n, std::vector<Kokkos::complex<T>>& b,
                                bool forward, bool unit) {
  for (std::size_t q = 0; q < n; ++q) {
    const std::size_t i = forward ? q : n - 1 - q;
    ExactSum re, im;
    re.add(b[i].real());
    im.add(b[i].imag());
    for (std::size_t p = 0; p < q; ++p) {
      const std::size_t j = forward ? p : n - 1 - p;
      double tr, ti;
      op(i, j, tr, ti);
      const double xr = b[j].real(), xi = b[j].imag();
      re.add_product(-tr, xr);
      re.add_product(ti, xi);
      im.add_product(-ti, xr);
      im.add_product(-tr, xi);
    }
    const Kokkos::complex<T> s(rounded<T>(re), rounded<T>(im));
    if (unit) {
      b[i] = s;
    } else {
      double dr, di;
      op(i, i, dr, di);
      b[i] = exact_complex_quotient(s, Kokkos::complex<T>(T(dr), T(di)));
    }
  }
}

// The complex level-1 reductions of x (and y) from their definitions, each part rounded once:
// exsum, exdot (conj(x) . y, as KokkosBlas::dot), exasum (BLAS' sum of |re| + |im|), exnrm2 (the
// root of the exact sum of re^2 + im^2) and exnrm2_squared (that sum rounded once).
template <class T>
struct ComplexReductions {
  Kokkos::complex<T> sum, dot;
  T asum, nrm2, nrm2_squared;
};

template <class T>
ComplexReductions<T> exact_complex_reductions(const std::vector<Kokkos::complex<T>>& x,
                                              const std::vector<Kokkos::complex<T>>& y) {
  ExactSum re, im, abs, squares, dot_re, dot_im;
  std::vector<T> parts;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double xr = x[i].real(), xi = x[i].imag(), yr = y[i].real(), yi = y[i].imag();
    re.add(xr);
    im.add(xi);
    abs.add(std::fabs(xr));
    abs.add(std::fabs(xi));
    squares.add_product(xr, xr);
    squares.add_product(xi, xi);
    dot_re.add_product(xr, yr);
    dot_re.add_product(xi, yi);
    dot_im.add_product(xr, yi);
    dot_im.add_product(-xi, yr);
    parts.push_back(x[i].real());
    parts.push_back(x[i].imag());
  }
  ComplexReductions<T> r;
  r.sum = Kokkos::complex<T>(rounded<T>(re), rounded<T>(im));
  r.dot = Kokkos::complex<T>(rounded<T>(dot_re), rounded<T>(dot_im));
  r.asum = rounded<T>(abs);
  r.nrm2 = exact_nrm2(parts);
  r.nrm2_squared = rounded<T>(squares);
  return r;
}

// Output i of complex exgemv's y = alpha op(A) x + beta y (trans 'N', 'T' or 'C'; a[i][k] =
// A(i, k)), each part the exact value of the formula of Kokkos::complex's operators rounded once:
// alpha == 0 (or no terms) reads neither A nor x, beta == 0 not y.
template <class T>
Kokkos::complex<T> exact_gemv_entry(char trans,
                                    const std::vector<std::vector<Kokkos::complex<T>>>& a,
                                    std::size_t i, const std::vector<Kokkos::complex<T>>& x,
                                    Kokkos::complex<T> alpha, Kokkos::complex<T> beta,
                                    Kokkos::complex<T> y) {
  using C = Kokkos::complex<T>;
  const std::size_t n = x.size();
  const bool drop_sum = alpha == C(T(0), T(0)) || n == 0;
  const bool read_y = beta != C(T(0), T(0));
  // Part 0 of S: re(a) re(x) - im(a) im(x); part 1: im(a) re(x) + re(a) im(x).
  std::vector<std::vector<double>> f(2), g(2);
  for (std::size_t k = 0; k < n && !drop_sum; ++k) {
    const C e = trans == 'N' ? a[i][k] : a[k][i];
    const double re = e.real(), im = trans == 'C' ? -double(e.imag()) : double(e.imag());
    const double xr = x[k].real(), xi = x[k].imag();
    f[0].insert(f[0].end(), {re, -im});
    g[0].insert(g[0].end(), {xr, xi});
    f[1].insert(f[1].end(), {im, re});
    g[1].insert(g[1].end(), {xr, xi});
  }
  const double ar = alpha.real(), ai = alpha.imag(), br = beta.real(), bi = beta.imag();
  const std::vector<double> ys{double(y.real()), double(y.imag())};
  const bool to_float = sizeof(T) == sizeof(float);
  const auto part = [&](std::vector<double> al, std::vector<double> be) {
    if (drop_sum) al.clear();
    return T(exact_scaled_sums(al, f, g, be, ys, read_y, to_float));
  };
  return C(part({ar, -ai}, {br, -bi}), part({ai, ar}, {bi, br}));
}

}  // namespace ExKokkosTest

#endif  // EXKOKKOSTEST_COMPLEX_HPP
