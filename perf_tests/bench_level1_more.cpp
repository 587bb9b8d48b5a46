// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Level-1 benchmarks of the routines beyond bench_level1.cpp, each beside its KokkosBlas
// counterpart in the same process: exnrm2_squared, exnrminf, exiamax, exabs, exfill,
// exreciprocal, exinvscal (beside KokkosBlas::scal by the rounded 1 / alpha: KokkosBlas has no
// division by a scalar), exupdate and exmult on vectors, the reductions on Kokkos::complex<double>
// vectors (exdot, exsum, exasum, exnrm2, exnrminf, exiamax against KokkosBlas' dot, sum, nrm1,
// nrm2, nrminf, iamax: KokkosBlas::iamax calls OpenBLAS' izamax when Kokkos Kernels has it) and the
// elementwise routines on them (exscal, exaxpby, exupdate, exabs, exmult, exreciprocal, exinvscal
// against KokkosBlas' scal, axpby, update, abs, mult, reciprocal, scal by 1 / alpha), and the
// multivector forms (exdot, exnrm2, exasum, exsum, exaxpby, exscal on a LayoutLeft X of 4 and 16
// columns, R one entry per column). Prints the time ratios at the end; --benchmark_out=f.json
// --benchmark_out_format=json writes JSON for perf_tests/plot_results.py. Sizes:
// "<routine>/uniform/<n>" for vectors (complex ones: n doubles, n / 2 complex values, the same
// bytes), ".../<n>x<columns>" for multivectors.
#include <ExKokkos.hpp>

#include <ExKokkosTest_Generators.hpp>

#include "ExKokkosPerf_RatioReporter.hpp"

#if defined(EXKOKKOS_PERF_HAVE_KOKKOSKERNELS)
#include <KokkosBlas1_abs.hpp>
#include <KokkosBlas1_axpby.hpp>
#include <KokkosBlas1_dot.hpp>
#include <KokkosBlas1_fill.hpp>
#include <KokkosBlas1_iamax.hpp>
#include <KokkosBlas1_mult.hpp>
#include <KokkosBlas1_nrm1.hpp>
#include <KokkosBlas1_nrm2.hpp>
#include <KokkosBlas1_nrm2_squared.hpp>
#include <KokkosBlas1_nrminf.hpp>
#include <KokkosBlas1_reciprocal.hpp>
#include <KokkosBlas1_scal.hpp>
#include <KokkosBlas1_sum.hpp>
#include <KokkosBlas1_update.hpp>
#endif

#include <benchmark/benchmark.h>

#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace {

using Space = Kokkos::DefaultExecutionSpace;
using Vector = Kokkos::View<double*, Space::memory_space>;
using Matrix = Kokkos::View<double**, Kokkos::LayoutLeft, Space::memory_space>;

// Uniform data in [-1, 1), the same for every routine of one shape.
Matrix make(std::size_t rows, std::size_t cols, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const std::vector<double> v = ExKokkosTest::uniform(rows * cols, rng);
  Matrix m(Kokkos::ViewAllocateWithoutInitializing("m"), rows, cols);
  const auto h = Kokkos::create_mirror_view(m);
  for (std::size_t j = 0; j < cols; ++j)
    for (std::size_t i = 0; i < rows; ++i) h(i, j) = v[j * rows + i];
  Kokkos::deep_copy(m, h);
  return m;
}

struct Inputs {
  Matrix x, y, z;
  Vector r;  // one entry per column
};

// Views must be released before Kokkos::finalize: main clears this cache at the end.
std::map<std::pair<std::size_t, std::size_t>, Inputs>& input_cache() {
  static std::map<std::pair<std::size_t, std::size_t>, Inputs> cache;
  return cache;
}

Inputs& inputs(std::size_t rows, std::size_t cols) {
  auto& cache = input_cache();
  const auto key = std::make_pair(rows, cols);
  const auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  cache.clear();  // one shape in memory at a time
  Inputs in{make(rows, cols, rows + 1), make(rows, cols, rows + 2), make(rows, cols, rows + 3),
            Vector("r", cols)};
  return cache.emplace(key, std::move(in)).first->second;
}

