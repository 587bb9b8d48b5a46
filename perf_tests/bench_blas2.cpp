// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Level-2 benchmarks: exgemv beside KokkosBlas::gemv (OpenBLAS behind it) for "N" and "T" on
// square, tall and wide matrices (uniform data; and lognormal data, random signs times
// exp(N(0, 18)), on the square ones), and extrsv (lower, non-unit; "N", and "T", which walks the
// triangle backwards along its contiguous columns) beside KokkosBlas::trsm with one right-hand
// side and a plain Kokkos substitution ("N"); the rank updates exger, exsyr and exsyr2 (lower)
// beside the BLAS of the build (OpenBLAS' dger, dsyr, dsyr2, on the host) and a plain Kokkos
// kernel of the same shape (A(i, j) += alpha x(i) y(j)); complex exgemv ("N", "T", "C", double and
// float) beside KokkosBlas::gemv on complex values; complex extrsv (lower, non-unit, "N" and "C")
// beside KokkosBlas::trsm with one right-hand side (OpenBLAS' ztrsm); complex exger ("T", "H")
// and exsyr2 ("H") at 1024 beside OpenBLAS' zgeru / zgerc and zher2. Prints the time ratios at the
// end (--benchmark_out=f.json --benchmark_out_format=json for perf_tests/plot_results.py).
#include <ExKokkos.hpp>

#include "ExKokkosPerf_RatioReporter.hpp"

#include <Kokkos_Random.hpp>

#if defined(EXKOKKOS_PERF_HAVE_KOKKOSKERNELS)
#include <KokkosBlas2_gemv.hpp>
#include <KokkosBlas3_trsm.hpp>
#endif

#include <benchmark/benchmark.h>

#if defined(EXKOKKOS_PERF_HAVE_CBLAS)
extern "C" void dger_(const int* m, const int* n, const double* alpha, const double* x,
                      const int* incx, const double* y, const int* incy, double* a, const int* lda);
extern "C" void dsyr_(const char* uplo, const int* n, const double* alpha, const double* x,
                      const int* incx, double* a, const int* lda);
extern "C" void dsyr2_(const char* uplo, const int* n, const double* alpha, const double* x,
                       const int* incx, const double* y, const int* incy, double* a,
                       const int* lda);
// Fortran's complex*16 is two doubles, real part first, as Kokkos::complex<double>.
extern "C" void zgeru_(const int* m, const int* n, const void* alpha, const void* x,
                       const int* incx, const void* y, const int* incy, void* a, const int* lda);
extern "C" void zgerc_(const int* m, const int* n, const void* alpha, const void* x,
                       const int* incx, const void* y, const int* incy, void* a, const int* lda);
extern "C" void zher2_(const char* uplo, const int* n, const void* alpha, const void* x,
                       const int* incx, const void* y, const int* incy, void* a, const int* lda);
#endif

#include <cmath>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace {

using Space = Kokkos::DefaultExecutionSpace;
using Mem = Space::memory_space;
using Matrix = Kokkos::View<double**, Kokkos::LayoutLeft, Mem>;
using Vec = Kokkos::View<double*, Kokkos::LayoutLeft, Mem>;

struct GemvProblem {
  Matrix A;
  Vec x, y, y0;
};

// Every entry of v: a random sign times exp(N(0, 18)), magnitudes over some 10^±23 and at times
// 10^±70 (the wide data of the GPU tables in docs/performance.md), drawn on the host.
template <class View>
void fill_lognormal(const View& v, std::uint64_t seed) {
  auto h = Kokkos::create_mirror_view(v);
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 18.0);
  // Complex values: both parts drawn alike.
  double* data = reinterpret_cast<double*>(h.data());
  const std::size_t count = h.span() * sizeof(typename View::value_type) / sizeof(double);
  for (std::size_t k = 0; k < count; ++k)
    data[k] = (rng() & 1 ? -1.0 : 1.0) * std::exp(normal(rng));
  Kokkos::deep_copy(v, h);
}

