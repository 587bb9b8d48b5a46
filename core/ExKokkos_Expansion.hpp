// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ExKokkos::Expansion<N>: a floating-point expansion (FPE) of N doubles held in registers by one
// thread, the first level of the multi-level algorithm of the ExBLAS papers (Iakymchuk, Collange,
// Defour, Graillat: "ExBLAS: Reproducible and Accurate BLAS Library", Alg. 4
// "ExpansionAccumulate").
//
// A term is added to slot 0 with TwoSum; the rounding error goes on to slot 1, and so on down the
// slots. Every step is exact, so at all times
//     sum of the slots + everything handed to the sink == sum of all terms added
// exactly. Whatever error is left after the last slot goes to the sink (a long accumulator). With
// EarlyExit the cascade stops as soon as the error is exactly zero (fewer flops, a branch).
//
// Range. TwoSum is exact unless the sum overflows. Terms with |x| >= 2^1000 (and NaN, inf) go to
// the sink directly, and the head is flushed to the sink when it reaches 2^1000, so no slot ever
// adds two numbers whose sum could overflow. (Lower slots receive only rounding errors of at most
// ulp(2^1001)/2 = 2^948 per term, so they could reach 2^1000 only after 2^52 terms.)
//
// Products (ExDOT). add_product uses TwoProd, exact when 2^-969 <= |a*b| < 2^1000 (see
// two_prod_is_exact); other products take the sink's exact integer path. The product goes to the
// head, its error to the tail slots: the errors are far smaller than the products, so starting
// them low saves flops (Iakymchuk et al., "Reproducible and accurate algorithms for numerical
// linear algebra" (LU paper), section 5.2).
//
// Sign of zero. The head starts at -0, the identity of IEEE addition: RN(a + b) is -0 only when
// a and b are both -0, so the head is -0 exactly when every term so far was -0. flush() hands the
// head to the sink even when it is zero, so the sink sees the right sign of an exact zero sum.
#ifndef EXKOKKOS_EXPANSION_HPP
#define EXKOKKOS_EXPANSION_HPP

#include "ExKokkos_ErrorFreeTransforms.hpp"

namespace ExKokkos {
namespace Impl {

// Hands the N slots of an expansion (slots[0] its head) to a sink: the head even when it is zero,
// since its sign is the sign of an exact zero sum (see "Sign of zero" above), the other slots only
// when they are not zero (a zero there adds nothing). Every flush of slots goes through here.
template <int N, class Sink>
KOKKOS_INLINE_FUNCTION void add_slots(const double (&slots)[N], Sink& sink) {
  sink.add(slots[0]);
  for (int i = 1; i < N; ++i)
    if (slots[i] != 0.0) sink.add(slots[i]);
}

// Sink: anything with add(double) and add_product(double, double) that sums exactly (a
// LongAccumulator, a team accumulator's deposit handle).
template <int N, bool EarlyExit = false>
class Expansion {
  static_assert(N >= 2 && N <= 8, "Expansion<N> needs 2 <= N <= 8");

 public:
  static constexpr int size = N;
  // First slot that receives TwoProd errors.
  static constexpr int tail_start = N >= 3 ? N - 2 : 1;

  KOKKOS_INLINE_FUNCTION Expansion() { clear(); }

  KOKKOS_INLINE_FUNCTION void clear() {
    slot_[0] = -0.0;
    for (int i = 1; i < N; ++i) slot_[i] = 0.0;
  }

  template <class Sink>
  KOKKOS_INLINE_FUNCTION void add(double x, Sink& sink) {
    if (!(Impl::compat::fabs(x) < Impl::EftLimits<double>::big)) {  // also NaN and inf
      sink.add(x);
      return;
    }
    cascade<0>(x, sink);
    guard_head(sink);
  }

  template <class Sink>
  KOKKOS_INLINE_FUNCTION void add_product(double a, double b, Sink& sink) {
    double p, e;
    two_prod(a, b, p, e);
    if (!Impl::two_prod_is_exact(p)) {  // zero, NaN, inf, or an inexact TwoProd
      sink.add_product(a, b);
      return;
    }
    cascade<0>(p, sink);
    cascade<tail_start>(e, sink);
    guard_head(sink);
  }

  // Hands every slot to the sink and clears the expansion.
  template <class Sink>
  KOKKOS_INLINE_FUNCTION void flush(Sink& sink) {
    add_slots(slot_, sink);
    clear();
  }

  // True when nothing but -0 terms was added since the last clear: the head is -0 (by its bits:
  // +0 == -0) and every other slot zero. Flushing an empty expansion adds nothing, not even to a
  // zero's sign.
  KOKKOS_INLINE_FUNCTION bool empty() const {
    bool none = Impl::compat::bit_cast<std::uint64_t>(slot_[0]) == 0x8000000000000000u;
    for (int i = 1; i < N; ++i) none = none && slot_[i] == 0.0;
    return none;
  }

  KOKKOS_INLINE_FUNCTION double operator[](int i) const { return slot_[i]; }

 private:
  template <int First, class Sink>
  KOKKOS_INLINE_FUNCTION void cascade(double x, Sink& sink) {
    for (int i = First; i < N; ++i) {
      two_sum(slot_[i], x, slot_[i], x);
      if (EarlyExit && x == 0.0) return;
    }
    if (x != 0.0) sink.add(x);
  }

  template <class Sink>
  KOKKOS_INLINE_FUNCTION void guard_head(Sink& sink) {
    if (!(Impl::compat::fabs(slot_[0]) < Impl::EftLimits<double>::big)) flush(sink);
  }

  double slot_[N];
};

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_EXPANSION_HPP