// Column 0 of a multivector, as a rank-1 view.
Vector column0(const Matrix& m) {
  return Kokkos::subview(m, Kokkos::ALL(), 0);
}

// Column 0 of a multivector as complex values, two doubles each (real, imaginary).
using ComplexVector = Kokkos::View<Kokkos::complex<double>*, Space::memory_space,
                                   Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
ComplexVector complex0(const Matrix& m) {
  return ComplexVector(reinterpret_cast<Kokkos::complex<double>*>(m.data()), m.extent(0) / 2);
}

void register_one(const std::string& routine, std::size_t rows, std::size_t cols,
                  std::function<double(Inputs&)> body, int bytes_per_element) {
  const std::string size =
      cols == 0 ? std::to_string(rows) : std::to_string(rows) + "x" + std::to_string(cols);
  const std::string name = routine + "/uniform/" + size;
  const std::size_t columns = cols == 0 ? 1 : cols;
  benchmark::RegisterBenchmark(
      name.c_str(),
      [=](benchmark::State& state) {
        Inputs& in = inputs(rows, columns);
        for (auto _ : state) benchmark::DoNotOptimize(body(in));
        state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * rows * columns *
                                bytes_per_element);
      })
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
}

double done() {
  Space().fence();
  return 0.0;
}

void register_vectors(std::size_t n) {
  register_one(
      "exnrm2_squared", n, 0,
      [](Inputs& in) { return ExKokkos::exnrm2_squared(Space(), column0(in.x)); }, 8);
  register_one(
      "exnrminf", n, 0, [](Inputs& in) { return ExKokkos::exnrminf(Space(), column0(in.x)); }, 8);
  register_one(
      "exiamax", n, 0, [](Inputs& in) { return double(ExKokkos::exiamax(Space(), column0(in.x))); },
      8);
  register_one(
      "exabs", n, 0,
      [](Inputs& in) {
        ExKokkos::exabs(Space(), column0(in.z), column0(in.x));
        return done();
      },
      16);
  register_one(
      "exfill", n, 0,
      [](Inputs& in) {
        ExKokkos::exfill(Space(), column0(in.z), 0.5);
        return done();
      },
      8);
  register_one(
      "exreciprocal", n, 0,
      [](Inputs& in) {
        ExKokkos::exreciprocal(Space(), column0(in.z), column0(in.x));
        return done();
      },
      16);
  register_one(
      "exinvscal", n, 0,
      [](Inputs& in) {
        ExKokkos::exinvscal(Space(), column0(in.z), 3.0, column0(in.x));
        return done();
      },
      16);
  // z = x + 0.5 y + 0.25 z and y = 0.5 y + x .* z keep the data's range over repetitions.
  register_one(
      "exupdate", n, 0,
      [](Inputs& in) {
        ExKokkos::exupdate(Space(), 1.0, column0(in.x), 0.5, column0(in.y), 0.25, column0(in.z));
        return done();
      },
      32);
  register_one(
      "exmult", n, 0,
      [](Inputs& in) {
        ExKokkos::exmult(Space(), 0.5, column0(in.y), 1.0, column0(in.x), column0(in.z));
        return done();
      },
      32);
  register_one(
      "exdot_complex", n, 0,
      [](Inputs& in) { return ExKokkos::exdot(Space(), complex0(in.x), complex0(in.y)).real(); },
      16);
  register_one(
      "exsum_complex", n, 0,
      [](Inputs& in) { return ExKokkos::exsum(Space(), complex0(in.x)).real(); }, 8);
  register_one(
      "exasum_complex", n, 0, [](Inputs& in) { return ExKokkos::exasum(Space(), complex0(in.x)); },
      8);
  register_one(
      "exnrm2_complex", n, 0, [](Inputs& in) { return ExKokkos::exnrm2(Space(), complex0(in.x)); },
      8);
  register_one(
      "exnrminf_complex", n, 0,
      [](Inputs& in) { return ExKokkos::exnrminf(Space(), complex0(in.x)); }, 8);
  register_one(
      "exiamax_complex", n, 0,
      [](Inputs& in) { return double(ExKokkos::exiamax(Space(), complex0(in.x))); }, 8);
  // Coefficients below 1 in modulus where a vector is updated in place keep the data's range
  // over repetitions.
  using Z = Kokkos::complex<double>;
  register_one(
      "exscal_complex", n, 0,
      [](Inputs& in) {
        ExKokkos::exscal(Space(), complex0(in.z), Z(0.5, 0.25), complex0(in.x));
        return done();
      },
      16);
  register_one(
      "exaxpby_complex", n, 0,
      [](Inputs& in) {
        ExKokkos::exaxpby(Space(), Z(0.5, 0.25), complex0(in.x), Z(0.25, -0.5), complex0(in.y));
        return done();
      },
      24);
  register_one(
      "exupdate_complex", n, 0,
      [](Inputs& in) {
        ExKokkos::exupdate(Space(), Z(1, 0.5), complex0(in.x), Z(0.5, 0), complex0(in.y),
                           Z(0, 0.25), complex0(in.z));
        return done();
      },
      32);
  register_one(
      "exabs_complex", n, 0,
      [](Inputs& in) {
        ExKokkos::exabs(Space(), complex0(in.z), complex0(in.x));
        return done();
      },
      16);
  register_one(
      "exreciprocal_complex", n, 0,
      [](Inputs& in) {
        ExKokkos::exreciprocal(Space(), complex0(in.z), complex0(in.x));
        return done();
      },
      16);
  register_one(
      "exinvscal_complex", n, 0,
      [](Inputs& in) {
        ExKokkos::exinvscal(Space(), complex0(in.z), Z(3, -1), complex0(in.x));
        return done();
      },
      16);
  register_one(
      "exmult_complex", n, 0,
      [](Inputs& in) {
        ExKokkos::exmult(Space(), Z(0.5, 0.25), complex0(in.y), Z(1, -0.5), complex0(in.x),
                         complex0(in.z));
        return done();
      },
      32);
#if defined(EXKOKKOS_PERF_HAVE_KOKKOSKERNELS)
  register_one(
      "KokkosBlas::reciprocal_complex", n, 0,
      [](Inputs& in) {
        KokkosBlas::reciprocal(complex0(in.z), complex0(in.x));
        return done();
      },
      16);
  register_one(
      "KokkosBlas::scal_reciprocal_complex", n, 0,
      [](Inputs& in) {
        KokkosBlas::scal(complex0(in.z), Z(1, 0) / Z(3, -1), complex0(in.x));
        return done();
      },
      16);
  register_one(
      "KokkosBlas::mult_complex", n, 0,
      [](Inputs& in) {
        KokkosBlas::mult(Z(0.5, 0.25), complex0(in.y), Z(1, -0.5), complex0(in.x), complex0(in.z));
        return done();
      },
      32);
  register_one(
      "KokkosBlas::scal_complex", n, 0,
      [](Inputs& in) {
        KokkosBlas::scal(complex0(in.z), Z(0.5, 0.25), complex0(in.x));
        return done();
      },
      16);
  register_one(
      "KokkosBlas::axpby_complex", n, 0,
      [](Inputs& in) {
        KokkosBlas::axpby(Z(0.5, 0.25), complex0(in.x), Z(0.25, -0.5), complex0(in.y));
        return done();
      },
      24);
  register_one(
      "KokkosBlas::update_complex", n, 0,
      [](Inputs& in) {
        KokkosBlas::update(Z(1, 0.5), complex0(in.x), Z(0.5, 0), complex0(in.y), Z(0, 0.25),
                           complex0(in.z));
        return done();
      },
      32);
  register_one(
      "KokkosBlas::abs_complex", n, 0,
      [](Inputs& in) {
        KokkosBlas::abs(complex0(in.z), complex0(in.x));
        return done();
      },
      16);
  register_one(
      "KokkosBlas::dot_complex", n, 0,
      [](Inputs& in) { return KokkosBlas::dot(complex0(in.x), complex0(in.y)).real(); }, 16);
  register_one(
      "KokkosBlas::sum_complex", n, 0,
      [](Inputs& in) { return KokkosBlas::sum(complex0(in.x)).real(); }, 8);
  register_one(
      "KokkosBlas::nrm1_complex", n, 0,
      [](Inputs& in) { return double(KokkosBlas::nrm1(complex0(in.x))); }, 8);
  register_one(
      "KokkosBlas::nrm2_complex", n, 0,
      [](Inputs& in) { return double(KokkosBlas::nrm2(complex0(in.x))); }, 8);
  register_one(
      "KokkosBlas::nrminf_complex", n, 0,
      [](Inputs& in) { return double(KokkosBlas::nrminf(complex0(in.x))); }, 8);
  register_one(
      "KokkosBlas::iamax_complex", n, 0,
      [](Inputs& in) { return double(KokkosBlas::iamax(complex0(in.x))); }, 8);
  register_one(
      "KokkosBlas::nrm2_squared", n, 0,
      [](Inputs& in) { return KokkosBlas::nrm2_squared(column0(in.x)); }, 8);
  register_one(
      "KokkosBlas::nrminf", n, 0, [](Inputs& in) { return KokkosBlas::nrminf(column0(in.x)); }, 8);
  register_one(
      "KokkosBlas::iamax", n, 0,
      [](Inputs& in) { return double(KokkosBlas::iamax(column0(in.x))); }, 8);
  register_one(
      "KokkosBlas::abs", n, 0,
      [](Inputs& in) {
        KokkosBlas::abs(column0(in.z), column0(in.x));
        return done();
      },
      16);
  register_one(
      "KokkosBlas::fill", n, 0,
      [](Inputs& in) {
        KokkosBlas::fill(column0(in.z), 0.5);
        return done();
      },
      8);
  register_one(
      "KokkosBlas::reciprocal", n, 0,
      [](Inputs& in) {
        KokkosBlas::reciprocal(column0(in.z), column0(in.x));
        return done();
      },
      16);
  // KokkosBlas has no division by a scalar: its scal by the rounded reciprocal is the ordinary
  // counterpart (one more rounding).
  register_one(
      "KokkosBlas::scal_reciprocal", n, 0,
      [](Inputs& in) {
        KokkosBlas::scal(column0(in.z), 1.0 / 3.0, column0(in.x));
        return done();
      },
      16);
  register_one(
      "KokkosBlas::update", n, 0,
      [](Inputs& in) {
        KokkosBlas::update(1.0, column0(in.x), 0.5, column0(in.y), 0.25, column0(in.z));
        return done();
      },
      32);
  register_one(
      "KokkosBlas::mult", n, 0,
      [](Inputs& in) {
        KokkosBlas::mult(0.5, column0(in.y), 1.0, column0(in.x), column0(in.z));
        return done();
      },
      32);
#endif
}

