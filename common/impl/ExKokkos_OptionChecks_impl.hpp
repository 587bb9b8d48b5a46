// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The validation of ExKokkos::Options, in one place and alike for every routine
// (docs/options.md, "Which routine reads which option"). Every public routine that takes Options
// calls validate_options first, before its early returns (empty inputs, alpha = 0) and before
// anything is launched or written, so that a value is refused whatever the data. Each routine
// names the options it reads (OptionUse); an option it does not read is ignored, unchecked, by
// rule. Every option it reads is bounded by what the backend and the problem allow, so that no
// setting reaches Kokkos::abort, std::terminate, or a launch that runs for minutes:
//  - expansion_size: 0 (default), 2, 3, 4, 6 or 8 (the sizes the kernels are compiled for);
//  - early_exit: -1 (default), 0 or 1;
//  - team_size: 0 (default) up to the backend's largest team: on the host Kokkos' own
//    TeamPolicy::team_size_max (the threads of the pool, 1 on Serial), whose excess Kokkos aborts
//    on; on devices the largest team the routine's kernels are compiled for (their launch bounds);
//  - league_size: 0 (default) up to the larger of the problem's work items and 2^16. More teams
//    than items only clear and merge empty accumulators (2^30 teams on 37 elements would take
//    minutes), and 2^16 keeps every league a host or a GPU launches by default;
//  - accumulators_per_team: 0 (default) to 64 (the team accumulator's interleaving);
//  - block_size: 0 (default) up to the routine's bound (exgemm's tiles: panels that fit the team
//    scratch memory of the backend; extrsv cuts its blocks to the matrix);
//  - refinement_steps: not negative (each solve stops refining as soon as x no longer changes);
//  - stage_in_scratch: -1 (default), 0 or 1;
//  - schedule: one of those the routine accepts, and not a host schedule on a device.
// Bounds that depend on the data as well (an accumulator's headroom for the number of terms) are
// checked where the launch is configured, still before anything is written.
#ifndef EXKOKKOS_OPTIONCHECKS_IMPL_HPP
#define EXKOKKOS_OPTIONCHECKS_IMPL_HPP

#include "ExKokkos_ArgumentChecks_impl.hpp"
#include "ExKokkos_DeviceTraits_impl.hpp"

#include <ExKokkos_Options.hpp>
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <limits>
#include <string>

