// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The Ozaki schedule's finishing (ExKokkos_GemmOzaki_impl.hpp describes the method): the diagonal
// sums of the slice products of each element of C, scaled, summed exactly and rounded once as
// RN(alpha S_ij + beta c_ij) by GemvFinish, the code every other schedule of exgemm uses.
#ifndef EXKOKKOS_OZAKIFINISH_IMPL_HPP
#define EXKOKKOS_OZAKIFINISH_IMPL_HPP

#include "ExKokkos_Gemv_impl.hpp"
#include "ExKokkos_OzakiDigits_impl.hpp"
#include "ExKokkos_OzakiPlan_impl.hpp"
#include <ExKokkos_LongAccumulator.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace ExKokkos {
namespace Impl {

// The double (-1)^negative significand 2^exponent, known to be exactly representable (its lowest
// set bit weighs at least 2^-1074 and it is below 2^1024).
KOKKOS_INLINE_FUNCTION double exact_double(bool negative, std::uint64_t significand, int exponent) {
  const int w = bit_width(significand);
  std::uint64_t sig = significand << (53 - w);
  int lsb = exponent - (53 - w);
  if (lsb < -1074) {  // subnormal: the bits shifted out are zero (precondition)
    sig >>= (-1074 - lsb);
    lsb = -1074;
  }
  return compose<double>(negative, sig, lsb);
}

// Adds p 2^x exactly (p a non-zero integer-valued double; p 2^x a multiple of 2^-2148 below
// 2^2047 in magnitude) as h = p 2^x1 times g = 2^x2. With L and M the weights of
// p's lowest and highest set bits: h is a double iff -1074 - L <= x1 <= 1023 - M, g iff
// x - 1023 <= x1 <= x + 1074; both ranges meet because x + L >= -2148 and x + M <= 2046. When
// x1 = x is allowed the term is the double h itself.
KOKKOS_INLINE_FUNCTION void add_scaled_integer(LongAccumulator& acc, double p, int x) {
  const DecomposedDouble d = decompose(p);
  const int low = d.exponent + trailing_zeros(d.significand);
  const int high = d.exponent + bit_width(d.significand) - 1;
  const int from = -1074 - low > x - 1023 ? -1074 - low : x - 1023;
  const int to = 1023 - high < x + 1074 ? 1023 - high : x + 1074;
  const int x1 = x < from ? from : (x > to ? to : x);
  const double h = exact_double(d.negative, d.significand, d.exponent + x1);
  if (x1 == x)
    acc.add(h);
  else
    acc.add_product(h, power_of_two(x - x1));
}

// C's column block [j0, j0 + width) flattened column by column.
template <class CView>
struct BlockOutput {
  using non_const_value_type = typename CView::non_const_value_type;
  CView C;
  std::int64_t m, j0;
  KOKKOS_INLINE_FUNCTION non_const_value_type& operator()(std::int64_t o) const {
    return C(o % m, j0 + o / m);
  }
};

// Element o = i + m jj of the block: S T slice products, each scaled, summed exactly and rounded
// once by GemvFinish, in two launches on every backend. SlotsTag: the certified rounding from at
// most 8 exact doubles (carried_slots, packed_slots), which finishes nearly every element without a
// long accumulator; it marks in refused(o) the elements it leaves. ExactTag: those elements
// (near-ties, more than fast_diagonals diagonals, scales near the ends of the range, exact zeros)
// summed in a long accumulator. Two launches, because one kernel doing both gives every thread the
// long accumulator's registers and local memory, which makes the common case more than twice
// as slow (figures: docs/performance.md). An element whose slice products are
// all zero has S_ij = 0 exactly; its IEEE sign (-0 only when every product a_ik b_kj is -0, as the
// other schedules give it) comes from a scan of its row and column that stops at the first
// product that is not -0.
template <class OpA, class OpB, class CView, class Diagonals, class IntView>
struct OzakiFinishFunctor {
  using Finish = GemvFinish<BlockOutput<CView>>;
  struct SlotsTag {};
  struct ExactTag {};
  OpA op_a;
  OpB op_b;
  Diagonals diagonal_sum;  // Q_g of element (i, jj), an integer below 2^59 in magnitude
  IntView top_a, top_b;
  Finish finish;
  std::int64_t m, j0, k_count;
  int slices_a, slices_b, bits;
  Kokkos::View<unsigned char*, typename IntView::memory_space> refused;  // m x block width

