// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Triangular test systems: well-conditioned ones and ill-conditioned ones whose Skeel condition
// number follows a target (for extrsv's accuracy and refinement tests).
#ifndef EXKOKKOSTEST_TRIANGULAR_HPP
#define EXKOKKOSTEST_TRIANGULAR_HPP

#include "ExKokkosTest_Generators.hpp"

namespace ExKokkosTest {

struct TriangularSystem {
  std::size_t n = 0;
  Vector a;  // n x n row-major, lower triangular (zeros above the diagonal)
  Vector b;
};

// Diagonal in [1, 2) with random signs, off-diagonal U[-1, 1) / n, b U[-1, 1).
TriangularSystem random_lower_triangular(std::size_t n, Rng& rng);

// Ill-conditioned in the sense of Skeel, cond(T, x) = || |T^-1| |T| |x| || / ||x||, aiming at
// target_cond (1e5 .. 1e40 for n around 20 .. 100). Construction (our own, after the idea of
// Langlois and Louvet's generator, "Solving triangular systems more accurately and efficiently",
// 2005: make the substitution cancel): unit-like diagonal, every entry below it -c (1 + u/4)
// with u uniform in [-1, 1), so that |T^-1| grows like (1 + c)^(i - j); c is chosen so that
// (1 + c)^(n - 1) is the target. b = RN(T x) for x uniform in [-1, 1): the solution is O(1) while
// T's rows are large, which is what makes the system, not just the matrix, ill-conditioned.
// Limit: rounding b moves the exact solution by about u cond |x|, which caps the achieved
// condition near 1e16 .. 1e18 whatever the target beyond that. Making b = T x exact (short
// entries and x on a grid) lifts the cap but makes every operation of a plain substitution exact
// too, which defeats the accuracy comparison; a generator that has both is still to be written.
TriangularSystem ill_conditioned_lower_triangular(std::size_t n, double target_cond, Rng& rng);

// cond(T, x) for the exact solution x of the system (estimated in long double).
double skeel_condition(const TriangularSystem& s);

}  // namespace ExKokkosTest

#endif  // EXKOKKOSTEST_TRIANGULAR_HPP