namespace ExKokkos {
namespace Impl {

constexpr unsigned schedule_bit(Schedule s) {
  return 1u << static_cast<unsigned>(s);
}

// The schedules that run on host execution spaces only.
constexpr unsigned host_schedules =
    schedule_bit(Schedule::output_lanes) | schedule_bit(Schedule::inner_lanes);

// The options a routine reads, and the schedules it accepts (0: it ignores `schedule`).
struct OptionUse {
  bool expansion_size = false;
  bool early_exit = false;
  bool team_size = false;
  bool league_size = false;
  bool accumulators_per_team = false;
  bool block_size = false;
  bool refinement_steps = false;
  bool stage_in_scratch = false;
  unsigned schedules = 0;
  bool devices_ignore_schedule = false;        // the LU: devices have one schedule
  int device_max_team = device_max_team_size;  // the largest team of its kernels on devices
};

// The routines, by the options they read.
struct OptionUses {
  // exsum, exasum, exdot, exnrm2 (and their MPI forms): the exact reduction.
  static constexpr OptionUse reduction() {
    OptionUse u;
    u.expansion_size = u.early_exit = u.team_size = u.league_size = u.accumulators_per_team = true;
    return u;
  }
  // exgemv: the reduction's options and its schedules.
  static constexpr OptionUse gemv() {
    OptionUse u = reduction();
    u.schedules = schedule_bit(Schedule::automatic) | host_schedules |
                  schedule_bit(Schedule::team_per_output) | schedule_bit(Schedule::output_block);
    return u;
  }
  // extrsv: exgemv's (its panel products), the rows per diagonal block, refinement.
  static constexpr OptionUse trsv() {
    OptionUse u = gemv();
    u.block_size = u.refinement_steps = true;
    return u;
  }
  // exgemm: exgemv's options but output_block, with tiles and ozaki; block_size: the tiles' panel.
  static constexpr OptionUse gemm() {
    OptionUse u = reduction();
    u.block_size = true;
    u.schedules = schedule_bit(Schedule::automatic) | host_schedules |
                  schedule_bit(Schedule::team_per_output) | schedule_bit(Schedule::tiles) |
                  schedule_bit(Schedule::ozaki);
    return u;
  }
  // exgetf2, exgetf2_batched: the left-looking lanes or the trailing update on the host (devices
  // ignore the schedule), staging in scratch memory.
  static constexpr OptionUse getf2() {
    OptionUse u;
    u.expansion_size = u.team_size = u.stage_in_scratch = true;
    u.schedules = schedule_bit(Schedule::automatic) | schedule_bit(Schedule::output_lanes) |
                  schedule_bit(Schedule::trailing_update);
    u.devices_ignore_schedule = true;
    u.device_max_team = device_lu_max_team_size;
    return u;
  }
  // exgetrf: exgetf2's, and block_size: the columns per panel of the host's blocked schedule.
  static constexpr OptionUse getrf() {
    OptionUse u = getf2();
    u.block_size = true;
    return u;
  }
  // exgetrs: extrsv's options (without refinement: the factors are solved with once).
  static constexpr OptionUse getrs() {
    OptionUse u = trsv();
    u.refinement_steps = false;
    return u;
  }
  // exgetrs_batched: one thread per system, or with team_size a team per system.
  static constexpr OptionUse getrs_batched() {
    OptionUse u;
    u.expansion_size = u.team_size = true;
    return u;
  }
  // exgesv: exgetf2's and extrsv's options (exgetf2's schedules; extrsv takes its default for
  // trailing_update), and refinement.
  static constexpr OptionUse gesv() {
    OptionUse u = trsv();
    u.stage_in_scratch = true;
    u.schedules = getf2().schedules;
    u.devices_ignore_schedule = true;
    u.device_max_team = device_lu_max_team_size;
    return u;
  }
  // exgesv_batched: exgetf2_batched's options, the solve's team, and refinement.
  static constexpr OptionUse gesv_batched() {
    OptionUse u = getf2();
    u.refinement_steps = true;
    return u;
  }
};

// What the problem allows: the work items a league divides (elements, outputs, systems), and the
// largest block_size (0: no bound beyond the int range).
struct ProblemFacts {
  std::int64_t work_items = 0;
  std::int64_t block_size_max = 0;
};

// Teams beyond the work items are allowed up to this many (they find nothing to do).
constexpr std::int64_t league_size_floor = std::int64_t(1) << 16;

template <class ExecSpace>
struct NoTeamWork {
  KOKKOS_INLINE_FUNCTION void operator()(
      const typename Kokkos::TeamPolicy<ExecSpace>::member_type&) const {}
};

// The largest team `routine` may launch on `space`: Kokkos' own bound on the host (what it aborts
// beyond), the kernels' launch bounds on devices.
template <class ExecSpace>
int max_team_size(const ExecSpace& space, const OptionUse& use) {
  if (!is_host_space<ExecSpace>()) return use.device_max_team;
  return Kokkos::TeamPolicy<ExecSpace>(space, 1, 1)
      .team_size_max(NoTeamWork<ExecSpace>{}, Kokkos::ParallelForTag());
}

template <class ExecSpace>
void validate_options(const ExecSpace& space, const char* routine, const OptionUse& use,
                      const Options& o, const ProblemFacts& facts = {}) {
  const auto n = [](std::int64_t v) { return std::to_string(v); };
  if (use.expansion_size) {
    const int e = o.expansion_size;
    check_option(e == 0 || e == 2 || e == 3 || e == 4 || e == 6 || e == 8, routine,
                 "expansion_size = " + n(e) + " (must be 0 for the default, 2, 3, 4, 6 or 8)");
  }
  if (use.early_exit)
    check_option(o.early_exit >= -1 && o.early_exit <= 1, routine,
                 "early_exit = " + n(o.early_exit) + " (must be -1 for the default, 0 or 1)");
  if (use.team_size) {
    check_option(o.team_size >= 0, routine,
                 "team_size = " + n(o.team_size) + " (must not be negative; 0: the default)");
    if (o.team_size > 0) {
      const int most = max_team_size(space, use);
      check_option(o.team_size <= most, routine,
                   "team_size = " + n(o.team_size) + " (at most " + n(most) + " on this backend)");
    }
  }
  if (use.league_size) {
    const std::int64_t most =
        facts.work_items > league_size_floor ? facts.work_items : league_size_floor;
    check_option(o.league_size >= 0 && o.league_size <= most, routine,
                 "league_size = " + n(o.league_size) + " (0 for the default, else at most " +
                     n(most) + ": the larger of the work items, " + n(facts.work_items) +
                     ", and 2^16)");
  }
  if (use.accumulators_per_team)
    check_option(o.accumulators_per_team >= 0 && o.accumulators_per_team <= 64, routine,
                 "accumulators_per_team = " + n(o.accumulators_per_team) +
                     " (0 for the default, else at most 64)");
  if (use.block_size) {
    check_option(o.block_size >= 0, routine,
                 "block_size = " + n(o.block_size) + " (must not be negative; 0: the default)");
    if (facts.block_size_max > 0)
      check_option(o.block_size <= facts.block_size_max, routine,
                   "block_size = " + n(o.block_size) + " (at most " + n(facts.block_size_max) +
                       " with these options on this backend)");
  }
  if (use.refinement_steps)
    check_option(o.refinement_steps >= 0, routine,
                 "refinement_steps = " + n(o.refinement_steps) + " (must not be negative)");
  if (use.stage_in_scratch)
    check_option(o.stage_in_scratch >= -1 && o.stage_in_scratch <= 1, routine,
                 "stage_in_scratch = " + n(o.stage_in_scratch) + " (must be -1, 0 or 1)");
  if (use.schedules != 0) {
    const int s = static_cast<int>(o.schedule);
    const bool known = s >= 0 && s < 32;
    check_option(known && (use.schedules & schedule_bit(o.schedule)) != 0, routine,
                 "schedule = " + n(s) + " (this routine does not take it; docs/options.md)");
    check_option(is_host_space<ExecSpace>() || use.devices_ignore_schedule ||
                     (schedule_bit(o.schedule) & host_schedules) == 0,
                 routine, "schedule (output_lanes and inner_lanes are host schedules)");
  }
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_OPTIONCHECKS_IMPL_HPP
