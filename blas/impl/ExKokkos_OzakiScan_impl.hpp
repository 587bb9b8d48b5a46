// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The scan of the Ozaki schedule (ExKokkos_GemmOzaki_impl.hpp describes the method): for every
// row of op(A) and column of op(B), the scale 2^e above its entries and its lowest set bit, in one
// pass over each operand; then the plan that the scales allow (ExKokkos_OzakiPlan_impl.hpp).
#ifndef EXKOKKOS_OZAKISCAN_IMPL_HPP
#define EXKOKKOS_OZAKISCAN_IMPL_HPP

#include "ExKokkos_OzakiDigits_impl.hpp"
#include "ExKokkos_OzakiPlan_impl.hpp"
#include <impl/ExKokkos_DeviceTraits_impl.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>

namespace ExKokkos {
namespace Impl {

// Line l of op(A) (a row) or of op(B)^T (a column of op(B)) as a function of (l, k).
template <class Op>
struct RowLines {
  Op op;
  KOKKOS_INLINE_FUNCTION double operator()(std::int64_t l, std::int64_t k) const {
    return op(l, k);
  }
};
template <class Op>
struct ColumnLines {
  Op op;
  KOKKOS_INLINE_FUNCTION double operator()(std::int64_t l, std::int64_t k) const {
    return op(k, l);
  }
};

// Per line: top(l) = e with every |x| < 2^e (one more than the largest exponent; 0 for a zero
// line), low(l) = the weight of the lowest set bit of any entry (top(l) for a zero line), and
// top(l) = not_finite when the line holds NaN or inf. A work item scans Block consecutive lines
// over one chunk of k, k outermost: on the host (Block = 32, chunks of 4096) the rows of
// op(A) = A of a LayoutLeft A are then read 32 contiguous entries at a time instead of one entry
// per cache line; on devices (Block = 1, chunks of 64) a thread per line and chunk, consecutive
// threads reading consecutive lines. A thread per whole line would leave a GPU with 4096 threads
// for a 4096 x 4096 operand, each walking 4096 dependent loads. With several chunks, the items
// write partial results (hi: the largest e, `none` when all zero, not_finite; lo: the lowest bit)
// that OzakiScanCombineFunctor reduces per line.
template <class Lines, class IntView, int Block>
struct OzakiScanFunctor {
  static constexpr int none = -100000;
  Lines lines;
  IntView top, low;  // count entries, or count x chunks partial results (chunks > 1)
  std::int64_t count, k_count, k_chunk, chunks;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t item) const {
    const std::int64_t blocks = (count + Block - 1) / Block;
    const std::int64_t block = item % blocks, chunk = item / blocks;
    const std::int64_t l0 = block * Block;
    const int width = static_cast<int>(count - l0 < Block ? count - l0 : Block);
    const std::int64_t k0 = chunk * k_chunk;
    const std::int64_t k1 = k0 + k_chunk < k_count ? k0 + k_chunk : k_count;
    int hi[Block], lo[Block];
    bool finite[Block];
    for (int b = 0; b < Block; ++b) {
      hi[b] = none;
      lo[b] = -none;
      finite[b] = true;
    }
    for (std::int64_t k = k0; k < k1; ++k)
      for (int b = 0; b < width; ++b) {
        const double x = lines(l0 + b, k);
        const FloatClass c = classify(x);
        if (c == FloatClass::zero) continue;
        if (c != FloatClass::finite) {
          finite[b] = false;
          continue;
        }
        const DecomposedDouble d = decompose(x);
        const int e = d.exponent + bit_width(d.significand);
        const int z = d.exponent + trailing_zeros(d.significand);
        hi[b] = e > hi[b] ? e : hi[b];
        lo[b] = z < lo[b] ? z : lo[b];
      }
    for (int b = 0; b < width; ++b) {
      const bool zero = hi[b] == none;
      if (chunks > 1) {
        top(l0 + b + count * chunk) = !finite[b] ? OzakiLimits::not_finite : hi[b];
        low(l0 + b + count * chunk) = lo[b];
      } else {
        top(l0 + b) = !finite[b] ? OzakiLimits::not_finite : (zero ? 0 : hi[b]);
        low(l0 + b) = !finite[b] || zero ? 0 : lo[b];
      }
    }
  }
};

// Line l's partial results over the chunks into top(l) and low(l), as the one-chunk scan writes
// them. not_finite is above every exponent, so the max carries it.
template <class IntView>
struct OzakiScanCombineFunctor {
  static constexpr int none = -100000;
  IntView part_hi, part_lo, top, low;
  std::int64_t count, chunks;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t l) const {
    int hi = none, lo = -none;
    for (std::int64_t c = 0; c < chunks; ++c) {
      const int h = part_hi(l + count * c), z = part_lo(l + count * c);
      hi = h > hi ? h : hi;
      lo = z < lo ? z : lo;
    }
    const bool finite = hi != OzakiLimits::not_finite, zero = hi == none;
    top(l) = !finite ? OzakiLimits::not_finite : (zero ? 0 : hi);
    low(l) = !finite || zero ? 0 : lo;
  }
};

