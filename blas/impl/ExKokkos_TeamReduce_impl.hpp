// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The exact reduction of a team inside a user's kernel (ExKokkos_TeamLevel1.hpp), and of one
// thread (the serial forms), on the certify-or-exact engine (ExKokkos_CertifyOrExact_impl.hpp).
// Every thread of the team calls it with the same arguments and gets the same value back.
//
// No team scratch: what the threads share goes through the team's own reduction
// (member.team_reduce, as Kokkos' nested reductions do), in values of at most 136 bytes, which
// every backend's team reduction buffer holds (the host backends keep 512 bytes a thread; a
// LongAccumulator of 1064 bytes would not fit there).
//
//   step 1 (doubles, where the Finish certifies): each thread sums its share of the terms in a
//     CompensatedSum; the team merges them (CompensatedSum::merge: the margin holds for any tree
//     of merges, so for whatever order the backend joins them in), and every thread tries the
//     certificate on the merged sum. The merged sum is the same on every thread, so the team
//     agrees on whether it holds; when it holds the result is RN(S), the bits of step 3;
//   step 3: each thread sums its share exactly, an expansion spilling into a LongAccumulator of
//     its own; the team adds the normalized accumulators digit by digit (sixteen digits and the
//     flags a round). The digits of a normalized accumulator are below 2^32 but the top one,
//     which is signed; a sum of T of them stays inside the 63 bits a digit may use for T < 2^31
//     (core/impl/ExKokkos_AccumulatorDigits.hpp), so the sum, normalized, is the exact S whatever
//     the order, and the Finish rounds it once.
// The expansions' slots are not rounded from directly (step 2): they are split over the threads.
// A team of one thread takes the serial engine instead, step 2 included.
#ifndef EXKOKKOS_TEAMREDUCE_IMPL_HPP
#define EXKOKKOS_TEAMREDUCE_IMPL_HPP

#include "ExKokkos_CertifyOrExact_impl.hpp"
#include "ExKokkos_LaneWalk_impl.hpp"

#include <ExKokkos_CompensatedSum.hpp>
#include <ExKokkos_CorrectlyRoundedSqrt.hpp>
#include <ExKokkos_Expansion.hpp>
#include <ExKokkos_LongAccumulator.hpp>
#include <impl/ExKokkos_DeviceTraits_impl.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace ExKokkos {
namespace Impl {

// The expansion of the team and serial forms. Any size gives the same bits; 3 slots keep most
// dot products of ordinary data out of the long accumulator at little cost a term.
constexpr int team_expansion_size = 3;

// The terms of thread `rank` of `size`: a contiguous share on the host's cores (cache lines stay
// with one thread), every size-th term from `rank` on devices (neighbouring threads read
// neighbouring elements). Which thread adds which term does not change the exact sum.
template <class Member>
struct ThreadShare {
  std::int64_t first, last, stride;
  KOKKOS_INLINE_FUNCTION ThreadShare(const Member& team, std::int64_t n) {
    const std::int64_t size = team.team_size(), rank = team.team_rank();
    if (is_host_space<typename Member::execution_space>()) {
      first = n * rank / size;
      last = n * (rank + 1) / size;
      stride = 1;
    } else {
      first = rank;
      last = n;
      stride = size;
    }
  }
};

// Adds term i of `terms` to a CompensatedSum.
template <class Terms>
KOKKOS_INLINE_FUNCTION void add_compensated(const Terms& terms, std::int64_t i,
                                            CompensatedSum& sum) {
  if constexpr (Terms::is_product) {
    double a, b;
    terms(i, a, b);
    sum.add_product(a, b);
  } else {
    sum.add(terms(i));
  }
}

// A reducer (Kokkos' reducer concept) over a plain value: Join::join(dest, src) adds src to dest.
// The value lives in the calling thread (a team reduction's contribution and result).
template <class Join>
struct TeamJoin {
  using reducer = TeamJoin<Join>;
  using value_type = typename Join::value_type;
  using result_view_type = Kokkos::View<value_type, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;

  value_type* value;

