// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// MPI benchmarks: ExKokkos::mpi::exdot and exsum beside the ordinary distributed forms
// (KokkosBlas::dot / a parallel_reduce, then MPI_Allreduce with MPI_SUM), n = 2^20 and 2^24
// elements in all, split evenly over the ranks; and the multivector exdot and exnrm2 beside
// KokkosBlas::dot(R, X, Y) / nrm2 (of the squares) then one MPI_Allreduce of R, 8 columns of 2^17
// and 2^21 rows; complex exdot (Kokkos::complex<double>, conj(x) . y) beside KokkosBlas::dot and
// one MPI_Allreduce of its two parts, 2^20 and 2^24 elements. Run under mpiexec; rank 0 prints
// the ratios.
// Iteration counts are fixed so that every rank runs the same collectives.
#include <ExKokkos.hpp>

#include "ExKokkosPerf_RatioReporter.hpp"

#include <Kokkos_Random.hpp>
#include <KokkosBlas1_dot.hpp>
#include <KokkosBlas1_nrm2_squared.hpp>
#include <mpi.h>

#include <benchmark/benchmark.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

namespace {

using Space = Kokkos::DefaultExecutionSpace;
using Vec = Kokkos::View<double*, Space::memory_space>;
using Mat = Kokkos::View<double**, Kokkos::LayoutLeft, Space::memory_space>;
using Complex = Kokkos::complex<double>;
using CVec = Kokkos::View<Complex*, Space::memory_space>;

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

// Complex vectors of n elements in all, both parts of each uniform(-1, 1).
void register_mpi_complex(const std::string& routine, std::int64_t n,
                          std::function<Complex(const CVec&, const CVec&)> body) {
  const std::string name = routine + "/uniform/" + std::to_string(n);
  benchmark::RegisterBenchmark(
      name.c_str(),
      [=](benchmark::State& state) {
        int rank = 0, size = 1;
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        MPI_Comm_size(MPI_COMM_WORLD, &size);
        const std::int64_t local = n / size + (rank < n % size ? 1 : 0);
        CVec x("x", local), y("y", local);
        Kokkos::Random_XorShift64_Pool<Space> pool(1 + rank);
        Kokkos::fill_random(x, pool, Complex(-1.0, -1.0), Complex(1.0, 1.0));
        Kokkos::fill_random(y, pool, Complex(-1.0, -1.0), Complex(1.0, 1.0));
        Space().fence();
        MPI_Barrier(MPI_COMM_WORLD);
        for (auto _ : state) benchmark::DoNotOptimize(body(x, y));
        state.SetBytesProcessed(std::int64_t(state.iterations()) * n * 2 * sizeof(Complex));
      })
      ->Iterations(20)
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
}

// The multivector forms: `rows` rows in all (split evenly over the ranks) of `columns` columns;
// body fills R, one entry per column, on every rank.
void register_mpi_columns(const std::string& routine, std::int64_t rows, int columns,
                          std::function<void(const Vec&, const Mat&, const Mat&)> body) {
  const std::string name =
      routine + "/uniform/" + std::to_string(rows) + "x" + std::to_string(columns);
  benchmark::RegisterBenchmark(name.c_str(),
                               [=](benchmark::State& state) {
                                 int rank = 0, size = 1;
                                 MPI_Comm_rank(MPI_COMM_WORLD, &rank);
                                 MPI_Comm_size(MPI_COMM_WORLD, &size);
                                 const std::int64_t local =
                                     rows / size + (rank < rows % size ? 1 : 0);
                                 Mat x("X", local, columns), y("Y", local, columns);
                                 Vec r("R", columns);
                                 Kokkos::Random_XorShift64_Pool<Space> pool(1 + rank);
                                 Kokkos::fill_random(x, pool, -1.0, 1.0);
                                 Kokkos::fill_random(y, pool, -1.0, 1.0);
                                 Space().fence();
                                 MPI_Barrier(MPI_COMM_WORLD);
                                 for (auto _ : state) {
                                   body(r, x, y);
                                   benchmark::DoNotOptimize(r.data());
                                 }
                                 state.SetBytesProcessed(std::int64_t(state.iterations()) * rows *
                                                         columns * 2 * sizeof(double));
                               })
      ->Iterations(10)
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
}

// R summed over the ranks in place (a host copy when R is not host-accessible), and each sum's
// square root taken when asked.
void allreduce_columns(const Vec& r, bool square_root = false) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), r);
  MPI_Allreduce(MPI_IN_PLACE, h.data(), static_cast<int>(h.extent(0)), MPI_DOUBLE, MPI_SUM,
                MPI_COMM_WORLD);
  if (square_root)
    for (std::size_t j = 0; j < h.extent(0); ++j) h(j) = std::sqrt(h(j));
  Kokkos::deep_copy(r, h);
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
    for (std::int64_t n : {std::int64_t(1) << 20, std::int64_t(1) << 24}) {
      register_mpi_complex("mpi::exdot_complex", n, [](const CVec& x, const CVec& y) {
        return ExKokkos::mpi::exdot(Space(), x, y, MPI_COMM_WORLD);
      });
      register_mpi_complex("dot_complex+Allreduce", n, [](const CVec& x, const CVec& y) {
        const Complex local = KokkosBlas::dot(x, y);
        double parts[2] = {local.real(), local.imag()};
        MPI_Allreduce(MPI_IN_PLACE, parts, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        return Complex(parts[0], parts[1]);
      });
    }
    for (std::int64_t rows : {std::int64_t(1) << 17, std::int64_t(1) << 21}) {
      register_mpi_columns("mpi::exdot(R,X,Y)", rows, 8,
                           [](const Vec& r, const Mat& x, const Mat& y) {
                             ExKokkos::mpi::exdot(Space(), r, x, y, MPI_COMM_WORLD);
                           });
      register_mpi_columns("dot(R,X,Y)+Allreduce", rows, 8,
                           [](const Vec& r, const Mat& x, const Mat& y) {
                             KokkosBlas::dot(r, x, y);
                             allreduce_columns(r);
                           });
      register_mpi_columns("mpi::exnrm2(R,X)", rows, 8, [](const Vec& r, const Mat& x, const Mat&) {
        ExKokkos::mpi::exnrm2(Space(), r, x, MPI_COMM_WORLD);
      });
      // The ordinary distributed 2-norm: local sums of squares, summed, square roots.
      register_mpi_columns("nrm2_squared(R,X)+Allreduce", rows, 8,
                           [](const Vec& r, const Mat& x, const Mat&) {
                             KokkosBlas::nrm2_squared(r, x);
                             allreduce_columns(r, true);
                           });
    }
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const std::vector<std::pair<std::string, std::string>> pairs = {
        {"mpi::exdot", "dot+Allreduce"},
        {"mpi::exsum", "sum+Allreduce"},
        {"mpi::exdot_complex", "dot_complex+Allreduce"},
        {"mpi::exdot(R,X,Y)", "dot(R,X,Y)+Allreduce"},
        {"mpi::exnrm2(R,X)", "nrm2_squared(R,X)+Allreduce"}};
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
