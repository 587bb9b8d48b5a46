// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Default tuning per execution space, and the resolution of ExKokkos::Options into a launch
// configuration. Defaults were chosen by measurement (perf_tests/; figures: docs/performance.md,
// "Tuning measurements"); none of them changes a result.
#ifndef EXKOKKOS_TUNING_IMPL_HPP
#define EXKOKKOS_TUNING_IMPL_HPP

#include "ExKokkos_ArgumentChecks_impl.hpp"
#include "ExKokkos_DeviceTraits_impl.hpp"

#include <ExKokkos_Compat.hpp>
#include <ExKokkos_LeagueAccumulator.hpp>
#include <ExKokkos_Options.hpp>
#include <ExKokkos_TeamAccumulator.hpp>
#include <ExKokkos_config.hpp>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace ExKokkos {
namespace Impl {

// The expansion sizes and early-exit settings compiled for an execution space. Every one gives
// the same bits (the sums are exact, and the one rounding of an exact sum does not depend on how
// it was split between expansion and accumulator), so a build compiles only those its backends'
// defaults use, per kind of kernel: on the host, the level-1 reductions of sum-like terms 2 slots
// and those of product-like terms (two deposits an element) 3, each kernel only its own default;
// on devices, 4 and 8 for every level-1 reduction (8 is the default, 4 what a smaller register
// budget asks for); the matrix routines (exgemv, exgemm, extrsv, the LU routines) only their
// default, 3 slots on the host and 4 on devices, each of their kernels being several times a
// reduction's code. Early exit: off on the host, on on devices.
// EXKOKKOS_ALL_KERNEL_VARIANTS (common/ExKokkos_config.hpp, CMake's
// ExKokkos_ENABLE_ALL_KERNEL_VARIANTS, or -D for a program whose every translation unit sees the
// same value) compiles 2, 3, 4, 6 and 8 with and without early exit everywhere, and every schedule
// (compiles_team_schedules below), for the tests that compare their bits.
enum class Kernels { level1_sums, level1_products, matrix };

// The kind of a level-1 reduction's kernel: by how many error terms an element may deposit into
// the accumulator besides its expansion (Terms::deposits_per_element: 1 for sums, 2 for products).
constexpr Kernels level1_kernels(int deposits_per_element) {
  return deposits_per_element > 1 ? Kernels::level1_products : Kernels::level1_sums;
}

template <class ExecSpace>
constexpr bool compiles_expansion_size(int n, Kernels kind) {
  if (EXKOKKOS_ALL_KERNEL_VARIANTS) return n == 2 || n == 3 || n == 4 || n == 6 || n == 8;
  if (is_host_space<ExecSpace>()) return n == (kind == Kernels::level1_sums ? 2 : 3);
  return kind == Kernels::matrix ? n == 4 : n == 4 || n == 8;
}

template <class ExecSpace>
constexpr bool compiles_early_exit(bool early_exit) {
  return EXKOKKOS_ALL_KERNEL_VARIANTS || early_exit == !is_host_space<ExecSpace>();
}

// A valid size this build does not compile becomes the nearest compiled one (the larger of two
// as near): the same bits, as above. Resolved before any headroom is computed from it.
template <class ExecSpace>
constexpr int compiled_expansion_size(int n, Kernels kind) {
  for (int d = 0; d < 8; ++d) {
    if (compiles_expansion_size<ExecSpace>(n + d, kind)) return n + d;
    if (compiles_expansion_size<ExecSpace>(n - d, kind)) return n - d;
  }
  return n;
}

template <class ExecSpace>
constexpr bool compiled_early_exit(bool early_exit) {
  return compiles_early_exit<ExecSpace>(early_exit) ? early_exit : !early_exit;
}

// The team schedules of exgemv (team_per_output, output_block) and extrsv's team diagonal solves
// (DiagonalSolve::team, certified_rows) are the devices' defaults; on the host the defaults are
// one-thread loops (the lanes, the one-thread diagonal block), and the team kernels, each several
// times a reduction's code, are compiled only with EXKOKKOS_ALL_KERNEL_VARIANTS. A host schedule
// this build does not compile runs as the routine's automatic choice: every schedule gives the
// same bits (each output is its exact value rounded once), and the options are checked as asked.
template <class ExecSpace>
constexpr bool compiles_team_schedules() {
  return EXKOKKOS_ALL_KERNEL_VARIANTS || !is_host_space<ExecSpace>();
}

// Calls f(std::integral_constant<int, N>()) for the expansion size n, one of those compiled for
// ExecSpace and this kind of kernel (compiled_expansion_size, which the configuration that gave
// n applied with the same kind).
template <class ExecSpace, Kernels Kind, class F>
void with_expansion_size(int n, const F& f) {
  if constexpr (compiles_expansion_size<ExecSpace>(2, Kind))
    if (n == 2) return f(std::integral_constant<int, 2>());
  if constexpr (compiles_expansion_size<ExecSpace>(3, Kind))
    if (n == 3) return f(std::integral_constant<int, 3>());
  if constexpr (compiles_expansion_size<ExecSpace>(4, Kind))
    if (n == 4) return f(std::integral_constant<int, 4>());
  if constexpr (compiles_expansion_size<ExecSpace>(6, Kind))
    if (n == 6) return f(std::integral_constant<int, 6>());
  return f(std::integral_constant<int, compiled_expansion_size<ExecSpace>(8, Kind)>());
}

// Calls f(std::integral_constant<bool, E>()) for the early-exit setting e, one of those compiled
// for ExecSpace (compiled_early_exit).
template <class ExecSpace, class F>
void with_early_exit(bool e, const F& f) {
  if constexpr (compiles_early_exit<ExecSpace>(true) && compiles_early_exit<ExecSpace>(false)) {
    if (e)
      f(std::true_type());
    else
      f(std::false_type());
  } else {
    f(std::integral_constant<bool, compiles_early_exit<ExecSpace>(true)>());
  }
}

// Threads per team unless options say: one on the host (a team per core's share of the work), 256
// on devices (their kernels' launch bounds).
template <class ExecSpace>
constexpr int default_team_size() {
  return is_host_space<ExecSpace>() ? 1 : device_max_team_size;
}

struct LaunchConfig {
  int expansion_size;
  bool early_exit;
  int team_size;
  int league_size;
  int copies;
};

// Resolves options for a reduction over n elements that deposits at most `deposits_per_element`
// times per element into its team's accumulator. The options were validated by the public routine
// (common/impl/ExKokkos_OptionChecks_impl.hpp); what is checked here depends on n as well.
template <class ExecSpace>
LaunchConfig resolve_reduction_config(const ExecSpace& space, const Options& opt, std::int64_t n,
                                      int deposits_per_element, const char* routine, Kernels kind) {
  LaunchConfig c;
  const bool host = is_host_space<ExecSpace>();
  const int concurrency = compat::concurrency(space);
  // Host defaults (perf_tests/bench_level1): sums are fastest with 2 slots (the rare leftovers go
  // to the accumulator), dot products need a third slot for the TwoProd errors.
  const int host_default = deposits_per_element > 1 ? 3 : 2;
  c.expansion_size = opt.expansion_size > 0 ? opt.expansion_size : (host ? host_default : 4);
  c.expansion_size = compiled_expansion_size<ExecSpace>(c.expansion_size, kind);
  c.early_exit = compiled_early_exit<ExecSpace>(opt.early_exit < 0 ? !host : opt.early_exit != 0);
  // Host: one thread per team and one team per thread. Kokkos' host backends hand a thread its
  // share of the teams up front (a static schedule), so more teams than threads balance nothing,
  // while each team pays fixed costs (its accumulator's merge; on wide data, exponent bins that
  // only a long range repays: a team's range below min_terms_for_bins takes the slower lane walk).
  // GPU: large teams sharing several interleaved accumulators in scratch memory.
  c.team_size = opt.team_size > 0 ? opt.team_size : default_team_size<ExecSpace>();
  c.copies = opt.accumulators_per_team > 0 ? opt.accumulators_per_team : (host ? 1 : 8);
  // On the host every thread of a team deposits into a copy of its own, without atomics
  // (TeamAccumulator::with_sink): a team has at least as many copies as threads.
  if (host) c.copies = std::max(c.copies, c.team_size);
  c.league_size =
      opt.league_size > 0 ? opt.league_size : (host ? concurrency : std::max(1, concurrency / 256));
  // Headroom contract of TeamAccumulator: fewer than deposit_capacity deposits per team. An
  // element deposits at most deposits_per_element error terms, plus the whole expansion when its
  // head reaches the flush threshold; each thread flushes its expansion once more at the end.
  const std::int64_t capacity = AccumulatorFormat::deposit_capacity;
  const std::int64_t per_element = deposits_per_element + c.expansion_size;
  const std::int64_t per_team_budget =
      capacity - static_cast<std::int64_t>(c.team_size) * c.expansion_size;
  check_option(per_team_budget > per_element, routine,
               "team_size = " + std::to_string(c.team_size) + " (too large)");
  const std::int64_t max_per_team = per_team_budget / per_element;
  const std::int64_t min_league = (n + max_per_team - 1) / max_per_team;
  if (c.league_size < min_league) c.league_size = static_cast<int>(min_league);
  return c;
}

// The options of a level-1 reduction (exsum, exasum, exdot, exnrm2) with its own device
// defaults filled in (perf_tests/bench_cuda_level1; figures: docs/performance.md):
//  - 8 slots per expansion: uniform data cost the same as with 4, while with 4 slots lognormal
//    data's errors spill into the team accumulators' shared-memory atomics. Data spread over the
//    full exponent range lose a little (every term spills either way, and the longer cascades
//    come first); 2 slots are much slower even on uniform data.
//  - one wave of teams: as many as the kernel's launch bounds let the multiprocessors hold at
//    once (3 or 4 teams of 256 threads each), rather than concurrency / 256 teams, whose last
//    wave is partly idle. Accumulators per team and team sizes of 128 or 256 matter little.
//  - how many teams a multiprocessor holds: reduction_teams_per_multiprocessor below.
// (The largest team on devices, the launch bounds', is resolve_reduction_config's check.)
template <class ExecSpace>
Options with_level1_defaults(const ExecSpace& space, Options o, int teams_per_multiprocessor) {
  if (is_host_space<ExecSpace>()) return o;
  if (o.expansion_size <= 0) o.expansion_size = 8;
  if (o.league_size <= 0) {
    // Kokkos counts 2048 threads per multiprocessor of an NVIDIA GPU in its concurrency.
    const int multiprocessors = std::max(1, compat::concurrency(space) / 2048);
    const int team = o.team_size > 0 ? o.team_size : finishing_max_team_size;
    const int resident = finishing_max_team_size * teams_per_multiprocessor;
    o.league_size = multiprocessors * std::max(1, resident / team);
  }
  return o;
}

// Teams of 256 threads resident per multiprocessor for the exact reduction of sum-like terms
// (exsum, exasum) and of product-like ones (exdot, exnrm2): the launch bounds of its kernel, and
// the one wave of teams with_level1_defaults launches. A sum's loop keeps its expansion of 8
// slots and four loads in flight within 64 registers, so four teams (32 warps) hide more of the
// memory latency. Products lose on uniform data under the 64-register cap (although lognormal
// data and exnrm2 gain), so they keep three teams (figures: docs/performance.md).
constexpr int reduction_teams_per_multiprocessor(bool is_product) {
  return is_product ? 3 : 4;
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_TUNING_IMPL_HPP
