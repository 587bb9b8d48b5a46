// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Level-3 benchmarks: exgemm beside KokkosBlas::gemm (OpenBLAS behind it) for square sizes 128 to
// 2048 and skinny shapes, LayoutLeft, alpha 1.5, beta 0.5. Reports GFLOP/s (2 m n k flops, the
// ordinary count, for both) and prints the time ratios at the end (--benchmark_out=f.json
// --benchmark_out_format=json for perf_tests/plot_results.py). --benchmark_filter=/128 etc. to
// run a part: exgemm at 2048 takes tens of seconds on two cores.
//
// Rows: exgemm (Schedule::automatic: the cost model picks the Ozaki path or the exact dot
// products), exgemm_lanes (the exact dot products, output_lanes), exgemm_ozaki (Schedule::ozaki,
// with the slices per operand as counters slices_a, slices_b), each beside KokkosBlas::gemm; data
// "NN" uniform(-1, 1), "NN_normal" N(0, 1) (Ozaki rows and their baselines, sizes up to 1024 and
// two skinny shapes).
//
// extrsm and extrmm beside KokkosBlas::trsm and KokkosBlas::trmm (side "L", uplo "L", trans "N",
// diag "N", alpha 1.5, B n x n, rows "LLNN"): A's diagonal in [1, 2), the rest of its lower
// triangle uniform(-1, 1) / n, so that the solves stay in range; GFLOP/s count m^2 n flops
// (BLAS' count for both). And exgemm on complex views beside KokkosBlas::gemm (zgemm): rows
// "exgemm_complex/NN" and ".../CN" at 256, 512 and 1024; complex extrsm beside KokkosBlas::trsm
// (ztrsm): rows "extrsm_complex/LLNN" and ".../LLCN" at 256 and 512, and complex extrmm beside
// KokkosBlas::trmm (ztrmm) on the same shapes (the triangle and its register function shared).
#include <ExKokkos.hpp>

#include "ExKokkosPerf_RatioReporter.hpp"

#include <Kokkos_Random.hpp>

#if defined(EXKOKKOS_PERF_HAVE_KOKKOSKERNELS)
#include <KokkosBlas3_gemm.hpp>
#include <KokkosBlas3_trmm.hpp>
#include <KokkosBlas3_trsm.hpp>
#endif

#include <benchmark/benchmark.h>

#include <algorithm>
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

// N(0, 1) by Box-Muller from the pool's uniforms (the data of the "NN_normal" rows).
struct NormalFill {
  Matrix M;
  Kokkos::Random_XorShift64_Pool<Space> pool;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i, const std::size_t j) const {
    auto g = pool.get_state();
    const double u1 = 1.0 - g.drand(), u2 = g.drand();
    pool.free_state(g);
    M(i, j) = Kokkos::Experimental::sqrt(-2.0 * Kokkos::Experimental::log(u1)) *
              Kokkos::Experimental::cos(6.283185307179586 * u2);
  }
};

void fill(const Matrix& M, Kokkos::Random_XorShift64_Pool<Space>& pool, bool normal) {
  if (!normal) {
    Kokkos::fill_random(M, pool, -1.0, 1.0);
    return;
  }
  Kokkos::parallel_for(
      "normal", Kokkos::MDRangePolicy<Space, Kokkos::Rank<2>>({0, 0}, {M.extent(0), M.extent(1)}),
      NormalFill{M, pool});
}

GemmProblem make_gemm(const Shape& s, bool normal) {
  GemmProblem p{Matrix("A", s.m, s.k), Matrix("B", s.k, s.n), Matrix("C", s.m, s.n),
                Matrix("C0", s.m, s.n)};
  Kokkos::Random_XorShift64_Pool<Space> pool(s.m + 3 * s.n + 7 * s.k);
  fill(p.A, pool, normal);
  fill(p.B, pool, normal);
  Kokkos::fill_random(p.C0, pool, -1.0, 1.0);
  return p;
}