  static constexpr int fast_diagonals = Diagonals::max_fast_diagonals;

  // left counts the refused elements. Packed slots of at most 16 diagonals (as many as int8
  // slices of uniform data need) take 4 slots: the certified rounding's VecSum passes then run
  // over 10 terms instead of 18.
  KOKKOS_INLINE_FUNCTION void operator()(SlotsTag, const std::int64_t o, std::int64_t& left) const {
    const std::int64_t i = o % m, jj = o / m, j = j0 + jj;
    bool done = false;
    if constexpr (Diagonals::sum_bits <= 31) {
      if (slices_a + slices_b - 1 <= 4 * packed_per_slot()) {
        double slots[4];
        done = packed_slots(i, j, jj, slots) && round_from_slots(finish, o, slots);
      } else {
        double slots[8];
        done = packed_slots(i, j, jj, slots) && round_from_slots(finish, o, slots);
      }
    } else {
      double slots[8];
      done = carried_slots(i, j, jj, slots) && round_from_slots(finish, o, slots);
    }
    refused(o) = done ? 0 : 1;
    left += done ? 0 : 1;
  }

  KOKKOS_INLINE_FUNCTION void operator()(ExactTag, const std::int64_t o) const {
    if (refused(o) == 0) return;
    const std::int64_t i = o % m, jj = o / m, j = j0 + jj;
    exact(o, i, jj, j);
  }

  // Slots: at most 8 exact doubles whose sum is S_ij, for the certified rounding without a long
  // accumulator; false when the exact launch is needed.
  //
  // Carried slots (double slices' sums, up to 2^59):
  // S_ij = 2^base sum_g Q_g 2^((G - g) beta), G = S + T - 2, base = scale - G beta, with the
  // diagonal sums Q_g in 64-bit integers (|Q_g| < min(S, T) 2^53 <= 2^59). Carries from the
  // bottom leave limbs 1 .. G in [0, 2^beta) and limb 0 signed, |limb 0| < 2^60; S_ij < 0 iff
  // limb 0 < 0, and then the negated limbs are normalized again, so that the magnitude is a
  // sum of non-negative limbs. Limb 0 as two doubles (its bits above and below 2^26) and the
  // other limbs in groups of p = floor(52 / beta) (pairs: p beta <= 52 bits, exact) give at most
  // 2 + ceil(G / p) <= 8 non-overlapping exact doubles, all in the normal range (checked): slots
  // for the certified rounding without a long accumulator, which succeeds for all but near-ties.
  // False: the exact launch is needed (too many diagonals, an exact zero, or scales near the ends
  // of the range).

  // Diagonal sums below 2^31 (int8 slices): groups of p = 21 / beta + 1 consecutive diagonals
  // (4 of 7 bits) packed as v = sum_r Q_(g+r) 2^((p - 1 - r) beta), |v| < 2^31 2^((p - 1) beta)
  // 2^beta / (2^beta - 1) < 2^53: an exact integer in int64 and in double, and the slot
  // v 2^(scale - last beta) an exact double (a normal power of two, checked). The slots overlap
  // and carry their own signs: round_terms_fast sums any exact doubles (its VecSum passes are
  // error-free) and certifies the rounding or refuses. No carries and no array of limbs: the
  // carried slots' 43-limb array would live in local memory and make this kernel cost half as
  // much as the int8 GEMMs themselves.
  KOKKOS_INLINE_FUNCTION int packed_per_slot() const {
    return (52 - Diagonals::sum_bits) / bits + 1;
  }

