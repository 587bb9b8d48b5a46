// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The team forms inside a user's kernel: many small problems, one per team, ExKokkos' team forms
// beside KokkosBlas::Experimental's on the same data in the same process:
//   ex_team_dot / KokkosBlas::team_dot, ex_team_nrm2 / KokkosBlas::team_nrm2, ex_team_sum and
//     ex_team_asum / an ordinary parallel_reduce over the team (KokkosBlas has no team sum or
//     asum): 2^14 reductions of 256 terms (columns of 256 x 2^14 LayoutLeft matrices), data
//     "uniform" (U[-1, 1): the certified compensated path) and "wide" (random signs, magnitudes
//     10^u with u ~ U[-300, 300]: the exact path);
//   ex_team_gemv / KokkosBlas::team_gemv: 2^10 products of 64 x 64 matrices with vectors,
//     y = 1.5 op(A) x + 0.5 y, "N" and "T", uniform data;
//   the same on Kokkos::complex<double>: ex_team_dot_complex / KokkosBlas::team_dot_complex
//     (conj(x) . y, 2^14 of 256 terms, uniform parts) and ex_team_gemv_complex /
//     KokkosBlas::team_gemv_complex (2^10 of 64 x 64, alpha 1.5 - 0.5i, beta 0.5 + 0.25i).
// Teams of Kokkos::AUTO threads. Prints the time ratios at the end. EXKOKKOS_TEAM_BLAS_SMALL=1 in
// the environment runs 1/256 of the problems (a check that the benchmark works, not a timing).
#include <ExKokkos.hpp>

#include "ExKokkosPerf_RatioReporter.hpp"

#include <ExKokkosTest_Generators.hpp>

#include <Kokkos_Random.hpp>

#if defined(EXKOKKOS_PERF_HAVE_KOKKOSKERNELS)
#include <KokkosBlas1_team_dot.hpp>
#include <KokkosBlas1_team_nrm2.hpp>
#include <KokkosBlas2_team_gemv.hpp>
#endif

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>
#include <vector>

namespace {

using Space = Kokkos::DefaultExecutionSpace;
using Mem = Space::memory_space;
using Policy = Kokkos::TeamPolicy<Space>;
using Member = Policy::member_type;
using Matrix = Kokkos::View<double**, Kokkos::LayoutLeft, Mem>;
using Batch = Kokkos::View<double***, Kokkos::LayoutLeft, Mem>;
using Vec = Kokkos::View<double*, Mem>;

enum class Impl { exkokkos, kokkosblas };

int problem_count(int full) {
  const char* small = std::getenv("EXKOKKOS_TEAM_BLAS_SMALL");
  return small != nullptr && std::string(small) == "1" ? full / 256 : full;
}

// r(j) = the reduction of column j (x(:, j) . y(:, j) for a dot product), one team per j.
// KokkosBlas has team forms of dot and nrm2 only: sum and asum are set beside an ordinary
// parallel_reduce over the team's threads, what a user would otherwise write.
enum class Reduction { dot, nrm2, sum, asum };

template <Impl Which, Reduction Op>
struct TeamReductions {
  Matrix X, Y;
  Vec r;
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const int j = team.league_rank();
    const auto x = Kokkos::subview(X, Kokkos::ALL(), j);
    const auto y = Kokkos::subview(Y, Kokkos::ALL(), j);
    double d = 0.0;
    if constexpr (Which == Impl::exkokkos) {
      if constexpr (Op == Reduction::dot) d = ExKokkos::Experimental::exdot(team, x, y);
      if constexpr (Op == Reduction::nrm2) d = ExKokkos::Experimental::exnrm2(team, x);
      if constexpr (Op == Reduction::sum) d = ExKokkos::Experimental::exsum(team, x);
      if constexpr (Op == Reduction::asum) d = ExKokkos::Experimental::exasum(team, x);
    } else {
#if defined(EXKOKKOS_PERF_HAVE_KOKKOSKERNELS)
      if constexpr (Op == Reduction::dot) d = KokkosBlas::Experimental::dot(team, x, y);
      if constexpr (Op == Reduction::nrm2) d = KokkosBlas::Experimental::nrm2(team, x);
#endif
      if constexpr (Op == Reduction::sum || Op == Reduction::asum)
        Kokkos::parallel_reduce(
            Kokkos::TeamThreadRange(team, int(x.extent(0))),
            [&](const int i, double& acc) {
              acc += Op == Reduction::sum ? x(i) : Kokkos::Experimental::fabs(x(i));
            },
            d);
    }
    Kokkos::single(Kokkos::PerTeam(team), [&]() { r(j) = d; });
  }
};

