// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The kernels behind exgemv. Every output y_i needs the exact sum S_i = sum_k op(A)(i, k) x(k)
// and then one rounding of alpha S_i + beta y_i (core/ExKokkos_ScaledSumRounding.hpp). The
// schedules differ only in how the terms of S_i reach an exact sink, so they give the same bits
// (ExBLAS, ExGEMV: an expansion per thread, flushed into long accumulators):
//   output_lanes (host): a thread takes 32 consecutive outputs, one expansion lane and one long
//     accumulator each, and walks k: when op(A)'s columns are contiguous (y = A x with LayoutLeft)
//     the 32 loads are one contiguous slice, vectorized across outputs;
//   inner_lanes (host): a thread takes one output and walks its dot product 32 terms at a time
//     (the lanes of exdot): for contiguous rows of op(A) (A^T x with LayoutLeft);
//   team_per_output (any backend): a team per output, its threads striding k with an expansion
//     each, flushed into the team's accumulators in scratch memory, rounded by one thread;
//   output_block (any backend, the default on devices): a team per block of outputs, a long
//     accumulator per output in scratch memory, each output's k strided over a group of the
//     team's threads; neighbouring threads take neighbouring outputs when op(A)'s rows are not
//     contiguous (y = A x with LayoutLeft: coalesced loads), neighbouring terms when they are.
// The two host lane schedules first try a compensated sum of each output (Dot2, 11 flops a product
// against about 40 for the expansions' cascades): when its rounding of alpha S_i + beta y_i is
// certified (core/ExKokkos_CompensatedScaledRounding.hpp) that is RN of the exact value, the bits
// the exact path gives; otherwise the output (output_lanes: its block) takes the exact path.
#ifndef EXKOKKOS_GEMV_IMPL_HPP
#define EXKOKKOS_GEMV_IMPL_HPP

#include "ExKokkos_CertifyOrExact_impl.hpp"
#include "ExKokkos_LaneWalk_impl.hpp"
#include "ExKokkos_ReductionRoutine_impl.hpp"
#include "ExKokkos_StridedOperand_impl.hpp"

#include <ExKokkos_CompensatedLanes.hpp>
#include <ExKokkos_CompensatedScaledRounding.hpp>
#include <ExKokkos_ExpansionRounding.hpp>
#include <ExKokkos_LazyAccumulator.hpp>
#include <ExKokkos_ScaledSumRounding.hpp>

#include <cctype>
#include <string>

