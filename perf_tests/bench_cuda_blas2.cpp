// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// CUDA benchmarks, level 2 (run as bench_cuda_level1):
//   exgemv "N" and "T"              4096^2, 16384^2,   cublasDgemv
//                                   65536 x 4096 (tall), 4096 x 65536 (wide)
//   extrsv lower, "N", non-unit     4096, 16384        cublasDtrsv
//   exgemv_complex "N", "T", "C"    4096^2, 8192^2     cublasZgemv (complex<double>)
//   exgemv_complex_float            4096^2, 8192^2     cublasCgemv (complex<float>)
// The complex rows: alpha 1.5 - 0.5i, beta 0.5 + 2i (the host benchmarks' bench_blas2), y
// restored before each run; both parts of every entry uniform in [-1, 1). Each pair's largest
// difference is printed before the runs.
#include <ExKokkos_Gemv.hpp>
#include <ExKokkos_Trsv.hpp>

#include "ExKokkosPerf_Cuda.hpp"

#include <Kokkos_Random.hpp>

#include <cuComplex.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace {

using namespace ExKokkosPerf;

struct Level2Inputs {
  Matrix A, L;  // a square matrix for gemv, a lower triangle for trsv
  Vector x, y, b0, b;
};

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
  kept_inputs<Level2Inputs>().push_back(in);
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
  kept_inputs<Level2Inputs>().push_back(in);
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
  // extrsv's other settings: teams of 128 threads for the certified rows (blocks of 512 rows
  // instead of 1024), and the exact team solve of each row (at 4096 only: at 16384 it would
  // dominate the run).
  {
    ExKokkos::Options o;
    o.team_size = 128;
    register_timed(
        "extrsv_LN_team128" + suffix, restore,
        [in, o] { ExKokkos::extrsv(Space(), "L", "N", "N", in.L, in.b, o); }, matrix_bytes / 2);
  }
  if (n <= 4096) {
    ExKokkos::Options o;
    o.schedule = ExKokkos::Schedule::team_per_output;
    register_timed(
        "extrsv_LN_team_exact" + suffix, restore,
        [in, o] { ExKokkos::extrsv(Space(), "L", "N", "N", in.L, in.b, o); }, matrix_bytes / 2);
  }
  register_timed(
      "cublasDtrsv_LN" + suffix, restore,
      [in, n] {
        check(cublasDtrsv(handle(), CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, n,
                          in.L.data(), n, in.b.data(), 1),
              "dtrsv");
      },
      matrix_bytes / 2);
}

// Complex exgemv beside cublasZgemv / cublasCgemv, LayoutLeft A (cuBLAS' column-major, lda = n),
// "C" as CUBLAS_OP_C (A^H x). beta's modulus exceeds 1, so y is restored from y0 before each
// (untimed) run.
template <class Real>
struct ComplexGemvInputs {
  using Values = Kokkos::View<Kokkos::complex<Real>*, Mem>;
  Kokkos::View<Kokkos::complex<Real>**, Kokkos::LayoutLeft, Mem> A;
  Values x, y, y0, y1;
};

// cuBLAS' complex types, and its gemv, for each part type.
template <class Real>
struct Cublas;
template <>
struct Cublas<double> {
  using C = cuDoubleComplex;
  static constexpr const char* gemv_name = "cublasZgemv";
  template <class... Args>
  static cublasStatus_t gemv(Args... args) {
    return cublasZgemv(args...);
  }
};
template <>
struct Cublas<float> {
  using C = cuComplex;
  static constexpr const char* gemv_name = "cublasCgemv";
  template <class... Args>
  static cublasStatus_t gemv(Args... args) {
    return cublasCgemv(args...);
  }
};

