// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// MPFR oracles for the level-2 routines: one element of gemv rounded once, and the correctly
// rounded solution of a triangular system. Finite inputs only (special values are tested by
// hand); results may still overflow to +-inf.
#ifndef EXKOKKOSTEST_GEMVORACLE_HPP
#define EXKOKKOSTEST_GEMVORACLE_HPP

#include <cstddef>
#include <vector>

namespace ExKokkosTest {

// RN(alpha * sum_j row[j] x[j] + beta * y), rounded once. BLAS conventions: beta == 0 does not
// read y, alpha == 0 gives RN(beta * y) (+0 when beta == 0 too) without reading row or x. An
// exact zero is +0 after cancellation; otherwise it carries the IEEE sign of
// alpha * (+-0) + beta * y, the sum's own zero being -0 only when all its products were -0.
double exact_gemv_entry(double alpha, const std::vector<double>& row, const std::vector<double>& x,
                        double beta, double y);
float exact_gemv_entry(float alpha, const std::vector<float>& row, const std::vector<float>& x,
                       float beta, float y);

// The solution of op(A) x = b, A n x n row-major (a[i * n + j] = A(i, j)), uplo 'L'/'U', trans
// 'N'/'T', diag 'N'/'U' (the diagonal not read), each component the exact rational solution
// rounded once to double. The substitution runs in MPFR with 30000 bits: each step's relative
// error is below 2^-29990, and the rounding to double can go wrong only if the exact solution lies
// within that distance of a midpoint between doubles (not exact in theory, never seen in
// practice; condition numbers up to 1e40 lose about 133 of the 30000 bits).
std::vector<double> exact_trsv(char uplo, char trans, char diag, const std::vector<double>& a,
                               std::size_t n, const std::vector<double>& b);

}  // namespace ExKokkosTest

#endif  // EXKOKKOSTEST_GEMVORACLE_HPP
