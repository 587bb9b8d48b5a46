// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ExKokkos::extrsv: solves op(A) x = b in place for a triangular A, every x_i =
// RN(RN(b_i - sum_j op(A)_ij x_j) / op(A)_ii) with the sum exact, so the solution is bitwise the
// same on every backend, thread count, block size and schedule (ExTRSV of the ExBLAS papers).
//
//   ExKokkos::extrsv(space, "L", "N", "N", A, b);   // uplo "L"/"U", trans "N"/"T"/"C",
//   ExKokkos::extrsv("U", "T", "U", A, b);          // diag "N" (non-unit) / "U" (unit)
//
// Only the triangle named by uplo is read (not the diagonal when diag is "U"). A zero or NaN on
// the diagonal is not an error: the IEEE division gives inf or NaN, which propagate, as in BLAS.
// Non-square A, a b whose extent differs, or an unknown uplo/trans/diag throw
// std::invalid_argument. Value types double, float and their Kokkos::complex; any layout,
// strided subviews.
//
// Kokkos::complex values: the same definition with each part of each RN rounded once: the parts
// of b_i - sum_j op(A)_ij x_j are exact sums, each rounded once, and each part of the quotient by
// op(A)_ii is the exact quotient of its exact numerator and |op(A)_ii|^2, rounded once (exinvscal's
// division; by a zero diagonal it gives +-inf or NaN part by part). trans "C" (or "H") conjugates
// A. The refinement's residual and correction are rounded part by part too.
//
// Iterative refinement (options.refinement_steps = k > 0): up to k steps of r = RN(b - op(A) x)
// with an exact residual, d = op(A)^-1 r, x = RN(x + d), stopping when x no longer changes; it
// approaches the correctly rounded solution (ExBLAS, Alg. 6). Returns the number of refinement
// steps taken (0 without refinement).
#ifndef EXKOKKOS_TRSV_HPP
#define EXKOKKOS_TRSV_HPP

#include "ExKokkos_Gemv.hpp"
#include "impl/ExKokkos_ComplexTrsv_impl.hpp"
#include "impl/ExKokkos_Trsv_impl.hpp"

namespace ExKokkos {
namespace Impl {

// The entry point, on canonical views (common/impl/ExKokkos_CanonicalViews_impl.hpp), after the
// arguments were checked. op(A) is lower triangular when A is lower and not transposed, or upper
// and transposed; otherwise the substitution runs backwards (reversed). The variant is a pair of
// strides of the operand, not a type: the eight share the instantiations. Complex values: the
// substitution of ExKokkos_ComplexTrsv_impl.hpp, A conjugated when asked (for real values
// `conjugated` changes nothing).
template <class ExecSpace, class AView, class BView>
int trsv_entry(const ExecSpace& space, bool lower, bool transposed, bool conjugated, bool unit,
               const AView& A, const BView& b, const Options& options) {
  if constexpr (is_exact_complex<typename BView::non_const_value_type>()) {
    using Real = magnitude_t<typename BView::non_const_value_type>;
    const auto tri = ComplexTriangle<Real>::make(A, transposed, conjugated, lower == transposed);
    return complex_solve_triangular(space, tri, b, unit, options, "ExKokkos::extrsv");
  } else {
    (void)conjugated;
    const auto tri = triangle_operand(A, transposed, lower == transposed);
    return with_unit_outputs<ExecSpace>(tri.op, [&](const auto& op) {
      using Tri = TriangleOperand<std::decay_t<decltype(op)>>;
      return solve_triangular(space, Tri{op, tri.n, tri.reversed}, b, unit, options,
                              "ExKokkos::extrsv");
    });
  }
}

}  // namespace Impl

template <class ExecSpace, class AView, class BView,
          typename std::enable_if<Impl::is_space<ExecSpace>() && Impl::is_rank2_view<AView>() &&
                                      Impl::is_rank1_view<BView>(),
                                  int>::type = 0>
int extrsv(const ExecSpace& space, const char uplo[], const char trans[], const char diag[],
           const AView& A, const BView& b, const Options& options = {}) {
  Impl::require_accessible<ExecSpace, AView>();
  Impl::require_accessible<ExecSpace, BView>();
  using T = typename BView::non_const_value_type;
  static_assert(Impl::is_exact_value<T>(),
                "ExKokkos::extrsv: b must hold double, float or their Kokkos::complex");
  static_assert(std::is_same<T, typename AView::non_const_value_type>::value,
                "ExKokkos::extrsv: A and b must hold the same value type");
  static_assert(!std::is_const<typename BView::value_type>::value,
                "ExKokkos::extrsv: b must not be const");
  const char* routine = "ExKokkos::extrsv";
  const Impl::HostCall<ExecSpace> call(space, routine);
  Impl::validate_options(space, routine, Impl::OptionUses::trsv(), options,
                         Impl::ProblemFacts{std::int64_t(A.extent(0))});
  const Impl::TriangularModes modes = Impl::parse_triangular_modes(routine, uplo, trans, diag);
  if (A.extent(0) != A.extent(1) || b.extent(0) != A.extent(0)) {
    std::ostringstream msg;
    msg << routine << ": A must be square and b match it, but A is " << A.extent(0) << " x "
        << A.extent(1) << " and b.extent(0) = " << b.extent(0);
    throw std::invalid_argument(msg.str());
  }
  return Impl::trsv_entry(space, modes.lower, modes.transposed, modes.conjugated, modes.unit,
                          Impl::read_view<ExecSpace>(A), Impl::write_view<ExecSpace>(b), options);
}

template <class AView, class BView,
          typename std::enable_if<Impl::is_rank2_view<AView>() && Impl::is_rank1_view<BView>(),
                                  int>::type = 0>
int extrsv(const char uplo[], const char trans[], const char diag[], const AView& A, const BView& b,
           const Options& options = {}) {
  return extrsv(typename BView::execution_space(), uplo, trans, diag, A, b, options);
}

}  // namespace ExKokkos

#endif  // EXKOKKOS_TRSV_HPP
