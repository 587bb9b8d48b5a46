// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The cost model by which exgemm's Schedule::automatic chooses between the Ozaki schedule
// (ExKokkos_GemmOzaki_impl.hpp) and the exact dot products, and between int8 and double slices.
//
// In seconds: the exact dot products cost about exact_per_term per term of the m n k; the Ozaki
// path a fixed overhead, S T GEMMs at gemm_flops_per_s (less when the smallest extent of the slice
// GEMM is below full_rate_extent), the scan and split per slice of each entry of A and B, and the
// exact sum and rounding of each element of C. It is taken only when predicted below margin times
// the other: near the break-even either path is as good.
//
// The rates are a table, one entry per backend on which they were measured (with the vendor GEMM
// that multiplies the slices there: Kokkos Kernels on the host, cuBLAS on CUDA); where each entry
// comes from is in docs/performance.md. A backend nobody measured (HIP, SYCL, OpenMPTarget, ...)
// gets no entry of another: its model is `unmeasured`, which never pays, so that automatic keeps
// the schedules whose speed there is known. Schedule::ozaki still takes the path on it. (automatic
// consults the model only where a vendor GEMM multiplies the slices: has_vendor_slice_gemm.)
#ifndef EXKOKKOS_OZAKICOSTMODEL_IMPL_HPP
#define EXKOKKOS_OZAKICOSTMODEL_IMPL_HPP

#include "ExKokkos_OzakiPlan_impl.hpp"
#include <impl/ExKokkos_DeviceTraits_impl.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <type_traits>

namespace ExKokkos {
namespace Impl {

struct OzakiCostModel {
  bool measured = false;        // false: pays() never holds
  double exact_per_term = 0;    // the exact dot products, per term of m n k
  double fixed = 0;             // the Ozaki path's launches and the plan's copy to the host
  double gemm_flops_per_s = 0;  // the double slice GEMM at full rate
  double full_rate_extent = 1;  // smallest extent of the slice GEMM that reaches the full rate
  double split_per_entry = 0;   // scan and split, per slice of each entry of A and B
  double per_element = 0;       // the finishing of an element of C
  double per_diagonal = 0;      // and of each of its S + T - 1 diagonal sums
  double int8_ops_per_s = 0;    // the int8 slice GEMM (0: no int8 vendor GEMM)
  double margin = 0.75;

  // A GEMM runs at the full rate from extents of full_rate_extent, in proportion below.
  double rate(double full, std::int64_t rows, std::int64_t cols, std::int64_t k) const {
    const double smallest = double(std::min(std::min(rows, cols), k));
    return full * std::min(1.0, smallest / full_rate_extent);
  }
  double exact(std::int64_t m, std::int64_t n, std::int64_t k) const {
    return exact_per_term * double(m) * double(n) * double(k);
  }
  // The scan and split, and the finishing: the same for both kinds of slices.
  double split(std::int64_t m, std::int64_t n, std::int64_t k, int S, int T) const {
    return split_per_entry * (double(m) * double(k) * (1 + S) + double(k) * double(n) * (1 + T));
  }
  double finishing(std::int64_t m, std::int64_t n, int S, int T) const {
    return double(m) * double(n) * (per_element + per_diagonal * (S + T - 1));
  }
  // Double slices: one GEMM of (S m) x k x (T n).
  double ozaki(std::int64_t m, std::int64_t n, std::int64_t k, int S, int T) const {
    const double flops = 2.0 * double(S) * double(T) * double(m) * double(n) * double(k);
    return fixed + flops / rate(gemm_flops_per_s, S * m, T * n, k) + split(m, n, k, S, T) +
           finishing(m, n, S, T);
  }
  // int8 slices (only where an int8 vendor GEMM exists: int8_ops_per_s > 0): S + T - 1 GEMMs of
  // S T m n k multiply-adds in all, at the int8 rate.
  double ozaki_int8(std::int64_t m, std::int64_t n, std::int64_t k, int S, int T) const {
    const double ops = 2.0 * double(S) * double(T) * double(m) * double(n) * double(k);
    return fixed + ops / rate(int8_ops_per_s, m, n, k) + split(m, n, k, S, T) +
           finishing(m, n, S, T);
  }
  double cost(std::int64_t m, std::int64_t n, std::int64_t k, const OzakiPlan& plan) const {
    return plan.int8 ? ozaki_int8(m, n, k, plan.slices_a, plan.slices_b)
                     : ozaki(m, n, k, plan.slices_a, plan.slices_b);
  }
  // Whether the Ozaki path with S and T double slices, or with the plan's slices, is predicted
  // below margin times the exact dot products.
  bool pays(std::int64_t m, std::int64_t n, std::int64_t k, int S, int T) const {
    return measured && ozaki(m, n, k, S, T) < margin * exact(m, n, k);
  }
  bool pays(std::int64_t m, std::int64_t n, std::int64_t k, const OzakiPlan& plan) const {
    return measured && cost(m, n, k, plan) < margin * exact(m, n, k);
  }

  // The table.
  // Host execution spaces, the slices multiplied by KokkosBlas::gemm.
  static OzakiCostModel host() {
    OzakiCostModel c;
    c.measured = true;
    c.exact_per_term = 1.2e-10;
    c.fixed = 2e-3;
    c.gemm_flops_per_s = 9.5e10;
    c.full_rate_extent = 256;
    c.split_per_entry = 1.0e-8;
    c.per_element = 1.2e-7;
    c.per_diagonal = 5e-9;
    return c;
  }
  // Kokkos::Cuda, the slices multiplied by cublasDgemm or cublasGemmEx (int8); the exact dot
  // products are the tiles schedule.
  static OzakiCostModel cuda() {
    OzakiCostModel c;
    c.measured = true;
    c.exact_per_term = 1.2e-11;
    c.fixed = 2e-4;
    c.gemm_flops_per_s = 5e13;
    c.full_rate_extent = 1024;
    c.split_per_entry = 5e-12;
    c.per_element = 1e-10;
    c.per_diagonal = 1e-11;
    c.int8_ops_per_s = 1.2e15;
    return c;
  }
  // Every other backend.
  static OzakiCostModel unmeasured() { return OzakiCostModel(); }

  template <class ExecSpace>
  static OzakiCostModel for_space() {
    if (is_host_space<ExecSpace>()) return host();
#if defined(KOKKOS_ENABLE_CUDA)
    if (std::is_same<ExecSpace, Kokkos::Cuda>::value) return cuda();
#endif
    return unmeasured();
  }
};

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_OZAKICOSTMODEL_IMPL_HPP
