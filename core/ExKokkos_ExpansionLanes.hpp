// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ExKokkos::ExpansionLanes<N, W>: W independent floating-point expansions of N doubles, advanced W
// terms at a time, for CPU threads. One expansion per thread leaves a core waiting on the latency
// of each TwoSum; W independent ones (the lanes) fill the pipeline and map onto SIMD registers,
// since every lane runs the same branch-free cascade (ExBLAS section 5: several accumulations per
// thread hide latency). The exactness argument is that of Expansion<N> (ExKokkos_Expansion.hpp),
// lane by lane: every TwoSum is exact, leftovers go to the sink, heads are flushed before they can
// overflow.
//
// A block whose terms are not all safe for an expansion (|x| >= 2^1000, NaN, inf; for products a
// TwoProd that may be inexact) is refused as a whole and nothing is added: the caller then adds
// those W terms one by one through a scalar Expansion, whose checks route each term exactly.
//
// Windows. The per-block checks above cost more than the TwoSums themselves on a CPU: each is a
// horizontal reduction across the W lanes and a branch, between cascades that could otherwise
// overlap (a dot product runs about three times slower with them; docs/performance.md). The window
// forms take `window` blocks at once and test once, at the window's end: a term the lanes cannot
// take is replaced by a neutral -0 and sent to its lane's sink after the window (so nothing is
// refused), the leftovers of the cascades are kept in a buffer and sent to the sinks only if the
// lanes' OR of "a leftover was nonzero" is set, and the heads are guarded once per window.
// Exactness is unchanged: every term and every leftover reaches a sink exactly, only later, and
// a head that starts the window below 2^1000 and takes `window` terms below 2^1000 each stays
// below 2^1004, so no TwoSum of the window can overflow before the guard.
//
// Sinks. One sink may take the leftovers of every lane (a dot product: all lanes add up to one
// sum), or PerLaneSinks gives lane j a sink of its own (exgemv: lane j is row j of a block of y).
#ifndef EXKOKKOS_EXPANSIONLANES_HPP
#define EXKOKKOS_EXPANSIONLANES_HPP

#include "ExKokkos_Expansion.hpp"

namespace ExKokkos {
namespace Impl {

// Lane j's leftovers go to sinks[j].
template <class Sink>
struct PerLaneSinks {
  Sink* sinks;
};

template <class Sink>
KOKKOS_INLINE_FUNCTION Sink& lane_sink(Sink& sink, int /*lane*/) {
  return sink;
}
template <class Sink>
KOKKOS_INLINE_FUNCTION Sink& lane_sink(PerLaneSinks<Sink>& sinks, int lane) {
  return sinks.sinks[lane];
}

template <int N, int W>
class ExpansionLanes {
  static_assert(N >= 2 && N <= 8, "ExpansionLanes<N, W> needs 2 <= N <= 8");
  static_assert(W >= 1 && W <= 64, "ExpansionLanes<N, W> needs 1 <= W <= 64");

 public:
  static constexpr int size = N;
  static constexpr int lanes = W;
  static constexpr int tail_start = Expansion<N>::tail_start;

  KOKKOS_INLINE_FUNCTION ExpansionLanes() { clear(); }

  KOKKOS_INLINE_FUNCTION void clear() {
    for (int j = 0; j < W; ++j) slot_[0][j] = -0.0;  // -0: see Expansion, "Sign of zero"
    for (int i = 1; i < N; ++i)
      for (int j = 0; j < W; ++j) slot_[i][j] = 0.0;
  }

  // Adds v[j] to lane j for all j, or returns false without adding anything.
  template <class Sink>
  KOKKOS_INLINE_FUNCTION bool add(const double (&v)[W], Sink& sink) {
    // Integer flags rather than bools and branches, so that the loops vectorize.
    int unsafe = 0;
    EXKOKKOS_SIMD_REDUCE_OR(unsafe)
    for (int j = 0; j < W; ++j)
      unsafe |= static_cast<int>(!(Impl::compat::fabs(v[j]) < Impl::EftLimits<double>::big));
    if (unsafe) return false;
    double x[W];
    EXKOKKOS_SIMD
    for (int j = 0; j < W; ++j) x[j] = v[j];
    cascade<0>(x, sink);
    guard_heads(sink);
    return true;
  }

