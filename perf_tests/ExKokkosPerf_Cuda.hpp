// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The shared parts of the CUDA benchmarks (bench_cuda_*.cpp): ExKokkos beside cuBLAS in the same
// process, on the same device views and the same stream. Every measurement is fenced: the timer
// stops after the stream has drained, and in-place routines (trsv, getrf) get their input restored
// outside the timed region. One executable per routine family, so that each compiles on its own
// (nvcc's device front end takes tens of minutes for all of them in one file).
#ifndef EXKOKKOSPERF_CUDA_HPP
#define EXKOKKOSPERF_CUDA_HPP

#include "ExKokkosPerf_RatioReporter.hpp"

#include <Kokkos_Core.hpp>
#include <Kokkos_Random.hpp>
#include <benchmark/benchmark.h>
#include <cublas_v2.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace ExKokkosPerf {

using Space = Kokkos::Cuda;
using Mem = Space::memory_space;
using Vector = Kokkos::View<double*, Mem>;
using Matrix = Kokkos::View<double**, Kokkos::LayoutLeft, Mem>;   // column-major, as cuBLAS
using Batch = Kokkos::View<double***, Kokkos::LayoutRight, Mem>;  // matrix after matrix

inline void check(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "%s failed with cuBLAS status %d\n", what, static_cast<int>(s));
    std::abort();
  }
}

// One cuBLAS handle on the Kokkos stream, so that both libraries queue on the same stream.
inline cublasHandle_t& handle() {
  static cublasHandle_t h = nullptr;
  return h;
}

// Uniform [-1, 1) data: the common case; the exact kernels' costlier paths are exercised by the
// host benchmarks' wide-range data.
inline void fill(const Vector& v, unsigned seed) {
  Kokkos::Random_XorShift64_Pool<Space> pool(seed);
  Kokkos::fill_random(v, pool, -1.0, 1.0);
}

// Registers a benchmark timed by hand: setup() (untimed) then body(), each followed by a fence.
// The counter is `bytes` per run as a rate (GB/s), or flops for exgemm (GFLOP/s).
inline void register_timed(const std::string& name, std::function<void()> setup,
                           std::function<void()> body, double bytes, const char* counter = "GB/s") {
  benchmark::RegisterBenchmark(
      name.c_str(),
      [=](benchmark::State& state) {
        for (auto _ : state) {
          setup();
          Kokkos::fence();
          const auto t0 = std::chrono::steady_clock::now();
          body();
          Kokkos::fence();
          const auto t1 = std::chrono::steady_clock::now();
          state.SetIterationTime(std::chrono::duration<double>(t1 - t0).count());
        }
        state.counters[counter] =
            benchmark::Counter(bytes, benchmark::Counter::kIsIterationInvariantRate);
      })
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond);
}

inline void nothing() {}

// The inputs of one kind that the registered benchmarks use, kept for the whole run; release()
// clears them before Kokkos::finalize.
template <class Inputs>
std::vector<Inputs>& kept_inputs() {
  static std::vector<Inputs> v;
  return v;
}

// Runs the benchmarks that register_all() registers, with a ratio table at the end of the pairs
// {exact routine, baseline} that it returns, on one cuBLAS handle bound to the Kokkos stream;
// release() then drops the views that the inputs hold, before Kokkos::finalize.
using Pairs = std::vector<std::pair<std::string, std::string>>;
inline int run_cuda_benchmarks(int argc, char** argv, const std::function<Pairs()>& register_all,
                               const std::function<void()>& release) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  benchmark::Initialize(&argc, argv);
  check(cublasCreate(&handle()), "cublasCreate");
  check(cublasSetStream(handle(), Space().cuda_stream()), "cublasSetStream");
  const Pairs pairs = register_all();
  Kokkos::fence();
  RatioReporter reporter(pairs);
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  // The registered lambdas hold views: release them before Kokkos::finalize.
  benchmark::ClearRegisteredBenchmarks();
  cublasDestroy(handle());
  release();
  return 0;
}

}  // namespace ExKokkosPerf

#endif  // EXKOKKOSPERF_CUDA_HPP