namespace ExKokkos {
namespace Impl {

// op(A)(i, k): A(i, k), or A(k, i) when Transposed ("T", "C": the same for real values).
template <class AView, bool Transposed>
struct MatrixOperand {
  AView A;
  KOKKOS_INLINE_FUNCTION double operator()(std::int64_t i, std::int64_t k) const {
    return Transposed ? A(k, i) : A(i, k);
  }
  std::int64_t outputs() const { return static_cast<std::int64_t>(A.extent(Transposed ? 1 : 0)); }
  std::int64_t inner() const { return static_cast<std::int64_t>(A.extent(Transposed ? 0 : 1)); }
  // True when consecutive k are adjacent in memory (a row of op(A) is contiguous).
  bool inner_contiguous() const { return A.stride(Transposed ? 0 : 1) == 1; }
};

// Asks the core to start loading op(A)(i, k) (host lane walks; see compat::prefetch). Operands
// that are not stored matrices (extrsv's, exgemm's flattened ones) get no hint.
template <class Op>
KOKKOS_INLINE_FUNCTION void prefetch_operand(const Op&, std::int64_t, std::int64_t) {}
template <class AView, bool Transposed>
KOKKOS_INLINE_FUNCTION void prefetch_operand(const MatrixOperand<AView, Transposed>& op,
                                             std::int64_t i, std::int64_t k) {
  compat::prefetch(Transposed ? &op.A(k, i) : &op.A(i, k));
}
template <class T, bool UnitOutputs>
KOKKOS_INLINE_FUNCTION void prefetch_operand(const StridedOperand<T, UnitOutputs>& op,
                                             std::int64_t i, std::int64_t k) {
  compat::prefetch(op.address(i, k));
}

// The second factor of term k of output i: x(k) for gemv, where every output shares x. exgemm's
// flattened outputs read a different column of op(B) per output and overload this
// (blas/impl/ExKokkos_Gemm_impl.hpp).
template <class XView>
KOKKOS_INLINE_FUNCTION double right_factor(const XView& x, std::int64_t /*i*/, std::int64_t k) {
  return x(k);
}

// The terms of S_i for the expansions: exact products of doubles, or, for floats, the product
// itself (two floats multiply exactly in double).
template <class Op, class XView, bool IsDouble>
struct RowTerms {
  static constexpr bool is_product = IsDouble;
  Op op;
  XView x;
  std::int64_t i;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t k, double& a, double& b) const {
    a = op(i, k);
    b = right_factor(x, i, k);
  }
  KOKKOS_INLINE_FUNCTION double operator()(std::int64_t k) const {
    return op(i, k) * right_factor(x, i, k);
  }
};

// exgemv's Finish (blas/impl/ExKokkos_Finish_impl.hpp): y_i = RN(alpha S_i + beta y_i), one
// rounding; y(i) is read only when beta is not zero (BLAS). Only doubles certify: the exact path
// takes float products whole.
template <class YView>
struct GemvFinish {
  using T = typename YView::non_const_value_type;
  using value_type = T;
  static constexpr bool certifies_compensated = std::is_same<T, double>::value;
  YView y;
  T alpha, beta;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, const LongAccumulator& s) const {
    const bool read_y = beta != T(0);
    y(i) = round_scaled_sum<T>(s, alpha, beta, read_y ? double(y(i)) : 0.0, read_y);
  }
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, const std::uint64_t* normalized,
                                         std::uint32_t flags) const {
    const bool read_y = beta != T(0);
    y(i) = round_scaled_sum<T>(normalized, flags, alpha, beta, read_y ? double(y(i)) : 0.0, read_y);
  }
  // RN(alpha S_i + beta y_i) into r when certified from a compensated sum of S_i; y(i) is not
  // written.
  KOKKOS_INLINE_FUNCTION bool round_compensated(std::int64_t i, const CompensatedSum& sum,
                                                double& r) const {
    const bool read_y = beta != T(0);
    return round_compensated_scaled(sum, double(alpha), double(beta), read_y ? double(y(i)) : 0.0,
                                    read_y, r);
  }
  KOKKOS_INLINE_FUNCTION void store(std::int64_t i, double r) const { y(i) = static_cast<T>(r); }

  // Output i from the N slots whose sum is S_i, when the rounding is certified without a long
  // accumulator (doubles only); false leaves y(i) untouched.
  template <int N>
  KOKKOS_INLINE_FUNCTION bool round_from_slots(std::int64_t i, const double (&slots)[N]) const {
    if constexpr (std::is_same<T, double>::value) {
      const bool read_y = beta != T(0);
      double r;
      if (!round_scaled_slots_fast(slots, alpha, beta, read_y ? y(i) : 0.0, read_y, r))
        return false;
      y(i) = r;
      return true;
    } else {
      return false;
    }
  }
};

// Outputs with more terms than this skip the compensated try: its margin grows with the square of
// the number of terms and refuses beyond 2^20 error terms (two per product, and the lanes' fold).
constexpr std::int64_t compensated_max_inner = std::int64_t(1) << 18;

template <class Op, class XView, class Finish, int N>
struct OutputLanesFunctor {
  static constexpr int W = host_lanes;
  static constexpr bool is_double = std::is_same<typename Finish::value_type, double>::value;
  Op op;
  XView x;
  Finish finish;
  std::int64_t m, k_count;

