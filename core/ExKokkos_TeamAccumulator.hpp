// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The second level of the multi-level algorithm: long accumulators shared by the threads of a
// team, in team scratch memory, updated with 64-bit atomic additions (no locks, no carries: the
// headroom of the digits absorbs concurrent deposits, see impl/ExKokkos_AccumulatorDigits.hpp).
//
// A team holds `copies` accumulators, interleaved digit by digit (digit i of copy c at
// i * copies + c) so that threads depositing into different copies touch different banks and
// contend less (ExBLAS, section 4). A thread deposits into copy team_rank % copies; which copy a
// term lands in changes nothing in the exact sum.
//
// Headroom contract: between clear() and reduce(), at most AccumulatorFormat::deposit_capacity
// deposits (add or add_product calls that reach the digits) may go into one TeamAccumulator, all
// copies together. The kernels that use it bound the terms per team on the host.
#ifndef EXKOKKOS_TEAMACCUMULATOR_HPP
#define EXKOKKOS_TEAMACCUMULATOR_HPP

#include "impl/ExKokkos_AccumulatorDigits.hpp"

#include <cstddef>

namespace ExKokkos {
namespace Impl {

// Adds chunks to one interleaved copy with atomics.
struct AtomicDigitAdder {
  std::uint64_t* digits;  // digit 0 of the copy
  int stride;             // the number of copies
  KOKKOS_INLINE_FUNCTION void operator()(int i, std::uint64_t chunk) const {
    compat::atomic_add(digits + static_cast<std::ptrdiff_t>(i) * stride, chunk);
  }
};

// The same without atomics, for a thread that has its copy to itself: a locked add costs about
// ten times a plain one, and data whose range no expansion can hold deposits every term.
struct ExclusiveDigitAdder {
  std::uint64_t* digits;
  int stride;
  KOKKOS_INLINE_FUNCTION void operator()(int i, std::uint64_t chunk) const {
    digits[static_cast<std::ptrdiff_t>(i) * stride] += chunk;
  }
};

class TeamAccumulator {
 public:
  static constexpr int num_digits = AccumulatorFormat::num_digits;

  // Team scratch bytes (level 0) that a TeamAccumulator with `copies` copies takes.
  KOKKOS_INLINE_FUNCTION static std::size_t scratch_size(int copies) {
    return align(sizeof(std::uint64_t) * num_digits * static_cast<std::size_t>(copies)) +
           align(sizeof(std::uint32_t));
  }

  // Takes its memory from the team's level-0 scratch. Every thread of the team must construct it
  // with the same `copies`, in the same order relative to other scratch allocations.
  template <class Member>
  KOKKOS_INLINE_FUNCTION TeamAccumulator(const Member& team, int copies) : copies_(copies) {
    digits_ = static_cast<std::uint64_t*>(team.team_scratch(0).get_shmem(
        align(sizeof(std::uint64_t) * num_digits * static_cast<std::size_t>(copies))));
    flags_ =
        static_cast<std::uint32_t*>(team.team_scratch(0).get_shmem(align(sizeof(std::uint32_t))));
  }

  template <class Member>
  KOKKOS_INLINE_FUNCTION void clear(const Member& team) const {
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, num_digits * copies_),
                         [&](const int i) { digits_[i] = 0; });
    Kokkos::single(Kokkos::PerTeam(team), [&]() { *flags_ = 0; });
    team.team_barrier();
  }

  // A handle through which one thread deposits into one copy; it is the Sink of an Expansion.
  // It collects the thread's flags and publishes them with one atomic in publish(), which every
  // thread must call after its last deposit (before the barrier that precedes reduce()).
  template <class Adder>
  class BasicSink {
   public:
    KOKKOS_INLINE_FUNCTION BasicSink(std::uint64_t* copy_digits, int stride, std::uint32_t* flags)
        : adder_{copy_digits, stride}, team_flags_(flags), flags_(0) {}

    // Forced inline, as deposit_double (the host walk's drain calls it once a term).
    KOKKOS_FORCEINLINE_FUNCTION void add(double x) {
      const FloatClass c = classify(x);
      flags_ |= term_flags(c, sign_bit(x));
      if (c == FloatClass::finite) deposit_double(adder_, x);
    }

    KOKKOS_INLINE_FUNCTION void add_product(double a, double b) {
      bool deposit = false;
      flags_ |= product_flags(a, b, deposit);
      if (deposit) deposit_product(adder_, a, b);
    }

