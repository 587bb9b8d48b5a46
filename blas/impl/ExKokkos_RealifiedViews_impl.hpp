// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A Kokkos::complex view's memory seen as a real view (Kokkos::complex<T> is laid out as T[2],
// real part first), so that the real kernels read complex data as they read real data: their
// lanes load consecutive reals and their terms are plain products. Used where a complex routine's
// sums are real sums over the parts (complex exdot's real part, complex exgemv's pass 1), and
// where the real kernels round into a complex result's parts.
#ifndef EXKOKKOS_REALIFIEDVIEWS_IMPL_HPP
#define EXKOKKOS_REALIFIEDVIEWS_IMPL_HPP

#include <impl/ExKokkos_CanonicalViews_impl.hpp>
#include <impl/ExKokkos_ViewTraits_impl.hpp>

#include <cstddef>
#include <type_traits>
#include <utility>

namespace ExKokkos {
namespace Impl {

template <class View>
using realified_t = typename complex_traits<typename View::non_const_value_type>::real_type;

// A contiguous complex vector of n elements as the 2n reals re(x_0), im(x_0), re(x_1), ...
// (x.stride(0) must be 1).
template <class ExecSpace, class XView>
auto realified_vector(const XView& x) {
  using Real = realified_t<XView>;
  using Result =
      canonical_view_t<ExecSpace, const Real, 1, Kokkos::LayoutLeft, typename XView::memory_space>;
  return Result(reinterpret_cast<const Real*>(x.data()), 2 * x.extent(0));
}

// Whether dimension d of A has stride 1 and the other a stride of at least its extent (a plain
// LayoutLeft or LayoutRight matrix or a subview of one), so that realified_matrix<d> can view A
// as reals.
template <int D, class AView>
bool realifiable(const AView& A) {
  return A.stride(D) == 1 && A.stride(1 - D) >= A.extent(D);
}

// A's memory as a real matrix with dimension D doubled: D = 0, the 2m x n LayoutLeft matrix
// R(2i + p, k) = part p of A(i, k) (Kokkos::complex<T> is laid out as T[2], real part first);
// D = 1, the m x 2n LayoutRight matrix R(i, 2k + p). Both are subviews of a real view over A's
// span, which keep the layout and the other dimension's stride (twice A's).
template <int D, class ExecSpace, class AView>
auto realified_matrix(const AView& A) {
  using Real = realified_t<AView>;
  using Layout = typename std::conditional<D == 1, Kokkos::LayoutRight, Kokkos::LayoutLeft>::type;
  using Whole = Kokkos::View<const Real**, Layout, typename AView::memory_space,
                             Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  using Result = canonical_view_t<ExecSpace, const Real, 2, Layout, typename AView::memory_space>;
  const Real* data = reinterpret_cast<const Real*>(A.data());
  const auto doubled = std::make_pair(std::size_t(0), 2 * A.extent(D));
  if constexpr (D == 1)
    return Result(
        Kokkos::subview(Whole(data, A.extent(0), 2 * A.stride(0)), Kokkos::ALL(), doubled));
  else
    return Result(
        Kokkos::subview(Whole(data, 2 * A.stride(1), A.extent(1)), doubled, Kokkos::ALL()));
}

// Part q of x as a real strided view of n elements over x's memory (stride twice x's).
template <class ExecSpace, class XView>
auto realified_part(const XView& x, int q) {
  using Real = realified_t<XView>;
  using Part = canonical_view_t<ExecSpace, const Real, 1, Kokkos::LayoutStride,
                                typename XView::memory_space>;
  return Part(reinterpret_cast<const Real*>(x.data()) + q,
              Kokkos::LayoutStride(x.extent(0), 2 * x.stride(0)));
}

// The two parts of a canonical rank-0 complex result as a canonical rank-1 view of two reals,
// whose element(parts, 0) and element(parts, 1) the real kernels round into.
template <class RView,
          class Real = typename complex_traits<typename RView::non_const_value_type>::real_type>
canonical_view_t<typename RView::execution_space, Real, 1, Kokkos::LayoutLeft,
                 typename RView::memory_space>
complex_parts(const RView& r) {
  static_assert(sizeof(typename RView::non_const_value_type) == 2 * sizeof(Real),
                "Kokkos::complex<T> holds two T");
  return canonical_view_t<typename RView::execution_space, Real, 1, Kokkos::LayoutLeft,
                          typename RView::memory_space>(reinterpret_cast<Real*>(r.data()), 2);
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_REALIFIEDVIEWS_IMPL_HPP