  // Blocks first .. first + group - 1 (group at most max_group) of W outputs each. Their
  // compensated tries run side by side, window by window, so that each window reads a column's
  // slice of group * W outputs (1 KiB for four blocks of doubles) before the next column's. A
  // single block reads only W outputs' slice (256 bytes) of a column before moving a whole
  // leading dimension on, so for a tall matrix ("N", LayoutLeft) every step lands on a new page:
  // the TLB misses and the hardware prefetchers, which stop at page boundaries, do not follow.
  // Each output's compensated sum takes its terms in the same order whatever the grouping, and
  // its rounding is certified (else redone exactly), so the grouping changes no bits. Prefetch
  // hints bring the next window's columns in the group's rows while this window computes: one
  // hint per cache line, which paid with groups and not with single blocks (docs/performance.md,
  // "Tuning measurements").
  static constexpr int max_group = 4;
  KOKKOS_INLINE_FUNCTION void run_blocks(const std::int64_t first, const int group) const {
    const bool try_compensated = k_count <= compensated_max_inner;
    CompensatedLanes<W> tries[max_group];
    if constexpr (FinishTraits<Finish>::certifies) {
      if (try_compensated) {
        constexpr int window = 8;
        for (std::int64_t k = 0; k < k_count; k += window) {
          const int steps = static_cast<int>(k_count - k < window ? k_count - k : window);
          const std::int64_t rows_end = (first + group) * W < m ? (first + group) * W : m;
          for (std::int64_t kk = k + window; kk < k + 2 * window && kk < k_count; ++kk)
            for (std::int64_t i = first * W; i < rows_end; i += 8) prefetch_operand(op, i, kk);
          for (int b = 0; b < group; ++b) {
            const std::int64_t r0 = (first + b) * W;
            const int count = static_cast<int>(m - r0 < W ? m - r0 : W);
            if (count == W)
              tries[b].add_products(ColumnWindow<true>{op, x, r0, k, count}, steps);
            else
              tries[b].add_products(ColumnWindow<false>{op, x, r0, k, count}, steps);
          }
        }
      }
    }
    for (int b = 0; b < group; ++b) {
      const std::int64_t r0 = (first + b) * W;
      const int count = static_cast<int>(m - r0 < W ? m - r0 : W);
      const bool full = count == W;
      certify_or_exact_lanes<N, W>(
          finish, r0, count, try_compensated,
          [&](double(&r)[W]) { return round_lanes_compensated(finish, r0, count, tries[b], r); },
          [&](ExpansionLanes<N, W>& lanes, LazyAccumulator* acc,
              PerLaneSinks<LazyAccumulator>& sinks) {
            if (full)
              accumulate<true>(r0, count, lanes, acc, sinks);
            else
              accumulate<false>(r0, count, lanes, acc, sinks);
          });
    }
  }

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t block) const { run_blocks(block, 1); }

  // Term (s, j) of a window of the lanes: op(A)(r0 + j, k0 + s) times x(k0 + s); past the last
  // output of a partial block, the last output's row again.
  template <bool Full>
  struct ColumnWindow {
    static constexpr bool is_product = is_double;
    const Op& op;
    const XView& x;
    std::int64_t r0, k0;
    int count;
    KOKKOS_INLINE_FUNCTION std::int64_t row(int j) const {
      return r0 + (Full || j < count ? j : count - 1);
    }
    KOKKOS_INLINE_FUNCTION void operator()(int s, int j, double& a, double& b) const {
      a = op(row(j), k0 + s);
      b = x(k0 + s);
    }
    KOKKOS_INLINE_FUNCTION double operator()(int s, int j) const {  // floats: exact in double
      return op(row(j), k0 + s) * double(x(k0 + s));
    }
  };

  // Full blocks read rows r0 .. r0+W-1 (one contiguous slice per k for LayoutLeft "N"); in a
  // partial block the lanes past the last output repeat its row and their sums are discarded.
  template <bool Full>
  KOKKOS_INLINE_FUNCTION void accumulate(std::int64_t r0, int count, ExpansionLanes<N, W>& lanes,
                                         LazyAccumulator* acc,
                                         PerLaneSinks<LazyAccumulator>& sinks) const {
    using Lanes = ExpansionLanes<N, W>;
    std::int64_t k = 0;
    for (; k + Lanes::window <= k_count; k += Lanes::window) {
      // The slices of the next window's columns, one hint per cache line (8 doubles), so that
      // their loads overlap this window's arithmetic.
      if (Full)
        for (std::int64_t kk = k + Lanes::window; kk < k + 2 * Lanes::window && kk < k_count; ++kk)
          for (int j = 0; j < W; j += 8) prefetch_operand(op, r0 + j, kk);
      lanes.add_window(ColumnWindow<Full>{op, x, r0, k, count}, sinks);
    }
    for (; k < k_count; ++k) {
      const double xk = x(k);
      double a[W];
      EXKOKKOS_SIMD
      for (int j = 0; j < W; ++j) a[j] = op(r0 + (Full || j < count ? j : count - 1), k);
      if (is_double) {
        double b[W];
        for (int j = 0; j < W; ++j) b[j] = xk;
        if (!lanes.add_products(a, b, sinks))  // refused: exact products, output by output
          for (int j = 0; j < count; ++j) acc[j].add_product(a[j], b[j]);
      } else {
        for (int j = 0; j < W; ++j) a[j] *= xk;  // two floats: exact in double
        if (!lanes.add(a, sinks))
          for (int j = 0; j < count; ++j) acc[j].add(a[j]);
      }
    }
  }
};

// output_lanes' work items: `group` consecutive blocks each (the last item fewer).
template <class F>
struct OutputLaneGroups {
  F f;
  std::int64_t blocks;
  int group;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t item) const {
    const std::int64_t first = item * group;
    f.run_blocks(first, static_cast<int>(blocks - first < group ? blocks - first : group));
  }
};