    // Adds (-1)^negative (high 2^64 + low) 2^exponent (deposit_magnitude's conditions) with the
    // flags of a finite non-zero term: a bin of ExKokkos_BinnedSink.hpp.
    KOKKOS_INLINE_FUNCTION void add_scaled_magnitude(std::uint64_t high, std::uint64_t low,
                                                     int exponent, bool negative) {
      flags_ |= term_flags(FloatClass::finite, false);
      if ((high | low) != 0) deposit_magnitude(adder_, high, low, exponent, negative);
    }

    KOKKOS_INLINE_FUNCTION void publish() {
      if (flags_ != 0) compat::atomic_or(team_flags_, flags_);
      flags_ = 0;
    }

   private:
    Adder adder_;
    std::uint32_t* team_flags_;
    std::uint32_t flags_;
  };
  using Sink = BasicSink<AtomicDigitAdder>;
  // Only for a thread that no other thread shares its copy with.
  using ExclusiveSink = BasicSink<ExclusiveDigitAdder>;

  KOKKOS_INLINE_FUNCTION Sink sink(int copy) const { return Sink(digits_ + copy, copies_, flags_); }

  template <class Member>
  KOKKOS_INLINE_FUNCTION Sink sink_for(const Member& team) const {
    return sink(team.team_rank() % copies_);
  }

  // Calls f(sink) with the sink through which this thread of `team` deposits (f publishes it).
  // OwnCopies: every thread has a copy to itself (copies >= the team's size, team_rank's copy), so
  // no deposit needs an atomic and only that sink's code is compiled: the host's teams, whose
  // configuration guarantees it. Otherwise a team of one thread adds without atomics as well, and
  // the threads of a larger team share the copies through atomics (devices).
  template <bool OwnCopies, class Member, class F>
  KOKKOS_INLINE_FUNCTION void with_sink(const Member& team, const F& f) const {
    if constexpr (OwnCopies) {
      ExclusiveSink own(digits_ + team.team_rank(), copies_, flags_);
      f(own);
    } else if (team.team_size() == 1) {
      ExclusiveSink own(digits_, copies_, flags_);
      f(own);
    } else {
      Sink shared = sink_for(team);
      f(shared);
    }
  }

  // Adds another accumulator's digits and flags (a LongAccumulator's, normalized or not), the
  // team's threads taking a digit each. Atomic, so it may overlap the threads' other deposits; it
  // counts as many deposits toward the headroom as the other accumulator took since it was last
  // normalized (each of its digits is a sum of that many chunks).
  template <class Member>
  KOKKOS_INLINE_FUNCTION void merge(const Member& team, const std::uint64_t* other,
                                    std::uint32_t other_flags) const {
    const int copy = team.team_rank() % copies_;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, num_digits), [&](const int i) {
      if (other[i] != 0) compat::atomic_add(digits_ + i * copies_ + copy, other[i]);
    });
    Kokkos::single(Kokkos::PerTeam(team), [&]() {
      if (other_flags != 0) compat::atomic_or(flags_, other_flags);
    });
  }

  // After all deposits (the caller puts a team_barrier between the last deposit and this call):
  // sums the copies digit by digit into out[0 .. num_digits), normalizes it, and returns the
  // flags through flags_out. Ends with a team_barrier; out is then valid for every thread.
  template <class Member>
  KOKKOS_INLINE_FUNCTION void reduce(const Member& team, std::uint64_t* out,
                                     std::uint32_t& flags_out) const {
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, num_digits), [&](const int i) {
      std::uint64_t sum = 0;  // wraps like the digits; the true signed sum fits (headroom contract)
      for (int c = 0; c < copies_; ++c) sum += digits_[i * copies_ + c];
      out[i] = sum;
    });
    team.team_barrier();
    Kokkos::single(Kokkos::PerTeam(team), [&]() { normalize_digits(out, num_digits); });
    team.team_barrier();
    flags_out = *flags_;
  }

  KOKKOS_INLINE_FUNCTION int copies() const { return copies_; }

 private:
  KOKKOS_INLINE_FUNCTION static std::size_t align(std::size_t bytes) { return (bytes + 7) / 8 * 8; }

  std::uint64_t* digits_;
  std::uint32_t* flags_;
  int copies_;
};

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_TEAMACCUMULATOR_HPP
