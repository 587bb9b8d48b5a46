// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The multivector (rank-2) forms of the level-1 routines, as KokkosBlas defines them: a reduction
// gives R(j) for column j of X into a rank-1 R with one entry per column, and an elementwise
// routine applies its rank-1 operation to every column. Both are written as the rank-1 routine's
// entry point called once per column on column subviews, so that R(j) (or column j of the
// output) has the bits of the rank-1 routine on that column by construction: every rank-1
// routine is exact, so the partition of a column's work cannot change them. A column of a
// LayoutLeft matrix is a contiguous rank-1 view; of a LayoutRight or LayoutStride one, a strided
// view (the canonical LayoutStride vector the rank-1 routines already take).
//
// Every extent is checked (rows, columns, R's length) before the first column is launched, so
// that a refused call writes nothing.
#ifndef EXKOKKOS_MULTIVECTOR_IMPL_HPP
#define EXKOKKOS_MULTIVECTOR_IMPL_HPP

#include <ExKokkos_Options.hpp>
#include <impl/ExKokkos_CanonicalViews_impl.hpp>
#include <impl/ExKokkos_HostCall_impl.hpp>
#include <impl/ExKokkos_OptionChecks_impl.hpp>
#include <impl/ExKokkos_ViewTraits_impl.hpp>

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <sstream>
#include <stdexcept>
#include <type_traits>

namespace ExKokkos {
namespace Impl {

// A rank-1 or rank-2 view: the operands KokkosBlas' multivector forms accept.
template <class View>
constexpr bool is_rank1or2_view() {
  return is_rank1_view<View>() || is_rank2_view<View>();
}

// Columns of an operand: a rank-1 view is one column.
template <class View>
std::size_t num_columns(const View& v) {
  return View::rank == 1 ? 1 : v.extent(1);
}

// Column j of a rank-2 view; a rank-1 view (or a rank-2 view of one column) is every column's
// operand, as KokkosBlas::dot broadcasts it.
template <class View, typename std::enable_if<is_rank1_view<View>(), int>::type = 0>
View column(const View& v, std::size_t) {
  return v;
}
template <class View, typename std::enable_if<is_rank2_view<View>(), int>::type = 0>
auto column(const View& v, std::size_t j) {
  return Kokkos::subview(v, Kokkos::ALL(), v.extent(1) == 1 ? std::size_t(0) : j);
}

// Entry j of a canonical rank-1 result view, as a canonical rank-0 view of the same memory: the
// address R.data() + j * stride, which needs no access to R's memory from the host.
template <class RView>
canonical_view_t<typename RView::execution_space, typename RView::value_type, 0,
                 Kokkos::LayoutRight, typename RView::memory_space>
element(const RView& r, std::size_t j) {
  static_assert(is_rank1_view<RView>(), "the result of a multivector reduction has rank 1");
  return canonical_view_t<typename RView::execution_space, typename RView::value_type, 0,
                          Kokkos::LayoutRight, typename RView::memory_space>(r.data() +
                                                                             j * r.stride_0());
}

// R must hold one entry per column of the result.
template <class RView>
void check_result_length(const char* routine, const RView& r, std::size_t columns) {
  if (r.extent(0) != columns) {
    std::ostringstream msg;
    msg << routine << ": R must have one entry per column, but R.extent(0) = " << r.extent(0)
        << " and the operands have " << columns << " columns";
    throw std::invalid_argument(msg.str());
  }
}

// Two operands of a reduction (exdot): the same rows, and the same columns unless one of them
// has a single column (or is rank 1), which is then paired with every column of the other, as in
// KokkosBlas::dot. Returns the number of columns of the result.
template <class XView, class YView>
std::size_t paired_columns(const char* routine, const XView& x, const YView& y) {
  const std::size_t cx = num_columns(x), cy = num_columns(y);
  if (x.extent(0) != y.extent(0) || (cx != cy && cx != 1 && cy != 1)) {
    std::ostringstream msg;
    msg << routine << ": X and Y must have the same rows, and the same columns unless one has a "
        << "single column, but X is " << x.extent(0) << " x " << cx << " and Y is " << y.extent(0)
        << " x " << cy;
    throw std::invalid_argument(msg.str());
  }
  // A single column against none: no pairs (KokkosBlas would ask for one entry, for a column
  // that does not exist).
  return cx == 1 ? cy : cx;
}

// The operands of an elementwise routine: every view the shape of the output.
template <class OutView, class InView>
void check_same_shape(const char* routine, const char* out_name, const OutView& out,
                      const char* in_name, const InView& in) {
  static_assert(static_cast<int>(OutView::rank) == static_cast<int>(InView::rank),
                "ExKokkos: the operands of an elementwise routine must have the same rank");
  if (out.extent(0) != in.extent(0) || num_columns(out) != num_columns(in)) {
    std::ostringstream msg;
    msg << routine << ": " << in_name << " must have the shape of " << out_name << ", but "
        << out_name << " is " << out.extent(0) << " x " << num_columns(out) << " and " << in_name
        << " is " << in.extent(0) << " x " << num_columns(in);
    throw std::invalid_argument(msg.str());
  }
}

// The checks of a multivector reduction, before anything is launched: x and y paired (a
// reduction of one operand passes it as both), R of one entry per column, the options valid
// (checked even when there are no columns, so that such a call refuses them as well). Returns the
// number of columns.
template <class ExecSpace, class RView, class XView, class YView>
std::size_t check_column_reduction(const ExecSpace& space, const char* routine, const RView& r,
                                   const XView& x, const YView& y, const Options& options) {
  const std::size_t columns = paired_columns(routine, x, y);
  check_result_length(routine, r, columns);
  validate_options(space, routine, OptionUses::reduction(), options,
                   ProblemFacts{static_cast<std::int64_t>(x.extent(0))});
  return columns;
}

// The exact reductions of one operand on every column of x (canonical views): R(j) is what
// `into` (a rank-1 routine's entry point: space, rank-0 r, rank-1 x, options) stores for column
// j.
template <class ExecSpace, class RView, class XView, class ColumnInto>
void reduce_columns(const ExecSpace& space, const char* routine, const RView& r, const XView& x,
                    const Options& options, const ColumnInto& into) {
  const HostCall<ExecSpace> call(space, routine);
  check_column_reduction(space, routine, r, x, x, options);
  for (std::size_t j = 0; j < r.extent(0); ++j)
    into(space, element(r, j), read_view<ExecSpace>(column(x, j)), options);
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_MULTIVECTOR_IMPL_HPP
