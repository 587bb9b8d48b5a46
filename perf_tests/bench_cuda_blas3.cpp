// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// CUDA benchmarks, level 3 (run as bench_cuda_blas3):
//   exgemm "N" "N" (automatic: the Ozaki path with cuBLAS slices where it pays: int8 slices
//   where the data allow them)      1024^3, 4096^3, 8192^3, uniform and normal data  cublasDgemm
//   exgemm_ozaki_fp64 "N" "N"       the same with double slices (cublasDgemm on them)
//   exgemm_ozaki_int8_P256MiB       4096^3 uniform: int8 slices, P in blocks of 256 MiB
//   exgemm_tiles "N" "N"            1024^3 (the exact dot-product schedule)
//   exgemm_ozaki_internal "N" "N"   1024^3 (double slices, the plain Kokkos slice GEMM)
//   exgemm_complex "N" "N", "C" "N" 1024^3, 2048^3            cublasZgemm
//   (complex<double>, column by column through complex exgemv; alpha 1.5 - 0.5i, beta 0.5 + 2i
//   as the host benchmarks' bench_blas3, C restored before each run, both parts uniform in
//   [-1, 1); not 4096^3, where one call takes seconds)
// The Ozaki plans (slices per operand) of each input, and the largest difference of each complex
// pair's results, are printed before the runs.
#include <ExKokkos_Gemm.hpp>

#include "ExKokkosPerf_Cuda.hpp"

#include <Kokkos_Random.hpp>

#include <cuComplex.h>

#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace ExKokkosPerf;

struct GemmInputs {
  Matrix A, B, C;
};

// Normal N(0, 1) data, drawn on the host (the slices of normal data reach further down than
// those of uniform data: 4 instead of 3 at k = 4096).
void fill_normal(const Matrix& M, unsigned seed) {
  auto h = Kokkos::create_mirror_view(M);
  std::mt19937_64 gen(seed);
  std::normal_distribution<double> dist(0.0, 1.0);
  for (std::size_t j = 0; j < h.extent(1); ++j)
    for (std::size_t i = 0; i < h.extent(0); ++i) h(i, j) = dist(gen);
  Kokkos::deep_copy(M, h);
}

