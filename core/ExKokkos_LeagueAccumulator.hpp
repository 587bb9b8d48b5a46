// The third level of the multi-level algorithm: the teams' accumulators merged into one, and the
// result rounded, by a second launch on the same execution space instance.
//
// Each team adds its normalized digits into one global accumulator with 64-bit integer atomics
// (only the digits that are not zero: a team's sum of data of one magnitude touches a handful of
// its 132 digits) and ORs its flags into a global word. Integer addition is associative, so the
// order in which teams arrive changes nothing. finish() then launches one thread that normalizes
// the global digits and hands them to a finisher (rounding, storing): the kernel boundary between
// the two launches is the barrier between teams that a single launch cannot have (Kokkos gives no
// forward-progress guarantee between teams, and a fence alone is no barrier: a defect of earlier
// GPU implementations).
//
// Why not merge in the kernel that accumulates: the merging and rounding code needs hundreds of
// registers, and a kernel's register count is the maximum over all its paths, so on a GPU it cut
// the accumulating loop's occupancy to one team per multiprocessor (255 registers, spills; H100,
// 2026-11-23). Split off, the accumulating kernel needs about 48.
//
// Headroom: every team's digits are normalized (each below 2^32 but the top, signed one), so up to
// deposit_capacity = 2^31 - 1 teams can add into the global digits without a carry being lost
// (see impl/ExKokkos_AccumulatorDigits.hpp).
#ifndef EXKOKKOS_LEAGUEACCUMULATOR_HPP
#define EXKOKKOS_LEAGUEACCUMULATOR_HPP

#include "impl/ExKokkos_AccumulatorDigits.hpp"

#include <cstdint>

namespace ExKokkos {
namespace Impl {

template <class MemorySpace>
class LeagueAccumulator {
 public:
  static constexpr int num_digits = AccumulatorFormat::num_digits;
  // The digits, then one word for the flags: one allocation, cleared by one asynchronous fill.
  using storage_view = Kokkos::View<std::uint64_t*, MemorySpace>;

  LeagueAccumulator() = default;  // no storage: for functors built only to be queried

  // Host side: a zero accumulator in MemorySpace, cleared on `space` without blocking the host
  // (an initialized View would fill and then fence).
  template <class ExecSpace>
  static LeagueAccumulator zero(const ExecSpace& space) {
    LeagueAccumulator a;
    a.storage_ =
        storage_view(Kokkos::view_alloc(Kokkos::WithoutInitializing, "ExKokkos::LeagueAccumulator"),
                     num_digits + 1);
    Kokkos::deep_copy(space, a.storage_, std::uint64_t(0));
    return a;
  }

  // Called by every thread of a team, after the team's normalized digits are in `normalized`
  // (visible to every thread of the team) and its flags in `team_flags`.
  template <class Member>
  KOKKOS_INLINE_FUNCTION void deposit(const Member& team, const std::uint64_t* normalized,
                                      std::uint32_t team_flags) const {
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, num_digits), [&](const int i) {
      if (normalized[i] != 0) compat::atomic_add(storage_.data() + i, normalized[i]);
    });
    Kokkos::single(Kokkos::PerTeam(team), [&]() {
      if (team_flags != 0) compat::atomic_or(flags(storage_.data()), team_flags);
    });
  }

  // The one-thread kernel of finish().
  template <class Finisher>
  struct FinishFunctor {
    storage_view storage;
    Finisher finish;
    KOKKOS_INLINE_FUNCTION void operator()(const int) const {
      normalize_digits(storage.data(), num_digits);
      finish(static_cast<const std::uint64_t*>(storage.data()), *flags(storage.data()));
    }
  };

  // Host side, after the launch of the deposits on `space`: queues (does not wait for) the merge
  // and finish(normalized_digits, flags) on one thread of `space`.
  template <class ExecSpace, class Finisher>
  void finish(const ExecSpace& space, const Finisher& finish) const {
    Kokkos::parallel_for("ExKokkos::LeagueAccumulator::finish",
                         Kokkos::RangePolicy<ExecSpace>(space, 0, 1),
                         FinishFunctor<Finisher>{storage_, finish});
  }

 private:
  // The flags: the low half of the word after the digits (zero-filled with it).
  KOKKOS_INLINE_FUNCTION static std::uint32_t* flags(std::uint64_t* storage) {
    return reinterpret_cast<std::uint32_t*>(storage + num_digits);
  }

  storage_view storage_;
};

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_LEAGUEACCUMULATOR_HPP
