// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "ExKokkosTest_Triangular.hpp"

#include "ExKokkosTest_GemvOracle.hpp"

#include <algorithm>
#include <cmath>

namespace ExKokkosTest {

TriangularSystem random_lower_triangular(std::size_t n, Rng& rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  TriangularSystem s;
  s.n = n;
  s.a.assign(n * n, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < i; ++j) s.a[i * n + j] = u(rng) / double(n);
    s.a[i * n + i] = (1.0 + std::fabs(u(rng))) * (u(rng) < 0 ? -1.0 : 1.0);
  }
  for (std::size_t i = 0; i < n; ++i) s.b.push_back(u(rng));
  return s;
}

TriangularSystem ill_conditioned_lower_triangular(std::size_t n, double target_cond, Rng& rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  const double c = n > 1 ? std::pow(target_cond, 1.0 / double(n - 1)) - 1.0 : 0.0;
  TriangularSystem s;
  s.n = n;
  s.a.assign(n * n, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < i; ++j) s.a[i * n + j] = -c * (1.0 + u(rng) / 4);
    s.a[i * n + i] = 1.0 + std::ldexp(u(rng), -8);
  }
  std::vector<double> x(n);
  for (auto& v : x) v = u(rng);
  // b = RN(T x): each component rounded once from its exact value.
  for (std::size_t i = 0; i < n; ++i) {
    std::vector<double> row(s.a.begin() + i * n, s.a.begin() + (i + 1) * n);
    s.b.push_back(exact_gemv_entry(1.0, row, x, 0.0, 0.0));
  }
  return s;
}

double skeel_condition(const TriangularSystem& s) {
  const std::size_t n = s.n;
  const std::vector<double> x = exact_trsv('L', 'N', 'N', s.a, n, s.b);
  // inv = T^-1 column by column (forward substitution on unit vectors), in long double.
  std::vector<long double> inv(n * n, 0.0L);
  for (std::size_t k = 0; k < n; ++k)
    for (std::size_t i = k; i < n; ++i) {
      long double r = i == k ? 1.0L : 0.0L;
      for (std::size_t j = k; j < i; ++j) r -= (long double)s.a[i * n + j] * inv[j * n + k];
      inv[i * n + k] = r / s.a[i * n + i];
    }
  std::vector<long double> tx(n, 0.0L);  // |T| |x|
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j <= i; ++j) tx[i] += std::fabs((long double)s.a[i * n + j] * x[j]);
  long double num = 0, den = 0;
  for (std::size_t i = 0; i < n; ++i) {
    long double v = 0;
    for (std::size_t j = 0; j <= i; ++j) v += std::fabs(inv[i * n + j]) * tx[j];
    num = std::max(num, v);
    den = std::max(den, (long double)std::fabs(x[i]));
  }
  return double(num / den);
}

}  // namespace ExKokkosTest
