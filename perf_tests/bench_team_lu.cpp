// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The LU inside a user's kernel: a batch of n x n systems (n = 8, 16, 32, 64), each factored and
// solved by one team with ExKokkos::TeamGetf2 + TeamGetrs, beside KokkosBatched's TeamLU +
// TeamSolveLU on the same data in the same process; and the same with one thread per system
// (SerialGetf2 + SerialGetrs beside SerialLU + SerialSolveLU in a RangePolicy). KokkosBatched's
// LU does not pivot: the matrices are diagonally dominant, so that it is stable and partial
// pivoting swaps nothing (the two do the same arithmetic, exactly or not). Both factor in place,
// with exgetf2_batched's default team size (one thread on the host, 32 threads per matrix on
// devices, 64 from n = 64). Prints the time ratios at the end.
//
//   bench_team_lu [benchmark flags] [log2 entries]   entries per batch, default 2^22 (32 MiB)
#include <ExKokkos_Getf2.hpp>
#include <ExKokkos_TeamLU.hpp>

#include "ExKokkosPerf_RatioReporter.hpp"

#include <benchmark/benchmark.h>

#include <Kokkos_Random.hpp>

#if defined(EXKOKKOS_PERF_HAVE_KOKKOSKERNELS)
#include <KokkosBatched_LU_Decl.hpp>
#include <KokkosBatched_LU_Serial_Impl.hpp>
#include <KokkosBatched_LU_Team_Impl.hpp>
#include <KokkosBatched_SolveLU_Decl.hpp>
#endif

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace {

using Space = Kokkos::DefaultExecutionSpace;
using Mem = Space::memory_space;
using Member = Kokkos::TeamPolicy<Space>::member_type;
using Batch = Kokkos::View<double***, Kokkos::LayoutRight, Mem>;
using Rhs = Kokkos::View<double***, Kokkos::LayoutRight, Mem>;  // batch x n x 1
using Pivots = Kokkos::View<int**, Kokkos::LayoutRight, Mem>;

struct Problem {
  Batch original, A;
  Rhs b0, b;
  Pivots ipiv;
};

// a_ii += n: strictly diagonally dominant by rows and columns.
struct MakeDominant {
  Batch A;
  KOKKOS_INLINE_FUNCTION void operator()(const int s) const {
    const int n = static_cast<int>(A.extent(1));
    for (int i = 0; i < n; ++i) A(s, i, i) += double(n);
  }
};

Problem make_problem(int batch, int n) {
  Problem p{Batch("original", batch, n, n), Batch("A", batch, n, n), Rhs("b0", batch, n, 1),
            Rhs("b", batch, n, 1), Pivots("ipiv", batch, n)};
  Kokkos::Random_XorShift64_Pool<Space> pool(n);
  Kokkos::fill_random(p.original, pool, -1.0, 1.0);
  Kokkos::fill_random(p.b0, pool, -1.0, 1.0);
  Kokkos::parallel_for("dominant", Kokkos::RangePolicy<Space>(0, batch), MakeDominant{p.original});
  return p;
}

struct ExTeam {
  Batch A;
  Pivots ipiv;
  Rhs b;
  KOKKOS_INLINE_FUNCTION void operator()(const Member& member) const {
    const int s = member.league_rank();
    const auto a = Kokkos::subview(A, s, Kokkos::ALL(), Kokkos::ALL());
    const auto p = Kokkos::subview(ipiv, s, Kokkos::ALL());
    if (ExKokkos::TeamGetf2<Member>::invoke(member, a, p) == 0)
      ExKokkos::TeamGetrs<Member>::invoke(member, "N", a, p,
                                          Kokkos::subview(b, s, Kokkos::ALL(), 0));
  }
};

struct ExSerial {
  Batch A;
  Pivots ipiv;
  Rhs b;
  KOKKOS_INLINE_FUNCTION void operator()(const int s) const {
    const auto a = Kokkos::subview(A, s, Kokkos::ALL(), Kokkos::ALL());
    const auto p = Kokkos::subview(ipiv, s, Kokkos::ALL());
    if (ExKokkos::SerialGetf2::invoke(a, p) == 0)
      ExKokkos::SerialGetrs::invoke("N", a, p, Kokkos::subview(b, s, Kokkos::ALL(), 0));
  }
};

#if defined(EXKOKKOS_PERF_HAVE_KOKKOSKERNELS)
struct BatchedTeam {
  Batch A;
  Rhs b;
  KOKKOS_INLINE_FUNCTION void operator()(const Member& member) const {
    namespace KB = KokkosBatched;
    const int s = member.league_rank();
    const auto a = Kokkos::subview(A, s, Kokkos::ALL(), Kokkos::ALL());
    KB::TeamLU<Member, KB::Algo::LU::Unblocked>::invoke(member, a);
    member.team_barrier();
    KB::TeamSolveLU<Member, KB::Trans::NoTranspose, KB::Algo::SolveLU::Unblocked>::invoke(
        member, a, Kokkos::subview(b, s, Kokkos::ALL(), Kokkos::ALL()));
  }
};

struct BatchedSerial {
  Batch A;
  Rhs b;
  KOKKOS_INLINE_FUNCTION void operator()(const int s) const {
    namespace KB = KokkosBatched;
    const auto a = Kokkos::subview(A, s, Kokkos::ALL(), Kokkos::ALL());
    KB::SerialLU<KB::Algo::LU::Unblocked>::invoke(a);
    KB::SerialSolveLU<KB::Trans::NoTranspose, KB::Algo::SolveLU::Unblocked>::invoke(
        a, Kokkos::subview(b, s, Kokkos::ALL(), Kokkos::ALL()));
  }
};
#endif

// Threads per matrix: exgetf2_batched's default.
int team_size(int n) {
  return ExKokkos::Impl::batched_lu_team_size<Space>(ExKokkos::Options(), n);
}

void register_bench(const std::string& routine, int n, int batch,
                    std::function<void(Problem&)> body) {
  const std::string name = routine + "/batched/" + std::to_string(n);
  benchmark::RegisterBenchmark(name.c_str(),
                               [=](benchmark::State& state) {
                                 Problem p = make_problem(batch, n);
                                 for (auto _ : state) {
                                   state.PauseTiming();
                                   Kokkos::deep_copy(p.A, p.original);
                                   Kokkos::deep_copy(p.b, p.b0);
                                   Space().fence();
                                   state.ResumeTiming();
                                   body(p);
                                   Space().fence();
                                 }
                                 state.counters["systems_per_s"] =
                                     benchmark::Counter(double(batch) * state.iterations(),
                                                        benchmark::Counter::kIsRate);
                               })
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  benchmark::Initialize(&argc, argv);
  const int log2_entries = argc > 1 ? std::atoi(argv[1]) : 22;
  for (int n : {8, 16, 32, 64}) {
    const int batch = std::max(1, (1 << log2_entries) / (n * n));
    const int team = team_size(n);
    register_bench("exteam_getf2_getrs", n, batch, [=](Problem& p) {
      Kokkos::parallel_for("exteam_getf2_getrs", Kokkos::TeamPolicy<Space>(batch, team),
                           ExTeam{p.A, p.ipiv, p.b});
    });
    register_bench("exserial_getf2_getrs", n, batch, [=](Problem& p) {
      Kokkos::parallel_for("exserial_getf2_getrs", Kokkos::RangePolicy<Space>(0, batch),
                           ExSerial{p.A, p.ipiv, p.b});
    });
#if defined(EXKOKKOS_PERF_HAVE_KOKKOSKERNELS)
    register_bench("kokkosbatched_team_lu_solve", n, batch, [=](Problem& p) {
      Kokkos::parallel_for("kokkosbatched_team_lu_solve", Kokkos::TeamPolicy<Space>(batch, team),
                           BatchedTeam{p.A, p.b});
    });
    register_bench("kokkosbatched_serial_lu_solve", n, batch, [=](Problem& p) {
      Kokkos::parallel_for("kokkosbatched_serial_lu_solve", Kokkos::RangePolicy<Space>(0, batch),
                           BatchedSerial{p.A, p.b});
    });
#endif
  }
  ExKokkosPerf::RatioReporter reporter({{"exteam_getf2_getrs", "kokkosbatched_team_lu_solve"},
                                        {"exserial_getf2_getrs", "kokkosbatched_serial_lu_solve"}});
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}
