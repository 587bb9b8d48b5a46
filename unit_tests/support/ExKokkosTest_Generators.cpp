// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "ExKokkosTest_Generators.hpp"

#include "ExKokkosTest_Oracle.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace ExKokkosTest {

namespace {

double from_bits(std::uint64_t b) {
  double x;
  std::memcpy(&x, &b, 8);
  return x;
}

double random_sign(double x, Rng& rng) {
  return (rng() & 1) ? -x : x;
}

// A double with the given biased exponent field (1..2046) and random significand bits.
double with_exponent_field(std::uint64_t field, Rng& rng) {
  return from_bits((field << 52) | (rng() & ((std::uint64_t(1) << 52) - 1)));
}

// m * 2^e for a random 53-bit m, e in [lo, hi], random sign (normal values only; the caller keeps
// the exponent inside the normal range).
double random_scaled(int lo, int hi, Rng& rng) {
  const int e = std::uniform_int_distribution<int>(lo, hi)(rng);
  return random_sign(std::ldexp(std::uniform_real_distribution<double>(1.0, 2.0)(rng), e), rng);
}

double ulp_of(double x) {
  const double ax = std::fabs(x);
  return std::nextafter(ax, std::numeric_limits<double>::infinity()) - ax;
}

}  // namespace

Vector shuffled(Vector v, Rng& rng) {
  std::shuffle(v.begin(), v.end(), rng);
  return v;
}

Vector uniform(std::size_t n, Rng& rng) {
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  Vector v(n);
  for (double& x : v) x = d(rng);
  return v;
}

Vector normal(std::size_t n, Rng& rng) {
  std::normal_distribution<double> d(0.0, 1.0);
  Vector v(n);
  for (double& x : v) x = d(rng);
  return v;
}

Vector lognormal_wide(std::size_t n, Rng& rng) {
  std::uniform_real_distribution<double> u(-300.0, 300.0);
  Vector v(n);
  for (double& x : v) x = random_sign(std::pow(10.0, u(rng)), rng);
  return v;
}

Vector subnormal_only(std::size_t n, Rng& rng) {
  Vector v(n);
  for (double& x : v) {
    std::uint64_t frac = rng() & ((std::uint64_t(1) << 52) - 1);
    // Spread the magnitudes: keep a random number of low bits.
    frac >>= rng() % 52;
    if (frac == 0) frac = 1;
    x = random_sign(from_bits(frac), rng);
  }
  return v;
}

Vector full_range(std::size_t n, Rng& rng) {
  Vector v(n);
  for (double& x : v) {
    const std::uint64_t field = rng() % 2047;  // 0 (subnormal) .. 2046
    double y = with_exponent_field(field, rng);
    if (y == 0.0) y = from_bits(1);
    x = random_sign(y, rng);
  }
  return v;
}

Vector exact_cancellation(std::size_t n, Rng& rng) {
  const std::size_t half = std::max<std::size_t>(1, n / 2);
  Vector v = (rng() & 1) ? full_range(half, rng) : lognormal_wide(half, rng);
  const std::size_t m = v.size();
  for (std::size_t i = 0; i < m; ++i) v.push_back(-v[i]);
  return shuffled(std::move(v), rng);
}

Vector cancellation_to_tiny(std::size_t n, Rng& rng) {
  Vector v = exact_cancellation(n > 1 ? n - 1 : 1, rng);
  const double tiny = (rng() & 1) ? subnormal_only(1, rng)[0] : random_scaled(-1022, -900, rng);
  v.push_back(tiny);
  return shuffled(std::move(v), rng);
}