  // Adds the exact products a[j] * b[j] to lane j for all j, or returns false without adding.
  template <class Sink>
  KOKKOS_INLINE_FUNCTION bool add_products(const double (&a)[W], const double (&b)[W], Sink& sink) {
    double p[W], e[W];
    int unsafe = 0;
    EXKOKKOS_SIMD_REDUCE_OR(unsafe)
    for (int j = 0; j < W; ++j) {
      const double pj = Impl::mul_rn(a[j], b[j]);
      e[j] = Impl::compat::fma(a[j], b[j], -pj);  // TwoProd, exact when the check below passes
      p[j] = pj;
      const double ap = Impl::compat::fabs(pj);
      unsafe |= static_cast<int>(
          !(ap >= Impl::EftLimits<double>::small_product && ap < Impl::EftLimits<double>::big));
    }
    if (unsafe) return false;
    cascade<0>(p, sink);
    cascade<tail_start>(e, sink);
    guard_heads(sink);
    return true;
  }

  static constexpr int window = 8;

  // The one way to feed a window: for every step s < steps (at most `window`) and lane j, the
  // term (s, j) of `terms` joins lane j. Terms says what a term is: with
  // `static constexpr bool is_product = false`, terms(s, j) returns it; with is_product = true,
  // terms(s, j, a, b) gives the factors of the exact product a * b (TwoProd, its error into the
  // tail slots). What the lanes cannot take goes to lane j's sink after the window (see the
  // window forms below), so nothing is refused. Returns whether anything went to a sink: a term
  // the lanes could not take or a leftover of a cascade (data wider than the expansions).
  template <class Terms, class Sink>
  KOKKOS_INLINE_FUNCTION bool add_window(const Terms& terms, Sink& sink, int steps = window) {
    if constexpr (Terms::is_product)
      return add_products_window(terms, sink, steps);
    else
      return add_sums_window(terms, sink, steps);
  }

  // Adds lanes [h, 2h) into lanes [0, h) for h = W/2, W/4, ..., 1, so that lane 0 holds the sum
  // of all lanes (shared sink only: the leftovers go to it). For one output walked by all the
  // lanes (exgemv's inner_lanes), whose slots can then often be rounded without a long
  // accumulator. A head below 2^1000 gains at most one bit per halving (below 2^1005 at W = 32).
  // Sign of zero: only the heads say whether every term was -0 (see Expansion); a zero below the
  // head (a cleared slot, or a TwoSum error of +0) says nothing, so it is carried as -0, the
  // identity of addition, lest it turn a head of -0 into +0.
  template <class Sink>
  KOKKOS_INLINE_FUNCTION void fold(Sink& sink) {
    static_assert((W & (W - 1)) == 0, "fold needs a power-of-two number of lanes");
    for (int h = W / 2; h >= 1; h /= 2) {
      for (int i = 0; i < N; ++i) {
        double x[W / 2 > 0 ? W / 2 : 1];
        // Slot i of lanes [h, 2h) as terms of lanes [0, h): independent cascades, side by side.
        EXKOKKOS_SIMD
        for (int j = 0; j < h; ++j) {
          double carry = slot_[i][j + h];
          if (i > 0 && carry == 0.0) carry = -0.0;
          slot_[i][j + h] = i == 0 ? -0.0 : 0.0;
          cascade_lane<0>(j, carry);
          x[j] = carry;
        }
        for (int j = 0; j < h; ++j)
          if (x[j] != 0.0) sink.add(x[j]);
      }
    }
  }

  // Hands every slot of every lane to the sink and clears the lanes.
  template <class Sink>
  KOKKOS_INLINE_FUNCTION void flush(Sink& sink) {
    for (int j = 0; j < W; ++j) flush_lane(j, sink);
  }

  // Hands lane j's slots to its sink and clears that lane.
  template <class Sink>
  KOKKOS_INLINE_FUNCTION void flush_lane(int j, Sink& sink) {
    double slots[N];
    for (int i = 0; i < N; ++i) {
      slots[i] = slot_[i][j];
      slot_[i][j] = i == 0 ? -0.0 : 0.0;
    }
    add_slots(slots, Impl::lane_sink(sink, j));
  }

