// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// MPI benchmarks: ExKokkos::mpi::exdot and exsum beside the ordinary distributed forms
// (KokkosBlas::dot / a parallel_reduce, then MPI_Allreduce with MPI_SUM), n = 2^20 and 2^24
// elements in all, split evenly over the ranks. Run under mpiexec; rank 0 prints the ratios.
// Iteration counts are fixed so that every rank runs the same collectives.
#include <ExKokkos.hpp>

#include "ExKokkosPerf_RatioReporter.hpp"

#include <Kokkos_Random.hpp>
#include <KokkosBlas1_dot.hpp>
#include <mpi.h>

#include <benchmark/benchmark.h>

#include <functional>
#include <string>
#include <vector>

namespace {

using Space = Kokkos::DefaultExecutionSpace;
using Vec = Kokkos::View<double*, Space::memory_space>;

// Ranks other than 0 run the same benchmarks and report nothing.
class SilentReporter : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>&) override {}
};

void register_mpi(const std::string& routine, std::int64_t n,
                  std::function<double(const Vec&, const Vec&)> body) {
  const std::string name = routine + "/uniform/" + std::to_string(n);
  benchmark::RegisterBenchmark(
      name.c_str(),
      [=](benchmark::State& state) {
        int rank = 0, size = 1;
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        MPI_Comm_size(MPI_COMM_WORLD, &size);
        const std::int64_t local = n / size + (rank < n % size ? 1 : 0);
        Vec x("x", local), y("y", local);
        Kokkos::Random_XorShift64_Pool<Space> pool(1 + rank);
        Kokkos::fill_random(x, pool, -1.0, 1.0);
        Kokkos::fill_random(y, pool, -1.0, 1.0);
        Space().fence();
        MPI_Barrier(MPI_COMM_WORLD);
        for (auto _ : state) benchmark::DoNotOptimize(body(x, y));
        state.SetBytesProcessed(std::int64_t(state.iterations()) * n * 2 * sizeof(double));
      })
      ->Iterations(20)
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  {
    Kokkos::ScopeGuard kokkos(argc, argv);
    benchmark::Initialize(&argc, argv);
    for (std::int64_t n : {std::int64_t(1) << 20, std::int64_t(1) << 24}) {
      register_mpi("mpi::exdot", n, [](const Vec& x, const Vec& y) {
        return ExKokkos::mpi::exdot(Space(), x, y, MPI_COMM_WORLD);
      });
      register_mpi("dot+Allreduce", n, [](const Vec& x, const Vec& y) {
        double local = KokkosBlas::dot(x, y), total = 0;
        MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        return total;
      });
      register_mpi("mpi::exsum", n, [](const Vec& x, const Vec&) {
        return ExKokkos::mpi::exsum(Space(), x, MPI_COMM_WORLD);
      });
      register_mpi("sum+Allreduce", n, [](const Vec& x, const Vec&) {
        double local = 0, total = 0;
        Kokkos::parallel_reduce(
            "sum", Kokkos::RangePolicy<Space>(0, x.extent(0)),
            KOKKOS_LAMBDA(const std::int64_t i, double& s) { s += x(i); }, local);
        MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        return total;
      });
    }
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const std::vector<std::pair<std::string, std::string>> pairs = {
        {"mpi::exdot", "dot+Allreduce"}, {"mpi::exsum", "sum+Allreduce"}};
    ExKokkosPerf::RatioReporter reporter(pairs);
    SilentReporter silent;
    if (rank == 0)
      benchmark::RunSpecifiedBenchmarks(&reporter);
    else
      benchmark::RunSpecifiedBenchmarks(&silent);
    benchmark::Shutdown();
  }
  MPI_Finalize();
  return 0;
}
