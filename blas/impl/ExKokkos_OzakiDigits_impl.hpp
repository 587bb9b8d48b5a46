// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The slices' digits of the Ozaki schedule (ExKokkos_GemmOzaki_impl.hpp): bit ranges of the
// IEEE significand cut with integer shifts, so that no floating-point operation can round,
// underflow or overflow whatever the magnitude of the data.
#ifndef EXKOKKOS_OZAKIDIGITS_IMPL_HPP
#define EXKOKKOS_OZAKIDIGITS_IMPL_HPP

#include <ExKokkos_LongAccumulator.hpp>  // FloatBits: classify, decompose, bit_width

#include <cstdint>

namespace ExKokkos {
namespace Impl {

KOKKOS_INLINE_FUNCTION int trailing_zeros(std::uint64_t x) {  // x != 0
  return bit_width(x & (~x + 1)) - 1;
}

// The integer made of the bits of |x| at positions [lo, lo + bits), with x's sign, as a double
// (exact: below 2^26). Integer shifts only.
KOKKOS_INLINE_FUNCTION double slice_digit(double x, int lo, int bits) {
  if (classify(x) != FloatClass::finite) return 0.0;  // zero (the scan refused NaN and inf)
  const DecomposedDouble d = decompose(x);
  const int shift = d.exponent - lo;  // bit 0 of the significand sits at position shift
  std::uint64_t v;
  if (shift >= 0)
    v = shift >= 64 ? 0 : d.significand << shift;  // bits pushed out lie above the window
  else
    v = -shift >= 64 ? 0 : d.significand >> -shift;
  v &= (std::uint64_t(1) << bits) - 1;
  if (v == 0) return 0.0;
  const double r = static_cast<double>(v);
  return d.negative ? -r : r;
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_OZAKIDIGITS_IMPL_HPP