// y(:, b) = 1.5 op(A(:, :, b)) x(:, b) + 0.5 y(:, b), one team per b.
template <Impl Which>
struct TeamGemvs {
  Batch A;
  Matrix X, Y;
  char trans;
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const int b = team.league_rank();
    const auto a = Kokkos::subview(A, Kokkos::ALL(), Kokkos::ALL(), b);
    const auto x = Kokkos::subview(X, Kokkos::ALL(), b);
    const auto y = Kokkos::subview(Y, Kokkos::ALL(), b);
    if constexpr (Which == Impl::exkokkos) {
      ExKokkos::Experimental::exgemv(team, trans, 1.5, a, x, 0.5, y);
    } else {
#if defined(EXKOKKOS_PERF_HAVE_KOKKOSKERNELS)
      KokkosBlas::Experimental::gemv(team, trans, 1.5, a, x, 0.5, y);
#endif
    }
  }
};

// The complex forms: r(j) = conj(x(:, j)) . y(:, j), and y(:, b) = alpha op(A(:, :, b)) x(:, b) +
// beta y(:, b), one team per j or b.
using Z = Kokkos::complex<double>;
using ZMatrix = Kokkos::View<Z**, Kokkos::LayoutLeft, Mem>;
using ZBatch = Kokkos::View<Z***, Kokkos::LayoutLeft, Mem>;

template <Impl Which>
struct TeamComplexDots {
  ZMatrix X, Y;
  Kokkos::View<Z*, Mem> r;
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const int j = team.league_rank();
    const auto x = Kokkos::subview(X, Kokkos::ALL(), j);
    const auto y = Kokkos::subview(Y, Kokkos::ALL(), j);
    Z d(0.0);
    if constexpr (Which == Impl::exkokkos) {
      d = ExKokkos::Experimental::exdot(team, x, y);
    } else {
#if defined(EXKOKKOS_PERF_HAVE_KOKKOSKERNELS)
      d = KokkosBlas::Experimental::dot(team, x, y);
#endif
    }
    Kokkos::single(Kokkos::PerTeam(team), [&]() { r(j) = d; });
  }
};

template <Impl Which>
struct TeamComplexGemvs {
  ZBatch A;
  ZMatrix X, Y;
  char trans;
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const int b = team.league_rank();
    const auto a = Kokkos::subview(A, Kokkos::ALL(), Kokkos::ALL(), b);
    const auto x = Kokkos::subview(X, Kokkos::ALL(), b);
    const auto y = Kokkos::subview(Y, Kokkos::ALL(), b);
    const Z alpha(1.5, -0.5), beta(0.5, 0.25);
    if constexpr (Which == Impl::exkokkos) {
      ExKokkos::Experimental::exgemv(team, trans, alpha, a, x, beta, y);
    } else {
#if defined(EXKOKKOS_PERF_HAVE_KOKKOSKERNELS)
      KokkosBlas::Experimental::gemv(team, trans, alpha, a, x, beta, y);
#endif
    }
  }
};