// exgemm "N" "N" on n x n matrices beside cublasDgemm.
void register_gemm(int n, bool normal, bool variants) {
  GemmInputs in{Matrix(Kokkos::view_alloc(Kokkos::WithoutInitializing, "A"), n, n),
                Matrix(Kokkos::view_alloc(Kokkos::WithoutInitializing, "B"), n, n),
                Matrix(Kokkos::view_alloc(Kokkos::WithoutInitializing, "C"), n, n)};
  if (normal) {
    fill_normal(in.A, 17);
    fill_normal(in.B, 18);
    fill_normal(in.C, 19);
  } else {
    Kokkos::Random_XorShift64_Pool<Space> pool(17);
    Kokkos::fill_random(in.A, pool, -1.0, 1.0);
    Kokkos::fill_random(in.B, pool, -1.0, 1.0);
    Kokkos::fill_random(in.C, pool, -1.0, 1.0);
  }
  kept_inputs<GemmInputs>().push_back(in);
  const std::string suffix = std::string(normal ? "/normal/" : "/uniform/") + std::to_string(n);
  bool fp64_feasible = false;
  for (auto digits : {ExKokkos::SliceDigits::automatic, ExKokkos::SliceDigits::fp64}) {
    const auto plan = ExKokkos::exgemm_ozaki_plan(Space(), "N", "N", in.A, in.B, digits);
    if (digits == ExKokkos::SliceDigits::fp64) fp64_feasible = plan.feasible;
    std::printf("ozaki plan%s (%s): feasible %d, %s slices %d x %d of %d bits%s%s\n",
                suffix.c_str(), digits == ExKokkos::SliceDigits::fp64 ? "fp64" : "automatic",
                int(plan.feasible), plan.int8 ? "int8" : "double", plan.slices_a, plan.slices_b,
                plan.slice_bits, plan.feasible ? "" : ", ", plan.reason);
  }
  const double alpha = 1.5, beta = 0.5, flops = 2.0 * n * n * n;
  register_timed(
      "exgemm_NN" + suffix, nothing,
      [in, alpha, beta] { ExKokkos::exgemm(Space(), "N", "N", alpha, in.A, in.B, beta, in.C); },
      flops, "FLOP/s");
  // Double slices where they can run (at 8192^3 they would take more than the 2 GiB limit).
  if (fp64_feasible)
    register_timed(
        "exgemm_ozaki_fp64_NN" + suffix, nothing,
        [in, alpha, beta] {
          ExKokkos::Impl::exgemm_ozaki(Space(), "N", "N", alpha, in.A, in.B, beta, in.C,
                                       ExKokkos::Impl::SliceGemm::vendor, 0,
                                       ExKokkos::SliceDigits::fp64);
        },
        flops, "FLOP/s");
  // int8 slices with P's column blocks in 256 MiB instead of the default 1 GiB (4 blocks of 1024
  // columns at 4096^2 instead of 1): what the allocation of P and narrower GEMMs cost.
  if (n == 4096 && !normal)
    register_timed(
        "exgemm_ozaki_int8_P256MiB_NN" + suffix, nothing,
        [in, alpha, beta] {
          ExKokkos::Impl::exgemm_ozaki(Space(), "N", "N", alpha, in.A, in.B, beta, in.C,
                                       ExKokkos::Impl::SliceGemm::vendor, std::int64_t(1) << 28,
                                       ExKokkos::SliceDigits::int8);
        },
        flops, "FLOP/s");
  if (variants) {
    ExKokkos::Options tiles;
    tiles.schedule = ExKokkos::Schedule::tiles;
    register_timed(
        "exgemm_tiles_NN" + suffix, nothing,
        [in, alpha, beta, tiles] {
          ExKokkos::exgemm(Space(), "N", "N", alpha, in.A, in.B, beta, in.C, tiles);
        },
        flops, "FLOP/s");
    register_timed(
        "exgemm_ozaki_internal_NN" + suffix, nothing,
        [in, alpha, beta] {
          ExKokkos::Impl::exgemm_ozaki(Space(), "N", "N", alpha, in.A, in.B, beta, in.C,
                                       ExKokkos::Impl::SliceGemm::internal);
        },
        flops, "FLOP/s");
  }
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

// Complex exgemm beside cublasZgemm, LayoutLeft (cuBLAS' column-major, ld = n), op(A) = A ("N")
// or A^H ("C", CUBLAS_OP_C). beta's modulus exceeds 1, so C is restored from C0 before each
// (untimed) run. The counter counts 8 n^3 flops (a complex multiply-add is 8 real flops).
using ComplexMatrix = Kokkos::View<Kokkos::complex<double>**, Kokkos::LayoutLeft, Mem>;

struct ComplexGemmInputs {
  ComplexMatrix A, B, C, C0, C1;
};

void register_gemm_complex(int n) {
  using Z = Kokkos::complex<double>;
  const auto matrix = [n](const char* name) {
    return ComplexMatrix(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(name)), n, n);
  };
  ComplexGemmInputs in{matrix("A"), matrix("B"), matrix("C"), matrix("C0"), matrix("C1")};
  Kokkos::Random_XorShift64_Pool<Space> pool(37);
  for (const ComplexMatrix& M : {in.A, in.B, in.C0})
    Kokkos::fill_random(M, pool, Z(-1, -1), Z(1, 1));
  kept_inputs<ComplexGemmInputs>().push_back(in);
  const std::string suffix = "/uniform/" + std::to_string(n);
  const Z alpha(1.5, -0.5), beta(0.5, 2.0);
  const cuDoubleComplex calpha{1.5, -0.5}, cbeta{0.5, 2.0};
  const auto* A = reinterpret_cast<const cuDoubleComplex*>(in.A.data());
  const auto* B = reinterpret_cast<const cuDoubleComplex*>(in.B.data());
  auto* C = reinterpret_cast<cuDoubleComplex*>(in.C.data());
  const double flops = 8.0 * n * n * n;
  const auto restore = [in] { Kokkos::deep_copy(Space(), in.C, in.C0); };
  for (const char* t : {"N", "C"}) {
    const std::string trans = t;
    const cublasOperation_t op = trans == "N" ? CUBLAS_OP_N : CUBLAS_OP_C;
    const auto ex = [in, trans, alpha, beta] {
      ExKokkos::exgemm(Space(), trans.c_str(), "N", alpha, in.A, in.B, beta, in.C);
    };
    const auto cu = [op, n, calpha, cbeta, A, B, C] {
      check(cublasSetPointerMode(handle(), CUBLAS_POINTER_MODE_HOST), "pointer mode");
      check(cublasZgemm(handle(), op, CUBLAS_OP_N, n, n, n, &calpha, A, n, B, n, &cbeta, C, n),
            "zgemm");
    };
    // The same operation on both sides: the largest difference of the two results.
    restore();
    ex();
    Kokkos::deep_copy(Space(), in.C1, in.C);
    restore();
    cu();
    double diff = 0, size = 0;
    const ComplexMatrix cublas_c = in.C, exact_c = in.C1;
    Kokkos::parallel_reduce(
        "difference", Kokkos::MDRangePolicy<Space, Kokkos::Rank<2>>({0, 0}, {n, n}),
        KOKKOS_LAMBDA(const int i, const int j, double& d) {
          d = Kokkos::fmax(d, Kokkos::abs(cublas_c(i, j) - exact_c(i, j)));
        },
        Kokkos::Max<double>(diff));
    Kokkos::parallel_reduce(
        "size", Kokkos::MDRangePolicy<Space, Kokkos::Rank<2>>({0, 0}, {n, n}),
        KOKKOS_LAMBDA(const int i, const int j, double& d) {
          d = Kokkos::fmax(d, Kokkos::abs(exact_c(i, j)));
        },
        Kokkos::Max<double>(size));
    std::printf("exgemm_complex_%sN%s: largest |exgemm - cublasZgemm| %.3g, largest |c_ij| %.3g\n",
                t, suffix.c_str(), diff, size);
    register_timed("exgemm_complex_" + trans + "N" + suffix, restore, ex, flops, "FLOP/s");
    register_timed("cublasZgemm_" + trans + "N" + suffix, restore, cu, flops, "FLOP/s");
  }
}

}  // namespace

int main(int argc, char** argv) {
  return run_cuda_benchmarks(
      argc, argv,
      [] {
        register_gemm(1024, false, true);
        register_gemm(4096, false, false);
        register_gemm(4096, true, false);
        register_gemm(8192, false, false);
        for (int n : {1024, 2048}) register_gemm_complex(n);
        return Pairs{{"exgemm_NN", "cublasDgemm_NN"},
                     {"exgemm_ozaki_fp64_NN", "cublasDgemm_NN"},
                     {"exgemm_ozaki_int8_P256MiB_NN", "cublasDgemm_NN"},
                     {"exgemm_tiles_NN", "cublasDgemm_NN"},
                     {"exgemm_ozaki_internal_NN", "cublasDgemm_NN"},
                     {"exgemm_complex_NN", "cublasZgemm_NN"},
                     {"exgemm_complex_CN", "cublasZgemm_CN"}};
      },
      [] {
        kept_inputs<GemmInputs>().clear();
        kept_inputs<ComplexGemmInputs>().clear();
      });
}