  // Slot i of lane j.
  KOKKOS_INLINE_FUNCTION double slot(int i, int j) const { return slot_[i][j]; }

 private:
  // add_window of sums: the term v(s, j) joins lane j for every step s < steps. A term the
  // lanes cannot take (|v| >= 2^1000, NaN, inf) is replaced by -0 (which changes no sum, not even a
  // zero's sign) and goes to lane j's sink once the window is done, read again.
  template <class Terms, class Sink>
  EXKOKKOS_HOST_WIDE_VECTORS KOKKOS_INLINE_FUNCTION bool add_sums_window(const Terms& v, Sink& sink,
                                                                         int steps) {
    int unsafe[W], nonzero[W];
    double leftover[window][W];
    clear_flags(unsafe, nonzero);
    for (int s = 0; s < steps; ++s) {
      double x[W];
      EXKOKKOS_SIMD
      for (int j = 0; j < W; ++j) {
        const double t = v(s, j);
        const bool bad = !(Impl::compat::fabs(t) < Impl::EftLimits<double>::big);
        unsafe[j] |= static_cast<int>(bad);
        x[j] = bad ? -0.0 : t;
      }
      cascade_deferred<0>(x, leftover[s], nonzero);
    }
    if (any_lane(unsafe))
      for (int s = 0; s < steps; ++s)
        for (int j = 0; j < W; ++j) {
          const double t = v(s, j);
          if (!(Impl::compat::fabs(t) < Impl::EftLimits<double>::big))
            Impl::lane_sink(sink, j).add(t);
        }
    const bool spilled = any_lane(unsafe) || any_lane(nonzero);
    drain(leftover, steps, nonzero, sink);
    guard_heads(sink);
    return spilled;
  }

  // add_window of products: the exact product of the factors f(s, j, a, b) joins lane j.
  // A product whose TwoProd may be inexact, or that is zero, NaN or inf, is replaced by -0 and an
  // error of 0 and goes to lane j's sink (add_product: exact for any factors) after the window.
  template <class Factors, class Sink>
  EXKOKKOS_HOST_WIDE_VECTORS KOKKOS_INLINE_FUNCTION bool add_products_window(const Factors& f,
                                                                             Sink& sink,
                                                                             int steps) {
    int unsafe[W], nonzero[W];
    double leftover[2 * window][W];
    clear_flags(unsafe, nonzero);
    for (int s = 0; s < steps; ++s) {
      double p[W], e[W];
      EXKOKKOS_SIMD
      for (int j = 0; j < W; ++j) {
        double a, b;
        f(s, j, a, b);
        const double pj = Impl::mul_rn(a, b);
        const double ej = Impl::compat::fma(a, b, -pj);  // TwoProd: exact where !bad
        const bool bad = !product_is_safe(pj);
        unsafe[j] |= static_cast<int>(bad);
        p[j] = bad ? -0.0 : pj;
        e[j] = bad ? 0.0 : ej;
      }
      cascade_deferred<0>(p, leftover[2 * s], nonzero);
      cascade_deferred<tail_start>(e, leftover[2 * s + 1], nonzero);
    }
    if (any_lane(unsafe))
      for (int s = 0; s < steps; ++s)
        for (int j = 0; j < W; ++j) {
          double a, b;
          f(s, j, a, b);
          if (!product_is_safe(Impl::mul_rn(a, b))) Impl::lane_sink(sink, j).add_product(a, b);
        }
    const bool spilled = any_lane(unsafe) || any_lane(nonzero);
    drain(leftover, 2 * steps, nonzero, sink);
    guard_heads(sink);
    return spilled;
  }