void register_multivectors(std::size_t rows, std::size_t cols) {
  register_one(
      "exdot_mv", rows, cols,
      [](Inputs& in) {
        ExKokkos::exdot(Space(), in.r, in.x, in.y);
        return done();
      },
      16);
  register_one(
      "exnrm2_mv", rows, cols,
      [](Inputs& in) {
        ExKokkos::exnrm2(Space(), in.r, in.x);
        return done();
      },
      8);
  register_one(
      "exasum_mv", rows, cols,
      [](Inputs& in) {
        ExKokkos::exasum(Space(), in.r, in.x);
        return done();
      },
      8);
  register_one(
      "exsum_mv", rows, cols,
      [](Inputs& in) {
        ExKokkos::exsum(Space(), in.r, in.x);
        return done();
      },
      8);
  register_one(
      "exaxpby_mv", rows, cols,
      [](Inputs& in) {
        ExKokkos::exaxpby(Space(), 1.0, in.x, 0.5, in.y);
        return done();
      },
      24);
  register_one(
      "exscal_mv", rows, cols,
      [](Inputs& in) {
        ExKokkos::exscal(Space(), in.z, 0.75, in.x);
        return done();
      },
      16);
#if defined(EXKOKKOS_PERF_HAVE_KOKKOSKERNELS)
  register_one(
      "KokkosBlas::dot_mv", rows, cols,
      [](Inputs& in) {
        KokkosBlas::dot(in.r, in.x, in.y);
        return done();
      },
      16);
  register_one(
      "KokkosBlas::nrm2_mv", rows, cols,
      [](Inputs& in) {
        KokkosBlas::nrm2(in.r, in.x);
        return done();
      },
      8);
  register_one(
      "KokkosBlas::nrm1_mv", rows, cols,
      [](Inputs& in) {
        KokkosBlas::nrm1(in.r, in.x);
        return done();
      },
      8);
  register_one(
      "KokkosBlas::sum_mv", rows, cols,
      [](Inputs& in) {
        KokkosBlas::sum(in.r, in.x);
        return done();
      },
      8);
  register_one(
      "KokkosBlas::axpby_mv", rows, cols,
      [](Inputs& in) {
        KokkosBlas::axpby(1.0, in.x, 0.5, in.y);
        return done();
      },
      24);
  register_one(
      "KokkosBlas::scal_mv", rows, cols,
      [](Inputs& in) {
        KokkosBlas::scal(in.z, 0.75, in.x);
        return done();
      },
      16);
#endif
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  benchmark::Initialize(&argc, argv);
  for (int log2n = 10; log2n <= 24; log2n += 2) register_vectors(std::size_t(1) << log2n);
  for (int log2n = 10; log2n <= 22; log2n += 4)
    for (std::size_t cols : {4, 16}) register_multivectors(std::size_t(1) << log2n, cols);
  const std::vector<std::pair<std::string, std::string>> pairs = {
      {"exnrm2_squared", "KokkosBlas::nrm2_squared"},
      {"exnrminf", "KokkosBlas::nrminf"},
      {"exiamax", "KokkosBlas::iamax"},
      {"exabs", "KokkosBlas::abs"},
      {"exfill", "KokkosBlas::fill"},
      {"exreciprocal", "KokkosBlas::reciprocal"},
      {"exinvscal", "KokkosBlas::scal_reciprocal"},
      {"exupdate", "KokkosBlas::update"},
      {"exmult", "KokkosBlas::mult"},
      {"exdot_complex", "KokkosBlas::dot_complex"},
      {"exsum_complex", "KokkosBlas::sum_complex"},
      {"exasum_complex", "KokkosBlas::nrm1_complex"},
      {"exnrm2_complex", "KokkosBlas::nrm2_complex"},
      {"exnrminf_complex", "KokkosBlas::nrminf_complex"},
      {"exiamax_complex", "KokkosBlas::iamax_complex"},
      {"exscal_complex", "KokkosBlas::scal_complex"},
      {"exaxpby_complex", "KokkosBlas::axpby_complex"},
      {"exupdate_complex", "KokkosBlas::update_complex"},
      {"exabs_complex", "KokkosBlas::abs_complex"},
      {"exmult_complex", "KokkosBlas::mult_complex"},
      {"exreciprocal_complex", "KokkosBlas::reciprocal_complex"},
      {"exinvscal_complex", "KokkosBlas::scal_reciprocal_complex"},
      {"exdot_mv", "KokkosBlas::dot_mv"},
      {"exnrm2_mv", "KokkosBlas::nrm2_mv"},
      {"exasum_mv", "KokkosBlas::nrm1_mv"},
      {"exsum_mv", "KokkosBlas::sum_mv"},
      {"exaxpby_mv", "KokkosBlas::axpby_mv"},
      {"exscal_mv", "KokkosBlas::scal_mv"}};
  ExKokkosPerf::RatioReporter reporter(pairs);
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  input_cache().clear();
  return 0;
}