  KOKKOS_INLINE_FUNCTION void join(value_type& dest, const value_type& src) const {
    Join::join(dest, src);
  }
  // Kokkos before 4.2 may call this overload; from 4.2 on it must not exist
  // (compat::reducers_take_volatile_join).
  template <bool Enable = compat::reducers_take_volatile_join,
            typename std::enable_if<Enable, int>::type = 0>
  KOKKOS_INLINE_FUNCTION void join(volatile value_type& dest,
                                   const volatile value_type& src) const {
    value_type d = Join::load(dest);
    Join::join(d, Join::load(src));
    Join::store(d, dest);
  }
  KOKKOS_INLINE_FUNCTION void init(value_type& v) const { v = value_type(); }
  KOKKOS_INLINE_FUNCTION value_type& reference() const { return *value; }
  KOKKOS_INLINE_FUNCTION result_view_type view() const { return result_view_type(value); }
  KOKKOS_INLINE_FUNCTION bool references_scalar() const { return true; }
};

// A CompensatedSum as a plain value, joined by CompensatedSum::merge.
struct CompensatedJoin {
  struct value_type {
    double head = 0.0, errors = 0.0, magnitude = 0.0;
    int terms = 0;
  };
  KOKKOS_INLINE_FUNCTION static CompensatedSum sum(const value_type& v) {
    return CompensatedSum(v.head, v.errors, v.magnitude, v.terms);
  }
  KOKKOS_INLINE_FUNCTION static value_type value(const CompensatedSum& s) {
    value_type v;
    v.head = s.head();
    v.errors = s.errors();
    v.magnitude = s.magnitude();
    v.terms = s.terms();
    return v;
  }
  KOKKOS_INLINE_FUNCTION static void join(value_type& dest, const value_type& src) {
    CompensatedSum d = sum(dest);
    d.merge(sum(src));
    dest = value(d);
  }
  KOKKOS_INLINE_FUNCTION static value_type load(const volatile value_type& v) {
    value_type r;
    r.head = v.head;
    r.errors = v.errors;
    r.magnitude = v.magnitude;
    r.terms = v.terms;
    return r;
  }
  KOKKOS_INLINE_FUNCTION static void store(const value_type& v, volatile value_type& dest) {
    dest.head = v.head;
    dest.errors = v.errors;
    dest.magnitude = v.magnitude;
    dest.terms = v.terms;
  }
};

// Sixteen digits of normalized accumulators and their flags, added digit by digit (wrapping like
// the digits themselves; see the headroom argument above) and ORed.
struct DigitSliceJoin {
  static constexpr int width = 16;
  struct value_type {
    std::uint64_t digit[width] = {};
    std::uint32_t flags = 0;
  };
  KOKKOS_INLINE_FUNCTION static void join(value_type& dest, const value_type& src) {
    for (int d = 0; d < width; ++d) dest.digit[d] += src.digit[d];
    dest.flags |= src.flags;
  }
  KOKKOS_INLINE_FUNCTION static value_type load(const volatile value_type& v) {
    value_type r;
    for (int d = 0; d < width; ++d) r.digit[d] = v.digit[d];
    r.flags = v.flags;
    return r;
  }
  KOKKOS_INLINE_FUNCTION static void store(const value_type& v, volatile value_type& dest) {
    for (int d = 0; d < width; ++d) dest.digit[d] = v.digit[d];
    dest.flags = v.flags;
  }
};

// Step 1: the team's compensated sum of terms [0, n), the same on every thread.
template <class Member, class Terms>
KOKKOS_INLINE_FUNCTION CompensatedSum team_compensated_sum(const Member& team, const Terms& terms,
                                                           std::int64_t n) {
  const ThreadShare<Member> share(team, n);
  CompensatedSum mine;
  for (std::int64_t i = share.first; i < share.last; i += share.stride)
    add_compensated(terms, i, mine);
  CompensatedJoin::value_type v = CompensatedJoin::value(mine), total;
  team.team_reduce(TeamJoin<CompensatedJoin>{&total}, v);
  return CompensatedJoin::sum(total);
}

// Step 3: the exact sum of terms [0, n) in `sum` on every thread of the team.
template <int N, class Member, class Terms>
KOKKOS_INLINE_FUNCTION void team_exact_sum(const Member& team, const Terms& terms, std::int64_t n,
                                           LongAccumulator& sum) {
  const ThreadShare<Member> share(team, n);
  LongAccumulator mine;
  Expansion<N> e;
  // Always flushed, even when empty: its head of -0 is the identity of the sum's sign of zero.
  accumulate_strided<4>(terms, share.first, share.last, share.stride, e, mine);
  e.flush(mine);
  mine.normalize();
  constexpr int num_digits = LongAccumulator::num_digits;
  std::uint64_t digits[num_digits];
  std::uint32_t flags = 0;
  for (int first = 0; first < num_digits; first += DigitSliceJoin::width) {
    DigitSliceJoin::value_type v, total;
    for (int d = 0; d < DigitSliceJoin::width && first + d < num_digits; ++d)
      v.digit[d] = mine.digits()[first + d];
    v.flags = mine.flags();
    team.team_reduce(TeamJoin<DigitSliceJoin>{&total}, v);
    for (int d = 0; d < DigitSliceJoin::width && first + d < num_digits; ++d)
      digits[first + d] = total.digit[d];
    flags = total.flags;
  }
  normalize_digits(digits, num_digits);
  sum.merge_normalized(digits, flags);
}

// One thread's finish of one value: the engine's three steps (certify_or_exact). With Lanes (a
// CPU thread) the terms are walked host_lanes at a time in vector registers, as exgemv's
// inner_lanes schedule walks a row; otherwise one term at a time. Both are exact (or certified),
// so both give the same bits.
template <bool Lanes, class Terms, class Finish>
KOKKOS_INLINE_FUNCTION void serial_certify_or_exact(const Terms& terms, std::int64_t n,
                                                    const Finish& finish) {
  constexpr int N = team_expansion_size;
  certify_or_exact<N>(
      finish, 0, n <= compensated_max_terms,
      [&]() {
        if constexpr (Lanes) {
          return compensated_with_lanes(terms, n);
        } else {
          CompensatedSum sum;
          for (std::int64_t i = 0; i < n; ++i) add_compensated(terms, i, sum);
          return sum;
        }
      },
      [&](LazyAccumulator& acc, double(&slots)[N]) {
        if constexpr (Lanes) {
          accumulate_with_lanes_to_slots<N>(terms, 0, n, acc, slots);
        } else {
          Expansion<N> e;
          for (std::int64_t i = 0; i < n; ++i) add_term(terms, i, e, acc);
          for (int q = 0; q < N; ++q) slots[q] = e[q];
        }
      });
}

// The team's finish of one value (output 0): step 1 where the Finish certifies, else step 3. A
// team of one thread (the host's usual teams) takes the serial engine, whose step 2 rounds from
// the expansion's slots without building a long accumulator.
template <class Member, class Terms, class Finish>
KOKKOS_INLINE_FUNCTION void team_certify_or_exact(const Member& team, const Terms& terms,
                                                  std::int64_t n, const Finish& finish) {
  if (team.team_size() == 1) {
    serial_certify_or_exact<is_host_space<typename Member::execution_space>()>(terms, n, finish);
    return;
  }
  if constexpr (FinishTraits<Finish>::certifies) {
    if (n <= compensated_max_terms &&
        round_from_compensated(finish, 0, team_compensated_sum(team, terms, n)))
      return;
  }
  LongAccumulator sum;
  team_exact_sum<team_expansion_size>(team, terms, n, sum);
  finish(0, sum);
}

// Where a Finish hands its value: a variable of the calling thread.
template <class T>
struct StoreValue {
  T* value;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t, T v) const { *value = v; }
};

// The Finish of exnrm2's team and serial forms: the correctly rounded square root of the exact
// sum of squares. It certifies nothing (the root of RN(S) may be an ulp off), so only the exact
// step runs.
template <class T, class Output>
struct RoundSqrt {
  using value_type = T;
  Output out;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, const LongAccumulator& s) const {
    out(i, sqrt_rounded<T>(s));
  }
};

}  // namespace Impl

namespace Experimental {

// Team scratch bytes, at every level, that the team forms (exdot, exsum, exasum, exnrm2, exgemv
// with a team) need: none. Given so that a kernel can add it to its own scratch sizes, as for any
// team routine that needs some.
KOKKOS_INLINE_FUNCTION constexpr std::size_t team_scratch_size() {
  return 0;
}

}  // namespace Experimental
}  // namespace ExKokkos

#endif  // EXKOKKOS_TEAMREDUCE_IMPL_HPP