  // Adds carry to slots First .. N-1 of lane j with TwoSum (Knuth; 6 operations, exact for any
  // finite doubles without overflow): each slot takes the rounded sum, carry the exact error,
  // which is what is left for the caller. Written out, not through two_sum, so that the compiler
  // sees plain arithmetic it can vectorize across lanes.
  //
  // With many lanes (several vectors per slot) the cascades are bound by the adders' throughput,
  // and two of the six subtractions go to the fma units (compat::difference_on_fma_unit: the same
  // doubles); with one vector per slot they are bound by latency, which the fma units' is longer:
  // 32 lanes gain, 8 lanes lose, hence only from 16 lanes on (figures: docs/performance.md).
  static constexpr bool adds_on_fma_units = W >= 16;
  KOKKOS_FORCEINLINE_FUNCTION static double difference(double x, double y) {
    return adds_on_fma_units ? Impl::compat::difference_on_fma_unit(x, y) : x - y;
  }
  template <int First>
  KOKKOS_FORCEINLINE_FUNCTION void cascade_lane(int j, double& carry) {
    for (int i = First; i < N; ++i) {
      const double a = slot_[i][j];
      const double s = a + carry;
      const double bb = difference(s, a);
      carry = (a - (s - bb)) + difference(carry, bb);
      slot_[i][j] = s;
    }
  }

  // Lane by lane, the whole cascade of one lane in registers; `omp simd` runs the lanes side by
  // side in vector registers.
  template <int First, class Sink>
  KOKKOS_INLINE_FUNCTION void cascade(double (&x)[W], Sink& sink) {
    EXKOKKOS_SIMD
    for (int j = 0; j < W; ++j) cascade_lane<First>(j, x[j]);
    int leftover = 0;
    EXKOKKOS_SIMD_REDUCE_OR(leftover)
    for (int j = 0; j < W; ++j) leftover |= static_cast<int>(x[j] != 0.0);
    if (leftover) {
      for (int j = 0; j < W; ++j)
        if (x[j] != 0.0) Impl::lane_sink(sink, j).add(x[j]);
    }
  }

  // A rounded product p = RN(a b) whose TwoProd error is exact and representable (no underflow),
  // and that an expansion can take (below 2^1000). Zero is excluded: it may be an underflow.
  KOKKOS_FORCEINLINE_FUNCTION static bool product_is_safe(double p) {
    const double ap = Impl::compat::fabs(p);
    return ap >= Impl::EftLimits<double>::small_product && ap < Impl::EftLimits<double>::big;
  }

  KOKKOS_FORCEINLINE_FUNCTION static void clear_flags(int (&unsafe)[W], int (&nonzero)[W]) {
    EXKOKKOS_SIMD
    for (int j = 0; j < W; ++j) {
      unsafe[j] = 0;
      nonzero[j] = 0;
    }
  }

  // The cascade of the window forms: leftovers to `leftover`, nonzero[j] set when lane j's is
  // not zero; no test, no branch.
  template <int First>
  KOKKOS_FORCEINLINE_FUNCTION void cascade_deferred(double (&x)[W], double (&leftover)[W],
                                                    int (&nonzero)[W]) {
    EXKOKKOS_SIMD
    for (int j = 0; j < W; ++j) {
      double carry = x[j];
      cascade_lane<First>(j, carry);
      leftover[j] = carry;
      nonzero[j] |= static_cast<int>(carry != 0.0);
    }
  }

  template <int Rows, class Sink>
  KOKKOS_INLINE_FUNCTION void drain(const double (&leftover)[Rows][W], int rows,
                                    const int (&nonzero)[W], Sink& sink) {
    if (!any_lane(nonzero)) return;
    for (int r = 0; r < rows; ++r)
      for (int j = 0; j < W; ++j)
        if (leftover[r][j] != 0.0) Impl::lane_sink(sink, j).add(leftover[r][j]);
  }

  KOKKOS_FORCEINLINE_FUNCTION static bool any_lane(const int (&flags)[W]) {
    int any = 0;
    EXKOKKOS_SIMD_REDUCE_OR(any)
    for (int j = 0; j < W; ++j) any |= flags[j];
    return any != 0;
  }

  template <class Sink>
  KOKKOS_INLINE_FUNCTION void guard_heads(Sink& sink) {
    int big = 0;
    EXKOKKOS_SIMD_REDUCE_OR(big)
    for (int j = 0; j < W; ++j)
      big |= static_cast<int>(!(Impl::compat::fabs(slot_[0][j]) < Impl::EftLimits<double>::big));
    if (big) {
      for (int j = 0; j < W; ++j)
        if (!(Impl::compat::fabs(slot_[0][j]) < Impl::EftLimits<double>::big)) flush_lane(j, sink);
    }
  }

  double slot_[N][W];
};

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_EXPANSIONLANES_HPP