void register_gemm(const std::string& routine, const Shape& s,
                   std::function<void(GemmProblem&)> body, bool normal = false,
                   bool count_slices = false) {
  const std::string name = routine + (normal ? "/NN_normal/" : "/NN/") + std::to_string(s.m) + "x" +
                           std::to_string(s.n) + "x" + std::to_string(s.k);
  benchmark::RegisterBenchmark(name.c_str(),
                               [=](benchmark::State& state) {
                                 GemmProblem p = make_gemm(s, normal);
                                 if (count_slices) {
                                   const auto plan =
                                       ExKokkos::exgemm_ozaki_plan(Space(), "N", "N", p.A, p.B);
                                   state.counters["slices_a"] = plan.slices_a;
                                   state.counters["slices_b"] = plan.slices_b;
                                 }
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

// A well-conditioned lower triangle: diagonal 1 + |u|, below it u / n, above it zeros (not read).
struct TriangleFill {
  Matrix A;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i, const std::size_t j) const {
    const double n = double(A.extent(0));
    const double u = A(i, j);
    A(i, j) = i == j ? 1.0 + (u < 0 ? -u : u) : (i > j ? u / n : 0.0);
  }
};

struct TriangularProblem {
  Matrix A, B, B0;
};

TriangularProblem make_triangular(std::size_t n) {
  TriangularProblem p{Matrix("A", n, n), Matrix("B", n, n), Matrix("B0", n, n)};
  Kokkos::Random_XorShift64_Pool<Space> pool(n + 11);
  Kokkos::fill_random(p.A, pool, -1.0, 1.0);
  Kokkos::parallel_for("triangle", Kokkos::MDRangePolicy<Space, Kokkos::Rank<2>>({0, 0}, {n, n}),
                       TriangleFill{p.A});
  Kokkos::fill_random(p.B0, pool, -1.0, 1.0);
  return p;
}

void register_triangular(const std::string& routine, std::size_t n,
                         std::function<void(TriangularProblem&)> body) {
  const std::string name = routine + "/LLNN/" + std::to_string(n) + "x" + std::to_string(n);
  benchmark::RegisterBenchmark(name.c_str(),
                               [=](benchmark::State& state) {
                                 TriangularProblem p = make_triangular(n);
                                 for (auto _ : state) {
                                   state.PauseTiming();
                                   Kokkos::deep_copy(p.B, p.B0);  // the same right-hand sides
                                   Space().fence();
                                   state.ResumeTiming();
                                   body(p);
                                   Space().fence();
                                 }
                                 state.counters["GFLOP/s"] = benchmark::Counter(
                                     double(n) * double(n) * double(n) * 1e-9,
                                     benchmark::Counter::kIsIterationInvariantRate);
                               })
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
}

}  // namespace

// Complex rows: exgemm on Kokkos::complex<double> (column by column through complex exgemv) beside
// KokkosBlas::gemm (zgemm), LayoutLeft, alpha 1.5 - 0.5i, beta 0.5 + 2i, both parts of every entry
// uniform(-1, 1); trans "NN" and "CN"; GFLOP/s count 8 m n k flops.
using ComplexMatrix =
    Kokkos::View<Kokkos::complex<double>**, Kokkos::LayoutLeft, Space::memory_space>;

struct ComplexFill {
  ComplexMatrix M;
  Kokkos::Random_XorShift64_Pool<Space> pool;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i, const std::size_t j) const {
    auto g = pool.get_state();
    const double re = 2.0 * g.drand() - 1.0, im = 2.0 * g.drand() - 1.0;
    pool.free_state(g);
    M(i, j) = Kokkos::complex<double>(re, im);
  }
};

struct ComplexGemmProblem {
  ComplexMatrix A, B, C, C0;
};

// A well-conditioned complex lower triangle: diagonal (1 + |re u|) + i im u, below it u / n,
// above it zeros (not read).
struct ComplexTriangleFill {
  ComplexMatrix A;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i, const std::size_t j) const {
    const double n = double(A.extent(0));
    const Kokkos::complex<double> u = A(i, j);
    const double re = u.real() < 0 ? -u.real() : u.real();
    A(i, j) = i == j ? Kokkos::complex<double>(1.0 + re, u.imag())
                     : (i > j ? u / n : Kokkos::complex<double>(0.0));
  }
};