GemvProblem make_gemv(std::size_t m, std::size_t n, bool transposed, bool lognormal) {
  GemvProblem p{Matrix("A", m, n), Vec("x", transposed ? m : n), Vec("y", transposed ? n : m),
                Vec("y0", transposed ? n : m)};
  if (lognormal) {
    fill_lognormal(p.A, m + n);
    fill_lognormal(p.x, m + n + 1);
    fill_lognormal(p.y0, m + n + 2);
    return p;
  }
  Kokkos::Random_XorShift64_Pool<Space> pool(m + n);
  Kokkos::fill_random(p.A, pool, -1.0, 1.0);
  Kokkos::fill_random(p.x, pool, -1.0, 1.0);
  Kokkos::fill_random(p.y0, pool, -1.0, 1.0);
  return p;
}

void register_gemv(const std::string& routine, const char* trans, const std::string& data,
                   std::size_t m, std::size_t n,
                   std::function<void(const char*, GemvProblem&)> body) {
  const std::string name =
      routine + "/" + trans + "/" + data + "/" + std::to_string(m) + "x" + std::to_string(n);
  const std::string t = trans;
  benchmark::RegisterBenchmark(
      name.c_str(),
      [=](benchmark::State& state) {
        GemvProblem p = make_gemv(m, n, t == "T", data == "lognormal");
        for (auto _ : state) {
          state.PauseTiming();
          Kokkos::deep_copy(p.y, p.y0);  // y keeps its range
          Space().fence();
          state.ResumeTiming();
          body(t.c_str(), p);
          Space().fence();
        }
        state.SetBytesProcessed(std::int64_t(state.iterations()) * m * n * sizeof(double));
      })
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
}

// Complex exgemv beside KokkosBlas::gemv (OpenBLAS' zgemv or cgemv behind it on the host), "N",
// "T" and "C", alpha 1.5 - 0.5i and beta 0.5 + 2i; uniform parts, or (complex<double>) lognormal
// ones.
template <class Real>
struct ComplexGemvProblem {
  using Matrix = Kokkos::View<Kokkos::complex<Real>**, Kokkos::LayoutLeft, Mem>;
  using Vector = Kokkos::View<Kokkos::complex<Real>*, Kokkos::LayoutLeft, Mem>;
  Matrix A;
  Vector x, y, y0;
};

template <class View>
void fill_parts(const View& v, bool lognormal, std::uint64_t seed) {
  if (lognormal) return fill_lognormal(v, seed);
  using C = typename View::non_const_value_type;
  auto h = Kokkos::create_mirror_view(v);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (std::size_t k = 0; k < h.span(); ++k) h.data()[k] = C(u(rng), u(rng));
  Kokkos::deep_copy(v, h);
}

template <class Real>
void register_complex_gemv(const std::string& routine, const char* trans, const std::string& data,
                           std::size_t n,
                           std::function<void(const char*, ComplexGemvProblem<Real>&)> body) {
  using P = ComplexGemvProblem<Real>;
  const std::string name =
      routine + "/" + trans + "/" + data + "/" + std::to_string(n) + "x" + std::to_string(n);
  const std::string t = trans;
  benchmark::RegisterBenchmark(name.c_str(),
                               [=](benchmark::State& state) {
                                 P p{typename P::Matrix("A", n, n), typename P::Vector("x", n),
                                     typename P::Vector("y", n), typename P::Vector("y0", n)};
                                 const bool wide = data == "lognormal";
                                 fill_parts(p.A, wide, n);
                                 fill_parts(p.x, wide, n + 1);
                                 fill_parts(p.y0, wide, n + 2);
                                 for (auto _ : state) {
                                   state.PauseTiming();
                                   Kokkos::deep_copy(p.y, p.y0);
                                   Space().fence();
                                   state.ResumeTiming();
                                   body(t.c_str(), p);
                                   Space().fence();
                                 }
                                 state.SetBytesProcessed(std::int64_t(state.iterations()) * n * n *
                                                         sizeof(Kokkos::complex<Real>));
                               })
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
}

