// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// CUDA benchmarks, level 2 (run as bench_cuda_level1):
//   exgemv "N" and "T"              4096^2, 16384^2,   cublasDgemv
//                                   65536 x 4096 (tall), 4096 x 65536 (wide)
//   extrsv lower, "N", non-unit     4096, 16384        cublasDtrsv
#include <ExKokkos_Gemv.hpp>
#include <ExKokkos_Trsv.hpp>

#include "ExKokkosPerf_Cuda.hpp"

#include <Kokkos_Random.hpp>

#include <cstdint>
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

}  // namespace

int main(int argc, char** argv) {
  return run_cuda_benchmarks(
      argc, argv,
      [] {
        for (int n : {4096, 16384}) register_level2(n);
        register_gemv_shape(65536, 4096, "tall");
        register_gemv_shape(4096, 65536, "wide");
        return Pairs{{"exgemv_N", "cublasDgemv_N"},
                     {"exgemv_T", "cublasDgemv_T"},
                     {"extrsv_LN", "cublasDtrsv_LN"},
                     {"extrsv_LN_team128", "cublasDtrsv_LN"},
                     {"extrsv_LN_team_exact", "cublasDtrsv_LN"}};
      },
      [] { kept_inputs<Level2Inputs>().clear(); });
}