template <class ExecSpace, class Lines, class IntView>
void scan_lines(const ExecSpace& space, const Lines& lines, const IntView& top, const IntView& low,
                std::int64_t count, std::int64_t k_count) {
  constexpr bool host = is_host_space<ExecSpace>();
  constexpr int block = host ? 32 : 1;
  using Scan = OzakiScanFunctor<Lines, IntView, block>;
  const std::int64_t blocks = (count + block - 1) / block;
  const std::int64_t k_chunk = host ? 4096 : 64;
  const std::int64_t chunks = std::max<std::int64_t>(1, (k_count + k_chunk - 1) / k_chunk);
  if (chunks == 1) {
    Kokkos::parallel_for("ExKokkos::exgemm ozaki scan",
                         Kokkos::RangePolicy<ExecSpace>(space, 0, blocks),
                         Scan{lines, top, low, count, k_count, k_chunk, 1});
    return;
  }
  const IntView part_hi(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "ExKokkos::exgemm ozaki scan hi"),
      count * chunks);
  const IntView part_lo(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "ExKokkos::exgemm ozaki scan lo"),
      count * chunks);
  Kokkos::parallel_for("ExKokkos::exgemm ozaki scan",
                       Kokkos::RangePolicy<ExecSpace>(space, 0, blocks * chunks),
                       Scan{lines, part_hi, part_lo, count, k_count, k_chunk, chunks});
  Kokkos::parallel_for("ExKokkos::exgemm ozaki scan",
                       Kokkos::RangePolicy<ExecSpace>(space, 0, count),
                       OzakiScanCombineFunctor<IntView>{part_hi, part_lo, top, low, count, chunks});
}

// Scans op(A) and op(B) and makes the plan for the given slices.
template <class ExecSpace, class OpA, class OpB>
OzakiScales<typename ExecSpace::memory_space> plan_ozaki(const ExecSpace& space, const OpA& op_a,
                                                         const OpB& op_b, std::int64_t m,
                                                         std::int64_t n,
                                                         SliceDigits digits = SliceDigits::fp64) {
  using Mem = typename ExecSpace::memory_space;
  using IntView = Kokkos::View<int*, Mem>;
  OzakiScales<Mem> r;
  r.k = op_a.inner();
  r.top_a = IntView(Kokkos::view_alloc(space, "ExKokkos::exgemm ozaki top_a"), m);
  r.top_b = IntView(Kokkos::view_alloc(space, "ExKokkos::exgemm ozaki top_b"), n);
  const IntView low_a(Kokkos::view_alloc(space, "ExKokkos::exgemm ozaki low_a"), m);
  const IntView low_b(Kokkos::view_alloc(space, "ExKokkos::exgemm ozaki low_b"), n);
  scan_lines(space, RowLines<OpA>{op_a}, r.top_a, low_a, m, r.k);
  scan_lines(space, ColumnLines<OpB>{op_b}, r.top_b, low_b, n, r.k);
  // The per-line results are few (m + n): reduce them on the host.
  const auto ta = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), r.top_a);
  const auto la = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), low_a);
  const auto tb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), r.top_b);
  const auto lb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), low_b);
  r.max_a = r.max_b = -100000;
  for (std::int64_t i = 0; i < m; ++i) {
    r.finite = r.finite && ta(i) != OzakiLimits::not_finite;
    r.max_a = std::max(r.max_a, ta(i));
    r.span_a = std::max(r.span_a, ta(i) - la(i));
  }
  for (std::int64_t j = 0; j < n; ++j) {
    r.finite = r.finite && tb(j) != OzakiLimits::not_finite;
    r.max_b = std::max(r.max_b, tb(j));
    r.span_b = std::max(r.span_b, tb(j) - lb(j));
  }
  r.plan = choose_slices(r, m, n, digits == SliceDigits::int8 ? digits : SliceDigits::fp64);
  return r;
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_OZAKISCAN_IMPL_HPP
