// CUDA benchmarks: ExKokkos beside cuBLAS in the same process, on the same device views and the
// same stream (built only when Kokkos has CUDA). Every measurement is fenced: the timer stops after
// the stream has drained, and in-place routines (trsv, getrf) get their input restored outside the
// timed region. Run with --benchmark_repetitions=20 --benchmark_min_time=0.05 (say): the ratio
// table at the end then uses the median of the repetitions.
//
//   exdot, exsum, exasum, exnrm2    n = 2^24, 2^27     cublasDdot, Dasum, Dnrm2, Kokkos reduce
//   exdot, lognormal and full range n = 2^27           cublasDdot
//   exgemv "N" and "T"              4096^2, 16384^2,   cublasDgemv
//                                   65536 x 4096 (tall), 4096 x 65536 (wide)
//   exgemm "N" "N"                  1024^3, 4096^3     cublasDgemm
//   extrsv lower, "N", non-unit     4096, 16384        cublasDtrsv
//   exgetf2_batched                 n = 8 .. 128       cublasDgetrfBatched (2^26 entries a batch)
#include <ExKokkos.hpp>

#include "ExKokkosPerf_RatioReporter.hpp"

#include <Kokkos_Random.hpp>
#include <benchmark/benchmark.h>
#include <cublas_v2.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

namespace {

using Space = Kokkos::Cuda;
using Mem = Space::memory_space;
using Vector = Kokkos::View<double*, Mem>;
using Matrix = Kokkos::View<double**, Kokkos::LayoutLeft, Mem>;   // column-major, as cuBLAS
using Batch = Kokkos::View<double***, Kokkos::LayoutRight, Mem>;  // matrix after matrix

void check(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "%s failed with cuBLAS status %d\n", what, static_cast<int>(s));
    std::abort();
  }
}

// One cuBLAS handle on the Kokkos stream, so that both libraries queue on the same stream.
cublasHandle_t& handle() {
  static cublasHandle_t h = nullptr;
  return h;
}

// Uniform [-1, 1) data: the common case; the exact kernels' costlier paths are exercised by the
// host benchmarks' wide-range data.
void fill(const Vector& v, unsigned seed) {
  Kokkos::Random_XorShift64_Pool<Space> pool(seed);
  Kokkos::fill_random(v, pool, -1.0, 1.0);
}

