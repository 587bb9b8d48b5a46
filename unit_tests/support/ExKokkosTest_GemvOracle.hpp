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

// RN(sum_j alpha[j] S_j + sum_p beta[p] y[p]) with S_j = sum_k a[j][k] b[j][k] exactly, rounded once
// to float when to_float, else to double (one part of a complex gemv element: S_0 and S_1 are
// the parts of the sum). The products beta[p] y[p] are left out when !read_y. An exact zero is +0
// after cancellation; when every term is an exact zero it is their IEEE sum, S_j's zero being -0
// only when all its products were -0.
double exact_scaled_sums(const std::vector<double>& alpha,
                         const std::vector<std::vector<double>>& a,
                         const std::vector<std::vector<double>>& b,
                         const std::vector<double>& beta, const std::vector<double>& y,
                         bool read_y, bool to_float);

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