// Complex extrsm's and extrmm's rows: side "L", uplo "L", trans_a, diag "N", alpha 1.5 - 0.5i,
// B n x n (in C, restored from C0 before every run); GFLOP/s count 4 n^3 flops (a complex n^2 n / 2
// multiply-adds).
void register_complex_triangular(const std::string& routine, const char* trans_a, std::size_t n,
                                 std::function<void(const char*, ComplexGemmProblem&)> body) {
  const std::string name =
      routine + "/LL" + trans_a + "N/" + std::to_string(n) + "x" + std::to_string(n);
  benchmark::RegisterBenchmark(
      name.c_str(),
      [=](benchmark::State& state) {
        ComplexGemmProblem p{ComplexMatrix("A", n, n), ComplexMatrix(), ComplexMatrix("B", n, n),
                             ComplexMatrix("B0", n, n)};
        Kokkos::Random_XorShift64_Pool<Space> pool(n + 7);
        const Kokkos::MDRangePolicy<Space, Kokkos::Rank<2>> all({0, 0}, {n, n});
        for (const ComplexMatrix& M : {p.A, p.C0})
          Kokkos::parallel_for("fill", all, ComplexFill{M, pool});
        Kokkos::parallel_for("triangle", all, ComplexTriangleFill{p.A});
        for (auto _ : state) {
          state.PauseTiming();
          Kokkos::deep_copy(p.C, p.C0);
          Space().fence();
          state.ResumeTiming();
          body(trans_a, p);
          Space().fence();
        }
        state.counters["GFLOP/s"] =
            benchmark::Counter(4.0 * double(n) * double(n) * double(n) * 1e-9,
                               benchmark::Counter::kIsIterationInvariantRate);
      })
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
}

