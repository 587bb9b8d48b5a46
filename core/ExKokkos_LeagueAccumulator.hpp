// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The third level of the multi-level algorithm: the teams' accumulators merged into one and the
// result rounded, in the same launch as the accumulation.
//
// Each team adds its normalized digits into one global accumulator with 64-bit integer atomics
// (only the digits that are not zero: a team's sum of data of one magnitude touches a handful of
// its 132 digits) and ORs its flags into a global word. Integer addition is associative, so the
// order in which teams arrive changes nothing. Then the team counts itself with an atomic counter;
// the team that counts last knows that every other team has deposited (each one fenced its
// deposits before counting), takes the global digits, normalizes them and hands them to a finisher
// (rounding, storing). No team waits for another: the teams that are not last simply end, so this
// needs no forward-progress guarantee between teams (Kokkos gives none; spinning on a flag set by
// another team, or a fence taken for a barrier, is a known defect of GPU reductions that this
// avoids). It is the "last block" pattern of CUDA's threadFenceReduction sample.
//
// Registers: the merging and rounding code needs hundreds of registers, and a kernel gets the
// registers of its most demanding path; unbounded, it cuts the accumulating loop to one team per
// multiprocessor (255 registers). Kernels that finish here therefore take launch bounds
// (finishing_launch_bounds, common/impl/ExKokkos_DeviceTraits_impl.hpp): the finishing path
// spills to local memory, once per launch, and the loop keeps its occupancy.
//
// Headroom: every team's digits are normalized (each below 2^32 but the top, signed one), so up to
// deposit_capacity = 2^31 - 1 teams can add into the global digits without a carry being lost
// (see impl/ExKokkos_AccumulatorDigits.hpp).
#ifndef EXKOKKOS_LEAGUEACCUMULATOR_HPP
#define EXKOKKOS_LEAGUEACCUMULATOR_HPP

#include "impl/ExKokkos_AccumulatorDigits.hpp"

#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>
#include <type_traits>

namespace ExKokkos {
namespace Impl {

template <class MemorySpace>
class LeagueAccumulator {
 public:
  static constexpr int num_digits = AccumulatorFormat::num_digits;
  // The digits, then one word: its first 32 bits hold the flags, the other 32 count the teams
  // that have deposited.
  using storage_view = Kokkos::View<std::uint64_t*, MemorySpace>;

  LeagueAccumulator() = default;  // no storage: for functors built only to be queried

  // Host side: an accumulator that is zero when the next kernel queued on `space` starts, cleared
  // without a kernel launch and without blocking the host:
  //  - host memory: a fresh allocation, cleared by this thread before it launches anything;
  //  - a GPU stream: one accumulator per stream, kept between calls. The last team of every launch
  //    takes the digits, flags and count and leaves zeros (deposit_and_finish), and the next kernel
  //    on the stream starts after that launch has ended. No allocation (cudaMalloc and cudaFree
  //    synchronize the device) and no fill per call;
  //  - other devices: a fresh allocation cleared by an asynchronous fill on `space`.
  template <class ExecSpace>
  static LeagueAccumulator zero(const ExecSpace& space) {
    LeagueAccumulator a;
    if constexpr (std::is_same<MemorySpace, Kokkos::HostSpace>::value) {
      a.storage_ = allocate();
      std::memset(a.storage_.data(), 0, sizeof(std::uint64_t) * storage_words);
    } else {
      const compat::KernelQueue queue = compat::kernel_queue(space);
      if (queue.known) {
        a.storage_ = kept_for(queue.id);
      } else {
        a.storage_ = allocate();
        Kokkos::deep_copy(space, a.storage_, std::uint64_t(0));
      }
    }
    return a;
  }

  // Called by every thread of every team of the launch, after the team's normalized digits are in
  // `digits` (team scratch, num_digits words, visible to every thread of the team) and its flags in
  // `team_flags`. Deposits them; in the team that deposits last, one thread then calls
  // finish(normalized league digits, league flags), with the league's digits in `digits`.
  template <class Member, class Finisher>
  KOKKOS_INLINE_FUNCTION void deposit_and_finish(const Member& team, std::uint64_t* digits,
                                                 std::uint32_t team_flags,
                                                 const Finisher& finish) const {
    std::uint64_t* const global = storage_.data();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, num_digits), [&](const int i) {
      if (digits[i] != 0) compat::atomic_add(global + i, digits[i]);
    });
    // Each thread's deposits are visible device-wide before its team is counted, and the team
    // reads `digits` no more before the last team overwrites them.
    Kokkos::memory_fence();
    team.team_barrier();
    int is_last = 0;
    Kokkos::single(
        Kokkos::PerTeam(team),
        [&](int& last) {
          if (team_flags != 0) compat::atomic_or(flags(global), team_flags);
          Kokkos::memory_fence();  // the flags before the count, as the digits
          last = compat::atomic_fetch_add(count(global), 1u) ==
                 static_cast<std::uint32_t>(team.league_size() - 1);
        },
        is_last);
    if (!is_last) return;
    // Every other team's deposits happened before its count, and its count before ours. Taking
    // the digits, flags and count leaves the storage zero for the next launch on the queue.
    Kokkos::memory_fence();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, num_digits),
                         [&](const int i) { digits[i] = compat::atomic_take(global + i); });
    team.team_barrier();
    Kokkos::single(Kokkos::PerTeam(team), [&]() {
      const std::uint32_t league_flags = compat::atomic_take(flags(global));
      compat::atomic_take(count(global));
      normalize_digits(digits, num_digits);
      finish(static_cast<const std::uint64_t*>(digits), league_flags);
    });
  }

 private:
  KOKKOS_INLINE_FUNCTION static std::uint32_t* flags(std::uint64_t* storage) {
    return reinterpret_cast<std::uint32_t*>(storage + num_digits);
  }
  KOKKOS_INLINE_FUNCTION static std::uint32_t* count(std::uint64_t* storage) {
    return reinterpret_cast<std::uint32_t*>(storage + num_digits) + 1;
  }

  static constexpr int storage_words = num_digits + 1;

  static storage_view allocate() {
    return storage_view(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "ExKokkos::LeagueAccumulator"),
        storage_words);
  }

  // The accumulator kept for a GPU stream (zero-filled once, when first made); all of them are
  // freed at Kokkos::finalize. Guarded: host threads may call on different streams at once.
  static storage_view kept_for(const void* queue) {
    static std::mutex guard;
    static std::map<const void*, storage_view>* kept = nullptr;
    const std::lock_guard<std::mutex> lock(guard);
    if (kept == nullptr) {
      kept = new std::map<const void*, storage_view>();
      Kokkos::push_finalize_hook([] {
        const std::lock_guard<std::mutex> lock(guard);
        delete kept;
        kept = nullptr;
      });
    }
    auto found = kept->find(queue);
    if (found == kept->end())
      found =
          kept->emplace(queue, storage_view("ExKokkos::LeagueAccumulator", storage_words)).first;
    return found->second;
  }

  storage_view storage_;
};

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_LEAGUEACCUMULATOR_HPP
