// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The certify-or-exact engine (docs/design.md, "Certify or go exact"): output i is written by the
// first of three steps that can prove its rounding, through a Finish
// (ExKokkos_Finish_impl.hpp):
//   1. a compensated sum of its terms, certified by its error bound (only for a Finish that
//      certifies, and where the kernel allows the try: the margin refuses long sums anyway);
//   2. else the terms go through an expansion (or expansion lanes) whose leftovers spill into a
//      LazyAccumulator; when nothing spilled, the N slots hold S_i exactly and the Finish may
//      certify its rounding from them;
//   3. else the slots join the accumulator, and the Finish rounds it (the exact step).
// Each step that answers gives the bits of step 3, so which one answers never shows.
//
// The kernels differ only in how they walk the terms (vector lanes, strides, panels staged in
// scratch) and where the sums live; they hand the walks to the drivers below as callables, which
// keeps each kernel's loops (its lanes, unrolling and loads in flight) as they are:
//   certify_or_exact<N>: one output; compensated() returns its CompensatedSum, exact(acc, slots)
//     adds its terms to an expansion spilling into acc and copies the expansion's N slots out;
//   certify_or_exact_lanes<N, W>: W outputs side by side; compensated(r) returns true with every
//     output's certified rounding in r (a block is written only when all of it is certified: the
//     exact step may read the outputs' old values again), exact(lanes, acc, sinks) adds the terms
//     to ExpansionLanes whose lane j spills into acc[j].
// Team kernels, whose sums meet in scratch memory, call the steps themselves:
// round_from_compensated, then round_exact from slots or from a team accumulator's digits.
#ifndef EXKOKKOS_CERTIFYOREXACT_IMPL_HPP
#define EXKOKKOS_CERTIFYOREXACT_IMPL_HPP

#include "ExKokkos_Finish_impl.hpp"

#include <ExKokkos_CompensatedLanes.hpp>
#include <ExKokkos_Expansion.hpp>
#include <ExKokkos_ExpansionLanes.hpp>
#include <ExKokkos_ExpansionRounding.hpp>
#include <ExKokkos_LazyAccumulator.hpp>

namespace ExKokkos {
namespace Impl {

// Steps 2 and 3 for output i, whose exact sum is the N slots plus what reached acc.
template <class Finish, int N>
KOKKOS_INLINE_FUNCTION void round_exact(const Finish& finish, std::int64_t i,
                                        const double (&slots)[N], LazyAccumulator& acc) {
  if (!acc.used() && round_from_slots(finish, i, slots)) return;
  add_slots(slots, acc);
  finish(i, acc.get());
}

// Steps 2 and 3 for output i, whose exact sum is the expansion e plus what reached acc.
template <class Finish, int N, bool EarlyExit>
KOKKOS_INLINE_FUNCTION void round_exact(const Finish& finish, std::int64_t i,
                                        const Expansion<N, EarlyExit>& e, LazyAccumulator& acc) {
  double slots[N];
  for (int q = 0; q < N; ++q) slots[q] = e[q];
  round_exact(finish, i, slots, acc);
}

// Step 3 from a team accumulator's normalized digits and flags (scratch memory).
template <class Finish>
KOKKOS_INLINE_FUNCTION void round_exact(const Finish& finish, std::int64_t i,
                                        const std::uint64_t* normalized, std::uint32_t flags) {
  if constexpr (FinishTraits<Finish>::rounds_digits) {
    finish(i, normalized, flags);
  } else {
    LongAccumulator s;
    s.merge_normalized(normalized, flags);
    finish(i, s);
  }
}

template <int N, class Finish, class Compensated, class Exact>
KOKKOS_INLINE_FUNCTION void certify_or_exact(const Finish& finish, std::int64_t i,
                                             bool try_compensated, const Compensated& compensated,
                                             const Exact& exact) {
  if constexpr (FinishTraits<Finish>::certifies) {
    if (try_compensated && round_from_compensated(finish, i, compensated())) return;
  } else {
    (void)try_compensated, (void)compensated;
  }
  LazyAccumulator acc;
  double slots[N];
  exact(acc, slots);
  round_exact(finish, i, slots, acc);
}

// Step 1 for outputs first .. first + count - 1, summed side by side in lanes: true, with each
// output's rounding in r, when the Finish certifies every one of them (never for a Finish that
// does not certify).
template <class Finish, int W>
KOKKOS_INLINE_FUNCTION bool round_lanes_compensated(const Finish& finish, std::int64_t first,
                                                    int count, const CompensatedLanes<W>& lanes,
                                                    double (&r)[W]) {
  if constexpr (FinishTraits<Finish>::certifies) {
    bool certified = true;
    for (int j = 0; j < count; ++j)
      certified = certified && finish.round_compensated(first + j, lanes.lane(j), r[j]);
    return certified;
  } else {
    (void)finish, (void)first, (void)count, (void)lanes, (void)r;
    return false;
  }
}

template <int N, int W, class Finish, class Compensated, class Exact>
KOKKOS_INLINE_FUNCTION void certify_or_exact_lanes(const Finish& finish, std::int64_t first,
                                                   int count, bool try_compensated,
                                                   const Compensated& compensated,
                                                   const Exact& exact) {
  if constexpr (FinishTraits<Finish>::certifies) {
    double r[W];
    if (try_compensated && compensated(r)) {
      for (int j = 0; j < count; ++j) finish.store(first + j, r[j]);
      return;
    }
  } else {
    (void)try_compensated, (void)compensated;
  }
  ExpansionLanes<N, W> lanes;
  LazyAccumulator acc[W];
  PerLaneSinks<LazyAccumulator> sinks{acc};
  exact(lanes, acc, sinks);
  for (int j = 0; j < count; ++j) {
    double slots[N];
    for (int q = 0; q < N; ++q) slots[q] = lanes.slot(q, j);
    round_exact(finish, first + j, slots, acc[j]);
  }
}

// The Finish of a plain sum: RN(S_i) as a T, handed to out(i, value) (the LU's entries, extrsv's
// rows). Doubles certify, from a compensated sum (CompensatedSum::round) or from slots
// (round_terms_fast); floats take the exact step, rounded once to float.
template <class T, class Output>
struct RoundSum {
  using value_type = T;
  static constexpr bool certifies_compensated = std::is_same<T, double>::value;
  Output out;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, const LongAccumulator& s) const {
    out(i, s.round<T>());
  }
  KOKKOS_INLINE_FUNCTION bool round_compensated(std::int64_t, const CompensatedSum& sum,
                                                double& r) const {
    return sum.round(r);
  }
  KOKKOS_INLINE_FUNCTION void store(std::int64_t i, double r) const { out(i, T(r)); }
  template <int N>
  KOKKOS_INLINE_FUNCTION bool round_from_slots(std::int64_t i, const double (&slots)[N]) const {
    if constexpr (std::is_same<T, double>::value) {
      double x[N], r;
      for (int q = 0; q < N; ++q) x[q] = slots[q];
      if (!round_terms_fast(x, r)) return false;
      out(i, r);
      return true;
    } else {
      (void)i, (void)slots;
      return false;
    }
  }
};

template <class T, class Output>
KOKKOS_INLINE_FUNCTION RoundSum<T, Output> round_sum_into(const Output& out) {
  return RoundSum<T, Output>{out};
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_CERTIFYOREXACT_IMPL_HPP