template <Impl Which>
void register_complex_dots(const std::string& routine, int len, int count) {
  const std::string name =
      routine + "/uniform/" + std::to_string(len) + "x" + std::to_string(count);
  benchmark::RegisterBenchmark(
      name.c_str(),
      [=](benchmark::State& state) {
        ZMatrix X("X", len, count), Y("Y", len, count);
        Kokkos::Random_XorShift64_Pool<Space> pool(6);
        Kokkos::fill_random(X, pool, Z(-1.0, -1.0), Z(1.0, 1.0));
        Kokkos::fill_random(Y, pool, Z(-1.0, -1.0), Z(1.0, 1.0));
        const TeamComplexDots<Which> f{X, Y, Kokkos::View<Z*, Mem>("r", count)};
        for (auto _ : state) {
          Kokkos::parallel_for("team_complex_dots", Policy(count, Kokkos::AUTO), f);
          Space().fence();
        }
        state.SetBytesProcessed(std::int64_t(state.iterations()) * 2 * len * count * sizeof(Z));
      })
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
}

template <Impl Which>
void register_complex_gemvs(const std::string& routine, char trans, int n, int count) {
  const std::string name = routine + "/" + std::string(1, trans) + "/" + std::to_string(n) + "x" +
                           std::to_string(n) + "x" + std::to_string(count);
  benchmark::RegisterBenchmark(
      name.c_str(),
      [=](benchmark::State& state) {
        ZBatch A("A", n, n, count);
        ZMatrix X("X", n, count), Y0("Y0", n, count), Y("Y", n, count);
        Kokkos::Random_XorShift64_Pool<Space> pool(7);
        Kokkos::fill_random(A, pool, Z(-1.0, -1.0), Z(1.0, 1.0));
        Kokkos::fill_random(X, pool, Z(-1.0, -1.0), Z(1.0, 1.0));
        Kokkos::fill_random(Y0, pool, Z(-1.0, -1.0), Z(1.0, 1.0));
        const TeamComplexGemvs<Which> f{A, X, Y, trans};
        for (auto _ : state) {
          state.PauseTiming();
          Kokkos::deep_copy(Y, Y0);
          Space().fence();
          state.ResumeTiming();
          Kokkos::parallel_for("team_complex_gemvs", Policy(count, Kokkos::AUTO), f);
          Space().fence();
        }
        state.SetBytesProcessed(std::int64_t(state.iterations()) * n * n * count * sizeof(Z));
      })
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
}

// A len x count matrix of the named data.
Matrix make_columns(const std::string& data, int len, int count, std::uint64_t seed) {
  Matrix m("m", len, count);
  if (data == "uniform") {
    Kokkos::Random_XorShift64_Pool<Space> pool(seed);
    Kokkos::fill_random(m, pool, -1.0, 1.0);
  } else {
    ExKokkosTest::Rng rng(seed);
    const auto h = Kokkos::create_mirror_view(m);
    for (int j = 0; j < count; ++j) {
      std::vector<double> v;
      while (v.size() < std::size_t(len)) {
        const auto w = ExKokkosTest::lognormal_wide(std::size_t(len), rng);
        v.insert(v.end(), w.begin(), w.end());
      }
      for (int i = 0; i < len; ++i) h(i, j) = v[std::size_t(i)];
    }
    Kokkos::deep_copy(m, h);
  }
  return m;
}

template <Impl Which, Reduction Op>
void register_dots(const std::string& routine, const std::string& data, int len, int count) {
  const std::string name =
      routine + "/" + data + "/" + std::to_string(len) + "x" + std::to_string(count);
  benchmark::RegisterBenchmark(
      name.c_str(),
      [=](benchmark::State& state) {
        const TeamReductions<Which, Op> f{make_columns(data, len, count, 1),
                                          make_columns(data, len, count, 2), Vec("r", count)};
        for (auto _ : state) {
          Kokkos::parallel_for("team_dots", Policy(count, Kokkos::AUTO), f);
          Space().fence();
        }
        state.SetBytesProcessed(std::int64_t(state.iterations()) * 2 * len * count *
                                sizeof(double));
      })
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
}

