// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The 128-bit product of two integers below 2^56 with 64-bit words, on every backend (the exact
// products of significands that the long accumulator and the exponent bins take, the midpoints'
// squares of the correctly rounded square root).
#ifndef EXKOKKOS_IMPL_WIDEMULTIPLY_HPP
#define EXKOKKOS_IMPL_WIDEMULTIPLY_HPP

#include "../ExKokkos_Compat.hpp"

#include <cstdint>

namespace ExKokkos {
namespace Impl {

// ma * mb = high 2^64 + low for 64-bit words, from 32-bit halves. For ma, mb < 2^56 (the
// significands of two doubles, or the 56-bit midpoints of the correctly rounded square root) every
// partial product and sum fits in 64 bits: a1, b1 < 2^24, so p00 < 2^64, mid < 2^57 + 2^32 and
// high < 2^48 + 2^25.
KOKKOS_INLINE_FUNCTION void multiply_wide_by_halves(std::uint64_t ma, std::uint64_t mb,
                                                    std::uint64_t& high, std::uint64_t& low) {
  constexpr std::uint64_t mask32 = (std::uint64_t(1) << 32) - 1;
  const std::uint64_t a0 = ma & mask32, a1 = ma >> 32;  // a1, b1 < 2^24
  const std::uint64_t b0 = mb & mask32, b1 = mb >> 32;
  const std::uint64_t p00 = a0 * b0;                          // < 2^64
  const std::uint64_t mid = a1 * b0 + a0 * b1 + (p00 >> 32);  // < 2^57 + 2^32
  low = (mid << 32) | (p00 & mask32);                         // bits of mid above 32 go to high
  high = a1 * b1 + (mid >> 32);
}

// The same with one 64 x 64 -> 128-bit multiplication where the compiler has it.
KOKKOS_FORCEINLINE_FUNCTION void multiply_wide(std::uint64_t ma, std::uint64_t mb,
                                               std::uint64_t& high, std::uint64_t& low) {
#if defined(__SIZEOF_INT128__) && !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
  const unsigned __int128 p = static_cast<unsigned __int128>(ma) * mb;
  low = static_cast<std::uint64_t>(p);
  high = static_cast<std::uint64_t>(p >> 64);
#else
  multiply_wide_by_halves(ma, mb, high, low);
#endif
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_IMPL_WIDEMULTIPLY_HPP
