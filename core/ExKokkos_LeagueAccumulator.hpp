// The third level of the multi-level algorithm: merging the teams' accumulators into one and
// rounding it, inside the same kernel launch.
//
// Each team writes its normalized digits to its own row of a global array and takes a ticket from
// an atomic counter. The team that draws the last ticket knows that every other team has already
// published its row (each team fences its writes before taking its ticket), so it sums the rows,
// normalizes and hands the result to a finisher (rounding, storing). No team ever waits for
// another: Kokkos gives no forward-progress guarantee between teams, so a spin-wait could hang, and
// a fence alone is no barrier between teams (a defect of earlier GPU implementations). The last
// team resets the counter for the next launch.
//
// Headroom: rows are normalized (every digit below 2^32 but the top), so summing up to
// deposit_capacity = 2^31 - 1 rows stays within the digits' headroom.
#ifndef EXKOKKOS_LEAGUEACCUMULATOR_HPP
#define EXKOKKOS_LEAGUEACCUMULATOR_HPP

#include "impl/ExKokkos_AccumulatorDigits.hpp"

#include <cstddef>

namespace ExKokkos {
namespace Impl {

template <class MemorySpace>
class LeagueAccumulator {
 public:
  static constexpr int num_digits = AccumulatorFormat::num_digits;

  LeagueAccumulator() = default;

  // Host side: global memory for league_size teams. The counter starts at zero.
  explicit LeagueAccumulator(int league_size)
      : rows_(Kokkos::ViewAllocateWithoutInitializing("ExKokkos::LeagueAccumulator::rows"),
              static_cast<std::size_t>(league_size) * num_digits),
        flags_(Kokkos::ViewAllocateWithoutInitializing("ExKokkos::LeagueAccumulator::flags"),
               league_size),
        ticket_("ExKokkos::LeagueAccumulator::ticket"),
        league_size_(league_size) {}

  int league_size() const { return league_size_; }

  // Where team `league_rank` writes its normalized digits (TeamAccumulator::reduce).
  KOKKOS_INLINE_FUNCTION std::uint64_t* row(int league_rank) const {
    return rows_.data() + static_cast<std::size_t>(league_rank) * num_digits;
  }

  // Called by every thread of every team after its row is written (and a team barrier). The last
  // team to arrive merges all rows and calls finish(normalized_digits, flags) on one thread.
  template <class Member, class Finisher>
  KOKKOS_INLINE_FUNCTION void merge(const Member& team, std::uint32_t team_flags,
                                    const Finisher& finish) const {
    const int rank = team.league_rank();
    int is_last = 0;
    Kokkos::single(
        Kokkos::PerTeam(team),
        [&](int& last) {
          flags_(rank) = team_flags;
          Kokkos::memory_fence();  // publish the row and the flags before taking a ticket
          const std::uint32_t ticket = compat::atomic_fetch_add(ticket_.data(), std::uint32_t(1));
          last = ticket + 1 == static_cast<std::uint32_t>(league_size_) ? 1 : 0;
        },
        is_last);
    if (!is_last) return;
    Kokkos::memory_fence();  // see every other team's published row

    std::uint64_t* mine = row(rank);
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, num_digits), [&](const int i) {
      std::uint64_t sum = mine[i];
      for (int t = 0; t < league_size_; ++t) {
        if (t == rank) continue;
        // volatile: read what the other team published, not a stale cached copy.
        sum += static_cast<const volatile std::uint64_t*>(
            rows_.data())[static_cast<std::size_t>(t) * num_digits + i];
      }
      mine[i] = sum;
    });
    team.team_barrier();
    Kokkos::single(Kokkos::PerTeam(team), [&]() {
      std::uint32_t flags = 0;
      for (int t = 0; t < league_size_; ++t)
        flags |= static_cast<const volatile std::uint32_t*>(flags_.data())[t];
      normalize_digits(mine, num_digits);
      finish(static_cast<const std::uint64_t*>(mine), flags);
      ticket_() = 0;  // ready for the next launch
    });
  }

 private:
  Kokkos::View<std::uint64_t*, MemorySpace> rows_;
  Kokkos::View<std::uint32_t*, MemorySpace> flags_;
  Kokkos::View<std::uint32_t, MemorySpace> ticket_;
  int league_size_ = 0;
};

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_LEAGUEACCUMULATOR_HPP
