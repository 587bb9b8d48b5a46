// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// CUDA benchmarks, level 1 (run with --benchmark_repetitions=5 --benchmark_min_time=0.05, say: the
// ratio table at the end then uses the median of the repetitions):
//   exdot, exsum, exasum, exnrm2    n = 2^24, 2^27     cublasDdot, Dasum, Dnrm2, Kokkos reduce
//   exdot, lognormal and full range n = 2^27           cublasDdot
//   exdot under 28 tuning settings  n = 2^27           cublasDdot (uniform and lognormal)
//   exsum with 2, 4, 8 slots        n = 2^27           cublasDasum (uniform and lognormal)
//   exdot_complex, exnrm2_complex,  n = 2^24, 2^26     cublasZdotc, Dznrm2, Dzasum
//   exasum_complex                  complex<double> values, both parts uniform in [-1, 1)
//   exdot_complex_float             n = 2^24, 2^26     cublasCdotc (complex<float> values)
// The complex rows' results from both libraries are printed before the runs.
#include <ExKokkos_Asum.hpp>
#include <ExKokkos_Dot.hpp>
#include <ExKokkos_Nrm2.hpp>
#include <ExKokkos_Sum.hpp>

#include "ExKokkosPerf_Cuda.hpp"

#include <Kokkos_Random.hpp>

#include <cuComplex.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace {

using namespace ExKokkosPerf;

// Lognormal magnitudes exp(N(0, 18)) (about 10^+-8 at one sigma) with random signs, or full range:
// random signs and exponents over most of the double range (the products over- and underflow: the
// exact kernels' slowest path).
struct FillWide {
  Vector v;
  Kokkos::Random_XorShift64_Pool<Space> pool;
  bool full_range;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i) const {
    auto g = pool.get_state();
    const double sign = g.urand() % 2 ? -1.0 : 1.0;
    if (full_range)
      v(i) = sign * g.drand(1.0, 2.0) * Kokkos::pow(2.0, double(int(g.urand() % 2000) - 1000));
    else
      v(i) = sign * Kokkos::exp(g.normal(0.0, 18.0));
    pool.free_state(g);
  }
};

void fill_wide(const Vector& v, unsigned seed, bool full_range) {
  Kokkos::parallel_for("fill_wide", Kokkos::RangePolicy<Space>(0, v.extent(0)),
                       FillWide{v, Kokkos::Random_XorShift64_Pool<Space>(seed), full_range});
}

// Level-1 results go to device memory, as ExKokkos' rank-0 results do: no implicit host sync.
void device_pointers() {
  check(cublasSetPointerMode(handle(), CUBLAS_POINTER_MODE_DEVICE), "cublasSetPointerMode");
}

// Inputs live in these views for the whole run; main releases them before Kokkos::finalize.
struct Level1Inputs {
  Vector x, y;
  Kokkos::View<double, Mem> result;
};

void register_level1(int log2n) {
  const std::size_t n = std::size_t(1) << log2n;
  Level1Inputs in{Vector(Kokkos::view_alloc(Kokkos::WithoutInitializing, "x"), n),
                  Vector(Kokkos::view_alloc(Kokkos::WithoutInitializing, "y"), n),
                  Kokkos::View<double, Mem>("r")};
  fill(in.x, 1);
  fill(in.y, 2);
  kept_inputs<Level1Inputs>().push_back(in);
  const std::string suffix = "/uniform/" + std::to_string(n);
  const double one = 8.0 * n, two = 16.0 * n;
  register_timed(
      "exdot" + suffix, nothing, [in] { ExKokkos::exdot(Space(), in.result, in.x, in.y); }, two);
  register_timed(
      "exsum" + suffix, nothing, [in] { ExKokkos::exsum(Space(), in.result, in.x); }, one);
  register_timed(
      "exasum" + suffix, nothing, [in] { ExKokkos::exasum(Space(), in.result, in.x); }, one);
  register_timed(
      "exnrm2" + suffix, nothing, [in] { ExKokkos::exnrm2(Space(), in.result, in.x); }, one);
  const int ni = static_cast<int>(n);
  register_timed(
      "cublasDdot" + suffix, nothing,
      [in, ni] {
        device_pointers();
        check(cublasDdot(handle(), ni, in.x.data(), 1, in.y.data(), 1, in.result.data()), "ddot");
      },
      two);
  register_timed(
      "cublasDasum" + suffix, nothing,
      [in, ni] {
        device_pointers();
        check(cublasDasum(handle(), ni, in.x.data(), 1, in.result.data()), "dasum");
      },
      one);
  register_timed(
      "cublasDnrm2" + suffix, nothing,
      [in, ni] {
        device_pointers();
        check(cublasDnrm2(handle(), ni, in.x.data(), 1, in.result.data()), "dnrm2");
      },
      one);
  register_timed(
      "parallel_reduce_dot" + suffix, nothing,
      [in] {
        const Vector x = in.x, y = in.y;
        Kokkos::parallel_reduce(
            "dot", Kokkos::RangePolicy<Space>(0, x.extent(0)),
            KOKKOS_LAMBDA(const std::size_t i, double& acc) { acc += x(i) * y(i); }, in.result);
      },
      two);
  register_timed(
      "parallel_reduce_sum" + suffix, nothing,
      [in] {
        const Vector x = in.x;
        Kokkos::parallel_reduce(
            "sum", Kokkos::RangePolicy<Space>(0, x.extent(0)),
            KOKKOS_LAMBDA(const std::size_t i, double& acc) { acc += x(i); }, in.result);
      },
      one);
}