// Blocks per work item: the largest group, up to max_group, that gives the busiest thread the
// fewest blocks under a static schedule of the items over the threads (128 blocks on 2 threads:
// groups of 4; 8 blocks on 4 threads: groups of 2).
inline int output_lanes_group(std::int64_t blocks, int threads, int max_group) {
  const std::int64_t t = threads > 0 ? threads : 1;
  int best = 1;
  std::int64_t best_load = (blocks + t - 1) / t;
  for (int g = 2; g <= max_group; ++g) {
    const std::int64_t items = (blocks + g - 1) / g;
    const std::int64_t load = (items + t - 1) / t * g;
    if (load <= best_load) {
      best = g;
      best_load = load;
    }
  }
  return best;
}

template <class Op, class XView, class Finish, int N>
struct InnerLanesFunctor {
  using terms_type = RowTerms<Op, XView, std::is_same<typename Finish::value_type, double>::value>;
  Op op;
  XView x;
  Finish finish;
  std::int64_t k_count;

  // The lanes folded into one expansion: when nothing reached the accumulator, the output is
  // rounded from the slots, without clearing, filling and rounding 1 KiB per output (which cost
  // as much as 256 terms).
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i) const {
    certify_or_exact<N>(
        finish, i, k_count <= compensated_max_inner, [&]() { return compensated(i); },
        [&](LazyAccumulator& acc, double(&slots)[N]) {
          accumulate_with_lanes_to_slots<N>(terms_type{op, x, i}, 0, k_count, acc, slots);
        });
  }

  // The compensated try for output i: its dot product in host_lanes lanes
  // (compensated_with_lanes). Doubles only (floats take no compensated try).
  KOKKOS_INLINE_FUNCTION CompensatedSum compensated(std::int64_t i) const {
    if constexpr (terms_type::is_product) {
      return compensated_with_lanes(terms_type{op, x, i}, k_count);
    } else {
      (void)i;
      return CompensatedSum();
    }
  }
};

template <class ExecSpace, class Op, class XView, class Finish, int N, bool EarlyExit>
struct TeamPerOutputFunctor {
  using member_type = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using terms_type = RowTerms<Op, XView, std::is_same<typename Finish::value_type, double>::value>;
  Op op;
  XView x;
  Finish finish;
  std::int64_t m, k_count;
  int copies;

  static std::size_t scratch_size(int copies) {
    return TeamAccumulator::scratch_size(copies) +
           sizeof(std::uint64_t) * AccumulatorFormat::num_digits;
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const TeamAccumulator accumulator(team, copies);
    std::uint64_t* merged = static_cast<std::uint64_t*>(
        team.team_scratch(0).get_shmem(sizeof(std::uint64_t) * AccumulatorFormat::num_digits));
    for (std::int64_t i = team.league_rank(); i < m; i += team.league_size()) {
      accumulator.clear(team);
      const terms_type terms{op, x, i};
      accumulator.with_sink<is_host_space<ExecSpace>()>(
          team, [&](auto& sink) { accumulate(team, terms, sink); });
      team.team_barrier();
      std::uint32_t flags = 0;
      accumulator.reduce(team, merged, flags);
      Kokkos::single(Kokkos::PerTeam(team), [&]() { round_exact(finish, i, merged, flags); });
      team.team_barrier();
    }
  }

  template <class Sink>
  KOKKOS_INLINE_FUNCTION void accumulate(const member_type& team, const terms_type& terms,
                                         Sink& sink) const {
    Expansion<N, EarlyExit> expansion;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, k_count),
                         [&](const std::int64_t k) { add_term(terms, k, expansion, sink); });
    expansion.flush(sink);
    sink.publish();
  }
};