void register_complex_gemm(const std::string& routine, const char* trans_a, std::size_t n,
                           std::function<void(const char*, ComplexGemmProblem&)> body) {
  const std::string name = routine + "/" + trans_a + "N/" + std::to_string(n) + "x" +
                           std::to_string(n) + "x" + std::to_string(n);
  benchmark::RegisterBenchmark(
      name.c_str(),
      [=](benchmark::State& state) {
        ComplexGemmProblem p{ComplexMatrix("A", n, n), ComplexMatrix("B", n, n),
                             ComplexMatrix("C", n, n), ComplexMatrix("C0", n, n)};
        Kokkos::Random_XorShift64_Pool<Space> pool(n + 5);
        for (const ComplexMatrix& M : {p.A, p.B, p.C0})
          Kokkos::parallel_for("fill",
                               Kokkos::MDRangePolicy<Space, Kokkos::Rank<2>>({0, 0}, {n, n}),
                               ComplexFill{M, pool});
        for (auto _ : state) {
          state.PauseTiming();
          Kokkos::deep_copy(p.C, p.C0);
          Space().fence();
          state.ResumeTiming();
          body(trans_a, p);
          Space().fence();
        }
        state.counters["GFLOP/s"] =
            benchmark::Counter(8.0 * double(n) * double(n) * double(n) * 1e-9,
                               benchmark::Counter::kIsIterationInvariantRate);
      })
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
}

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  benchmark::Initialize(&argc, argv);
  const std::vector<Shape> shapes = {{128, 128, 128},    {256, 256, 256},    {512, 512, 512},
                                     {1024, 1024, 1024}, {2048, 2048, 2048}, {4096, 64, 4096},
                                     {64, 4096, 4096},   {4096, 4096, 64}};
  ExKokkos::Options lanes, ozaki;
  lanes.schedule = ExKokkos::Schedule::output_lanes;
  ozaki.schedule = ExKokkos::Schedule::ozaki;
  const std::vector<Shape> ozaki_shapes = {{128, 128, 128},    {256, 256, 256},  {512, 512, 512},
                                           {1024, 1024, 1024}, {4096, 64, 4096}, {4096, 4096, 64}};
  for (const auto& s : shapes) {
    const bool with_ozaki = std::any_of(ozaki_shapes.begin(), ozaki_shapes.end(), [&](Shape o) {
      return o.m == s.m && o.n == s.n && o.k == s.k;
    });
    for (bool normal : {false, true}) {
      if (normal && !with_ozaki) continue;
      register_gemm(
          "exgemm", s,
          [](GemmProblem& p) { ExKokkos::exgemm(Space(), "N", "N", 1.5, p.A, p.B, 0.5, p.C); },
          normal);
      if (with_ozaki) {
        register_gemm(
            "exgemm_lanes", s,
            [lanes](GemmProblem& p) {
              ExKokkos::exgemm(Space(), "N", "N", 1.5, p.A, p.B, 0.5, p.C, lanes);
            },
            normal);
        register_gemm(
            "exgemm_ozaki", s,
            [ozaki](GemmProblem& p) {
              ExKokkos::exgemm(Space(), "N", "N", 1.5, p.A, p.B, 0.5, p.C, ozaki);
            },
            normal, true);
      }
#if defined(EXKOKKOS_PERF_HAVE_KOKKOSKERNELS)
      register_gemm(
          "KokkosBlas::gemm", s,
          [](GemmProblem& p) { KokkosBlas::gemm("N", "N", 1.5, p.A, p.B, 0.5, p.C); }, normal);
#endif
    }
  }
  for (std::size_t n : {512, 1024}) {
    register_triangular("extrsm", n, [](TriangularProblem& p) {
      ExKokkos::extrsm(Space(), "L", "L", "N", "N", 1.5, p.A, p.B);
    });
    register_triangular("extrmm", n, [](TriangularProblem& p) {
      ExKokkos::extrmm(Space(), "L", "L", "N", "N", 1.5, p.A, p.B);
    });
#if defined(EXKOKKOS_PERF_HAVE_KOKKOSKERNELS)
    register_triangular("KokkosBlas::trsm", n, [](TriangularProblem& p) {
      KokkosBlas::trsm("L", "L", "N", "N", 1.5, p.A, p.B);
    });
    register_triangular("KokkosBlas::trmm", n, [](TriangularProblem& p) {
      KokkosBlas::trmm("L", "L", "N", "N", 1.5, p.A, p.B);
    });
#endif
  }
  using Z = Kokkos::complex<double>;
  for (std::size_t n : {256, 512, 1024})
    for (const char* trans : {"N", "C"}) {
      register_complex_gemm("exgemm_complex", trans, n, [](const char* t, ComplexGemmProblem& p) {
        ExKokkos::exgemm(Space(), t, "N", Z(1.5, -0.5), p.A, p.B, Z(0.5, 2), p.C);
      });
#if defined(EXKOKKOS_PERF_HAVE_KOKKOSKERNELS)
      register_complex_gemm("KokkosBlas::gemm_complex", trans, n,
                            [](const char* t, ComplexGemmProblem& p) {
                              KokkosBlas::gemm(t, "N", Z(1.5, -0.5), p.A, p.B, Z(0.5, 2), p.C);
                            });
#endif
    }
  for (std::size_t n : {256, 512})
    for (const char* trans : {"N", "C"}) {
      register_complex_triangular(
          "extrsm_complex", trans, n, [](const char* t, ComplexGemmProblem& p) {
            ExKokkos::extrsm(Space(), "L", "L", t, "N", Z(1.5, -0.5), p.A, p.C);
          });
#if defined(EXKOKKOS_PERF_HAVE_KOKKOSKERNELS)
      register_complex_triangular("KokkosBlas::trsm_complex", trans, n,
                                  [](const char* t, ComplexGemmProblem& p) {
                                    KokkosBlas::trsm("L", "L", t, "N", Z(1.5, -0.5), p.A, p.C);
                                  });
#endif
    }
  for (std::size_t n : {256, 512})
    for (const char* trans : {"N", "C"}) {
      register_complex_triangular(
          "extrmm_complex", trans, n, [](const char* t, ComplexGemmProblem& p) {
            ExKokkos::extrmm(Space(), "L", "L", t, "N", Z(1.5, -0.5), p.A, p.C);
          });
#if defined(EXKOKKOS_PERF_HAVE_KOKKOSKERNELS)
      register_complex_triangular("KokkosBlas::trmm_complex", trans, n,
                                  [](const char* t, ComplexGemmProblem& p) {
                                    KokkosBlas::trmm("L", "L", t, "N", Z(1.5, -0.5), p.A, p.C);
                                  });
#endif
    }
  const std::vector<std::pair<std::string, std::string>> pairs = {
      {"exgemm", "KokkosBlas::gemm"},
      {"exgemm_lanes", "KokkosBlas::gemm"},
      {"exgemm_ozaki", "KokkosBlas::gemm"},
      {"exgemm_ozaki", "exgemm_lanes"},
      {"extrsm", "KokkosBlas::trsm"},
      {"extrmm", "KokkosBlas::trmm"},
      {"exgemm_complex", "KokkosBlas::gemm_complex"},
      {"extrsm_complex", "KokkosBlas::trsm_complex"},
      {"extrmm_complex", "KokkosBlas::trmm_complex"}};
  ExKokkosPerf::RatioReporter reporter(pairs);
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}
