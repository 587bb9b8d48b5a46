// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The check of the pivots a solve is given (exgetrs, exgetrs_batched): step j of exgetf2 swaps
// row j with a row ipiv(j) in [j, n), so any other value did not come from exgetf2, and the row
// swaps of the solve would read and write outside B. The check runs on the execution space, as
// one small reduction over ipiv (n integer comparisons, no copy of ipiv to the host), followed by
// the fence that returns its result: next to the solve's O(n^2) exact terms it costs nothing
// measurable. A pivot outside [j, n) throws std::invalid_argument naming the first one, before
// anything is written.
#ifndef EXKOKKOS_PIVOTCHECKS_IMPL_HPP
#define EXKOKKOS_PIVOTCHECKS_IMPL_HPP

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <sstream>
#include <stdexcept>

namespace ExKokkos {
namespace Impl {

// The first flat index s n + j (system s, step j) whose pivot lies outside [j, n), or at least
// the size when there is none. ipiv is batch x n (Rank 2) or n (Rank 1, one system).
template <class PivView, int Rank = static_cast<int>(PivView::rank)>
struct FirstBadPivot {
  PivView ipiv;
  std::int64_t n;
  KOKKOS_INLINE_FUNCTION std::int64_t pivot(std::int64_t s, std::int64_t j) const {
    if constexpr (Rank == 1)
      return ipiv(j);
    else
      return ipiv(s, j);
  }
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i, std::int64_t& first) const {
    const std::int64_t s = i / n, j = i % n;
    const std::int64_t p = pivot(s, j);
    if ((p < j || p >= n) && i < first) first = i;
  }
};

template <class ExecSpace, class PivView>
void check_pivot_range(const ExecSpace& space, const char* routine, const PivView& ipiv,
                       std::int64_t systems, std::int64_t n) {
  const std::int64_t size = systems * n;
  if (size == 0) return;
  // Min's identity is the largest int64, which every reduction with no bad pivot returns.
  std::int64_t first = size;
  Kokkos::parallel_reduce(
      "ExKokkos::check_pivots",
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, size),
      FirstBadPivot<PivView>{ipiv, n}, Kokkos::Min<std::int64_t>(first));
  if (first >= size) return;
  const std::int64_t s = first / n, j = first % n;
  std::int64_t value = 0;
  if constexpr (static_cast<int>(PivView::rank) == 1) {
    typename PivView::non_const_value_type v;
    Kokkos::deep_copy(space, v, Kokkos::subview(ipiv, j));
    space.fence();
    value = v;
  } else {
    typename PivView::non_const_value_type v;
    Kokkos::deep_copy(space, v, Kokkos::subview(ipiv, s, j));
    space.fence();
    value = v;
  }
  std::ostringstream msg;
  msg << routine << ": ipiv";
  if (static_cast<int>(PivView::rank) == 2)
    msg << "(" << s << ", " << j << ")";
  else
    msg << "(" << j << ")";
  msg << " = " << value << " lies outside [" << j << ", " << n
      << "): pivots must come from exgetf2 (0-based, row j swapped with a row ipiv(j) >= j)";
  throw std::invalid_argument(msg.str());
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_PIVOTCHECKS_IMPL_HPP