template <Impl Which>
void register_gemvs(const std::string& routine, char trans, int n, int count) {
  const std::string name = routine + "/" + std::string(1, trans) + "/" + std::to_string(n) + "x" +
                           std::to_string(n) + "x" + std::to_string(count);
  benchmark::RegisterBenchmark(
      name.c_str(),
      [=](benchmark::State& state) {
        Batch A("A", n, n, count);
        Kokkos::Random_XorShift64_Pool<Space> pool(3);
        Kokkos::fill_random(A, pool, -1.0, 1.0);
        const Matrix X = make_columns("uniform", n, count, 4),
                     Y0 = make_columns("uniform", n, count, 5);
        const Matrix Y("Y", n, count);
        const TeamGemvs<Which> f{A, X, Y, trans};
        for (auto _ : state) {
          state.PauseTiming();
          Kokkos::deep_copy(Y, Y0);  // y keeps its range
          Space().fence();
          state.ResumeTiming();
          Kokkos::parallel_for("team_gemvs", Policy(count, Kokkos::AUTO), f);
          Space().fence();
        }
        state.SetBytesProcessed(std::int64_t(state.iterations()) * n * n * count * sizeof(double));
      })
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  benchmark::Initialize(&argc, argv);
  const int dots = problem_count(1 << 14), gemvs = problem_count(1 << 10);
  for (const char* data : {"uniform", "wide"}) {
    register_dots<Impl::exkokkos, Reduction::dot>("ex_team_dot", data, 256, dots);
    register_dots<Impl::exkokkos, Reduction::nrm2>("ex_team_nrm2", data, 256, dots);
    register_dots<Impl::exkokkos, Reduction::sum>("ex_team_sum", data, 256, dots);
    register_dots<Impl::exkokkos, Reduction::asum>("ex_team_asum", data, 256, dots);
#if defined(EXKOKKOS_PERF_HAVE_KOKKOSKERNELS)
    register_dots<Impl::kokkosblas, Reduction::dot>("KokkosBlas::team_dot", data, 256, dots);
    register_dots<Impl::kokkosblas, Reduction::nrm2>("KokkosBlas::team_nrm2", data, 256, dots);
#endif
    register_dots<Impl::kokkosblas, Reduction::sum>("team_parallel_reduce_sum", data, 256, dots);
    register_dots<Impl::kokkosblas, Reduction::asum>("team_parallel_reduce_asum", data, 256, dots);
  }
  for (char trans : {'N', 'T'}) {
    register_gemvs<Impl::exkokkos>("ex_team_gemv", trans, 64, gemvs);
#if defined(EXKOKKOS_PERF_HAVE_KOKKOSKERNELS)
    register_gemvs<Impl::kokkosblas>("KokkosBlas::team_gemv", trans, 64, gemvs);
#endif
  }
  register_complex_dots<Impl::exkokkos>("ex_team_dot_complex", 256, dots);
#if defined(EXKOKKOS_PERF_HAVE_KOKKOSKERNELS)
  register_complex_dots<Impl::kokkosblas>("KokkosBlas::team_dot_complex", 256, dots);
#endif
  for (char trans : {'N', 'T'}) {
    register_complex_gemvs<Impl::exkokkos>("ex_team_gemv_complex", trans, 64, gemvs);
#if defined(EXKOKKOS_PERF_HAVE_KOKKOSKERNELS)
    register_complex_gemvs<Impl::kokkosblas>("KokkosBlas::team_gemv_complex", trans, 64, gemvs);
#endif
  }
  const std::vector<std::pair<std::string, std::string>> pairs = {
      {"ex_team_dot", "KokkosBlas::team_dot"},
      {"ex_team_nrm2", "KokkosBlas::team_nrm2"},
      {"ex_team_sum", "team_parallel_reduce_sum"},
      {"ex_team_asum", "team_parallel_reduce_asum"},
      {"ex_team_gemv", "KokkosBlas::team_gemv"},
      {"ex_team_dot_complex", "KokkosBlas::team_dot_complex"},
      {"ex_team_gemv_complex", "KokkosBlas::team_gemv_complex"}};
  ExKokkosPerf::RatioReporter reporter(pairs);
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}
