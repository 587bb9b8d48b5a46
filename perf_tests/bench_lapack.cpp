// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// LU benchmarks: batched exgetf2 beside a non-reproducible batched getf2 of the same structure
// (exgetf2's own left-looking team loop with plain double dot products), for n = 8 to 128
// with batches of 2^23 matrix entries (64 MiB a copy, twice the L3 cache of the AMD EPYC of
// docs/performance.md: the matrices stream from memory); single-matrix exgetf2 and exgetrf (64
// to 2048) beside OpenBLAS' dgetrf; the batched solve exgetrs on exgetf2's factors beside a plain
// batched solve; and the same for the factor-and-solve exgesv (exgetrs inside) beside a plain
// batched factor-and-solve and OpenBLAS' dgesv; the same for Kokkos::complex<double> matrices
// beside the plain loops on complex values and OpenBLAS' zgetrf and zgesv. Prints the time ratios
// at the end (--benchmark_out=f.json --benchmark_out_format=json for perf_tests/plot_results.py).
#include <ExKokkos.hpp>

#include "ExKokkosPerf_RatioReporter.hpp"

#include <benchmark/benchmark.h>

#include <Kokkos_Random.hpp>

#include <string>
#include <type_traits>
#include <vector>

#if defined(EXKOKKOS_PERF_HAVE_CBLAS)
extern "C" void dgetrf_(const int* m, const int* n, double* a, const int* lda, int* ipiv,
                        int* info);
extern "C" void dgesv_(const int* n, const int* nrhs, double* a, const int* lda, int* ipiv,
                       double* b, const int* ldb, int* info);
// Fortran's complex*16 is two doubles, real part first, as Kokkos::complex<double>.
extern "C" void zgetrf_(const int* m, const int* n, void* a, const int* lda, int* ipiv, int* info);
extern "C" void zgesv_(const int* n, const int* nrhs, void* a, const int* lda, int* ipiv, void* b,
                       const int* ldb, int* info);
#endif

namespace {

using Space = Kokkos::DefaultExecutionSpace;
using Mem = Space::memory_space;
using Complex = Kokkos::complex<double>;
template <class T>
using BatchOf = Kokkos::View<T***, Kokkos::LayoutRight, Mem>;
using Pivots = Kokkos::View<int**, Mem>;

// The ordinary counterpart: exgetf2's own team loop with a11/a21 updated by plain dot products.
struct PlainLuUpdate {
  template <class AView>
  KOKKOS_INLINE_FUNCTION double operator()(const AView& A, int i, int j, int count) const {
    double s = A(i, j);
    for (int k = 0; k < count; ++k) s -= A(i, k) * A(k, j);
    return s;
  }
};

struct PlainBatchedGetf2 {
  using member_type = Kokkos::TeamPolicy<Space>::member_type;
  BatchOf<double> A;
  Pivots ipiv;
  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const int b = team.league_rank();
    ExKokkos::Impl::team_getf2(team, Kokkos::subview(A, b, Kokkos::ALL(), Kokkos::ALL()),
                               Kokkos::subview(ipiv, b, Kokkos::ALL()), PlainLuUpdate());
  }
};

// The ordinary solve of system s with its factors a: swaps, then plain forward and back
// substitution.
template <class AView, class BView>
KOKKOS_INLINE_FUNCTION void plain_getrs(const AView& a, const Pivots& ipiv, const BView& B,
                                        const int s) {
  const int n = static_cast<int>(a.extent(0));
  for (int j = 0; j < n; ++j) {
    const auto t = B(s, j);
    B(s, j) = B(s, ipiv(s, j));
    B(s, ipiv(s, j)) = t;
  }
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < i; ++k) B(s, i) -= a(i, k) * B(s, k);
  for (int i = n - 1; i >= 0; --i) {
    for (int k = i + 1; k < n; ++k) B(s, i) -= a(i, k) * B(s, k);
    B(s, i) /= a(i, i);
  }
}

// Ordinary factor-and-solve per team: the plain factorization, then the plain solve on one thread.
struct PlainBatchedGesv {
  using member_type = Kokkos::TeamPolicy<Space>::member_type;
  BatchOf<double> A;
  Pivots ipiv;
  Kokkos::View<double**, Kokkos::LayoutRight, Mem> B;
  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const int s = team.league_rank();
    const auto a = Kokkos::subview(A, s, Kokkos::ALL(), Kokkos::ALL());
    ExKokkos::Impl::team_getf2(team, a, Kokkos::subview(ipiv, s, Kokkos::ALL()), PlainLuUpdate());
    Kokkos::single(Kokkos::PerTeam(team), [&]() { plain_getrs(a, ipiv, B, s); });
  }
};