// The output_block schedule. A team of T threads takes R outputs at a time, C = T / R threads per
// output: thread t takes output t % R and terms c, c + C, c + 2C, ... with c = t / R when the
// outputs are the fast index (R = min(T, 32): a warp reads 32 neighbouring outputs of one column,
// one coalesced load), or output t / C and c = t % C when the terms are (C = min(T, 32): a warp
// reads 32 neighbouring terms of one row). Each thread adds its terms into an expansion; what
// the expansions cannot hold, and the expansions themselves at the end, go into the output's long
// accumulator in scratch memory (integer atomics: exact, order-free). One thread per output then
// normalizes it and finishes (rounds) the output.
//
// Why not team_per_output on a GPU: a team per output clears, reduces and rounds a team
// accumulator for every output, which for 16384 terms per output cost more than the terms.
//
// The launch bounds cap the registers at 65536 / (256 * 3) = 85 per thread: the rounding of an
// output needs far more (ptxas gives the unbounded kernel 255 and a stack), and a kernel gets the
// registers of its most demanding path. Capped, the rounding spills to (cached) local memory,
// once per output, and the loop over the terms keeps three teams per multiprocessor.
//
// Certified first (Finishes that round a compensated sum, rows of at most compensated_max_inner
// terms): each thread sums its terms as a CompensatedSum (Dot2, 11 flops a product, in
// registers), the team merges the C sums of each output (CompensatedSum::merge) and rounds
// RN(alpha S_i + beta y_i) where round_compensated_scaled certifies it: the bits of the exact
// path. Only a block with a refused output clears its accumulators and walks the terms of its
// refused outputs again, exactly. The exact walk alone clears 33 KiB of accumulators a block
// and rounds between barriers, which costs more than the terms.
template <class ExecSpace, class Op, class XView, class Finish, int N, bool EarlyExit>
struct OutputBlockFunctor {
  using policy_type = Kokkos::TeamPolicy<ExecSpace, Kokkos::LaunchBounds<256, 3>>;
  using member_type = typename policy_type::member_type;
  using terms_type = RowTerms<Op, XView, std::is_same<typename Finish::value_type, double>::value>;
  static constexpr int num_digits = AccumulatorFormat::num_digits;
  static constexpr int max_team_size = 256;
  Op op;
  XView x;
  Finish finish;
  std::int64_t m, k_count;
  int outputs_per_team;  // R
  bool outputs_fast;     // neighbouring threads take neighbouring outputs

  static constexpr bool tries_compensated = FinishTraits<Finish>::certifies;
  bool try_compensated;  // tries_compensated and at most compensated_max_inner terms an output

  // The outputs' long accumulators and flags, then (tries_compensated) every thread's compensated
  // sum (head, errors, magnitude, error terms) and each output's refusal.
  static std::size_t scratch_size(int outputs, int team_size) {
    std::size_t bytes = sizeof(std::uint64_t) * num_digits * static_cast<std::size_t>(outputs) +
                        (sizeof(std::uint32_t) * static_cast<std::size_t>(outputs) + 7) / 8 * 8;
    if (tries_compensated)
      bytes += 4 * sizeof(double) * static_cast<std::size_t>(team_size) +
               (sizeof(int) * static_cast<std::size_t>(outputs) + 7) / 8 * 8;
    return bytes;
  }

