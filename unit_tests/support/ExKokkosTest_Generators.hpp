// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Input generators for the ExKokkos tests and benchmarks. Deterministic for a given
// std::mt19937_64 state; none touches std::random_device.
#ifndef EXKOKKOSTEST_GENERATORS_HPP
#define EXKOKKOSTEST_GENERATORS_HPP

#include <cstddef>
#include <functional>
#include <ostream>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace ExKokkosTest {

using Rng = std::mt19937_64;
using Vector = std::vector<double>;
using VectorPair = std::pair<Vector, Vector>;

// --- Sums
// ------------------------------------------------------------------------------------------
Vector uniform(std::size_t n, Rng& rng);         // U[-1, 1)
Vector normal(std::size_t n, Rng& rng);          // N(0, 1)
Vector lognormal_wide(std::size_t n, Rng& rng);  // random sign, 10^u, u ~ U[-300, 300]
Vector subnormal_only(std::size_t n, Rng& rng);  // random sign, random subnormal bit patterns
Vector full_range(std::size_t n, Rng& rng);      // random sign, exponent and significand bits,
                                                 // every finite non-zero double reachable
// About n values from the wide generators and their exact negatives, shuffled: the sum is 0.
Vector exact_cancellation(std::size_t n, Rng& rng);
// The same plus one tiny (subnormal or small) value, which is then the exact sum.
Vector cancellation_to_tiny(std::size_t n, Rng& rng);
// A double b plus terms adding up to exactly half an ulp of b (a tie), sometimes with a sticky
// term far below in either direction, mixed with large values that cancel exactly.
Vector rounding_ties(std::size_t n, Rng& rng);
// Finite data with NaN, +inf, -inf and signed zeros mixed in (variants chosen at random).
Vector nan_inf_mix(std::size_t n, Rng& rng);
// Signed zeros only (the result's sign of zero is under test).
Vector signed_zeros(std::size_t n, Rng& rng);

// --- Products ------------------------------------------------------------------------------------
// Factor pairs over the whole range (products overflow and underflow freely).
VectorPair full_range_products(std::size_t n, Rng& rng);
// Products beyond DBL_MAX that cancel exactly or nearly, plus ordinary products.
VectorPair overflow_cancel_products(std::size_t n, Rng& rng);
// Products below the subnormal range (or losing bits in it) whose exact sum is non-zero.
VectorPair underflow_products(std::size_t n, Rng& rng);
// Ill-conditioned dot products: Ogita, Rump, Oishi, "Accurate sum and dot product", SIAM J. Sci.
// Comput. 26(6), 2005, Algorithm 6.1 (GenDot). cond is the target condition number
// 2 |x|.|y| / |x.y| (1e10 .. 1e300 work); n >= 6.
VectorPair gen_dot(std::size_t n, double cond, Rng& rng);
// gen_dot with a condition number drawn from 1e10 .. 1e300.
VectorPair gen_dot_random_cond(std::size_t n, Rng& rng);
// The condition number achieved by (x, y): 2 sum |x_i y_i| / |sum x_i y_i| (computed exactly).
double dot_condition(const Vector& x, const Vector& y);

Vector shuffled(Vector v, Rng& rng);

// Named lists for value-parameterized tests.
struct NamedSumGenerator {
  std::string name;
  std::function<Vector(std::size_t, Rng&)> generate;
};
struct NamedProductGenerator {
  std::string name;
  std::function<VectorPair(std::size_t, Rng&)> generate;
};
std::vector<NamedSumGenerator> sum_generators();
std::vector<NamedProductGenerator> product_generators();

inline std::ostream& operator<<(std::ostream& os, const NamedSumGenerator& g) {
  return os << g.name;
}
inline std::ostream& operator<<(std::ostream& os, const NamedProductGenerator& g) {
  return os << g.name;
}

}  // namespace ExKokkosTest

#endif  // EXKOKKOSTEST_GENERATORS_HPP
