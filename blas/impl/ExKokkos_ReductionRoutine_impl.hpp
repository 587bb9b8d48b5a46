// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The shared shape of the exact reduction routines (exsum, exasum, exdot, exnrm2): argument checks
// in KokkosBlas' style, the empty case, and the two result forms (a rank-0 view filled without
// blocking the host, or a scalar returned after a fence).
#ifndef EXKOKKOS_REDUCTIONROUTINE_IMPL_HPP
#define EXKOKKOS_REDUCTIONROUTINE_IMPL_HPP

#include "ExKokkos_ExactReduce_impl.hpp"

#include <impl/ExKokkos_CanonicalViews_impl.hpp>

#include <impl/ExKokkos_ArgumentChecks_impl.hpp>
#include <impl/ExKokkos_HostCall_impl.hpp>
#include <impl/ExKokkos_OptionChecks_impl.hpp>
#include <impl/ExKokkos_ViewTraits_impl.hpp>

#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace ExKokkos {
namespace Impl {

// Runs the exact reduction of `terms` over [0, n) asynchronously on `space`; `finish` turns the
// exact sum into the value stored in r() (RoundInto: rounded to T). An empty reduction stores +0
// (as KokkosBlas returns for empty views).
template <class ExecSpace, class RView, class Terms, class Finisher>
void reduce_into_with(const ExecSpace& space, const RView& r, const Terms& terms, std::int64_t n,
                      const Options& options, const char* routine, const Finisher& finish) {
  static_assert(is_rank0_view<RView>(), "the result must be a rank-0 view");
  const HostCall<ExecSpace> call(space, routine);
  validate_options(space, routine, OptionUses::reduction(), options, ProblemFacts{n});
  const LaunchConfig config = resolve_reduction_config(
      space,
      with_level1_defaults(space, options, reduction_teams_per_multiprocessor(Terms::is_product)),
      n, Terms::deposits_per_element, routine, level1_kernels(Terms::deposits_per_element));
  if (n == 0) {
    Kokkos::deep_copy(space, r, typename RView::non_const_value_type(0));
    return;
  }
  exact_reduce(space, config, terms, finish, n);
}

template <class T, class ExecSpace, class RView, class Terms>
void reduce_into(const ExecSpace& space, const RView& r, const Terms& terms, std::int64_t n,
                 const Options& options, const char* routine) {
  reduce_into_with(space, r, terms, n, options, routine, RoundInto<T, RView>{r});
}

// The exact sum of `terms` over [0, n) as an unrounded accumulator on the host (fences `space`):
// the same kernel as reduce_into, with a finisher that stores the merged accumulator instead of
// rounding it. An empty reduction gives an empty accumulator (which rounds to +0).
template <class ExecSpace, class Terms>
LongAccumulator reduce_to_accumulator(const ExecSpace& space, const Terms& terms, std::int64_t n,
                                      const Options& options, const char* routine) {
  const HostCall<ExecSpace> call(space, routine);
  validate_options(space, routine, OptionUses::reduction(), options, ProblemFacts{n});
  const LaunchConfig config = resolve_reduction_config(
      space,
      with_level1_defaults(space, options, reduction_teams_per_multiprocessor(Terms::is_product)),
      n, Terms::deposits_per_element, routine, level1_kernels(Terms::deposits_per_element));
  LongAccumulator sum;
  if (n == 0) return sum;
  // Not initialized: the finisher always writes it.
  const Kokkos::View<LongAccumulator, typename ExecSpace::memory_space> r(
      Kokkos::ViewAllocateWithoutInitializing("ExKokkos::accumulator"));
  exact_reduce(space, config, terms, StoreAccumulator<decltype(r)>{r}, n);
  Kokkos::deep_copy(space, sum, r);
  space.fence();
  return sum;
}

// Copies a rank-0 result to the host (fences `space`).
template <class ExecSpace, class RView>
typename RView::non_const_value_type fetch_result(const ExecSpace& space, const RView& r) {
  typename RView::non_const_value_type value;
  Kokkos::deep_copy(space, value, r);
  space.fence();
  return value;
}

// A rank-0 result view in the space's memory, for the forms of `routine` that return a scalar,
// made after the calling thread is known to be allowed to call it (HostCall: a view made and freed
// inside a parallel region could deadlock before the routine refused the call). Not initialized
// (that would be a kernel launch of its own): reduce_into always writes it.
template <class T, class ExecSpace>
Kokkos::View<T, typename ExecSpace::memory_space> result_view(const ExecSpace& space,
                                                              const char* routine) {
  refuse_inside_parallel_region(space, routine);
  return Kokkos::View<T, typename ExecSpace::memory_space>(
      Kokkos::ViewAllocateWithoutInitializing("ExKokkos::result"));
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_REDUCTIONROUTINE_IMPL_HPP