  template <int N>
  KOKKOS_INLINE_FUNCTION bool packed_slots(std::int64_t i, std::int64_t j, std::int64_t jj,
                                           double (&slots)[N]) const {
    const int G = slices_a + slices_b - 2;
    const int per_slot = packed_per_slot();
    if (G + 1 > N * per_slot) return false;
    const int scale = top_a(i) + top_b(j) - 2 * bits;
    if (scale - G * bits < -1000 || scale + 62 > 1000) return false;
    for (int q = 0; q < N; ++q) slots[q] = 0.0;
    bool nonzero = false;
    int q = 0;
    for (int g = 0; g <= G; g += per_slot) {
      const int last = g + per_slot - 1 < G ? g + per_slot - 1 : G;
      std::int64_t v = 0;
      for (int h = g; h <= last; ++h) {
        const std::int64_t d = diagonal_sum(i, jj, h);
        nonzero = nonzero || d != 0;
        v = v * (std::int64_t(1) << bits) + d;
      }
      slots[q++] = static_cast<double>(v) * power_of_two(scale - last * bits);
    }
    return nonzero;
  }

  KOKKOS_INLINE_FUNCTION bool carried_slots(std::int64_t i, std::int64_t j, std::int64_t jj,
                                            double (&slots)[8]) const {
    const int G = slices_a + slices_b - 2;
    const int per_slot = 52 / bits;
    if (G + 1 > fast_diagonals || G > 6 * per_slot) return false;
    const int scale = top_a(i) + top_b(j) - 2 * bits;
    const int base = scale - G * bits;
    if (base < -1000 || scale + 62 > 1000) return false;
    std::int64_t limb[fast_diagonals];
    bool nonzero = false;
    for (int g = 0; g <= G; ++g) {
      limb[g] = diagonal_sum(i, jj, g);
      nonzero = nonzero || limb[g] != 0;
    }
    if (!nonzero) return false;
    const std::int64_t radix = std::int64_t(1) << bits;
    // limb = (limb >> beta) 2^beta + (limb & (2^beta - 1)) for negative limbs too: >> is the
    // arithmetic shift (floor division by 2^beta; C++20 says so, and GCC, Clang and NVCC
    // before it). A 64-bit division by the radix here would cost the kernel several times its
    // memory time.
    auto carry_up = [&]() {
      for (int g = G; g > 0; --g) {
        limb[g - 1] += limb[g] >> bits;
        limb[g] &= radix - 1;
      }
    };
    carry_up();
    const bool negative = limb[0] < 0;
    if (negative) {
      for (int g = 0; g <= G; ++g) limb[g] = -limb[g];
      carry_up();
    }
    const double sign = negative ? -1.0 : 1.0;
    for (int q = 0; q < 8; ++q) slots[q] = 0.0;
    const std::uint64_t top = static_cast<std::uint64_t>(limb[0]);
    const std::uint64_t low_mask = (std::uint64_t(1) << 26) - 1;
    const double top_scale = power_of_two(scale);
    slots[0] = sign * static_cast<double>(top & ~low_mask) * top_scale;
    slots[1] = sign * static_cast<double>(top & low_mask) * top_scale;
    int q = 2;
    for (int g = 1; g <= G; g += per_slot) {
      const int last = g + per_slot - 1 < G ? g + per_slot - 1 : G;
      std::int64_t v = 0;
      for (int h = g; h <= last; ++h) v = (v << bits) + limb[h];
      slots[q++] = sign * static_cast<double>(v) * power_of_two(scale - last * bits);
    }
    return true;
  }

