// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The finishing protocol: what a kernel does with output i once it holds the exact sum S_i, or a
// cheaper form of it that may prove RN(S_i) (docs/design.md, "The finishing protocol"). The
// kernels that walk the terms (exgemv's schedules, which exgemm and extrsv's panels also run, the
// LU's entry updates, extrsv's rows) know nothing of the output itself; a Finish says it.
//
// A Finish provides
//   value_type: the scalar of the result. Products of doubles go through TwoProd; two floats
//     multiply exactly in double, so their products are plain terms;
//   operator()(i, const LongAccumulator& s): the exact step, from a long accumulator holding S_i;
//     it always succeeds.
// Optionally:
//   operator()(i, const std::uint64_t* normalized, std::uint32_t flags): the same from a team
//     accumulator's normalized digits and flags in scratch memory, without copying them (else
//     the engine merges them into a LongAccumulator first);
//   static constexpr bool certifies_compensated: true when the two members below exist and
//     certify (only a Finish that rounds a double result: one that keeps the exact sum for later
//     or rounds floats has nothing to certify, and the kernels skip the compensated sum for it);
//     bool round_compensated(i, const CompensatedSum& sum, double& r): true, with the result r of
//     output i, when the rounding from the compensated sum is certified; r is not written to the
//     output, so that a schedule can write a block of outputs only once each is certified;
//     void store(i, double r): writes it;
//   template <int N> bool round_from_slots(i, const double (&slots)[N]): true, having written
//     output i, when its rounding from the N slots of an expansion that kept every term (their
//     sum is S_i) is certified; false leaves the output untouched.
// Each step that answers gives the bits of the exact step, so which one answers never shows.
//
// FinishTraits checks the protocol at compile time, with a message naming what is missing, and
// says which optional steps a Finish has; the kernels reach the optional steps only through
// round_from_compensated and round_from_slots, which are `false` where a Finish lacks the step.
#ifndef EXKOKKOS_FINISH_IMPL_HPP
#define EXKOKKOS_FINISH_IMPL_HPP

#include <ExKokkos_CompensatedSum.hpp>
#include <ExKokkos_LongAccumulator.hpp>

#include <cstdint>
#include <type_traits>
#include <utility>

namespace ExKokkos {
namespace Impl {

// Whether Op<F> names a type: the members a Finish has.
template <template <class> class Op, class F, class = void>
struct FinishHas : std::false_type {};
template <template <class> class Op, class F>
struct FinishHas<Op, F, std::void_t<Op<F>>> : std::true_type {};

template <class F>
using FinishValueType = typename F::value_type;
template <class F>
using FinishAccumulatorStep =
    decltype(std::declval<const F&>()(std::int64_t(), std::declval<const LongAccumulator&>()));
template <class F>
using FinishDigitsStep = decltype(std::declval<const F&>()(
    std::int64_t(), std::declval<const std::uint64_t*>(), std::uint32_t()));
template <class F>
using FinishCertifiesFlag = decltype(F::certifies_compensated);
template <class F>
using FinishCompensatedStep =
    decltype(bool(std::declval<const F&>().round_compensated(
                 std::int64_t(), std::declval<const CompensatedSum&>(), std::declval<double&>())),
             std::declval<const F&>().store(std::int64_t(), 0.0));
template <class F>
using FinishSlotsStep = decltype(bool(std::declval<const F&>().round_from_slots(
    std::int64_t(), std::declval<const double (&)[2]>())));

template <class F>
constexpr bool finish_declares_certifies() {
  if constexpr (FinishHas<FinishCertifiesFlag, F>::value)
    return F::certifies_compensated;
  else
    return false;
}

// The protocol's check and the optional steps a Finish has. Every kernel that takes a Finish names
// FinishTraits<Finish>, which instantiates the checks.
template <class Finish>
struct FinishTraits {
  static_assert(FinishHas<FinishValueType, Finish>::value,
                "a Finish needs value_type, the scalar of its result (blas/impl/"
                "ExKokkos_Finish_impl.hpp)");
  static_assert(FinishHas<FinishAccumulatorStep, Finish>::value,
                "a Finish needs operator()(std::int64_t i, const LongAccumulator& s) const, the "
                "exact step (blas/impl/ExKokkos_Finish_impl.hpp)");
  static_assert(!finish_declares_certifies<Finish>() ||
                    FinishHas<FinishCompensatedStep, Finish>::value,
                "a Finish with certifies_compensated = true needs bool round_compensated("
                "std::int64_t, const CompensatedSum&, double&) const and void store(std::int64_t, "
                "double) const (blas/impl/ExKokkos_Finish_impl.hpp)");
  static constexpr bool checked = true;
  // Step 1 is tried only for a Finish that says it certifies.
  static constexpr bool certifies = finish_declares_certifies<Finish>();
  static constexpr bool rounds_slots = FinishHas<FinishSlotsStep, Finish>::value;
  static constexpr bool rounds_digits = FinishHas<FinishDigitsStep, Finish>::value;
};

// Step 1: output i rounded and written from a compensated sum of its terms when the Finish
// certifies it; false (nothing written) otherwise.
template <class Finish>
KOKKOS_INLINE_FUNCTION bool round_from_compensated(const Finish& finish, std::int64_t i,
                                                   const CompensatedSum& sum) {
  if constexpr (FinishTraits<Finish>::certifies) {
    double r;
    if (!finish.round_compensated(i, sum, r)) return false;
    finish.store(i, r);
    return true;
  } else {
    (void)finish, (void)i, (void)sum;
    return false;
  }
}

// Step 2: output i rounded and written from the N slots whose sum is S_i when certified; false
// (nothing written) otherwise, and always for a Finish without the step.
template <class Finish, int N>
KOKKOS_INLINE_FUNCTION bool round_from_slots(const Finish& finish, std::int64_t i,
                                             const double (&slots)[N]) {
  if constexpr (FinishTraits<Finish>::rounds_slots) {
    return finish.round_from_slots(i, slots);
  } else {
    (void)finish, (void)i, (void)slots;
    return false;
  }
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_FINISH_IMPL_HPP
