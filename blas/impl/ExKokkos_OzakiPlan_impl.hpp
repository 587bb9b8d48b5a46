// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The plan of the Ozaki schedule (ExKokkos_GemmOzaki_impl.hpp describes the method): whether the
// scanned data can be split exactly, into how many slices of how many bits, within the limits on
// slices and memory. The scan that gathers what it needs from the data is
// ExKokkos_OzakiScan_impl.hpp.
#ifndef EXKOKKOS_OZAKIPLAN_IMPL_HPP
#define EXKOKKOS_OZAKIPLAN_IMPL_HPP

#include "ExKokkos_OzakiInt8Slices_impl.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>

namespace ExKokkos {

// What the Ozaki schedule of exgemm would do with given A and B (ExKokkos::exgemm_ozaki_plan):
// whether the data can be split (feasible), into how many slices per operand, of how many bits.
struct OzakiPlan {
  bool feasible = false;
  int slices_a = 0;         // slices of op(A) (of its widest row)
  int slices_b = 0;         // slices of op(B) (of its widest column)
  int slice_bits = 0;       // beta: bits per slice, 2 beta + ceil(log2 k) <= 53 (7 for int8)
  bool int8 = false;        // int8 slices with int32 products, else double slices
  const char* reason = "";  // why not feasible
};

// What the slices are made of. fp64: beta-bit integers in doubles, products by a double GEMM
// (every backend). int8: 7-bit digits in int8, products by an int8 GEMM with int32 sums (the
// integer tensor cores through cuBLAS on CUDA, an order of magnitude above the FP64 rate; a plain
// Kokkos kernel elsewhere, for the tests). automatic: int8 where the execution space has an int8
// vendor GEMM and the data allow it, else fp64.
enum class SliceDigits : int { automatic, fp64, int8 };

namespace Impl {

struct OzakiLimits {
  // More slices than this per operand and the path is not taken, even when forced (the slices of
  // a row of data spread over 2^+-300 at k = 1024 are 30; the full double range needs 81 of 26
  // bits). The cost model refuses far fewer.
  static constexpr int max_slices = 48;
  // Slices of op(A) and op(B) together, in doubles (2 GiB).
  static constexpr std::int64_t max_slice_doubles = std::int64_t(1) << 28;
  // The product of the slices is computed in column blocks of C of at most this many bytes of
  // slice products (128 MiB of doubles; 1 GiB of int8 slices' diagonal sums, since int8 GEMMs
  // need wide blocks to run at their rate: 2 blocks of 2048 columns at 4096^3).
  static constexpr std::int64_t product_block_bytes = std::int64_t(1) << 27;
  static constexpr std::int64_t int8_product_block_bytes = std::int64_t(1) << 30;
  // Marker in a line's top exponent: NaN or inf in the line. Above every exponent, so that a max
  // over partial results carries it.
  static constexpr int not_finite = 1 << 20;
};

// The scan's results (the scales of the lines, on the execution space's memory, and what the plan
// needs from the data) and the plan made from them.
template <class Mem>
struct OzakiScales {
  OzakiPlan plan;
  Kokkos::View<int*, Mem> top_a, top_b;
  std::int64_t k = 0;
  bool finite = true;
  int max_a = 0, max_b = 0;    // the largest scales
  int span_a = 0, span_b = 0;  // the widest line's bits, top to lowest set bit
};

inline int ceil_log2(std::int64_t k) {
  int c = 0;
  while ((std::int64_t(1) << c) < k) ++c;
  return c;
}

// The plan for the scanned data with the given slices (fp64 or int8), within the limits given at
// the top of ExKokkos_GemmOzaki_impl.hpp.
template <class Mem>
OzakiPlan choose_slices(const OzakiScales<Mem>& sc, std::int64_t m, std::int64_t n,
                        SliceDigits digits) {
  OzakiPlan plan;
  plan.int8 = digits == SliceDigits::int8;
  const std::int64_t k = sc.k;
  const int K = ceil_log2(k);
  plan.slice_bits = plan.int8 ? int8_slice_bits : (53 - K) / 2;
  if (plan.slice_bits < 1) {
    plan.reason = "inner dimension above 2^51";
    return plan;
  }
  if (!sc.finite) {
    plan.reason = "NaN or inf in op(A) or op(B)";
    return plan;
  }
  const int bits = plan.slice_bits;
  plan.slices_a = std::max(1, (sc.span_a + bits - 1) / bits);
  plan.slices_b = std::max(1, (sc.span_b + bits - 1) / bits);
  const int terms = std::min(plan.slices_a, plan.slices_b);
  // The largest term, Q_0 2^(ea + eb - 2 beta) with |Q_0| < min(S, T) k 2^(2 beta), stays
  // below 2^2047 (add_scaled_integer).
  if (sc.max_a + sc.max_b + K + ceil_log2(terms) > 2047) {
    plan.reason = "entries too close to the overflow threshold";
    return plan;
  }
  if (plan.slices_a > OzakiLimits::max_slices || plan.slices_b > OzakiLimits::max_slices) {
    plan.reason = "too many slices (data spread over too many binades)";
    return plan;
  }
  // int8: a diagonal's sum of at most min(S, T) k products of magnitude <= 127^2 in int32.
  if (plan.int8 && !int8_diagonal_fits(k, terms)) {
    plan.reason = "inner dimension too large for int32 sums of int8 slices";
    return plan;
  }
  const double entry_bytes = plan.int8 ? 1.0 : 8.0;
  if (entry_bytes * (double(plan.slices_a) * double(m) * double(k) +
                     double(plan.slices_b) * double(k) * double(n)) >
      8.0 * double(OzakiLimits::max_slice_doubles)) {
    plan.reason = "the slices would take too much memory";
    return plan;
  }
  plan.feasible = true;
  return plan;
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_OZAKIPLAN_IMPL_HPP