  // Any element: the diagonal sums into a long accumulator (a term that is not a double, at the
  // edges of the range, as an exact product of two), and the sign of an exact zero.
  KOKKOS_INLINE_FUNCTION void exact(std::int64_t o, std::int64_t i, std::int64_t jj,
                                    std::int64_t j) const {
    LongAccumulator acc;
    const int scale = top_a(i) + top_b(j) - 2 * bits;
    bool any = false;
    // The products of one diagonal s + t = g share the scale 2^(scale - g bits): their integer sum
    // Q_g (|Q_g| < min(S, T) 2^53 <= 2^59, exact in 64-bit integers) is one term, or two when it
    // needs more than 53 bits (hi with its low 26 bits cleared, lo those bits: both exact
    // doubles). S + T - 1 terms instead of S T.
    const int diagonals = slices_a + slices_b - 1;
    for (int g = 0; g < diagonals; ++g) {
      const std::int64_t q = diagonal_sum(i, jj, g);
      if (q == 0) continue;
      any = true;
      const int x = scale - g * bits;
      const std::uint64_t u = q < 0 ? std::uint64_t(0) - std::uint64_t(q) : std::uint64_t(q);
      const double sign = q < 0 ? -1.0 : 1.0;
      if (u < (std::uint64_t(1) << 53)) {
        add_scaled_integer(acc, sign * static_cast<double>(u), x);
      } else {
        const std::uint64_t low_mask = (std::uint64_t(1) << 26) - 1;
        add_scaled_integer(acc, sign * static_cast<double>(u & ~low_mask), x);
        if ((u & low_mask) != 0)
          add_scaled_integer(acc, sign * static_cast<double>(u & low_mask), x);
      }
    }
    // A fresh accumulator rounds to +0; one that saw only -0 terms to -0.
    if (!any && all_products_negative_zero(i, j)) acc.add(-0.0);
    finish(o, acc);
  }

  KOKKOS_INLINE_FUNCTION bool all_products_negative_zero(std::int64_t i, std::int64_t j) const {
    for (std::int64_t k = 0; k < k_count; ++k) {
      const double a = op_a(i, k), b = op_b(k, j);
      if (!((a == 0.0 || b == 0.0) && sign_bit(a) != sign_bit(b))) return false;
    }
    return true;
  }
};

// The finishing of one column block [j0, j0 + w) of C from its diagonal sums: the certified
// rounding from slots, then the refused elements in a long accumulator.
template <class ExecSpace, class OpA, class OpB, class CView, class Diagonals>
void finish_ozaki_block(
    const ExecSpace& space, const OzakiScales<typename ExecSpace::memory_space>& sc,
    const OpA& op_a, const OpB& op_b, const CView& C, typename CView::const_value_type alpha,
    typename CView::const_value_type beta, const Diagonals& diagonals, std::int64_t j0,
    std::int64_t w, const Kokkos::View<unsigned char*, typename ExecSpace::memory_space>& refused) {
  using IntView = Kokkos::View<int*, typename ExecSpace::memory_space>;
  using F = OzakiFinishFunctor<OpA, OpB, CView, Diagonals, IntView>;
  const std::int64_t m = static_cast<std::int64_t>(C.extent(0));
  const GemvFinish<BlockOutput<CView>> finish{BlockOutput<CView>{C, m, j0}, alpha, beta};
  const F f{op_a, op_b, diagonals,        sc.top_a,         sc.top_b,           finish, m,
            j0,   sc.k, sc.plan.slices_a, sc.plan.slices_b, sc.plan.slice_bits, refused};
  std::int64_t left = 0;
  Kokkos::parallel_reduce("ExKokkos::exgemm ozaki sum",
                          Kokkos::RangePolicy<ExecSpace, typename F::SlotsTag>(space, 0, m * w), f,
                          left);
  // Usually none is left (e.g. uniform data): the exact launch, whose threads each hold a long
  // accumulator (every register a thread can have), would cost a full pass only to find that
  // out.
  if (left > 0)
    Kokkos::parallel_for("ExKokkos::exgemm ozaki sum (refused)",
                         Kokkos::RangePolicy<ExecSpace, typename F::ExactTag>(space, 0, m * w), f);
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_OZAKIFINISH_IMPL_HPP