// exdot on wide-range data beside cublasDdot (cuBLAS' result over- or underflows; the timing
// is what is compared).
void register_level1_wide(int log2n, bool full_range) {
  const std::size_t n = std::size_t(1) << log2n;
  Level1Inputs in{Vector(Kokkos::view_alloc(Kokkos::WithoutInitializing, "x"), n),
                  Vector(Kokkos::view_alloc(Kokkos::WithoutInitializing, "y"), n),
                  Kokkos::View<double, Mem>("r")};
  fill_wide(in.x, 11, full_range);
  fill_wide(in.y, 12, full_range);
  kept_inputs<Level1Inputs>().push_back(in);
  const std::string suffix =
      std::string(full_range ? "/fullrange/" : "/lognormal/") + std::to_string(n);
  const int ni = static_cast<int>(n);
  register_timed(
      "exdot" + suffix, nothing, [in] { ExKokkos::exdot(Space(), in.result, in.x, in.y); },
      16.0 * n);
  register_timed(
      "cublasDdot" + suffix, nothing,
      [in, ni] {
        device_pointers();
        check(cublasDdot(handle(), ni, in.x.data(), 1, in.y.data(), 1, in.result.data()), "ddot");
      },
      16.0 * n);
}

// Complex vectors beside cuBLAS' complex routines, n complex values: exdot is conj(x) . y as
// cublasZdotc and cublasCdotc (each part of the result rounded once), exnrm2 and exasum give real
// results as cublasDznrm2 and cublasDzasum (exasum BLAS' sum of |re| + |im|). Every result goes to
// device memory, as for the real rows; cuBLAS writes a cuDoubleComplex (cuComplex) where the
// Kokkos::complex result lives, the same two values in the same order.
template <class Real>
struct ComplexLevel1Inputs {
  using Values = Kokkos::View<Kokkos::complex<Real>*, Mem>;
  Values x, y;
  Kokkos::View<Kokkos::complex<Real>, Mem> dot;
  Kokkos::View<Real, Mem> result;
};

template <class Real>
ComplexLevel1Inputs<Real> complex_level1_inputs(std::size_t n, unsigned seed) {
  using In = ComplexLevel1Inputs<Real>;
  using C = Kokkos::complex<Real>;
  In in{typename In::Values(Kokkos::view_alloc(Kokkos::WithoutInitializing, "x"), n),
        typename In::Values(Kokkos::view_alloc(Kokkos::WithoutInitializing, "y"), n),
        Kokkos::View<C, Mem>("dot"), Kokkos::View<Real, Mem>("r")};
  // Both parts of every value uniform in [-1, 1), as fill gives the real rows.
  Kokkos::Random_XorShift64_Pool<Space> pool(seed);
  Kokkos::fill_random(in.x, pool, C(-1, -1), C(1, 1));
  Kokkos::fill_random(in.y, pool, C(-1, -1), C(1, 1));
  kept_inputs<In>().push_back(in);
  return in;
}