template <class Real>
void register_gemv_complex(int n, const std::string& routine) {
  using In = ComplexGemvInputs<Real>;
  using Z = Kokkos::complex<Real>;
  using CZ = typename Cublas<Real>::C;
  In in{decltype(In::A)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "A"), n, n),
        typename In::Values(Kokkos::view_alloc(Kokkos::WithoutInitializing, "x"), n),
        typename In::Values(Kokkos::view_alloc(Kokkos::WithoutInitializing, "y"), n),
        typename In::Values(Kokkos::view_alloc(Kokkos::WithoutInitializing, "y0"), n),
        typename In::Values(Kokkos::view_alloc(Kokkos::WithoutInitializing, "y1"), n)};
  Kokkos::Random_XorShift64_Pool<Space> pool(33);
  Kokkos::fill_random(in.A, pool, Z(-1, -1), Z(1, 1));
  Kokkos::fill_random(in.x, pool, Z(-1, -1), Z(1, 1));
  Kokkos::fill_random(in.y0, pool, Z(-1, -1), Z(1, 1));
  kept_inputs<In>().push_back(in);
  const std::string suffix = "/uniform/" + std::to_string(n);
  const Z alpha(1.5, -0.5), beta(0.5, 2.0);
  const CZ calpha{Real(1.5), Real(-0.5)}, cbeta{Real(0.5), Real(2.0)};
  const auto* A = reinterpret_cast<const CZ*>(in.A.data());
  const auto* x = reinterpret_cast<const CZ*>(in.x.data());
  auto* y = reinterpret_cast<CZ*>(in.y.data());
  const double matrix_bytes = double(sizeof(Z)) * n * n;
  const auto restore = [in] { Kokkos::deep_copy(Space(), in.y, in.y0); };
  for (const char* t : {"N", "T", "C"}) {
    const std::string trans = t;
    const cublasOperation_t op =
        trans == "N" ? CUBLAS_OP_N : (trans == "T" ? CUBLAS_OP_T : CUBLAS_OP_C);
    const auto ex = [in, trans, alpha, beta] {
      ExKokkos::exgemv(Space(), trans.c_str(), alpha, in.A, in.x, beta, in.y);
    };
    const auto cu = [op, n, calpha, cbeta, A, x, y] {
      check(cublasSetPointerMode(handle(), CUBLAS_POINTER_MODE_HOST), "pointer mode");
      check(Cublas<Real>::gemv(handle(), op, n, n, &calpha, A, n, x, 1, &cbeta, y, 1), "gemv");
    };
    // The same operation on both sides: the largest difference of the two results.
    restore();
    ex();
    Kokkos::deep_copy(Space(), in.y1, in.y);
    restore();
    cu();
    double diff = 0, size = 0;
    const typename In::Values cublas_y = in.y, exact_y = in.y1;
    Kokkos::parallel_reduce(
        "difference", Kokkos::RangePolicy<Space>(0, n),
        KOKKOS_LAMBDA(const int i, double& d) {
          d = Kokkos::fmax(d, double(Kokkos::abs(cublas_y(i) - exact_y(i))));
        },
        Kokkos::Max<double>(diff));
    Kokkos::parallel_reduce(
        "size", Kokkos::RangePolicy<Space>(0, n),
        KOKKOS_LAMBDA(const int i, double& d) {
          d = Kokkos::fmax(d, double(Kokkos::abs(exact_y(i))));
        },
        Kokkos::Max<double>(size));
    std::printf("%s_%s%s: largest |exgemv - %s| %.3g, largest |y| %.3g\n", routine.c_str(), t,
                suffix.c_str(), Cublas<Real>::gemv_name, diff, size);
    register_timed(routine + "_" + trans + suffix, restore, ex, matrix_bytes);
    register_timed(std::string(Cublas<Real>::gemv_name) + "_" + trans + suffix, restore, cu,
                   matrix_bytes);
  }
}

}  // namespace

int main(int argc, char** argv) {
  return run_cuda_benchmarks(
      argc, argv,
      [] {
        for (int n : {4096, 16384}) register_level2(n);
        register_gemv_shape(65536, 4096, "tall");
        register_gemv_shape(4096, 65536, "wide");
        for (int n : {4096, 8192}) {
          register_gemv_complex<double>(n, "exgemv_complex");
          register_gemv_complex<float>(n, "exgemv_complex_float");
        }
        return Pairs{{"exgemv_N", "cublasDgemv_N"},
                     {"exgemv_T", "cublasDgemv_T"},
                     {"extrsv_LN", "cublasDtrsv_LN"},
                     {"extrsv_LN_team128", "cublasDtrsv_LN"},
                     {"extrsv_LN_team_exact", "cublasDtrsv_LN"},
                     {"exgemv_complex_N", "cublasZgemv_N"},
                     {"exgemv_complex_T", "cublasZgemv_T"},
                     {"exgemv_complex_C", "cublasZgemv_C"},
                     {"exgemv_complex_float_N", "cublasCgemv_N"},
                     {"exgemv_complex_float_T", "cublasCgemv_T"},
                     {"exgemv_complex_float_C", "cublasCgemv_C"}};
      },
      [] {
        kept_inputs<Level2Inputs>().clear();
        kept_inputs<ComplexGemvInputs<double>>().clear();
        kept_inputs<ComplexGemvInputs<float>>().clear();
      });
}