  // The certified try for the block of outputs [first, first + R): outputs whose rounding is
  // certified are written, refused[j] says which are not. Returns whether any is (every thread).
  KOKKOS_INLINE_FUNCTION bool compensated_block(const member_type& team, std::int64_t first, int o,
                                                int c, double* sums, int* refused) const {
    const int R = outputs_per_team, T = team.team_size(), t = team.team_rank();
    const int C = T / R;
    CompensatedSum sum;
    const std::int64_t i = first + o;
    if (i < m) {
      // Four terms' loads issued before their sums, which form a dependent chain.
      std::int64_t k = c;
      for (; k + 3 * C < k_count; k += 4 * C) {
        double a[4], b[4];
        for (int u = 0; u < 4; ++u) {
          a[u] = op(i, k + u * C);
          b[u] = right_factor(x, i, k + u * C);
        }
        for (int u = 0; u < 4; ++u) sum.add_product(a[u], b[u]);
      }
      for (; k < k_count; k += C) sum.add_product(op(i, k), right_factor(x, i, k));
    }
    sums[t] = sum.head();
    sums[T + t] = sum.errors();
    sums[2 * T + t] = sum.magnitude();
    sums[3 * T + t] = double(sum.terms());
    team.team_barrier();
    // Output j's threads: t = j + q R (outputs_fast) or j C + q, for q < C. Their sums are merged
    // in two rounds, groups of G consecutive q in parallel, then the groups' sums by one thread:
    // a chain of C - 1 merges on one thread costs more than the terms when a team takes one
    // output of few terms.
    // Any tree of merges keeps CompensatedSum's margin (CompensatedSum::merge).
    const auto thread = [&](int j, int q) { return outputs_fast ? j + q * R : j * C + q; };
    const auto load = [&](int u) {
      return CompensatedSum(sums[u], sums[T + u], sums[2 * T + u], int(sums[3 * T + u]));
    };
    constexpr int G = 8;
    const int groups = (C + G - 1) / G;
    if (groups > 1) {
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, R * groups), [&](const int e) {
        const int j = e / groups, g = e - (e / groups) * groups;
        const int head = thread(j, g * G);
        CompensatedSum part = load(head);
        for (int q = g * G + 1; q < C && q < (g + 1) * G; ++q) part.merge(load(thread(j, q)));
        sums[head] = part.head();
        sums[T + head] = part.errors();
        sums[2 * T + head] = part.magnitude();
        sums[3 * T + head] = double(part.terms());
      });
      team.team_barrier();
    }
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, R), [&](const int j) {
      int refuse = 0;
      if (first + j < m) {
        CompensatedSum total = load(thread(j, 0));
        for (int g = 1; g < groups; ++g) total.merge(load(thread(j, g * G)));
        if (groups == 1)
          for (int q = 1; q < C; ++q) total.merge(load(thread(j, q)));
        refuse = round_from_compensated(finish, first + j, total) ? 0 : 1;
      }
      refused[j] = refuse;
    });
    team.team_barrier();
    bool any = false;
    for (int j = 0; j < R; ++j) any = any || refused[j] != 0;
    return any;
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const int R = outputs_per_team, T = team.team_size(), t = team.team_rank();
    const int C = T / R;
    std::uint64_t* digits = static_cast<std::uint64_t*>(
        team.team_scratch(0).get_shmem(sizeof(std::uint64_t) * num_digits * R));
    std::uint32_t* flags = static_cast<std::uint32_t*>(
        team.team_scratch(0).get_shmem((sizeof(std::uint32_t) * R + 7) / 8 * 8));
    double* sums = nullptr;
    int* refused = nullptr;
    if (tries_compensated) {
      sums = static_cast<double*>(team.team_scratch(0).get_shmem(4 * sizeof(double) * T));
      refused = static_cast<int*>(team.team_scratch(0).get_shmem((sizeof(int) * R + 7) / 8 * 8));
    }
    const int o = outputs_fast ? t % R : t / C;
    const int c = outputs_fast ? t / R : t % C;
    for (std::int64_t first = std::int64_t(team.league_rank()) * R; first < m;
         first += std::int64_t(team.league_size()) * R) {
      bool exact_only = true;  // every output of the block takes the exact path
      if constexpr (tries_compensated) {
        if (try_compensated) {
          if (!compensated_block(team, first, o, c, sums, refused)) continue;
          exact_only = false;
        }
      }
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, num_digits * R),
                           [&](const int d) { digits[d] = 0; });
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, R), [&](const int j) { flags[j] = 0; });
      team.team_barrier();
      const std::int64_t i = first + o;
      if (i < m && (exact_only || refused[o])) {
        TeamAccumulator::Sink sink(digits + std::size_t(o) * num_digits, 1, flags + o);
        Expansion<N, EarlyExit> expansion;
        accumulate_strided<4>(terms_type{op, x, i}, c, k_count, C, expansion, sink);
        expansion.flush(sink);
        sink.publish();
      }
      team.team_barrier();
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, R), [&](const int j) {
        if (first + j < m && (exact_only || refused[j])) {
          std::uint64_t* mine = digits + std::size_t(j) * num_digits;
          normalize_digits(mine, num_digits);
          round_exact(finish, first + j, static_cast<const std::uint64_t*>(mine), flags[j]);
        }
      });
      team.team_barrier();
    }
  }
};

struct GemvConfig {
  LaunchConfig launch;
  Schedule schedule;
  int outputs_per_team = 1;  // output_block: R
};