void register_level1_complex(int log2n) {
  const std::size_t n = std::size_t(1) << log2n;
  const auto in = complex_level1_inputs<double>(n, 31);
  const std::string suffix = "/uniform/" + std::to_string(n);
  const double one = 16.0 * n, two = 32.0 * n;
  const int ni = static_cast<int>(n);
  const auto* x = reinterpret_cast<const cuDoubleComplex*>(in.x.data());
  const auto* y = reinterpret_cast<const cuDoubleComplex*>(in.y.data());
  auto* dot = reinterpret_cast<cuDoubleComplex*>(in.dot.data());
  // Both libraries compute the same values: the results, printed before the runs.
  {
    const Kokkos::complex<double> d = ExKokkos::exdot(Space(), in.x, in.y);
    const double nrm2 = ExKokkos::exnrm2(Space(), in.x), asum = ExKokkos::exasum(Space(), in.x);
    cuDoubleComplex cd;
    double cn, ca;
    check(cublasSetPointerMode(handle(), CUBLAS_POINTER_MODE_HOST), "cublasSetPointerMode");
    check(cublasZdotc(handle(), ni, x, 1, y, 1, &cd), "zdotc");
    check(cublasDznrm2(handle(), ni, x, 1, &cn), "dznrm2");
    check(cublasDzasum(handle(), ni, x, 1, &ca), "dzasum");
    std::printf(
        "complex%s: dot %.17g%+.17gi (cublasZdotc %.17g%+.17gi), nrm2 %.17g (%.17g), "
        "asum %.17g (%.17g)\n",
        suffix.c_str(), d.real(), d.imag(), cuCreal(cd), cuCimag(cd), nrm2, cn, asum, ca);
  }
  register_timed(
      "exdot_complex" + suffix, nothing, [in] { ExKokkos::exdot(Space(), in.dot, in.x, in.y); },
      two);
  register_timed(
      "exnrm2_complex" + suffix, nothing, [in] { ExKokkos::exnrm2(Space(), in.result, in.x); },
      one);
  register_timed(
      "exasum_complex" + suffix, nothing, [in] { ExKokkos::exasum(Space(), in.result, in.x); },
      one);
  register_timed(
      "cublasZdotc" + suffix, nothing,
      [ni, x, y, dot] {
        device_pointers();
        check(cublasZdotc(handle(), ni, x, 1, y, 1, dot), "zdotc");
      },
      two);
  register_timed(
      "cublasDznrm2" + suffix, nothing,
      [in, ni, x] {
        device_pointers();
        check(cublasDznrm2(handle(), ni, x, 1, in.result.data()), "dznrm2");
      },
      one);
  register_timed(
      "cublasDzasum" + suffix, nothing,
      [in, ni, x] {
        device_pointers();
        check(cublasDzasum(handle(), ni, x, 1, in.result.data()), "dzasum");
      },
      one);
}

void register_level1_complex_float(int log2n) {
  const std::size_t n = std::size_t(1) << log2n;
  const auto in = complex_level1_inputs<float>(n, 41);
  const std::string suffix = "/uniform/" + std::to_string(n);
  const int ni = static_cast<int>(n);
  const auto* x = reinterpret_cast<const cuComplex*>(in.x.data());
  const auto* y = reinterpret_cast<const cuComplex*>(in.y.data());
  auto* dot = reinterpret_cast<cuComplex*>(in.dot.data());
  {
    const Kokkos::complex<float> d = ExKokkos::exdot(Space(), in.x, in.y);
    cuComplex cd;
    check(cublasSetPointerMode(handle(), CUBLAS_POINTER_MODE_HOST), "cublasSetPointerMode");
    check(cublasCdotc(handle(), ni, x, 1, y, 1, &cd), "cdotc");
    std::printf("complex_float%s: dot %.9g%+.9gi (cublasCdotc %.9g%+.9gi)\n", suffix.c_str(),
                d.real(), d.imag(), cuCrealf(cd), cuCimagf(cd));
  }
  register_timed(
      "exdot_complex_float" + suffix, nothing,
      [in] { ExKokkos::exdot(Space(), in.dot, in.x, in.y); }, 16.0 * n);
  register_timed(
      "cublasCdotc" + suffix, nothing,
      [ni, x, y, dot] {
        device_pointers();
        check(cublasCdotc(handle(), ni, x, 1, y, 1, dot), "cdotc");
      },
      16.0 * n);
}