// The ordinary batched solve with given factors, one thread a system.
struct PlainBatchedGetrs {
  BatchOf<double> LU;
  Pivots ipiv;
  Kokkos::View<double**, Kokkos::LayoutRight, Mem> B;
  KOKKOS_INLINE_FUNCTION void operator()(const int s) const {
    plain_getrs(Kokkos::subview(LU, s, Kokkos::ALL(), Kokkos::ALL()), ipiv, B, s);
  }
};

// The ordinary complex counterpart, one thread per matrix: LAPACK's zgetf2 (right-looking, the
// pivot by |re| + |im| as IZAMAX, the column scaled by the reciprocal of the pivot) in
// Kokkos::complex arithmetic, and zgetrs' swaps and substitutions.
template <class AView, class PivView>
KOKKOS_INLINE_FUNCTION void plain_complex_getf2(const AView& a, const PivView& piv) {
  const int n = static_cast<int>(a.extent(0));
  const auto cabs1 = [](const Complex& z) {
    return ExKokkos::Impl::compat::fabs(z.real()) + ExKokkos::Impl::compat::fabs(z.imag());
  };
  for (int j = 0; j < n; ++j) {
    int p = j;
    double best = cabs1(a(j, j));
    for (int i = j + 1; i < n; ++i) {
      const double v = cabs1(a(i, j));
      if (v > best) {
        best = v;
        p = i;
      }
    }
    piv(j) = p;
    for (int c = 0; c < n; ++c) {
      const Complex t = a(j, c);
      a(j, c) = a(p, c);
      a(p, c) = t;
    }
    if (a(j, j) == Complex(0.0)) continue;
    const Complex r = Complex(1.0) / a(j, j);
    for (int i = j + 1; i < n; ++i) a(i, j) *= r;
    for (int i = j + 1; i < n; ++i)
      for (int c = j + 1; c < n; ++c) a(i, c) -= a(i, j) * a(j, c);
  }
}

struct PlainComplexBatchedGetf2 {
  BatchOf<Complex> A;
  Pivots ipiv;
  KOKKOS_INLINE_FUNCTION void operator()(const int s) const {
    plain_complex_getf2(Kokkos::subview(A, s, Kokkos::ALL(), Kokkos::ALL()),
                        Kokkos::subview(ipiv, s, Kokkos::ALL()));
  }
};

struct PlainComplexBatchedGesv {
  BatchOf<Complex> A;
  Pivots ipiv;
  Kokkos::View<Complex**, Kokkos::LayoutRight, Mem> B;
  KOKKOS_INLINE_FUNCTION void operator()(const int s) const {
    const auto a = Kokkos::subview(A, s, Kokkos::ALL(), Kokkos::ALL());
    plain_complex_getf2(a, Kokkos::subview(ipiv, s, Kokkos::ALL()));
    plain_getrs(a, ipiv, B, s);
  }
};

template <class T>
struct Problem {
  Kokkos::View<T**, Kokkos::LayoutRight, Mem> b0, b;  // one right-hand side per matrix
  BatchOf<T> original, work;
  Pivots ipiv;
  Kokkos::View<int*, Mem> info;
};

template <class T>
T corner(double v) {
  if constexpr (std::is_same<T, Complex>::value)
    return T(v, v);
  else
    return T(v);
}

template <class T>
Problem<T> make_problem(int batch, int n) {
  Problem<T> p;
  p.original = BatchOf<T>("A", batch, n, n);
  p.work = BatchOf<T>("work", batch, n, n);
  p.ipiv = Pivots("ipiv", batch, n);
  p.info = Kokkos::View<int*, Mem>("info", batch);
  p.b0 = decltype(p.b0)("b0", batch, n);
  p.b = decltype(p.b)("b", batch, n);
  Kokkos::Random_XorShift64_Pool<Space> pool(n);
  // Complex values: both parts uniform in [-1, 1) (fill_random takes each part's range from the
  // parts of the bounds).
  const T low = corner<T>(-1.0), high = corner<T>(1.0);
  Kokkos::fill_random(p.original, pool, low, high);
  Kokkos::fill_random(p.b0, pool, low, high);
  return p;
}

// What a benchmark's body gets: a batch of n x n matrices of 2^23 doubles in all, or one matrix
// (the routines that factor one); the matrices as generated, or their factors by exgetf2 (pivots
// in ipiv, for the solves).
enum class Batch { full, one };
enum class Input { matrices, factors };