// exgemv and KokkosBlas::gemv on complex<Real>, under routine names with the suffix.
template <class Real>
void register_complex_gemv_pair(const char* trans, const char* data, const std::string& suffix) {
  using C = Kokkos::complex<Real>;
  register_complex_gemv<Real>(
      "exgemv_" + suffix, trans, data, 2048, [](const char* t, ComplexGemvProblem<Real>& p) {
        ExKokkos::exgemv(Space(), t, C(1.5, -0.5), p.A, p.x, C(0.5, 2), p.y);
      });
#if defined(EXKOKKOS_PERF_HAVE_KOKKOSKERNELS)
  register_complex_gemv<Real>("KokkosBlas::gemv_" + suffix, trans, data, 2048,
                              [](const char* t, ComplexGemvProblem<Real>& p) {
                                KokkosBlas::gemv(t, C(1.5, -0.5), p.A, p.x, C(0.5, 2), p.y);
                              });
#endif
}

struct TrsvProblem {
  Matrix T;
  Vec b, b0;
};

// Diagonal in [1, 2), off-diagonal U[-1, 1) / n: well-conditioned.
TrsvProblem make_trsv(std::size_t n) {
  TrsvProblem p{Matrix("T", n, n), Vec("b", n), Vec("b0", n)};
  Kokkos::Random_XorShift64_Pool<Space> pool(n);
  Kokkos::fill_random(p.T, pool, -1.0, 1.0);
  Kokkos::fill_random(p.b0, pool, -1.0, 1.0);
  const Matrix T = p.T;
  const double scale = 1.0 / double(n);
  Kokkos::parallel_for(
      "diagonal", Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(const std::size_t i) {
        for (std::size_t j = 0; j < n; ++j)
          T(i, j) = i == j ? 1.5 + 0.5 * T(i, j) : (j < i ? T(i, j) * scale : 0.0);
      });
  return p;
}

// variant: "L" (lower, "N") or "LT" (lower, "T").
void register_trsv(const std::string& routine, const std::string& variant, std::size_t n,
                   std::function<void(TrsvProblem&)> body) {
  const std::string name = routine + "/" + variant + "/" + std::to_string(n);
  benchmark::RegisterBenchmark(
      name.c_str(),
      [=](benchmark::State& state) {
        TrsvProblem p = make_trsv(n);
        for (auto _ : state) {
          state.PauseTiming();
          Kokkos::deep_copy(p.b, p.b0);
          Space().fence();
          state.ResumeTiming();
          body(p);
          Space().fence();
        }
        state.SetBytesProcessed(std::int64_t(state.iterations()) * n * n / 2 * sizeof(double));
      })
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
}

// Complex triangles: diagonal of modulus in [1, 2) (parts 1.5 + 0.5 u, 0.5 u), off-diagonal parts
// U[-1, 1) / n: well-conditioned. variant: "L" (lower, "N") or "LC" (lower, "C").
struct ComplexTrsvProblem {
  using Matrix = Kokkos::View<Kokkos::complex<double>**, Kokkos::LayoutLeft, Mem>;
  using Vector = Kokkos::View<Kokkos::complex<double>*, Kokkos::LayoutLeft, Mem>;
  Matrix T;
  Vector b, b0;
};

void register_complex_trsv(const std::string& routine, const std::string& variant, std::size_t n,
                           std::function<void(ComplexTrsvProblem&)> body) {
  using P = ComplexTrsvProblem;
  const std::string name = routine + "/" + variant + "/" + std::to_string(n);
  benchmark::RegisterBenchmark(
      name.c_str(),
      [=](benchmark::State& state) {
        P p{P::Matrix("T", n, n), P::Vector("b", n), P::Vector("b0", n)};
        fill_parts(p.T, false, n + 3);
        fill_parts(p.b0, false, n + 4);
        const P::Matrix T = p.T;
        const double scale = 1.0 / double(n);
        Kokkos::parallel_for(
            "diagonal", Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(const std::size_t i) {
              for (std::size_t j = 0; j < n; ++j) {
                const auto t = T(i, j);
                T(i, j) = i == j ? Kokkos::complex<double>(1.5 + 0.5 * t.real(), 0.5 * t.imag())
                                 : (j < i ? t * scale : Kokkos::complex<double>(0.0));
              }
            });
        for (auto _ : state) {
          state.PauseTiming();
          Kokkos::deep_copy(p.b, p.b0);
          Space().fence();
          state.ResumeTiming();
          body(p);
          Space().fence();
        }
        state.SetBytesProcessed(std::int64_t(state.iterations()) * n * n / 2 *
                                sizeof(Kokkos::complex<double>));
      })
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
}

