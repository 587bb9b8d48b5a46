// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ExKokkos::LazyAccumulator: a long accumulator built only when something reaches it. Most short
// sums of ordinary data stay inside their expansion and are rounded from its slots (see
// ExKokkos_ExpansionRounding.hpp); clearing, normalizing and rounding a 1 KiB accumulator for each
// of them would cost more than the sum itself (exgemv's lanes, the LU's entry updates).
#ifndef EXKOKKOS_LAZYACCUMULATOR_HPP
#define EXKOKKOS_LAZYACCUMULATOR_HPP

#include "ExKokkos_LongAccumulator.hpp"

#include <new>

namespace ExKokkos {
namespace Impl {

// A sink (add, add_product) that records whether anything reached it.
class LazyAccumulator {
 public:
  KOKKOS_INLINE_FUNCTION LazyAccumulator() : used_(false) {}
  KOKKOS_INLINE_FUNCTION ~LazyAccumulator() {}  // the accumulator needs no destruction

  KOKKOS_INLINE_FUNCTION void add(double x) { get().add(x); }
  KOKKOS_INLINE_FUNCTION void add_product(double a, double b) { get().add_product(a, b); }
  KOKKOS_INLINE_FUNCTION bool used() const { return used_; }

  // The accumulator, built (cleared) on first use.
  KOKKOS_INLINE_FUNCTION LongAccumulator& get() {
    if (!used_) {
      new (&acc_) LongAccumulator();
      used_ = true;
    }
    return acc_;
  }

 private:
  bool used_;
  union {
    LongAccumulator acc_;
  };
};

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_LAZYACCUMULATOR_HPP