template <class T = double, class Body>
void register_batched(const std::string& routine, int n, Body body, Batch shape = Batch::full,
                      Input input = Input::matrices) {
  const int doubles = int(sizeof(T) / sizeof(double));
  const int batch = shape == Batch::one ? 1 : std::max(1, (1 << 23) / (n * n * doubles));
  const bool factored = input == Input::factors;
  const std::string name = routine + "/batched/" + std::to_string(n);
  benchmark::RegisterBenchmark(name.c_str(),
                               [=](benchmark::State& state) {
                                 Problem<T> p = make_problem<T>(batch, n);
                                 if (factored)
                                   ExKokkos::exgetf2_batched(Space(), p.original, p.ipiv, p.info);
                                 for (auto _ : state) {
                                   state.PauseTiming();
                                   Kokkos::deep_copy(p.work, p.original);
                                   Kokkos::deep_copy(p.b, p.b0);
                                   Space().fence();
                                   state.ResumeTiming();
                                   body(p);
                                   Space().fence();
                                 }
                                 state.counters["matrices_per_s"] =
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
  for (int n : {8, 16, 32, 64, 128}) {
    register_batched("exgetf2", n, [](Problem<double>& p) {
      ExKokkos::exgetf2_batched(Space(), p.work, p.ipiv, p.info);
    });
    // The host's other one-thread schedule (the default there is the trailing update): the
    // left-looking lanes.
    if (ExKokkos::Impl::is_host_space<Space>())
      register_batched("exgetf2_lanes", n, [](Problem<double>& p) {
        ExKokkos::Options o;
        o.schedule = ExKokkos::Schedule::output_lanes;
        ExKokkos::exgetf2_batched(Space(), p.work, p.ipiv, p.info, o);
      });
    register_batched("plain_getf2", n, [](Problem<double>& p) {
      Kokkos::parallel_for("plain_getf2", Kokkos::TeamPolicy<Space>(Space(), p.work.extent(0), 1),
                           PlainBatchedGetf2{p.work, p.ipiv});
    });
    register_batched("exgesv", n, [](Problem<double>& p) {
      ExKokkos::exgesv_batched(Space(), p.work, p.ipiv, p.b, p.info, Kokkos::View<int*, Mem>());
    });
    // The solve alone, on exgetf2's factors.
    register_batched(
        "exgetrs", n,
        [](Problem<double>& p) { ExKokkos::exgetrs_batched(Space(), "N", p.work, p.ipiv, p.b); },
        Batch::full, Input::factors);
    register_batched(
        "plain_getrs", n,
        [](Problem<double>& p) {
          Kokkos::parallel_for("plain_getrs",
                               Kokkos::RangePolicy<Space>(Space(), 0, int(p.work.extent(0))),
                               PlainBatchedGetrs{p.work, p.ipiv, p.b});
        },
        Batch::full, Input::factors);
    register_batched("plain_gesv", n, [](Problem<double>& p) {
      Kokkos::parallel_for("plain_gesv", Kokkos::TeamPolicy<Space>(Space(), p.work.extent(0), 1),
                           PlainBatchedGesv{p.work, p.ipiv, p.b});
    });
  }
  // Single matrices: one team; OpenBLAS' blocked, multithreaded dgetrf beside.
  for (int n : {64, 256, 512, 1024, 2048}) {
    register_batched(
        "exgetf2_single", n,
        [](Problem<double>& p) {
          ExKokkos::exgetf2(Space(), Kokkos::subview(p.work, 0, Kokkos::ALL(), Kokkos::ALL()),
                            Kokkos::subview(p.ipiv, 0, Kokkos::ALL()));
        },
        Batch::one);
    // exgetrf: exgetf2's bits; on the host from 320 x 320 in panels, on all the space's threads.
    register_batched(
        "exgetrf_single", n,
        [](Problem<double>& p) {
          ExKokkos::exgetrf(Space(), Kokkos::subview(p.work, 0, Kokkos::ALL(), Kokkos::ALL()),
                            Kokkos::subview(p.ipiv, 0, Kokkos::ALL()));
        },
        Batch::one);
    // The left-looking lanes, the host's default only beyond about 900 x 900 (the trailing
    // update's sums no longer fit in scratch memory).
    if (ExKokkos::Impl::is_host_space<Space>() && n <= 512)
      register_batched(
          "exgetf2_single_lanes", n,
          [](Problem<double>& p) {
            ExKokkos::Options o;
            o.schedule = ExKokkos::Schedule::output_lanes;
            ExKokkos::exgetf2(Space(), Kokkos::subview(p.work, 0, Kokkos::ALL(), Kokkos::ALL()),
                              Kokkos::subview(p.ipiv, 0, Kokkos::ALL()), o);
          },
          Batch::one);
#if defined(EXKOKKOS_PERF_HAVE_CBLAS)
    if (ExKokkos::Impl::is_host_space<Space>())
      register_batched(
          "dgetrf_single", n,
          [](Problem<double>& p) {
            const int m = static_cast<int>(p.work.extent(1));
            int info = 0;
            // LayoutRight rows are LAPACK's columns: this factors A^T, the same amount of work.
            dgetrf_(&m, &m, &p.work(0, 0, 0), &m, &p.ipiv(0, 0), &info);
          },
          Batch::one);
#endif
    register_batched(
        "exgesv_single", n,
        [](Problem<double>& p) {
          ExKokkos::exgesv(Space(), Kokkos::subview(p.work, 0, Kokkos::ALL(), Kokkos::ALL()),
                           Kokkos::subview(p.ipiv, 0, Kokkos::ALL()),
                           Kokkos::subview(p.b, 0, Kokkos::ALL()));
        },
        Batch::one);
#if defined(EXKOKKOS_PERF_HAVE_CBLAS)
    if (ExKokkos::Impl::is_host_space<Space>())
      register_batched(
          "dgesv_single", n,
          [](Problem<double>& p) {
            const int m = static_cast<int>(p.work.extent(1)), one = 1;
            int info = 0;
            dgesv_(&m, &one, &p.work(0, 0, 0), &m, &p.ipiv(0, 0), &p.b(0, 0), &m, &info);
          },
          Batch::one);
#endif
  }
  // Complex<double> matrices: batched beside LAPACK's loops on complex values, single
  // matrices beside OpenBLAS' zgetrf and zgesv.
  using CP = Problem<Complex>;
  for (int n : {8, 16, 32, 64}) {
    register_batched<Complex>("exgetf2_complex", n, [](CP& p) {
      ExKokkos::exgetf2_batched(Space(), p.work, p.ipiv, p.info);
    });
    register_batched<Complex>("plain_getf2_complex", n, [](CP& p) {
      Kokkos::parallel_for("plain_getf2",
                           Kokkos::RangePolicy<Space>(Space(), 0, int(p.work.extent(0))),
                           PlainComplexBatchedGetf2{p.work, p.ipiv});
    });
    register_batched<Complex>("exgesv_complex", n, [](CP& p) {
      ExKokkos::exgesv_batched(Space(), p.work, p.ipiv, p.b, p.info, Kokkos::View<int*, Mem>());
    });
    register_batched<Complex>("plain_gesv_complex", n, [](CP& p) {
      Kokkos::parallel_for("plain_gesv",
                           Kokkos::RangePolicy<Space>(Space(), 0, int(p.work.extent(0))),
                           PlainComplexBatchedGesv{p.work, p.ipiv, p.b});
    });
  }
  for (int n : {64, 256, 512}) {
    register_batched<Complex>(
        "exgetf2_complex_single", n,
        [](CP& p) {
          ExKokkos::exgetf2(Space(), Kokkos::subview(p.work, 0, Kokkos::ALL(), Kokkos::ALL()),
                            Kokkos::subview(p.ipiv, 0, Kokkos::ALL()));
        },
        Batch::one);
    register_batched<Complex>(
        "exgesv_complex_single", n,
        [](CP& p) {
          ExKokkos::exgesv(Space(), Kokkos::subview(p.work, 0, Kokkos::ALL(), Kokkos::ALL()),
                           Kokkos::subview(p.ipiv, 0, Kokkos::ALL()),
                           Kokkos::subview(p.b, 0, Kokkos::ALL()));
        },
        Batch::one);
#if defined(EXKOKKOS_PERF_HAVE_CBLAS)
    if (ExKokkos::Impl::is_host_space<Space>()) {
      register_batched<Complex>(
          "zgetrf_single", n,
          [](CP& p) {
            const int m = static_cast<int>(p.work.extent(1));
            int info = 0;
            zgetrf_(&m, &m, &p.work(0, 0, 0), &m, &p.ipiv(0, 0), &info);
          },
          Batch::one);
      register_batched<Complex>(
          "zgesv_single", n,
          [](CP& p) {
            const int m = static_cast<int>(p.work.extent(1)), one = 1;
            int info = 0;
            zgesv_(&m, &one, &p.work(0, 0, 0), &m, &p.ipiv(0, 0), &p.b(0, 0), &m, &info);
          },
          Batch::one);
    }
#endif
  }
  const std::vector<std::pair<std::string, std::string>> pairs = {
      {"exgetf2", "plain_getf2"},
      {"exgetf2_lanes", "plain_getf2"},
      {"exgetf2_single", "dgetrf_single"},
      {"exgetrf_single", "dgetrf_single"},
      {"exgetf2_single_lanes", "dgetrf_single"},
      {"exgesv", "plain_gesv"},
      {"exgetrs", "plain_getrs"},
      {"exgesv_single", "dgesv_single"},
      {"exgetf2_complex", "plain_getf2_complex"},
      {"exgesv_complex", "plain_gesv_complex"},
      {"exgetf2_complex_single", "zgetrf_single"},
      {"exgesv_complex_single", "zgesv_single"}};
  ExKokkosPerf::RatioReporter reporter(pairs);
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}