Vector rounding_ties(std::size_t n, Rng& rng) {
  Vector v;
  // The base: a normal double of either sign whose half ulp is representable (exponent >= -1021;
  // sums of doubles in the subnormal range are always exact, so they have no ties).
  const int kind = static_cast<int>(rng() % 3);
  double b = kind == 0 ? random_scaled(-1021, -1000, rng) : random_scaled(-60, 1000, rng);
  // Avoid the top binade, where half an ulp above DBL_MAX is an overflow rather than a tie.
  if (std::fabs(b) > 0x1p1020) b = std::ldexp(b, -10);
  const double half_ulp = ulp_of(b) / 2;
  v.push_back(b);
  const double sign = (rng() & 1) ? 1.0 : -1.0;
  // Half an ulp, in one piece or split into two quarters (when a quarter is representable).
  if ((rng() & 1) || half_ulp < 0x1p-1073) {
    v.push_back(sign * half_ulp);
  } else {
    v.push_back(sign * half_ulp / 2);
    v.push_back(sign * half_ulp / 2);
  }
  // A sticky term far below, sometimes, in either direction.
  const int sticky_kind = static_cast<int>(rng() % 3);
  if (sticky_kind != 0) {
    const double far =
        std::max(std::ldexp(half_ulp, -static_cast<int>(60 + rng() % 900)), 0x1p-1074);
    if (far < half_ulp) v.push_back(sticky_kind == 1 ? far : -far);
  }
  // Large values that cancel exactly, to make the sum ill-conditioned.
  while (v.size() + 2 <= n) {
    const double big = random_scaled(-100, 1000, rng);
    v.push_back(big);
    v.push_back(-big);
  }
  return shuffled(std::move(v), rng);
}

Vector nan_inf_mix(std::size_t n, Rng& rng) {
  Vector v = normal(std::max<std::size_t>(n, 1), rng);
  const int variant = static_cast<int>(rng() % 5);
  const double inf = std::numeric_limits<double>::infinity();
  const std::size_t where = rng() % v.size();
  switch (variant) {
    case 0:
      v[where] = inf;
      break;
    case 1:
      v[where] = -inf;
      break;
    case 2:
      v[where] = inf;
      v[rng() % v.size()] = -inf;
      break;
    case 3:
      v[where] = std::numeric_limits<double>::quiet_NaN();
      break;
    default:
      v[where] = (rng() & 1) ? 0.0 : -0.0;
      break;
  }
  return v;
}

Vector signed_zeros(std::size_t n, Rng& rng) {
  Vector v(n);
  const bool all_negative = rng() % 3 == 0;
  for (double& x : v) x = (all_negative || (rng() & 1)) ? -0.0 : 0.0;
  return v;
}

VectorPair full_range_products(std::size_t n, Rng& rng) {
  return {full_range(n, rng), full_range(n, rng)};
}

VectorPair overflow_cancel_products(std::size_t n, Rng& rng) {
  VectorPair p;
  const auto ordinary = [&]() {
    p.first.push_back(random_scaled(-20, 20, rng));
    p.second.push_back(random_scaled(-20, 20, rng));
  };
  while (p.first.size() + 2 <= n) {  // pairs are never split, so every overflow is cancelled
    const int kind = static_cast<int>(rng() % 3);
    // |a*b| in [2^1025, 2^1070]: beyond DBL_MAX, while ulp(a)*b stays below 2^1019.
    const int ea = std::uniform_int_distribution<int>(500, 1000)(rng);
    const int target = std::uniform_int_distribution<int>(1025, 1069)(rng);
    const double a = random_scaled(ea, ea, rng), b = random_scaled(target - ea, target - ea, rng);
    if (kind == 0) {  // a*b and -(a*b): exact cancellation
      p.first.push_back(a);
      p.second.push_back(b);
      p.first.push_back(-a);
      p.second.push_back(b);
    } else if (kind == 1) {  // a*b - a'*b with a' one ulp away: a huge but finite remainder
      p.first.push_back(a);
      p.second.push_back(b);
      p.first.push_back(-std::nextafter(a, 0.0));
      p.second.push_back(b);
    } else {
      ordinary();
    }
  }
  while (p.first.size() < n) ordinary();
  return p;
}

VectorPair underflow_products(std::size_t n, Rng& rng) {
  VectorPair p;
  for (std::size_t i = 0; i < n; ++i) {
    const int e_sum = std::uniform_int_distribution<int>(-1300, -1000)(rng);
    const int ea = std::uniform_int_distribution<int>(std::max(-1022, e_sum + 1), -1)(rng);
    double a = random_scaled(ea, ea, rng);
    double b = random_scaled(e_sum - ea, e_sum - ea, rng);
    if (rng() % 8 == 0) a = subnormal_only(1, rng)[0];
    if (std::isinf(b) || b == 0.0) b = 0x1p-300;
    p.first.push_back(a);
    p.second.push_back(b);
  }
  return p;
}