// output_block's outputs per team, R (C = t / R threads per output). Neighbouring threads take
// neighbouring outputs when op(A)'s rows are not contiguous: up to a warp's 32 (one coalesced
// load of a column), else a warp per output (t / 32 outputs). With few outputs that leaves a GPU
// with too few teams (with teams of 256 and 3 a multiprocessor, 16384 outputs "N" make about
// one wave, 4096 outputs a fraction of one). So R is halved, for teams of a multiple of
// 32 threads, until the launch has about 2 concurrency / t teams (five waves there), down to 4
// neighbouring outputs (32 bytes: a whole memory sector still) or to one output per team (its
// terms then strided over several warps). Nor below min_terms_per_thread terms a thread (inner R /
// t): the merge of an output's t / R thread sums costs two rounds and their barriers whatever the
// terms, so with few terms a thread that merge outweighs the extra teams. And from 8 neighbouring
// outputs (64-byte pieces of a column) down to 4 (32 bytes) only when the launch would have fewer
// than half the wanted teams: a warp's load then touches twice as many pieces of half the size,
// which pays only where the launch would otherwise leave most of the GPU idle. The measurements
// behind both limits are in docs/performance.md. The bits do not depend on R.
template <class ExecSpace, class Op>
int output_block_outputs_per_team(const ExecSpace& space, const Op& op, int t) {
  constexpr std::int64_t min_terms_per_thread = 64;
  constexpr int narrow_pieces = 8;  // outputs_fast: below this, halve only for want of teams
  const bool outputs_fast = !op.inner_contiguous();
  int R = outputs_fast ? std::min(t, 32) : std::max(1, t / 32);
  if (t % 32 != 0) return R;
  const std::int64_t wanted = 2 * std::int64_t(space.concurrency()) / t;
  const int least = outputs_fast ? 4 : 1;
  const auto too_few_teams = [&](int r) {
    const std::int64_t teams = (op.outputs() + r - 1) / r;
    return outputs_fast && r <= narrow_pieces ? 2 * teams < wanted : teams < wanted;
  };
  while (R / 2 >= least && too_few_teams(R) && op.inner() * (R / 2) >= min_terms_per_thread * t)
    R /= 2;
  return R;
}

// The host's automatic schedule when early exit is off: the lanes that read op(A) contiguously.
template <class Op>
Schedule host_lane_schedule(const Op& op) {
  return op.inner_contiguous() ? Schedule::inner_lanes : Schedule::output_lanes;
}

template <class ExecSpace, class Op>
GemvConfig resolve_gemv_config(const ExecSpace& space, const Options& opt, const Op& op,
                               bool is_double, const char* routine) {
  const bool host = is_host_space<ExecSpace>();
  const std::int64_t k_count = op.inner();
  // Each term deposits at most 2 errors plus a flushed expansion; the per-output team
  // accumulator must stay within its headroom (see TeamAccumulator).
  GemvConfig c;
  c.launch =
      resolve_reduction_config(space, opt, k_count, is_double ? 2 : 1, routine, Kernels::matrix);
  const std::int64_t per_output = k_count * (2 + c.launch.expansion_size) +
                                  std::int64_t(c.launch.team_size) * c.launch.expansion_size;
  check_option(per_output < std::int64_t(AccumulatorFormat::deposit_capacity), routine,
               "inner dimension " + std::to_string(k_count) +
                   " (more terms per output than one team accumulator's headroom allows on every "
                   "schedule, about 2^31 / (2 + expansion_size): docs/level2.md)");
  c.launch.league_size =
      opt.league_size > 0
          ? opt.league_size
          : static_cast<int>(std::min<std::int64_t>(op.outputs(), host ? 1 << 16 : 1 << 20));
  c.schedule = opt.schedule;  // one the routine takes (validate_options)
  if (c.schedule == Schedule::automatic) {
    if (!host)
      c.schedule = Schedule::output_block;
    else if (c.launch.early_exit)  // lanes cannot exit early (a branch per lane)
      c.schedule = Schedule::team_per_output;
    else
      c.schedule = host_lane_schedule(op);
  }
  if (c.schedule == Schedule::output_block) {
    const int t = c.launch.team_size;
    check_option(t <= 256 && (t <= 32 || t % 32 == 0), routine,
                 "team_size = " + std::to_string(t) +
                     " for output_block (at most 256, and a multiple of 32 above 32)");
    // The team size on its own: the league default above is for team_per_output.
    c.outputs_per_team = output_block_outputs_per_team(space, op, t);
    if (opt.league_size <= 0) {
      const std::int64_t R = c.outputs_per_team;
      c.launch.league_size =
          static_cast<int>(std::min<std::int64_t>((op.outputs() + R - 1) / R, 1 << 20));
      if (c.launch.league_size < 1) c.launch.league_size = 1;
    }
  }
  return c;
}

template <class ExecSpace, class Op, class XView, class Finish>
void launch_output_lanes(const ExecSpace& space, const GemvConfig& c, const Op& op, const XView& x,
                         const Finish& finish) {
  const std::int64_t m = op.outputs(), k_count = op.inner();
  with_expansion_size<ExecSpace, Kernels::matrix>(c.launch.expansion_size, [&](auto n) {
    using F = OutputLanesFunctor<Op, XView, Finish, decltype(n)::value>;
    const std::int64_t blocks = (m + F::W - 1) / F::W;
    const int group = output_lanes_group(blocks, compat::concurrency(space), F::max_group);
    Kokkos::parallel_for("ExKokkos::exgemv",
                         Kokkos::RangePolicy<ExecSpace>(space, 0, (blocks + group - 1) / group),
                         OutputLaneGroups<F>{F{op, x, finish, m, k_count}, blocks, group});
  });
}

