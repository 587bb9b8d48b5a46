// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The few view types the kernels are compiled for, as in Kokkos Kernels: a public routine
// converts its user's views to them before it calls its Impl entry point, so that View<double*>,
// its const and unmanaged variants and its contiguous subviews share one instantiation, which
// the prebuilt library (ExKokkos_ENABLE_ETI) can hold. A canonical view is
//  - unmanaged (the caller's view keeps the memory alive for the call),
//  - const where the routine only reads it,
//  - in the view's memory space, with no execution space in its type: a routine's kernels are
//    still launched on the caller's ExecSpace, while the code they inline from their operands'
//    types (the terms, the lane walks, the expansions) is compiled once for every execution space
//    of that memory (Serial and OpenMP share HostSpace's),
//  - of dynamic extents, and of a layout that is kept only where it changes the code: a rank-1
//    view with stride 1 (LayoutLeft or LayoutRight) is LayoutLeft, anything else LayoutStride; a
//    rank-2 view keeps LayoutLeft or LayoutRight (which decide the loops' order), else
//    LayoutStride.
// The conversion is a view assignment: it keeps the data pointer, extents and strides (a padded
// or subview stride included), so every element is read from the same address as before.
#ifndef EXKOKKOS_CANONICALVIEWS_IMPL_HPP
#define EXKOKKOS_CANONICALVIEWS_IMPL_HPP

#include <Kokkos_Core.hpp>

#include <type_traits>

namespace ExKokkos {
namespace Impl {

template <class T, int Rank>
struct dynamic_data;
template <class T>
struct dynamic_data<T, 0> {
  using type = T;
};
template <class T>
struct dynamic_data<T, 1> {
  using type = T*;
};
template <class T>
struct dynamic_data<T, 2> {
  using type = T**;
};
template <class T>
struct dynamic_data<T, 3> {
  using type = T***;
};

template <class Layout, int Rank>
using canonical_layout_t = typename std::conditional<
    Rank == 0, Kokkos::LayoutRight,
    typename std::conditional<
        std::is_same<Layout, Kokkos::LayoutLeft>::value ||
            std::is_same<Layout, Kokkos::LayoutRight>::value,
        typename std::conditional<Rank == 1, Kokkos::LayoutLeft, Layout>::type,
        Kokkos::LayoutStride>::type>::type;

// The canonical view of value type T (const T for read-only operands), rank and layout, for use
// from ExecSpace (whose memory space it defaults to).
template <class ExecSpace, class T, int Rank, class Layout,
          class MemorySpace = typename ExecSpace::memory_space>
using canonical_view_t =
    Kokkos::View<typename dynamic_data<T, Rank>::type, canonical_layout_t<Layout, Rank>,
                 MemorySpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

template <class ExecSpace, class View>
using read_view_t =
    canonical_view_t<ExecSpace, typename View::const_value_type, static_cast<int>(View::rank),
                     typename View::array_layout, typename View::memory_space>;

template <class ExecSpace, class View>
using write_view_t =
    canonical_view_t<ExecSpace, typename View::non_const_value_type, static_cast<int>(View::rank),
                     typename View::array_layout, typename View::memory_space>;

// An operand the routine reads.
template <class ExecSpace, class View>
read_view_t<ExecSpace, View> read_view(const View& v) {
  return v;
}

// An operand the routine writes (its value type is not const: the public routine checks that).
template <class ExecSpace, class View>
write_view_t<ExecSpace, View> write_view(const View& v) {
  return v;
}

// The canonical views the prebuilt library instantiates (src/eti/ExKokkos_ETI_List.in).
template <class ExecSpace, class T>
using eti_scalar_t = canonical_view_t<ExecSpace, T, 0, Kokkos::LayoutRight>;
template <class ExecSpace, class T>
using eti_vector_t = canonical_view_t<ExecSpace, T, 1, Kokkos::LayoutLeft>;
template <class ExecSpace, class T, class Layout>
using eti_matrix_t = canonical_view_t<ExecSpace, T, 2, Layout>;
template <class ExecSpace, class T>
using eti_batch_t = canonical_view_t<ExecSpace, T, 3, Kokkos::LayoutStride>;
template <class ExecSpace>
using eti_pivots_t = canonical_view_t<ExecSpace, int, 2, Kokkos::LayoutStride>;

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_CANONICALVIEWS_IMPL_HPP
