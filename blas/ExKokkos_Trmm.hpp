// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ExKokkos::extrmm: B = alpha op(A) B (side "L") or B = alpha B op(A) (side "R") for a triangular
// A (KokkosBlas::trmm, BLAS dtrmm), every element correctly rounded once:
// b_ij = RN(alpha * sum_k op(A)_ik b_kj) (side L; side R: RN(alpha * sum_k b_ik op(A)_kj)) with
// the sum and its product with alpha exact, so the result is bitwise the same on every backend,
// thread count and layout.
//
//   ExKokkos::extrmm(space, "L", "L", "N", "N", alpha, A, B);   // side, uplo, trans, diag
//   ExKokkos::extrmm("R", "U", "T", "U", alpha, A, B);          // B's default execution space
//
// How: exgemm with beta = 0 (its definition is the one above) of the full matrix T that A's
// triangle stands for, copied into a temporary: the triangle named by uplo, ones on the diagonal
// when diag is "U", zeros elsewhere. The copy is exact and a zero adds nothing to an exact sum, so
// exgemm's element is RN(alpha * the triangular sum); the one place the zeros show is the sign of
// an exact zero sum, which follows exgemm's rule for every product of the row, theirs included.
// The product goes into a temporary (B is both an operand and the result, which exgemm refuses),
// copied into B at the end.
//
// Conventions as BLAS: alpha == 0 sets B to zeros without reading A or B; only the triangle named
// by uplo is read (not the diagonal when diag is "U"). Unknown side/uplo/trans/diag, a non-square
// A or one whose order is not B's rows (side L) or columns (side R) throw std::invalid_argument
// before anything is written. Value types double, float and their Kokkos::complex (each part of
// each element its exact value rounded once: complex exgemm's; trans "C" or "H" conjugates A);
// any layout, strided subviews.
//
// Cost: exgemm's on the full n x n T (the zeros are multiplied too: about twice the work of the
// triangle alone), plus the two temporaries (n^2 and m n elements).
#ifndef EXKOKKOS_TRMM_HPP
#define EXKOKKOS_TRMM_HPP

#include "ExKokkos_Gemm.hpp"
#include "ExKokkos_Scal.hpp"

#include <impl/ExKokkos_ArgumentChecks_impl.hpp>
#include <impl/ExKokkos_CanonicalViews_impl.hpp>

namespace ExKokkos {
namespace Impl {

// T(i, j) for A's triangle: A(i, j) inside it, 1 on a unit diagonal, 0 elsewhere; only the triangle
// named by uplo is read.
template <class TView, class AView>
struct FullTriangle {
  using T = typename TView::non_const_value_type;
  TView full;
  AView A;
  std::int64_t n;
  bool lower, unit;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t o) const {
    const std::int64_t i = o % n, j = o / n;
    if (i == j)
      full(i, j) = unit ? T(1) : T(A(i, j));
    else
      full(i, j) = (lower ? i > j : i < j) ? T(A(i, j)) : T(0);
  }
};

// The entry point, on canonical views, after the arguments were checked.
template <class ExecSpace, class AView, class BView>
void trmm_entry(const ExecSpace& space, const TriangularModes& modes,
                typename BView::const_value_type alpha, const AView& A, const BView& B) {
  using T = typename BView::non_const_value_type;
  const char* routine = "ExKokkos::extrmm";
  if (B.extent(0) == 0 || B.extent(1) == 0) return;
  if (alpha == T(0)) {  // BLAS: A and B are not read
    scal_columns<ScalFunctor>(space, routine, B, T(0), B);
    return;
  }
  // LayoutLeft temporaries: one instantiation of exgemm's kernels for every layout of A and B.
  using Matrix = Kokkos::View<T**, Kokkos::LayoutLeft, typename ExecSpace::memory_space>;
  const std::int64_t n = static_cast<std::int64_t>(A.extent(0));
  const Matrix full(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "ExKokkos::extrmm::A"),
                    n, n);
  const Matrix product(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "ExKokkos::extrmm::B"), B.extent(0),
      B.extent(1));
  const auto t = write_view<ExecSpace>(full);
  Kokkos::parallel_for(routine, Kokkos::RangePolicy<ExecSpace>(space, 0, n * n),
                       FullTriangle<decltype(t), AView>{t, A, n, modes.lower, modes.unit});
  const auto a = read_view<ExecSpace>(full);
  const auto b = read_view<ExecSpace>(B);
  const auto c = write_view<ExecSpace>(product);
  // trans "C" conjugates A (for real values parse_conjugate's flag changes nothing).
  const bool conj = modes.conjugated && is_exact_complex<T>();
  if (modes.left)
    gemm_entry(space, modes.transposed, conj, false, false, alpha, a, b, T(0), c, Options{});
  else
    gemm_entry(space, false, false, modes.transposed, conj, alpha, b, a, T(0), c, Options{});
  Kokkos::deep_copy(space, B, c);
}

}  // namespace Impl

template <class ExecSpace, class AView, class BView,
          typename std::enable_if<Impl::is_space<ExecSpace>() && Impl::is_rank2_view<AView>() &&
                                      Impl::is_rank2_view<BView>(),
                                  int>::type = 0>
void extrmm(const ExecSpace& space, const char side[], const char uplo[], const char trans[],
            const char diag[], typename BView::const_value_type& alpha, const AView& A,
            const BView& B) {
  Impl::require_accessible<ExecSpace, AView>();
  Impl::require_accessible<ExecSpace, BView>();
  using T = typename BView::non_const_value_type;
  static_assert(Impl::is_exact_value<T>(),
                "ExKokkos::extrmm: B must hold double, float or their Kokkos::complex");
  static_assert(std::is_same<T, typename AView::non_const_value_type>::value,
                "ExKokkos::extrmm: A and B must hold the same value type");
  static_assert(!std::is_const<typename BView::value_type>::value,
                "ExKokkos::extrmm: B must not be const");
  const char* routine = "ExKokkos::extrmm";
  const Impl::HostCall<ExecSpace> call(space, routine);
  const Impl::TriangularModes modes =
      Impl::parse_triangular_modes(routine, side, uplo, trans, diag);
  Impl::check_triangular_extents(routine, modes.left, A, B);
  Impl::trmm_entry(space, modes, alpha, Impl::read_view<ExecSpace>(A),
                   Impl::write_view<ExecSpace>(B));
}

template <class AView, class BView,
          typename std::enable_if<Impl::is_rank2_view<AView>() && Impl::is_rank2_view<BView>(),
                                  int>::type = 0>
void extrmm(const char side[], const char uplo[], const char trans[], const char diag[],
            typename BView::const_value_type& alpha, const AView& A, const BView& B) {
  extrmm(typename BView::execution_space(), side, uplo, trans, diag, alpha, A, B);
}

}  // namespace ExKokkos

#endif  // EXKOKKOS_TRMM_HPP