// exdot at n = 2^27 under other tuning settings than the defaults (expansion size, early exit,
// team and league size, accumulators per team), each beside cublasDdot: what the device defaults
// in common/impl/ExKokkos_Tuning_impl.hpp are chosen from. Every setting gives the same bits.
// Named "exdot_<setting>/<data>/<n>"; returns the pairs for the ratio table.
Pairs register_tuning(int log2n, bool lognormal) {
  const std::size_t n = std::size_t(1) << log2n;
  Level1Inputs in{Vector(Kokkos::view_alloc(Kokkos::WithoutInitializing, "x"), n),
                  Vector(Kokkos::view_alloc(Kokkos::WithoutInitializing, "y"), n),
                  Kokkos::View<double, Mem>("r")};
  if (lognormal) {
    fill_wide(in.x, 21, false);
    fill_wide(in.y, 22, false);
  } else {
    fill(in.x, 21);
    fill(in.y, 22);
  }
  kept_inputs<Level1Inputs>().push_back(in);
  const std::string suffix =
      std::string(lognormal ? "/lognormal/" : "/uniform/") + std::to_string(n);
  // The baseline: cublasDdot of register_level1 and register_level1_wide, same names.
  std::vector<ExKokkos::Options> settings;
  for (int es : {2, 3, 4, 6, 8})
    for (int exit : {0, 1}) {
      ExKokkos::Options o;
      o.expansion_size = es;
      o.early_exit = exit;
      settings.push_back(o);
    }
  const int one_wave = 3 * Space().concurrency() / 2048;  // 3 teams of 256 per multiprocessor
  for (int team : {128, 256})
    for (int copies : {1, 4, 8})
      for (int waves : {1, 3, 8}) {
        ExKokkos::Options o;
        o.team_size = team;
        o.accumulators_per_team = copies;
        o.league_size = waves * one_wave * (256 / team);
        settings.push_back(o);
      }
  Pairs pairs;
  for (const ExKokkos::Options& o : settings) {
    const std::string name = "exdot_es" + std::to_string(o.expansion_size) + "_exit" +
                             std::to_string(o.early_exit) + "_team" + std::to_string(o.team_size) +
                             "_league" + std::to_string(o.league_size) + "_copies" +
                             std::to_string(o.accumulators_per_team);
    register_timed(
        name + suffix, nothing, [in, o] { ExKokkos::exdot(Space(), in.result, in.x, in.y, o); },
        16.0 * n);
    pairs.push_back({name, "cublasDdot"});
  }
  for (int es : {2, 4, 8}) {  // sums: no TwoProd errors, fewer slots may do
    ExKokkos::Options o;
    o.expansion_size = es;
    const std::string name = "exsum_es" + std::to_string(es);
    register_timed(
        name + suffix, nothing, [in, o] { ExKokkos::exsum(Space(), in.result, in.x, o); }, 8.0 * n);
    pairs.push_back({name, "cublasDasum"});
  }
  return pairs;
}

}  // namespace

int main(int argc, char** argv) {
  return run_cuda_benchmarks(
      argc, argv,
      [] {
        for (int log2n : {24, 27}) register_level1(log2n);
        register_level1_wide(27, false);
        register_level1_wide(27, true);
        for (int log2n : {24, 26}) {
          register_level1_complex(log2n);
          register_level1_complex_float(log2n);
        }
        Pairs pairs{{"exdot", "cublasDdot"},
                    {"exdot", "parallel_reduce_dot"},
                    {"exsum", "cublasDdot"},
                    {"exsum", "cublasDasum"},
                    {"exsum", "parallel_reduce_sum"},
                    {"exasum", "cublasDasum"},
                    {"exnrm2", "cublasDnrm2"},
                    {"exdot_complex", "cublasZdotc"},
                    {"exnrm2_complex", "cublasDznrm2"},
                    {"exasum_complex", "cublasDzasum"},
                    {"exdot_complex_float", "cublasCdotc"}};
        for (bool lognormal : {false, true})
          for (const auto& p : register_tuning(27, lognormal)) pairs.push_back(p);
        return pairs;
      },
      [] {
        kept_inputs<Level1Inputs>().clear();
        kept_inputs<ComplexLevel1Inputs<double>>().clear();
        kept_inputs<ComplexLevel1Inputs<float>>().clear();
      });
}