// Registers a benchmark timed by hand: setup() (untimed) then body(), each followed by a fence.
// The counter is `bytes` per run as a rate (GB/s), or flops for exgemm (GFLOP/s).
void register_timed(const std::string& name, std::function<void()> setup,
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

void nothing() {}

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
std::vector<Level1Inputs>& level1() {
  static std::vector<Level1Inputs> v;
  return v;
}

void register_level1(int log2n) {
  const std::size_t n = std::size_t(1) << log2n;
  Level1Inputs in{Vector(Kokkos::view_alloc(Kokkos::WithoutInitializing, "x"), n),
                  Vector(Kokkos::view_alloc(Kokkos::WithoutInitializing, "y"), n),
                  Kokkos::View<double, Mem>("r")};
  fill(in.x, 1);
  fill(in.y, 2);
  level1().push_back(in);
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
  level1().push_back(in);
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

struct Level2Inputs {
  Matrix A, L;  // a square matrix for gemv, a lower triangle for trsv
  Vector x, y, b0, b;
};
std::vector<Level2Inputs>& level2() {
  static std::vector<Level2Inputs> v;
  return v;
}

// A lower triangle with a dominant diagonal: the solution stays of moderate size.
struct MakeTriangular {
  Matrix A;
  KOKKOS_INLINE_FUNCTION void operator()(const int j) const {
    const int n = static_cast<int>(A.extent(0));
    for (int i = 0; i < n; ++i) {
      if (i < j) A(i, j) = 0.0;
      if (i == j) A(i, j) = 2.0 + A(i, j);
      if (i > j) A(i, j) = A(i, j) / n;
    }
  }
};

// exgemv on a tall (m x k, m > k) or wide matrix beside cublasDgemv, "N" and "T".
void register_gemv_shape(int m, int k, const std::string& shape) {
  Level2Inputs in{Matrix(Kokkos::view_alloc(Kokkos::WithoutInitializing, "A"), m, k),
                  Matrix(),
                  Vector(Kokkos::view_alloc(Kokkos::WithoutInitializing, "x"), std::max(m, k)),
                  Vector(Kokkos::view_alloc(Kokkos::WithoutInitializing, "y"), std::max(m, k)),
                  Vector(),
                  Vector()};
  Kokkos::Random_XorShift64_Pool<Space> pool(13);
  Kokkos::fill_random(in.A, pool, -1.0, 1.0);
  fill(in.x, 14);
  fill(in.y, 15);
  level2().push_back(in);
  const std::string suffix = "/uniform/" + shape + std::to_string(m) + "x" + std::to_string(k);
  const double alpha = 1.5, beta = 0.5;
  for (const char* t : {"N", "T"}) {
    const std::string trans = t;
    const bool tr = trans == "T";
    const cublasOperation_t op = tr ? CUBLAS_OP_T : CUBLAS_OP_N;
    const auto x = Kokkos::subview(in.x, std::make_pair(0, tr ? m : k));
    const auto y = Kokkos::subview(in.y, std::make_pair(0, tr ? k : m));
    register_timed(
        "exgemv_" + trans + suffix, nothing,
        [in, x, y, trans, alpha, beta] {
          ExKokkos::exgemv(Space(), trans.c_str(), alpha, in.A, x, beta, y);
        },
        8.0 * m * k);
    register_timed(
        "cublasDgemv_" + trans + suffix, nothing,
        [in, op, m, k, alpha, beta] {
          check(cublasSetPointerMode(handle(), CUBLAS_POINTER_MODE_HOST), "pointer mode");
          check(cublasDgemv(handle(), op, m, k, &alpha, in.A.data(), m, in.x.data(), 1, &beta,
                            in.y.data(), 1),
                "dgemv");
        },
        8.0 * m * k);
  }
}

// exgemm "N" "N" on n x n matrices beside cublasDgemm.
struct GemmInputs {
  Matrix A, B, C;
};
std::vector<GemmInputs>& gemm() {
  static std::vector<GemmInputs> v;
  return v;
}

void register_gemm(int n) {
  GemmInputs in{Matrix(Kokkos::view_alloc(Kokkos::WithoutInitializing, "A"), n, n),
                Matrix(Kokkos::view_alloc(Kokkos::WithoutInitializing, "B"), n, n),
                Matrix(Kokkos::view_alloc(Kokkos::WithoutInitializing, "C"), n, n)};
  Kokkos::Random_XorShift64_Pool<Space> pool(17);
  Kokkos::fill_random(in.A, pool, -1.0, 1.0);
  Kokkos::fill_random(in.B, pool, -1.0, 1.0);
  Kokkos::fill_random(in.C, pool, -1.0, 1.0);
  gemm().push_back(in);
  const std::string suffix = "/uniform/" + std::to_string(n);
  const double alpha = 1.5, beta = 0.5, flops = 2.0 * n * n * n;
  register_timed(
      "exgemm_NN" + suffix, nothing,
      [in, alpha, beta] { ExKokkos::exgemm(Space(), "N", "N", alpha, in.A, in.B, beta, in.C); },
      flops, "FLOP/s");
  register_timed(
      "cublasDgemm_NN" + suffix, nothing,
      [in, n, alpha, beta] {
        check(cublasSetPointerMode(handle(), CUBLAS_POINTER_MODE_HOST), "pointer mode");
        check(cublasDgemm(handle(), CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, in.A.data(), n,
                          in.B.data(), n, &beta, in.C.data(), n),
              "dgemm");
      },
      flops, "FLOP/s");
}

void register_level2(int n) {
  Level2Inputs in{Matrix(Kokkos::view_alloc(Kokkos::WithoutInitializing, "A"), n, n),
                  Matrix(Kokkos::view_alloc(Kokkos::WithoutInitializing, "L"), n, n),
                  Vector(Kokkos::view_alloc(Kokkos::WithoutInitializing, "x"), n),
                  Vector(Kokkos::view_alloc(Kokkos::WithoutInitializing, "y"), n),
                  Vector(Kokkos::view_alloc(Kokkos::WithoutInitializing, "b0"), n),
                  Vector(Kokkos::view_alloc(Kokkos::WithoutInitializing, "b"), n)};
  Kokkos::Random_XorShift64_Pool<Space> pool(3);
  Kokkos::fill_random(in.A, pool, -1.0, 1.0);
  fill(in.x, 4);
  fill(in.y, 5);
  fill(in.b0, 6);
  Kokkos::deep_copy(in.L, in.A);
  Kokkos::parallel_for("make_triangular", Kokkos::RangePolicy<Space>(0, n), MakeTriangular{in.L});
  level2().push_back(in);
  const std::string suffix = "/uniform/" + std::to_string(n);
  const double matrix_bytes = 8.0 * n * n;
  const double alpha = 1.5, beta = 0.5;
  for (const char* t : {"N", "T"}) {
    const std::string trans = t;
    const cublasOperation_t op = trans == "N" ? CUBLAS_OP_N : CUBLAS_OP_T;
    register_timed(
        "exgemv_" + trans + suffix, nothing,
        [in, trans, alpha, beta] {
          ExKokkos::exgemv(Space(), trans.c_str(), alpha, in.A, in.x, beta, in.y);
        },
        matrix_bytes);
    register_timed(
        "cublasDgemv_" + trans + suffix, nothing,
        [in, op, n, alpha, beta] {
          check(cublasSetPointerMode(handle(), CUBLAS_POINTER_MODE_HOST), "pointer mode");
          check(cublasDgemv(handle(), op, n, n, &alpha, in.A.data(), n, in.x.data(), 1, &beta,
                            in.y.data(), 1),
                "dgemv");
        },
        matrix_bytes);
  }
  // The triangular solves overwrite b: it is restored from b0 before each (untimed) run.
  const auto restore = [in] { Kokkos::deep_copy(Space(), in.b, in.b0); };
  register_timed(
      "extrsv_LN" + suffix, restore, [in] { ExKokkos::extrsv(Space(), "L", "N", "N", in.L, in.b); },
      matrix_bytes / 2);
  register_timed(
      "cublasDtrsv_LN" + suffix, restore,
      [in, n] {
        check(cublasDtrsv(handle(), CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, n,
                          in.L.data(), n, in.b.data(), 1),
              "dtrsv");
      },
      matrix_bytes / 2);
}

struct LuInputs {
  Batch A0, A;
  Kokkos::View<int**, Mem> ipiv;
  Kokkos::View<int*, Mem> info;
  Kokkos::View<std::uintptr_t*, Mem> pointers;  // cuBLAS' array of matrix pointers
};
std::vector<LuInputs>& lu() {
  static std::vector<LuInputs> v;
  return v;
}

// Diagonally dominant random matrices: every pivot is well away from zero.
struct MakeDominant {
  Batch A;
  KOKKOS_INLINE_FUNCTION void operator()(const int b) const {
    const int n = static_cast<int>(A.extent(1));
    for (int i = 0; i < n; ++i) A(b, i, i) += 2.0 * n;
  }
};

void register_lu(int n) {
  const int batch = static_cast<int>((std::size_t(1) << 26) / (std::size_t(n) * n));
  LuInputs in;
  in.A0 = Batch(Kokkos::view_alloc(Kokkos::WithoutInitializing, "A0"), batch, n, n);
  in.A = Batch(Kokkos::view_alloc(Kokkos::WithoutInitializing, "A"), batch, n, n);
  in.ipiv = Kokkos::View<int**, Mem>("ipiv", batch, n);
  in.info = Kokkos::View<int*, Mem>("info", batch);
  Kokkos::Random_XorShift64_Pool<Space> pool(7);
  Kokkos::fill_random(in.A0, pool, -1.0, 1.0);
  Kokkos::parallel_for("make_dominant", Kokkos::RangePolicy<Space>(0, batch), MakeDominant{in.A0});
  // cublasDgetrfBatched takes a device array of pointers to the matrices (each column-major with
  // lda = n: the transposes of ours, which costs the same to factor).
  in.pointers = Kokkos::View<std::uintptr_t*, Mem>("pointers", batch);
  {
    const Batch A = in.A;
    const Kokkos::View<std::uintptr_t*, Mem> p = in.pointers;
    Kokkos::parallel_for(
        "pointers", Kokkos::RangePolicy<Space>(0, batch),
        KOKKOS_LAMBDA(const int b) { p(b) = reinterpret_cast<std::uintptr_t>(&A(b, 0, 0)); });
  }
  lu().push_back(in);
  const std::string suffix = "/uniform/" + std::to_string(n) + "x" + std::to_string(batch);
  const double bytes = 2.0 * 8.0 * n * n * batch;
  const auto restore = [in] { Kokkos::deep_copy(Space(), in.A, in.A0); };
  register_timed(
      "exgetf2_batched" + suffix, restore,
      [in] { ExKokkos::exgetf2_batched(Space(), in.A, in.ipiv, in.info); }, bytes);
  for (int team : {8, 32}) {
    if (team > n) continue;
    ExKokkos::Options o;
    o.team_size = team;
    register_timed(
        "exgetf2_batched_team" + std::to_string(team) + suffix, restore,
        [in, o] { ExKokkos::exgetf2_batched(Space(), in.A, in.ipiv, in.info, o); }, bytes);
  }
  register_timed(
      "cublasDgetrfBatched" + suffix, restore,
      [in, n, batch] {
        check(cublasDgetrfBatched(handle(), n, reinterpret_cast<double* const*>(in.pointers.data()),
                                  n, in.ipiv.data(), in.info.data(), batch),
              "dgetrfBatched");
      },
      bytes);
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  benchmark::Initialize(&argc, argv);
  check(cublasCreate(&handle()), "cublasCreate");
  check(cublasSetStream(handle(), Space().cuda_stream()), "cublasSetStream");
  for (int log2n : {24, 27}) register_level1(log2n);
  register_level1_wide(27, false);
  register_level1_wide(27, true);
  for (int n : {4096, 16384}) register_level2(n);
  register_gemv_shape(65536, 4096, "tall");
  register_gemv_shape(4096, 65536, "wide");
  for (int n : {1024, 4096}) register_gemm(n);
  for (int n : {8, 16, 32, 64, 128}) register_lu(n);
  Kokkos::fence();

  ExKokkosPerf::RatioReporter reporter({{"exdot", "cublasDdot"},
                                        {"exdot", "parallel_reduce_dot"},
                                        {"exsum", "cublasDdot"},
                                        {"exsum", "cublasDasum"},
                                        {"exsum", "parallel_reduce_sum"},
                                        {"exasum", "cublasDasum"},
                                        {"exnrm2", "cublasDnrm2"},
                                        {"exgemv_N", "cublasDgemv_N"},
                                        {"exgemv_T", "cublasDgemv_T"},
                                        {"extrsv_LN", "cublasDtrsv_LN"},
                                        {"exgemm_NN", "cublasDgemm_NN"},
                                        {"exgetf2_batched", "cublasDgetrfBatched"},
                                        {"exgetf2_batched_team8", "cublasDgetrfBatched"},
                                        {"exgetf2_batched_team32", "cublasDgetrfBatched"}});
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  // The registered lambdas hold views: release them before Kokkos::finalize.
  benchmark::ClearRegisteredBenchmarks();
  cublasDestroy(handle());
  level1().clear();
  level2().clear();
  gemm().clear();
  lu().clear();
  return 0;
}
