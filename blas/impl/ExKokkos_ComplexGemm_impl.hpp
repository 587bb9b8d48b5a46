// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// exgemm on Kokkos::complex values, one column of C at a time:
//     C(:, j) = alpha op(A) op(B)(:, j) + beta C(:, j)
// is complex exgemv (blas/impl/ExKokkos_ComplexGemv_impl.hpp), whose every output is what exgemm
// defines for c_ij: each part the exact value of the formula Kokkos::complex's operators evaluate
// for alpha sum_k op(A)_ik op(B)_kj + beta c_ij, rounded once. So exgemm's bits are exgemv's, and
// reproducible as they are. Column j of op(B) is column j of B ("N"), row j of B ("T", a strided
// view), or row j of B conjugated ("C"): then op(B) is formed once in a workspace of k x n values
// (conjugation is exact). The gemm-only schedules (tiles, ozaki) run as automatic; the others,
// team, league, accumulator and expansion sizes are exgemv's.
//
// Cost: n complex exgemv calls, each reading op(A) whole (twice: complex exgemv's first pass runs
// the real engine once per part of x); no blocking for the caches across columns.
#ifndef EXKOKKOS_COMPLEXGEMM_IMPL_HPP
#define EXKOKKOS_COMPLEXGEMM_IMPL_HPP

#include "ExKokkos_ComplexGemv_impl.hpp"

#include <ExKokkos_Options.hpp>

namespace ExKokkos {
namespace Impl {

// op(B) = B^H into a k x n workspace: W(l, j) = conj(B(j, l)).
template <class BView, class WView>
struct ConjugateTransposeFunctor {
  BView B;
  WView W;
  std::int64_t k;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t o) const {
    const std::int64_t l = o % k, j = o / k;
    W(l, j) = Kokkos::conj(B(j, l));
  }
};

// The complex path of gemm_entry: alpha != 0, k > 0 and C not empty (the caller's business).
template <class ExecSpace, class AView, class BView, class CView>
void complex_gemm(const ExecSpace& space, bool trans_a, bool conj_a, bool trans_b, bool conj_b,
                  typename CView::const_value_type alpha, const AView& A, const BView& B,
                  typename CView::const_value_type beta, const CView& C, const Options& options) {
  using T = typename CView::non_const_value_type;
  Options o = options;
  if (o.schedule == Schedule::tiles || o.schedule == Schedule::ozaki)
    o.schedule = Schedule::automatic;
  const std::int64_t n = static_cast<std::int64_t>(C.extent(1));
  // Column j of op(B) as one strided view type, whichever of b's dimensions it runs along.
  using X = Kokkos::View<const T*, Kokkos::LayoutStride, typename CView::memory_space,
                         Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  const auto columns = [&](const auto& b, bool rows) {
    const std::int64_t k = static_cast<std::int64_t>(b.extent(rows ? 1 : 0));
    const std::size_t stride = rows ? b.stride(1) : b.stride(0);
    const std::size_t step = rows ? b.stride(0) : b.stride(1);  // from one column to the next
    for (std::int64_t j = 0; j < n; ++j) {
      const X x(b.data() + j * step, Kokkos::LayoutStride(k, stride));
      gemv_entry(space, trans_a, conj_a, alpha, A, x, beta,
                 write_view<ExecSpace>(Kokkos::subview(C, Kokkos::ALL(), j)), o);
    }
  };
  if (!conj_b) {
    columns(B, trans_b);
    return;
  }
  const std::int64_t k = static_cast<std::int64_t>(B.extent(1));
  Kokkos::View<T**, Kokkos::LayoutLeft, typename CView::memory_space> W(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "ExKokkos::exgemm op(B)"), k, n);
  Kokkos::parallel_for("ExKokkos::exgemm", Kokkos::RangePolicy<ExecSpace>(space, 0, k * n),
                       ConjugateTransposeFunctor<BView, decltype(W)>{B, W, k});
  columns(W, false);
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_COMPLEXGEMM_IMPL_HPP