struct RankProblem {
  Matrix A, A0;
  Vec x, y;
};

// A, x, y uniform in [-1, 1); each run starts from the same A.
void register_rank_update(const std::string& routine, std::size_t n,
                          std::function<void(RankProblem&)> body) {
  const std::string name = routine + "/uniform/" + std::to_string(n);
  benchmark::RegisterBenchmark(
      name.c_str(),
      [=](benchmark::State& state) {
        RankProblem p{Matrix("A", n, n), Matrix("A0", n, n), Vec("x", n), Vec("y", n)};
        Kokkos::Random_XorShift64_Pool<Space> pool(n + 7);
        Kokkos::fill_random(p.A0, pool, -1.0, 1.0);
        Kokkos::fill_random(p.x, pool, -1.0, 1.0);
        Kokkos::fill_random(p.y, pool, -1.0, 1.0);
        for (auto _ : state) {
          state.PauseTiming();
          Kokkos::deep_copy(p.A, p.A0);
          Space().fence();
          state.ResumeTiming();
          body(p);
          Space().fence();
        }
        state.SetBytesProcessed(std::int64_t(state.iterations()) * n * n * 2 * sizeof(double));
      })
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
}

// The plain update: a product and an addition per element, rounded twice (or once, contracted),
// one column of the LayoutLeft A per work item as exger runs on the host.
void plain_rank_update(RankProblem& p, bool lower_only, bool two) {
  const Matrix A = p.A;
  const Vec x = p.x, y = p.y;
  const double alpha = 1.5;
  Kokkos::parallel_for(
      "plain_rank_update", Kokkos::RangePolicy<Space>(0, A.extent(1)),
      KOKKOS_LAMBDA(const std::size_t j) {
        const std::size_t m = A.extent(0);
        for (std::size_t i = lower_only ? j : 0; i < m; ++i)
          A(i, j) += two ? alpha * x(i) * y(j) + alpha * y(i) * x(j) : alpha * x(i) * y(j);
      });
}

// Complex rank updates: A, x, y with both parts uniform in [-1, 1); each run starts from the same
// A. alpha 1.5 - 0.5i.
using Complex = Kokkos::complex<double>;
struct ComplexRankProblem {
  Kokkos::View<Complex**, Kokkos::LayoutLeft, Mem> A, A0;
  Kokkos::View<Complex*, Kokkos::LayoutLeft, Mem> x, y;
};

