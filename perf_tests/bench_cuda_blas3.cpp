// CUDA benchmarks, level 3 (run as bench_cuda_level1):
//   exgemm "N" "N"                  1024^3, 4096^3     cublasDgemm
#include <ExKokkos_Gemm.hpp>

#include "ExKokkosPerf_Cuda.hpp"

#include <Kokkos_Random.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace {

using namespace ExKokkosPerf;

// exgemm "N" "N" on n x n matrices beside cublasDgemm.
struct GemmInputs {
  Matrix A, B, C;
};

void register_gemm(int n) {
  GemmInputs in{Matrix(Kokkos::view_alloc(Kokkos::WithoutInitializing, "A"), n, n),
                Matrix(Kokkos::view_alloc(Kokkos::WithoutInitializing, "B"), n, n),
                Matrix(Kokkos::view_alloc(Kokkos::WithoutInitializing, "C"), n, n)};
  Kokkos::Random_XorShift64_Pool<Space> pool(17);
  Kokkos::fill_random(in.A, pool, -1.0, 1.0);
  Kokkos::fill_random(in.B, pool, -1.0, 1.0);
  Kokkos::fill_random(in.C, pool, -1.0, 1.0);
  kept_inputs<GemmInputs>().push_back(in);
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

}  // namespace

int main(int argc, char** argv) {
  return run_cuda_benchmarks(
      argc, argv,
      [] {
        for (int n : {1024, 4096}) register_gemm(n);
        return Pairs{{"exgemm_NN", "cublasDgemm_NN"}};
      },
      [] { kept_inputs<GemmInputs>().clear(); });
}