template <class ExecSpace, class Op, class XView, class Finish>
void launch_inner_lanes(const ExecSpace& space, const GemvConfig& c, const Op& op, const XView& x,
                        const Finish& finish) {
  const std::int64_t m = op.outputs(), k_count = op.inner();
  with_expansion_size<ExecSpace, Kernels::matrix>(c.launch.expansion_size, [&](auto n) {
    using F = InnerLanesFunctor<Op, XView, Finish, decltype(n)::value>;
    Kokkos::parallel_for("ExKokkos::exgemv", Kokkos::RangePolicy<ExecSpace>(space, 0, m),
                         F{op, x, finish, k_count});
  });
}

template <class ExecSpace, class Op, class XView, class Finish>
void launch_team_per_output(const ExecSpace& space, const GemvConfig& c, const Op& op,
                            const XView& x, const Finish& finish) {
  const std::int64_t m = op.outputs(), k_count = op.inner();
  with_expansion_size<ExecSpace, Kernels::matrix>(c.launch.expansion_size, [&](auto n) {
    constexpr int N = decltype(n)::value;
    auto launch = [&](auto early_exit) {
      using F = TeamPerOutputFunctor<ExecSpace, Op, XView, Finish, N, decltype(early_exit)::value>;
      Kokkos::TeamPolicy<ExecSpace> policy(space, c.launch.league_size, c.launch.team_size);
      policy.set_scratch_size(0, Kokkos::PerTeam(F::scratch_size(c.launch.copies)));
      Kokkos::parallel_for("ExKokkos::exgemv", policy,
                           F{op, x, finish, m, k_count, c.launch.copies});
    };
    with_early_exit<ExecSpace>(c.launch.early_exit, launch);
  });
}

template <class ExecSpace, class Op, class XView, class Finish>
void launch_output_block(const ExecSpace& space, const GemvConfig& c, const Op& op, const XView& x,
                         const Finish& finish) {
  const std::int64_t m = op.outputs(), k_count = op.inner();
  const int t = c.launch.team_size;
  const bool outputs_fast = !op.inner_contiguous();
  const int outputs = c.outputs_per_team;
  with_expansion_size<ExecSpace, Kernels::matrix>(c.launch.expansion_size, [&](auto n) {
    constexpr int N = decltype(n)::value;
    auto launch = [&](auto early_exit) {
      using F = OutputBlockFunctor<ExecSpace, Op, XView, Finish, N, decltype(early_exit)::value>;
      typename F::policy_type policy(space, c.launch.league_size, t);
      policy.set_scratch_size(0, Kokkos::PerTeam(F::scratch_size(outputs, t)));
      const bool try_compensated = F::tries_compensated && k_count <= compensated_max_inner;
      Kokkos::parallel_for("ExKokkos::exgemv", policy,
                           F{op, x, finish, m, k_count, outputs, outputs_fast, try_compensated});
    };
    with_early_exit<ExecSpace>(c.launch.early_exit, launch);
  });
}

// The lane schedules exist only where the execution space runs on the host's cores (they are
// vectorized host loops); resolve_gemv_config picks output_block elsewhere. (The last argument,
// whether the space is the host's, is implied by ExecSpace and ignored.)
template <class ExecSpace, class Op, class XView, class Finish, class Host = std::true_type>
void launch_gemv(const ExecSpace& space, const GemvConfig& c, const Op& op, const XView& x,
                 const Finish& finish, Host = {}) {
  if constexpr (is_host_space<ExecSpace>()) {
    if (c.schedule == Schedule::output_lanes) return launch_output_lanes(space, c, op, x, finish);
    if (c.schedule == Schedule::inner_lanes) return launch_inner_lanes(space, c, op, x, finish);
    if constexpr (!compiles_team_schedules<ExecSpace>()) {
      // A team schedule this build does not compile for the host (options checked as asked) runs
      // as automatic would: the same bits.
      GemvConfig lanes = c;
      lanes.schedule = host_lane_schedule(op);
      return launch_gemv(space, lanes, op, x, finish);
    }
  }
  if constexpr (compiles_team_schedules<ExecSpace>()) {
    if (c.schedule == Schedule::output_block)
      launch_output_block(space, c, op, x, finish);
    else
      launch_team_per_output(space, c, op, x, finish);
  }
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_GEMV_IMPL_HPP
