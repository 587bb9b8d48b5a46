// The cost model by which exgemm's Schedule::automatic chooses between the Ozaki schedule
// (ExKokkos_GemmOzaki_impl.hpp) and the exact dot products, and between int8 and double slices.
#ifndef EXKOKKOS_OZAKICOSTMODEL_IMPL_HPP
#define EXKOKKOS_OZAKICOSTMODEL_IMPL_HPP

#include "ExKokkos_OzakiPlan_impl.hpp"
#include <impl/ExKokkos_DeviceTraits_impl.hpp>

#include <algorithm>
#include <cstdint>

namespace ExKokkos {
namespace Impl {

// The cost model of Schedule::automatic (host execution spaces with Kokkos Kernels; CUDA with
// cuBLAS below), in seconds, fitted to perf_tests/bench_blas3 on a 2-core CPU (OpenMP, 2 threads,
// OpenBLAS behind KokkosBlas::gemm; docs/performance.md): the other schedules cost about
// exact_per_term per term of the m n k; the
// Ozaki path a fixed overhead, S T GEMMs at gemm_flops_per_s (less when the smallest extent of the
// slice GEMM is below 256), the scan and split per slice of each entry of A and B, and the exact
// sum and rounding of each element of C. It is taken only when predicted below margin times the
// other: near the break-even (n around 256 for uniform data) either path is as good. On CUDA with
// cuBLAS (OzakiCostModel::cuda()) the same terms, fitted to perf_tests/bench_cuda_blas3 on an
// H100 (docs/performance.md): the tiles schedule, and cublasDgemm on slices.
struct OzakiCostModel {
  double exact_per_term = 2.7e-9;
  double fixed = 2e-3;
  double gemm_flops_per_s = 4.5e10;
  double full_rate_extent = 256;
  double split_per_entry = 1.0e-8;
  double per_element = 1.2e-7, per_diagonal = 5e-9;
  double margin = 0.75;

  double gemm_rate(std::int64_t rows, std::int64_t cols, std::int64_t k) const {
    const double smallest = double(std::min(std::min(rows, cols), k));
    return gemm_flops_per_s * std::min(1.0, smallest / full_rate_extent);
  }
  double exact(std::int64_t m, std::int64_t n, std::int64_t k) const {
    return exact_per_term * double(m) * double(n) * double(k);
  }
  double ozaki(std::int64_t m, std::int64_t n, std::int64_t k, int S, int T) const {
    const double flops = 2.0 * double(S) * double(T) * double(m) * double(n) * double(k);
    return fixed + flops / gemm_rate(S * m, T * n, k) +
           split_per_entry * (double(m) * double(k) * (1 + S) + double(k) * double(n) * (1 + T)) +
           double(m) * double(n) * (per_element + per_diagonal * (S + T - 1));
  }
  bool pays(std::int64_t m, std::int64_t n, std::int64_t k, int S, int T) const {
    return ozaki(m, n, k, S, T) < margin * exact(m, n, k);
  }
  // int8 slices (only where an int8 vendor GEMM exists: int8_ops_per_s > 0): S + T - 1 GEMMs of
  // S T m n k multiply-adds in all, at the int8 rate; the rest as above.
  double int8_ops_per_s = 0;
  double ozaki_int8(std::int64_t m, std::int64_t n, std::int64_t k, int S, int T) const {
    const double ops = 2.0 * double(S) * double(T) * double(m) * double(n) * double(k);
    const double smallest = double(std::min(std::min(m, n), k));
    const double rate = int8_ops_per_s * std::min(1.0, smallest / full_rate_extent);
    return fixed + ops / rate +
           split_per_entry * (double(m) * double(k) * (1 + S) + double(k) * double(n) * (1 + T)) +
           double(m) * double(n) * (per_element + per_diagonal * (S + T - 1));
  }
  double cost(std::int64_t m, std::int64_t n, std::int64_t k, const OzakiPlan& plan) const {
    return plan.int8 ? ozaki_int8(m, n, k, plan.slices_a, plan.slices_b)
                     : ozaki(m, n, k, plan.slices_a, plan.slices_b);
  }

  static OzakiCostModel cuda() {
    OzakiCostModel c;
    c.exact_per_term = 1.2e-11;  // tiles: 13.8 ms at 1024^3, 757 ms at 4096^3
    c.fixed = 2e-4;              // a dozen launches and the plan's copy to the host
    c.gemm_flops_per_s = 5e13;   // cublasDgemm on slices: 51 TFLOP/s (12288 x 4096 x 1365)
    c.full_rate_extent = 1024;
    c.split_per_entry = 5e-12;  // 0.58 ms to split two 4096^2 operands into 3 slices
    c.per_element = 1e-10;
    c.per_diagonal = 1e-11;
    c.int8_ops_per_s = 1.2e15;  // cublasGemmEx int8 "T" "N": 1198 TOPS at 4096^3 (k' = 4096)
    return c;
  }
  // The host's model on host execution spaces, CUDA's on devices.
  template <class ExecSpace>
  static OzakiCostModel for_space() {
    return is_host_space<ExecSpace>() ? OzakiCostModel() : cuda();
  }
};

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_OZAKICOSTMODEL_IMPL_HPP