void register_complex_rank_update(const std::string& routine, const char* trans, std::size_t n,
                                  std::function<void(ComplexRankProblem&)> body) {
  const std::string name = routine + "/" + trans + "/" + std::to_string(n);
  benchmark::RegisterBenchmark(
      name.c_str(),
      [=](benchmark::State& state) {
        ComplexRankProblem p{decltype(p.A)("A", n, n), decltype(p.A)("A0", n, n),
                             decltype(p.x)("x", n), decltype(p.x)("y", n)};
        Kokkos::Random_XorShift64_Pool<Space> pool(n + 9);
        const Complex low(-1.0, -1.0), high(1.0, 1.0);
        Kokkos::fill_random(p.A0, pool, low, high);
        Kokkos::fill_random(p.x, pool, low, high);
        Kokkos::fill_random(p.y, pool, low, high);
        for (auto _ : state) {
          state.PauseTiming();
          Kokkos::deep_copy(p.A, p.A0);
          Space().fence();
          state.ResumeTiming();
          body(p);
          Space().fence();
        }
        state.SetBytesProcessed(std::int64_t(state.iterations()) * n * n * 2 * sizeof(Complex));
      })
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  benchmark::Initialize(&argc, argv);
  const std::vector<std::pair<std::size_t, std::size_t>> shapes = {
      {4096, 4096}, {65536, 256}, {256, 65536}};
  for (const auto& s : shapes)
    for (const char* data : {"uniform", "lognormal"}) {
      if (std::string(data) == "lognormal" && s.first != s.second) continue;
      for (const char* trans : {"N", "T"}) {
        register_gemv("exgemv", trans, data, s.first, s.second, [](const char* t, GemvProblem& p) {
          ExKokkos::exgemv(Space(), t, 1.5, p.A, p.x, 0.5, p.y);
        });
#if defined(EXKOKKOS_PERF_HAVE_KOKKOSKERNELS)
        register_gemv(
            "KokkosBlas::gemv", trans, data, s.first, s.second,
            [](const char* t, GemvProblem& p) { KokkosBlas::gemv(t, 1.5, p.A, p.x, 0.5, p.y); });
#endif
      }
    }
  for (const char* trans : {"N", "T", "C"}) {
    for (const char* data : {"uniform", "lognormal"})
      register_complex_gemv_pair<double>(trans, data, "complex");
    register_complex_gemv_pair<float>(trans, "uniform", "complex_float");
  }
  for (std::size_t n : {1024, 4096}) {
    register_trsv("extrsv", "L", n,
                  [](TrsvProblem& p) { ExKokkos::extrsv(Space(), "L", "N", "N", p.T, p.b); });
    register_trsv("extrsv", "LT", n,
                  [](TrsvProblem& p) { ExKokkos::extrsv(Space(), "L", "T", "N", p.T, p.b); });
#if defined(EXKOKKOS_PERF_HAVE_KOKKOSKERNELS)
    for (const char* trans : {"N", "T"})
      register_trsv("KokkosBlas::trsm", trans[0] == 'N' ? "L" : "LT", n, [=](TrsvProblem& p) {
        const Kokkos::View<double**, Kokkos::LayoutLeft, Mem> B(p.b.data(), p.b.extent(0), 1);
        KokkosBlas::trsm("L", "L", trans, "N", 1.0, p.T, B);
      });
#endif
    register_trsv("plain_substitution", "L", n, [](TrsvProblem& p) {
      const Matrix T = p.T;
      const Vec b = p.b;
      Kokkos::parallel_for(
          "substitution", Kokkos::RangePolicy<Space>(0, 1), KOKKOS_LAMBDA(const int) {
            const std::size_t m = b.extent(0);
            for (std::size_t i = 0; i < m; ++i) {
              double s = b(i);
              for (std::size_t j = 0; j < i; ++j) s -= T(i, j) * b(j);
              b(i) = s / T(i, i);
            }
          });
    });
  }
  for (std::size_t n : {1024, 4096})
    for (const char* trans : {"N", "C"}) {
      const std::string variant = trans[0] == 'N' ? "L" : "LC";
      register_complex_trsv("extrsv_complex", variant, n, [=](ComplexTrsvProblem& p) {
        ExKokkos::extrsv(Space(), "L", trans, "N", p.T, p.b);
      });
#if defined(EXKOKKOS_PERF_HAVE_KOKKOSKERNELS)
      register_complex_trsv("KokkosBlas::trsm_complex", variant, n, [=](ComplexTrsvProblem& p) {
        const Kokkos::View<Kokkos::complex<double>**, Kokkos::LayoutLeft, Mem> B(p.b.data(),
                                                                                 p.b.extent(0), 1);
        KokkosBlas::trsm("L", "L", trans, "N", Kokkos::complex<double>(1.0), p.T, B);
      });
#endif
    }
  for (std::size_t n : {1024, 4096}) {
    register_rank_update("exger", n,
                         [](RankProblem& p) { ExKokkos::exger(Space(), "T", 1.5, p.x, p.y, p.A); });
    register_rank_update("exsyr", n,
                         [](RankProblem& p) { ExKokkos::exsyr(Space(), "T", "L", 1.5, p.x, p.A); });
    register_rank_update("exsyr2", n, [](RankProblem& p) {
      ExKokkos::exsyr2(Space(), "T", "L", 1.5, p.x, p.y, p.A);
    });
    register_rank_update("plain_ger", n,
                         [](RankProblem& p) { plain_rank_update(p, false, false); });
    register_rank_update("plain_syr2", n, [](RankProblem& p) { plain_rank_update(p, true, true); });
#if defined(EXKOKKOS_PERF_HAVE_CBLAS)
    if (ExKokkos::Impl::is_host_space<Space>()) {
      register_rank_update("dger", n, [](RankProblem& p) {
        const int m = static_cast<int>(p.A.extent(0)), one = 1;
        const double alpha = 1.5;
        dger_(&m, &m, &alpha, p.x.data(), &one, p.y.data(), &one, p.A.data(), &m);
      });
      register_rank_update("dsyr", n, [](RankProblem& p) {
        const int m = static_cast<int>(p.A.extent(0)), one = 1;
        const double alpha = 1.5;
        dsyr_("L", &m, &alpha, p.x.data(), &one, p.A.data(), &m);
      });
      register_rank_update("dsyr2", n, [](RankProblem& p) {
        const int m = static_cast<int>(p.A.extent(0)), one = 1;
        const double alpha = 1.5;
        dsyr2_("L", &m, &alpha, p.x.data(), &one, p.y.data(), &one, p.A.data(), &m);
      });
    }
#endif
  }
  {
    const std::size_t n = 1024;
    const Complex alpha(1.5, -0.5);
    for (const char* trans : {"T", "H"})
      register_complex_rank_update("exger_complex", trans, n, [=](ComplexRankProblem& p) {
        ExKokkos::exger(Space(), trans, alpha, p.x, p.y, p.A);
      });
    register_complex_rank_update("exsyr2_complex", "H", n, [=](ComplexRankProblem& p) {
      ExKokkos::exsyr2(Space(), "H", "L", alpha, p.x, p.y, p.A);
    });
#if defined(EXKOKKOS_PERF_HAVE_CBLAS)
    if (ExKokkos::Impl::is_host_space<Space>()) {
      for (const char* trans : {"T", "H"})
        register_complex_rank_update("zger", trans, n, [=](ComplexRankProblem& p) {
          const int m = static_cast<int>(p.A.extent(0)), one = 1;
          (trans[0] == 'T' ? zgeru_ : zgerc_)(&m, &m, &alpha, p.x.data(), &one, p.y.data(), &one,
                                              p.A.data(), &m);
        });
      // BLAS' zher2 also sets the diagonal's imaginary parts to zero: the same work.
      register_complex_rank_update("zher2", "H", n, [=](ComplexRankProblem& p) {
        const int m = static_cast<int>(p.A.extent(0)), one = 1;
        zher2_("L", &m, &alpha, p.x.data(), &one, p.y.data(), &one, p.A.data(), &m);
      });
    }
#endif
  }
  const std::vector<std::pair<std::string, std::string>> pairs = {
      {"exgemv", "KokkosBlas::gemv"},
      {"exgemv_complex", "KokkosBlas::gemv_complex"},
      {"exgemv_complex_float", "KokkosBlas::gemv_complex_float"},
      {"extrsv", "KokkosBlas::trsm"},
      {"extrsv", "plain_substitution"},
      {"extrsv_complex", "KokkosBlas::trsm_complex"},
      {"exger", "dger"},
      {"exger", "plain_ger"},
      {"exsyr", "dsyr"},
      {"exsyr2", "dsyr2"},
      {"exsyr2", "plain_syr2"},
      {"exger_complex", "zger"},
      {"exsyr2_complex", "zher2"}};
  ExKokkosPerf::RatioReporter reporter(pairs);
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}
