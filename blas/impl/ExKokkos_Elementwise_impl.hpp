// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The shared shape of ExKokkos' elementwise routines (exscal, exinvscal, exaxpy, exaxpby, exabs,
// exreciprocal, exupdate, exmult): one independent, correctly rounded operation per element in a
// RangePolicy, so any partition gives the same bits. On rank-2 views (KokkosBlas' multivectors)
// each column is one such launch on column subviews (ExKokkos_Multivector_impl.hpp).
#ifndef EXKOKKOS_ELEMENTWISE_IMPL_HPP
#define EXKOKKOS_ELEMENTWISE_IMPL_HPP

#include "ExKokkos_Multivector_impl.hpp"
#include "ExKokkos_ReductionRoutine_impl.hpp"

#include <impl/ExKokkos_HostCall_impl.hpp>

namespace ExKokkos {
namespace Impl {

template <class ExecSpace, class Functor>
void for_each_element(const ExecSpace& space, const char* label, std::size_t n, const Functor& f) {
  Kokkos::parallel_for(label, Kokkos::RangePolicy<ExecSpace>(space, 0, n), f);
}

// Host threads, doubles: the elements first..first+count-1 (count <= Block) with their
// certified fast paths (Op::fast(i, r), branch-free) run as one loop that vectorizes, then
// stored, the few a fast path refuses taking the exact path (Op::exact(i)); the fast path answers
// only when it gives the exact path's bits, so the result does not depend on the blocking. Op
// also provides store(i, value). Every element reads and writes its own positions only.
template <int Block, class Op>
KOKKOS_INLINE_FUNCTION void certified_block(const Op& op, const std::size_t first,
                                            const int count) {
  double r[Block];
  int ok[Block];
  EXKOKKOS_SIMD
  for (int j = 0; j < count; ++j) {
    double v;
    ok[j] = op.fast(first + j, v) ? 1 : 0;
    r[j] = v;
  }
  for (int j = 0; j < count; ++j) op.store(first + j, ok[j] ? r[j] : op.exact(first + j));
}

// A RangePolicy over blocks of 32 elements, each run by certified_block.
template <class Op>
struct CertifiedBlocksFunctor {
  static constexpr int block = 32;
  Op op;
  std::size_t n;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t b) const {
    const std::size_t first = b * block;
    certified_block<block>(op, first, static_cast<int>(n - first < block ? n - first : block));
  }
};

template <class ExecSpace, class Op>
void for_each_certified(const ExecSpace& space, const char* label, std::size_t n, const Op& op) {
  using F = CertifiedBlocksFunctor<Op>;
  for_each_element(space, label, (n + F::block - 1) / F::block, F{op, n});
}

template <class YView, class XView>
void check_elementwise_views(const char* routine, const YView& y, const XView& x) {
  static_assert(is_exact_scalar<typename YView::non_const_value_type>(),
                "ExKokkos: elementwise routines take double or float views");
  static_assert(std::is_same<typename YView::non_const_value_type,
                             typename XView::non_const_value_type>::value,
                "ExKokkos: x and y must hold the same value type");
  static_assert(!std::is_const<typename YView::value_type>::value,
                "ExKokkos: the output view must not be const");
  static_assert(static_cast<int>(YView::rank) == static_cast<int>(XView::rank),
                "ExKokkos: x and y must have the same rank");
  check_same_extent(routine, x, y);
  if (YView::rank == 2) check_same_shape(routine, "y", y, "x", x);
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_ELEMENTWISE_IMPL_HPP
