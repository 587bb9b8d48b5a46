// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The conjugate-gradient method as Kokkos applications write it: a CRS matrix-vector product, axpby
// updates in parallel_for, and a dot product that is a template parameter, so that the same
// solver runs once with an ordinary dot product and once with ExKokkos::exdot.
//
// Whether the iterates are reproducible depends on every operation being deterministic per
// element. The SpMV (one thread per row, fixed order) and the axpby updates (one element per
// iteration of a parallel_for) are; the dot products are the only reductions, the only place
// where the thread count changes how the rounding errors fall. With exdot they are exact and
// rounded once, so every iterate, the residual history and the iteration count are the same bits
// for any thread count.
#ifndef EXKOKKOSEXAMPLE_CG_HPP
#define EXKOKKOSEXAMPLE_CG_HPP

#include "ExKokkosExample_CrsMatrix.hpp"

#include <cmath>
#include <vector>

namespace ExKokkosExample {

// y(i) = a x(i) + b y(i): each element on its own, two roundings in a fixed order.
template <class XView, class YView>
struct AxpbyFunctor {
  double a;
  XView x;
  double b;
  YView y;
  KOKKOS_INLINE_FUNCTION void operator()(const int i) const { y(i) = a * x(i) + b * y(i); }
};

template <class ExecSpace, class XView, class YView>
void axpby(const ExecSpace& space, double a, const XView& x, double b, const YView& y) {
  Kokkos::parallel_for("ExKokkosExample::axpby",
                       Kokkos::RangePolicy<ExecSpace>(space, 0, y.extent(0)),
                       AxpbyFunctor<XView, YView>{a, x, b, y});
}

struct CgResult {
  int iterations = 0;
  bool converged = false;
  std::vector<double> residual_history;  // ||r_k||^2 as the solver computed it, k = 0, 1, ...
};

// Solves A x = b from x = 0 until ||r_k|| <= tolerance ||b|| or max_iterations steps.
// dot(space, u, v) returns the dot product of two vectors.
template <class ExecSpace, class Matrix, class Vector, class Dot>
CgResult conjugate_gradient(const ExecSpace& space, const Matrix& A, const Vector& b,
                            const Vector& x, const Dot& dot, double tolerance, int max_iterations) {
  const std::size_t n = b.extent(0);
  Vector r("r", n), p("p", n), Ap("Ap", n);
  Kokkos::deep_copy(space, x, 0.0);
  Kokkos::deep_copy(space, r, b);  // r = b - A 0
  Kokkos::deep_copy(space, p, r);
  CgResult result;
  double rr = dot(space, r, r);
  result.residual_history.push_back(rr);
  const double stop = tolerance * tolerance * rr;
  while (result.iterations < max_iterations && rr > stop) {
    spmv(space, A, p, Ap);
    const double alpha = rr / dot(space, p, Ap);
    axpby(space, alpha, p, 1.0, x);    // x = x + alpha p
    axpby(space, -alpha, Ap, 1.0, r);  // r = r - alpha A p
    const double rr_next = dot(space, r, r);
    axpby(space, 1.0, r, rr_next / rr, p);  // p = r + beta p
    rr = rr_next;
    result.residual_history.push_back(rr);
    ++result.iterations;
  }
  result.converged = rr <= stop;
  return result;
}

}  // namespace ExKokkosExample

#endif  // EXKOKKOSEXAMPLE_CG_HPP
