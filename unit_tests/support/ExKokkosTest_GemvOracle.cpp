// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "ExKokkosTest_GemvOracle.hpp"

#include "ExKokkosTest_Oracle.hpp"

#include <mpfr.h>

#include <cstdio>
#include <cstdlib>
#include <memory>

namespace ExKokkosTest {

namespace {

// alpha * S + beta * y exactly: S has at most ~4300 significant bits between 2^-2148 and 2^2112,
// alpha * S at most 53 more, and the sum spans 2^-3222 .. 2^3200: 6700 bits hold it exactly.
template <class T>
T gemv_entry(T alpha, const std::vector<T>& row, const std::vector<T>& x, T beta, T y) {
  if (alpha == T(0)) return beta == T(0) ? T(0) : T(double(beta) * double(y));
  ExactSum s;
  for (std::size_t j = 0; j < row.size(); ++j) s.add_product(double(row[j]), double(x[j]));
  const bool read_y = beta != T(0);
  const bool y_zero = !read_y || y == T(0);
  if (mpfr_zero_p(s.value())) {
    // alpha * (+-0): an exact zero whose sign IEEE multiplication decides.
    const double s_zero =
        sizeof(T) == sizeof(double) ? double(s.round_double()) : double(s.round_float());
    const double z1 = double(alpha) * s_zero;
    if (!y_zero) return T(double(beta) * double(y));  // one rounding (float products exact)
    return T(read_y ? z1 + double(beta) * double(y) : z1);
  }
  mpfr_t total, term;
  mpfr_init2(total, 6700);
  mpfr_init2(term, 6700);
  require_exact(mpfr_mul_d(total, s.value(), double(alpha), MPFR_RNDN), "alpha * S");
  if (!y_zero) {
    require_exact(mpfr_set_d(term, double(beta), MPFR_RNDN), "beta");
    require_exact(mpfr_mul_d(term, term, double(y), MPFR_RNDN), "beta * y");
    require_exact(mpfr_add(total, total, term, MPFR_RNDN), "alpha S + beta y");
  }
  T result;
  if (mpfr_zero_p(total))
    result = T(0);  // cancellation: +0
  else
    result = sizeof(T) == sizeof(double) ? T(round_to_double(total)) : T(round_to_float(total));
  mpfr_clear(total);
  mpfr_clear(term);
  return result;
}

}  // namespace

double exact_gemv_entry(double alpha, const std::vector<double>& row, const std::vector<double>& x,
                        double beta, double y) {
  return gemv_entry(alpha, row, x, beta, y);
}

float exact_gemv_entry(float alpha, const std::vector<float>& row, const std::vector<float>& x,
                       float beta, float y) {
  return gemv_entry(alpha, row, x, beta, y);
}

double exact_scaled_sums(const std::vector<double>& alpha,
                         const std::vector<std::vector<double>>& a,
                         const std::vector<std::vector<double>>& b,
                         const std::vector<double>& beta, const std::vector<double>& y,
                         bool read_y, bool to_float) {
  // Each alpha_j S_j spans 2^-3222 .. 2^3136 and each beta_p y_p 2^-2148 .. 2^2048: 6400 bits
  // and a few for the sum hold the total exactly.
  mpfr_t total, term;
  mpfr_init2(total, 6500);
  mpfr_init2(term, 6500);
  mpfr_set_zero(total, 1);
  bool all_zero = true;
  double zero_sum = 0.0;  // the IEEE sum of the terms' signed zeros, when every term is zero
  bool first = true;
  const auto add_zero = [&](double z) {
    zero_sum = first ? z : zero_sum + z;
    first = false;
  };
  for (std::size_t j = 0; j < alpha.size(); ++j) {
    ExactSum s;
    for (std::size_t k = 0; k < a[j].size(); ++k) s.add_product(a[j][k], b[j][k]);
    const bool s_zero = mpfr_zero_p(s.value()) != 0;
    if (alpha[j] == 0.0 || s_zero) {
      // A signed zero: S's own, or alpha's zero times S's sign.
      add_zero(alpha[j] * (s_zero ? s.round_double() : double(s.sign())));
      continue;
    }
    all_zero = false;
    require_exact(mpfr_mul_d(term, s.value(), alpha[j], MPFR_RNDN), "alpha * S");
    require_exact(mpfr_add(total, total, term, MPFR_RNDN), "sum");
  }
  for (std::size_t p = 0; read_y && p < beta.size(); ++p) {
    if (beta[p] == 0.0 || y[p] == 0.0) {
      add_zero(beta[p] * y[p]);
      continue;
    }
    all_zero = false;
    require_exact(mpfr_set_d(term, beta[p], MPFR_RNDN), "beta");
    require_exact(mpfr_mul_d(term, term, y[p], MPFR_RNDN), "beta * y");
    require_exact(mpfr_add(total, total, term, MPFR_RNDN), "sum");
  }
  double result;
  if (all_zero)
    result = zero_sum;
  else if (mpfr_zero_p(total))
    result = 0.0;  // cancellation: +0
  else
    result = to_float ? double(round_to_float(total)) : round_to_double(total);
  mpfr_clear(total);
  mpfr_clear(term);
  return result;
}

std::vector<double> exact_trsv(char uplo, char trans, char diag, const std::vector<double>& a,
                               std::size_t n, const std::vector<double>& b) {
  const mpfr_prec_t prec = 30000;
  const bool lower_op = (uplo == 'L') != (trans == 'T');
  auto at = [&](std::size_t i, std::size_t j) {
    return trans == 'T' ? a[j * n + i] : a[i * n + j];
  };
  // Not std::vector<mpfr_t>: mpfr_t is an array type, which nvcc's front end (rightly) refuses
  // as a vector element.
  const std::unique_ptr<mpfr_t[]> x(new mpfr_t[n]);
  for (std::size_t i = 0; i < n; ++i) mpfr_init2(x[i], prec);
  mpfr_t r, p;
  mpfr_init2(r, prec);
  mpfr_init2(p, prec);
  std::vector<double> out(n);
  for (std::size_t q = 0; q < n; ++q) {
    const std::size_t i = lower_op ? q : n - 1 - q;
    mpfr_set_d(r, b[i], MPFR_RNDN);
    for (std::size_t s = 0; s < q; ++s) {
      const std::size_t j = lower_op ? s : n - 1 - s;
      mpfr_mul_d(p, x[j], at(i, j), MPFR_RNDN);
      mpfr_sub(r, r, p, MPFR_RNDN);
    }
    if (diag == 'U')
      mpfr_set(x[i], r, MPFR_RNDN);
    else
      mpfr_div_d(x[i], r, at(i, i), MPFR_RNDN);
  }
  for (std::size_t i = 0; i < n; ++i) {
    out[i] = mpfr_zero_p(x[i]) ? 0.0 : round_to_double(x[i]);
    mpfr_clear(x[i]);
  }
  mpfr_clear(r);
  mpfr_clear(p);
  return out;
}

}  // namespace ExKokkosTest
