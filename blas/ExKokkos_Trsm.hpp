// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ExKokkos::extrsm: solves op(A) X = alpha B (side "L") or X op(A) = alpha B (side "R") for a
// triangular A, X overwriting B (KokkosBlas::trsm, BLAS dtrsm), reproducibly: every right-hand
// side is extrsv's solve, with the same Options, of RN(alpha b).
//
//   ExKokkos::extrsm(space, "L", "L", "N", "N", alpha, A, B);   // side, uplo, trans, diag
//   ExKokkos::extrsm("R", "U", "T", "U", alpha, A, B, options);  // B's default execution space
//
// Definition. Side L: column j of X is extrsv(uplo, trans, diag, A, b) on b = RN(alpha B(:, j)),
// element by element one IEEE multiplication (none when alpha == 1: 1 b is b). Side R: X op(A) =
// alpha B is op(A)^T X^T = alpha B^T, so row i of X is extrsv with trans flipped on
// b = RN(alpha B(i, :)^T). The bits of each right-hand side are therefore extrsv's (every
// component x_k = RN(RN(b_k - sum_l op(A)_kl x_l) / op(A)_kk) with the sum exact, then
// options.refinement_steps of exact-residual refinement), whatever the layout of A and B, the
// backend, thread count and Options. The scaling is its own rounding: for alpha other than 1 and
// powers of two, X is the solve of the rounded alpha b, not alpha times the solve of b.
//
// Conventions as BLAS: alpha == 0 sets B to zeros without reading A or B; only the triangle named
// by uplo is read (not the diagonal when diag is "U"); a zero or NaN on the diagonal gives inf or
// NaN, as in extrsv. Returns the largest number of refinement steps any right-hand side took (0
// without refinement). Unknown side/uplo/trans/diag, a non-square A or one whose order is not B's
// rows (side L) or columns (side R), and invalid Options throw std::invalid_argument before
// anything is written. Value types double, float and their Kokkos::complex (extrsv's complex
// definition, RN(alpha b) part by part as exscal's; trans "C" or "H" conjugates A); any layout,
// strided subviews.
//
// Each right-hand side is copied (scaled) into one contiguous work vector, solved there and copied
// back: the solves then run on the canonical view extrsv takes for Kokkos::View<T*>, so extrsm
// compiles no trsv kernel beyond extrsv's own whatever B's layout (a strided row or column would
// otherwise instantiate every kernel of the substitution again).
#ifndef EXKOKKOS_TRSM_HPP
#define EXKOKKOS_TRSM_HPP

#include "ExKokkos_Scal.hpp"
#include "ExKokkos_Trsv.hpp"

#include <impl/ExKokkos_ArgumentChecks_impl.hpp>
#include <impl/ExKokkos_CanonicalViews_impl.hpp>

namespace ExKokkos {
namespace Impl {

// The entry point, on canonical views, after the arguments were checked.
template <class ExecSpace, class AView, class BView>
int trsm_entry(const ExecSpace& space, const TriangularModes& modes,
               typename BView::const_value_type alpha, const AView& A, const BView& B,
               const Options& options) {
  using T = typename BView::non_const_value_type;
  const char* routine = "ExKokkos::extrsm";
  if (B.extent(0) == 0 || B.extent(1) == 0) return 0;
  if (alpha == T(0)) {  // BLAS: A and B are not read
    scal_columns<ScalFunctor>(space, routine, B, T(0), B);
    return 0;
  }
  // A column (side L) or row (side R) of B, as one strided type for both and every layout: only
  // the two small copies are compiled for it, never the solve.
  using Rhs = canonical_view_t<ExecSpace, T, 1, Kokkos::LayoutStride, typename BView::memory_space>;
  const std::size_t n = A.extent(0);
  const std::size_t count = B.extent(modes.left ? 1 : 0);
  const Kokkos::View<T*, typename ExecSpace::memory_space> memory(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "ExKokkos::extrsm::rhs"), n);
  const auto work = write_view<ExecSpace>(memory);
  // Side R: x^T op(A) = alpha b^T is op(A)^T x = alpha b, extrsv with trans flipped; for complex
  // values conjugation stays (op(A)^T of A^H is conj(A), transposed no more).
  const bool transposed = modes.transposed != !modes.left;
  int steps = 0;
  for (std::size_t j = 0; j < count; ++j) {
    const Rhs rhs = modes.left ? Rhs(Kokkos::subview(B, Kokkos::ALL(), j))
                               : Rhs(Kokkos::subview(B, j, Kokkos::ALL()));
    // exscal's work(k) = RN(alpha rhs(k)): the one rounding before the solve.
    scal_columns<ScalFunctor>(space, routine, work, alpha, read_view<ExecSpace>(rhs));
    const int s =
        trsv_entry(space, modes.lower, transposed, modes.conjugated, modes.unit, A, work, options);
    steps = s > steps ? s : steps;
    Kokkos::deep_copy(space, rhs, work);
  }
  return steps;
}

}  // namespace Impl

template <class ExecSpace, class AView, class BView,
          typename std::enable_if<Impl::is_space<ExecSpace>() && Impl::is_rank2_view<AView>() &&
                                      Impl::is_rank2_view<BView>(),
                                  int>::type = 0>
int extrsm(const ExecSpace& space, const char side[], const char uplo[], const char trans[],
           const char diag[], typename BView::const_value_type& alpha, const AView& A,
           const BView& B, const Options& options = {}) {
  Impl::require_accessible<ExecSpace, AView>();
  Impl::require_accessible<ExecSpace, BView>();
  using T = typename BView::non_const_value_type;
  static_assert(Impl::is_exact_value<T>(),
                "ExKokkos::extrsm: B must hold double, float or their Kokkos::complex");
  static_assert(std::is_same<T, typename AView::non_const_value_type>::value,
                "ExKokkos::extrsm: A and B must hold the same value type");
  static_assert(!std::is_const<typename BView::value_type>::value,
                "ExKokkos::extrsm: B must not be const");
  const char* routine = "ExKokkos::extrsm";
  const Impl::HostCall<ExecSpace> call(space, routine);
  // extrsv's options and bounds: each right-hand side is its solve of order A.extent(0).
  Impl::validate_options(space, routine, Impl::OptionUses::trsv(), options,
                         Impl::ProblemFacts{std::int64_t(A.extent(0))});
  const Impl::TriangularModes modes =
      Impl::parse_triangular_modes(routine, side, uplo, trans, diag);
  Impl::check_triangular_extents(routine, modes.left, A, B);
  return Impl::trsm_entry(space, modes, alpha, Impl::read_view<ExecSpace>(A),
                          Impl::write_view<ExecSpace>(B), options);
}

template <class AView, class BView,
          typename std::enable_if<Impl::is_rank2_view<AView>() && Impl::is_rank2_view<BView>(),
                                  int>::type = 0>
int extrsm(const char side[], const char uplo[], const char trans[], const char diag[],
           typename BView::const_value_type& alpha, const AView& A, const BView& B,
           const Options& options = {}) {
  return extrsm(typename BView::execution_space(), side, uplo, trans, diag, alpha, A, B, options);
}

}  // namespace ExKokkos

#endif  // EXKOKKOS_TRSM_HPP
