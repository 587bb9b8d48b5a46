// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Level-1 benchmarks: ExKokkos' exdot, exsum, exnrm2, exaxpby and the ExactSum reducer beside their
// ordinary counterparts in the same process: KokkosBlas::dot/nrm2/axpby, OpenBLAS' cblas_ddot, and
// a plain Kokkos parallel_reduce. Prints the time ratios at the end; --benchmark_out=f.json
// --benchmark_out_format=json writes JSON for perf_tests/plot_results.py.
#include <ExKokkos.hpp>

#include <ExKokkosTest_Generators.hpp>

#include "ExKokkosPerf_RatioReporter.hpp"

#if defined(EXKOKKOS_PERF_HAVE_KOKKOSKERNELS)
#include <KokkosBlas1_axpby.hpp>
#include <KokkosBlas1_dot.hpp>
#include <KokkosBlas1_nrm2.hpp>
#endif

#include <benchmark/benchmark.h>

#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

#if defined(EXKOKKOS_PERF_HAVE_CBLAS)
extern "C" double cblas_ddot(int n, const double* x, int incx, const double* y, int incy);
#endif

namespace {

using Space = Kokkos::DefaultExecutionSpace;
using Vector = Kokkos::View<double*, Space::memory_space>;

std::vector<double> generate(const std::string& data, std::size_t n, std::mt19937_64& rng) {
  if (data == "lognormal") return ExKokkosTest::lognormal_wide(n, rng);
  if (data == "fullrange") return ExKokkosTest::full_range(n, rng);
  return ExKokkosTest::uniform(n, rng);
}

Vector to_device(const std::vector<double>& v) {
  Vector d(Kokkos::ViewAllocateWithoutInitializing("v"), v.size());
  Kokkos::deep_copy(
      d, Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
             v.data(), v.size()));
  return d;
}

// Inputs are made once per (data, n) and shared by every routine measured on them.
struct Inputs {
  Vector x, y;
  std::vector<double> hx, hy;  // host copies for cblas on host backends
};

// Views must be released before Kokkos::finalize: main clears this cache at the end.
std::map<std::pair<std::string, std::size_t>, Inputs>& input_cache() {
  static std::map<std::pair<std::string, std::size_t>, Inputs> cache;
  return cache;
}

Inputs& inputs(const std::string& data, std::size_t n) {
  auto& cache = input_cache();
  auto key = std::make_pair(data, n);
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  cache.clear();  // keep one size in memory at a time
  std::mt19937_64 rng(n);
  Inputs in;
  in.hx = generate(data, n, rng);
  in.hy = generate(data, n, rng);
  in.x = to_device(in.hx);
  in.y = to_device(in.hy);
  return cache.emplace(key, std::move(in)).first->second;
}

void register_one(const std::string& routine, const std::string& data, std::size_t n,
                  std::function<double(Inputs&)> body, int bytes_per_element) {
  const std::string name = routine + "/" + data + "/" + std::to_string(n);
  benchmark::RegisterBenchmark(
      name.c_str(),
      [=](benchmark::State& state) {
        Inputs& in = inputs(data, n);
        for (auto _ : state) benchmark::DoNotOptimize(body(in));
        state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * n *
                                bytes_per_element);
      })
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  benchmark::Initialize(&argc, argv);
  std::vector<std::pair<std::string, std::string>> pairs;
  for (const char* data : {"uniform", "lognormal", "fullrange"}) {
    for (int log2n = 10; log2n <= 26; log2n += 2) {
      const std::size_t n = std::size_t(1) << log2n;
      register_one(
          "exdot", data, n, [](Inputs& in) { return ExKokkos::exdot(Space(), in.x, in.y); }, 16);
#if defined(EXKOKKOS_PERF_HAVE_KOKKOSKERNELS)
      register_one(
          "KokkosBlas::dot", data, n, [](Inputs& in) { return KokkosBlas::dot(in.x, in.y); }, 16);
#endif
#if defined(EXKOKKOS_PERF_HAVE_CBLAS)
      if (ExKokkos::Impl::is_host_space<Space>())
        register_one(
            "cblas_ddot", data, n,
            [](Inputs& in) {
              return cblas_ddot(static_cast<int>(in.hx.size()), in.hx.data(), 1, in.hy.data(), 1);
            },
            16);
#endif
      register_one(
          "parallel_reduce_dot", data, n,
          [](Inputs& in) {
            double s = 0;
            const Vector x = in.x, y = in.y;
            Kokkos::parallel_reduce(
                "dot", Kokkos::RangePolicy<Space>(0, x.extent(0)),
                KOKKOS_LAMBDA(const std::size_t i, double& acc) { acc += x(i) * y(i); }, s);
            return s;
          },
          16);
      register_one(
          "exsum", data, n, [](Inputs& in) { return ExKokkos::exsum(Space(), in.x); }, 8);
      register_one(
          "exnrm2", data, n, [](Inputs& in) { return ExKokkos::exnrm2(Space(), in.x); }, 8);
      // axpby writes y: y = 1 * x + 0.5 * y keeps the data's range over repetitions.
      register_one(
          "exaxpby", data, n,
          [](Inputs& in) {
            ExKokkos::exaxpby(Space(), 1.0, in.x, 0.5, in.y);
            Space().fence();
            return 0.0;
          },
          24);
#if defined(EXKOKKOS_PERF_HAVE_KOKKOSKERNELS)
      register_one(
          "KokkosBlas::nrm2", data, n, [](Inputs& in) { return KokkosBlas::nrm2(in.x); }, 8);
      register_one(
          "KokkosBlas::axpby", data, n,
          [](Inputs& in) {
            KokkosBlas::axpby(1.0, in.x, 0.5, in.y);
            Space().fence();
            return 0.0;
          },
          24);
#endif
      register_one(
          "parallel_reduce_sum", data, n,
          [](Inputs& in) {
            double s = 0;
            const Vector x = in.x;
            Kokkos::parallel_reduce(
                "sum", Kokkos::RangePolicy<Space>(0, x.extent(0)),
                KOKKOS_LAMBDA(const std::size_t i, double& acc) { acc += x(i); }, s);
            return s;
          },
          8);
      // The ExactSum reducer in a user's own parallel_reduce (a deposit per element into a long
      // accumulator, no expansion in front), beside the same reduction of doubles.
      register_one(
          "exact_sum_reducer", data, n,
          [](Inputs& in) {
            ExKokkos::LongAccumulator acc;
            const Vector x = in.x;
            Kokkos::parallel_reduce(
                "exact_sum_reducer", Kokkos::RangePolicy<Space>(0, x.extent(0)),
                KOKKOS_LAMBDA(const std::size_t i, ExKokkos::LongAccumulator& a) { a.add(x(i)); },
                ExKokkos::ExactSum<>(acc));
            return acc.round();
          },
          8);
    }
  }
  pairs = {{"exdot", "KokkosBlas::dot"},
           {"exdot", "cblas_ddot"},
           {"exdot", "parallel_reduce_dot"},
           {"exsum", "parallel_reduce_sum"},
           {"exnrm2", "KokkosBlas::nrm2"},
           {"exaxpby", "KokkosBlas::axpby"},
           {"exact_sum_reducer", "parallel_reduce_sum"}};
  ExKokkosPerf::RatioReporter reporter(pairs);
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  input_cache().clear();
  return 0;
}
