// Level-3 benchmarks: exgemm beside KokkosBlas::gemm (OpenBLAS here) for square sizes 128 to
// 2048 and skinny shapes, LayoutLeft, alpha 1.5, beta 0.5. Reports GFLOP/s (2 m n k flops, the
// ordinary count, for both) and prints the time ratios at the end (--benchmark_out=f.json
// --benchmark_out_format=json for perf_tests/plot_results.py). --benchmark_filter=/128 etc. to
// run a part: exgemm at 2048 takes tens of seconds on two cores.
#include <ExKokkos.hpp>

#include "ExKokkosPerf_RatioReporter.hpp"

#include <Kokkos_Random.hpp>

#if defined(EXKOKKOS_PERF_HAVE_KOKKOSKERNELS)
#include <KokkosBlas3_gemm.hpp>
#endif

#include <benchmark/benchmark.h>

#include <functional>
#include <string>
#include <vector>

namespace {

using Space = Kokkos::DefaultExecutionSpace;
using Matrix = Kokkos::View<double**, Kokkos::LayoutLeft, Space::memory_space>;

struct GemmProblem {
  Matrix A, B, C, C0;
};

struct Shape {
  std::size_t m, n, k;
};

GemmProblem make_gemm(const Shape& s) {
  GemmProblem p{Matrix("A", s.m, s.k), Matrix("B", s.k, s.n), Matrix("C", s.m, s.n),
                Matrix("C0", s.m, s.n)};
  Kokkos::Random_XorShift64_Pool<Space> pool(s.m + 3 * s.n + 7 * s.k);
  Kokkos::fill_random(p.A, pool, -1.0, 1.0);
  Kokkos::fill_random(p.B, pool, -1.0, 1.0);
  Kokkos::fill_random(p.C0, pool, -1.0, 1.0);
  return p;
}

void register_gemm(const std::string& routine, const Shape& s,
                   std::function<void(GemmProblem&)> body) {
  const std::string name = routine + "/NN/" + std::to_string(s.m) + "x" + std::to_string(s.n) +
                           "x" + std::to_string(s.k);
  benchmark::RegisterBenchmark(name.c_str(),
                               [=](benchmark::State& state) {
                                 GemmProblem p = make_gemm(s);
                                 for (auto _ : state) {
                                   state.PauseTiming();
                                   Kokkos::deep_copy(p.C, p.C0);  // C keeps its range
                                   Space().fence();
                                   state.ResumeTiming();
                                   body(p);
                                   Space().fence();
                                 }
                                 state.counters["GFLOP/s"] = benchmark::Counter(
                                     2.0 * double(s.m) * double(s.n) * double(s.k) * 1e-9,
                                     benchmark::Counter::kIsIterationInvariantRate);
                               })
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  benchmark::Initialize(&argc, argv);
  const std::vector<Shape> shapes = {{128, 128, 128},    {256, 256, 256},    {512, 512, 512},
                                     {1024, 1024, 1024}, {2048, 2048, 2048}, {4096, 64, 4096},
                                     {64, 4096, 4096},   {4096, 4096, 64}};
  for (const auto& s : shapes) {
    register_gemm("exgemm", s, [](GemmProblem& p) {
      ExKokkos::exgemm(Space(), "N", "N", 1.5, p.A, p.B, 0.5, p.C);
    });
#if defined(EXKOKKOS_PERF_HAVE_KOKKOSKERNELS)
    register_gemm("KokkosBlas::gemm", s,
                  [](GemmProblem& p) { KokkosBlas::gemm("N", "N", 1.5, p.A, p.B, 0.5, p.C); });
#endif
  }
  const std::vector<std::pair<std::string, std::string>> pairs = {{"exgemm", "KokkosBlas::gemm"}};
  ExKokkosPerf::RatioReporter reporter(pairs);
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}
