// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ExKokkos::ExactSum<Space>: a Kokkos reducer whose value is a LongAccumulator, so that any user
// kernel can produce a correctly rounded, reproducible sum of whatever its lambda adds (terms
// and exact products), with range and team policies at the top level. Not in nested
// TeamThreadRange reductions: Kokkos' host backends give a team reduction 512 bytes a thread of
// the team, which the 1064-byte value overflows in a team of two (into the team's scratch
// memory); inside a team the team forms of exsum/exdot reduce in slices that fit
// (blas/ExKokkos_TeamLevel1.hpp, docs/accumulators.md).
//
// As for Kokkos::Sum<T, Space>, Space is where the result lives, not where the kernel runs:
// HostSpace (the default) for a host variable, the view's space for a result view. A device
// execution space with a host variable would make the kernel write the host address (on CUDA an
// illegal address).
//
//   ExKokkos::LongAccumulator acc;
//   Kokkos::parallel_reduce(policy, KOKKOS_LAMBDA(int i, ExKokkos::LongAccumulator& a) {
//       a.add(x(i));              // exact
//       a.add_product(y(i), z(i)); // exact
//     }, ExKokkos::ExactSum<>(acc));
//   double r = acc.round();      // correctly rounded, the same bits for any partition
//
// Exact because every join is an exact merge of integers; reproducible because integer addition
// is associative. Cost: the value is a 1064-byte LongAccumulator per thread (Kokkos keeps one per
// thread, and per thread of a team for nested reductions), every add() is an integer deposit
// into 3 (a term) or 5 (a product) digits with no expansion in front, and every join merges 132
// digits: several times a plain double parallel_reduce (docs/performance.md); the built-in
// routines (exsum, exdot, ...) put expansions in front and are much faster. On GPUs the
// per-thread value lives in shared memory: 1 KB per thread limits the block size Kokkos can
// choose.
#ifndef EXKOKKOS_EXACTSUMREDUCER_HPP
#define EXKOKKOS_EXACTSUMREDUCER_HPP

#include "ExKokkos_LongAccumulator.hpp"

#include <type_traits>

namespace ExKokkos {

template <class Space = Kokkos::HostSpace>
struct ExactSum {
 public:
  using reducer = ExactSum<Space>;
  using value_type = LongAccumulator;
  using result_view_type = Kokkos::View<value_type, Space>;

 private:
  result_view_type value_;
  bool references_scalar_;

 public:
  KOKKOS_INLINE_FUNCTION ExactSum(value_type& value) : value_(&value), references_scalar_(true) {}
  KOKKOS_INLINE_FUNCTION ExactSum(const result_view_type& value)
      : value_(value), references_scalar_(false) {}

  KOKKOS_INLINE_FUNCTION void join(value_type& dest, const value_type& src) const {
    dest.merge(src);
  }

  // Kokkos before 4.2 calls this overload; from 4.2 on it must not exist, so it is a template
  // enabled only for those versions (compat::reducers_take_volatile_join).
  template <bool Enable = Impl::compat::reducers_take_volatile_join,
            typename std::enable_if<Enable, int>::type = 0>
  KOKKOS_INLINE_FUNCTION void join(volatile value_type& dest,
                                   const volatile value_type& src) const {
    value_type d = value_type::load(dest);
    d.merge(value_type::load(src));
    d.store(dest);
  }

  KOKKOS_INLINE_FUNCTION void init(value_type& v) const { v = value_type(); }
  KOKKOS_INLINE_FUNCTION value_type& reference() const { return *value_.data(); }
  KOKKOS_INLINE_FUNCTION result_view_type view() const { return value_; }
  KOKKOS_INLINE_FUNCTION bool references_scalar() const { return references_scalar_; }
};

}  // namespace ExKokkos

#endif  // EXKOKKOS_EXACTSUMREDUCER_HPP