VectorPair gen_dot(std::size_t n, double cond, Rng& rng) {
  // Ogita, Rump, Oishi 2005, Algorithm 6.1. The first half: random exponents in [0, b/2] with the
  // extremes present; the second half: exponents falling linearly from b/2 to 0, each y_i chosen
  // so that the exact partial dot product cancels (computed with the exact oracle).
  n = std::max<std::size_t>(n, 6);
  const std::size_t n2 = n / 2;
  const double b = std::log2(cond);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  Vector x(n), y(n);
  std::vector<int> e(n2);
  for (std::size_t i = 0; i < n2; ++i) e[i] = static_cast<int>(std::lround(u(rng) * b / 2));
  e[0] = static_cast<int>(std::lround(b / 2)) + 1;
  e[n2 - 1] = 0;
  for (std::size_t i = 0; i < n2; ++i) {
    x[i] = std::ldexp(2 * u(rng) - 1, e[i]);
    y[i] = std::ldexp(2 * u(rng) - 1, e[i]);
  }
  ExactSum partial;
  for (std::size_t i = 0; i < n2; ++i) partial.add_product(x[i], y[i]);
  for (std::size_t i = n2; i < n; ++i) {
    const double frac = n - n2 > 1 ? double(i - n2) / double(n - n2 - 1) : 1.0;
    const int ei = static_cast<int>(std::lround(b / 2 - frac * b / 2));
    x[i] = std::ldexp(2 * u(rng) - 1, ei);
    if (x[i] == 0.0) x[i] = std::ldexp(1.0, ei);
    y[i] = (std::ldexp(2 * u(rng) - 1, ei) - partial.round_double()) / x[i];
    partial.add_product(x[i], y[i]);
  }
  // The same permutation for both vectors.
  std::vector<std::size_t> perm(n);
  for (std::size_t i = 0; i < n; ++i) perm[i] = i;
  std::shuffle(perm.begin(), perm.end(), rng);
  VectorPair out{Vector(n), Vector(n)};
  for (std::size_t i = 0; i < n; ++i) {
    out.first[i] = x[perm[i]];
    out.second[i] = y[perm[i]];
  }
  return out;
}

VectorPair gen_dot_random_cond(std::size_t n, Rng& rng) {
  const double cond = std::pow(10.0, std::uniform_real_distribution<double>(10.0, 300.0)(rng));
  return gen_dot(n, cond, rng);
}

double dot_condition(const Vector& x, const Vector& y) {
  ExactSum abs_sum, sum;
  for (std::size_t i = 0; i < x.size(); ++i) {
    abs_sum.add_product(std::fabs(x[i]), std::fabs(y[i]));
    sum.add_product(x[i], y[i]);
  }
  const double d = sum.round_double();
  return d == 0.0 ? std::numeric_limits<double>::infinity()
                  : 2 * abs_sum.round_double() / std::fabs(d);
}

std::vector<NamedSumGenerator> sum_generators() {
  return {{"uniform", uniform},
          {"normal", normal},
          {"lognormal_wide", lognormal_wide},
          {"subnormal_only", subnormal_only},
          {"full_range", full_range},
          {"exact_cancellation", exact_cancellation},
          {"cancellation_to_tiny", cancellation_to_tiny},
          {"rounding_ties", rounding_ties},
          {"nan_inf_mix", nan_inf_mix},
          {"signed_zeros", signed_zeros}};
}

std::vector<NamedProductGenerator> product_generators() {
  return {{"full_range_products", full_range_products},
          {"overflow_cancel_products", overflow_cancel_products},
          {"underflow_products", underflow_products},
          {"gen_dot", [](std::size_t n, Rng& rng) {
             return gen_dot_random_cond(std::max<std::size_t>(n, 6), rng);
           }}};
}

}  // namespace ExKokkosTest
