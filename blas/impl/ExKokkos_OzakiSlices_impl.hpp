// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The Ozaki schedule's double slices (ExKokkos_GemmOzaki_impl.hpp describes the method): beta-bit
// digits of op(A) and op(B) as integer-valued doubles, laid out so that one GEMM of (S m) x k x
// (T n) forms every slice product, and the finishing's view of that product as diagonal sums.
#ifndef EXKOKKOS_OZAKISLICES_IMPL_HPP
#define EXKOKKOS_OZAKISLICES_IMPL_HPP

#include "ExKokkos_OzakiDigits_impl.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace ExKokkos {
namespace Impl {

// Slices of op(A): As(i S + s, k) = d_s(a_ik), s < S, As LayoutLeft (S m) x k.
template <class OpA, class IntView, class SliceView>
struct SliceRowsFunctor {
  OpA op;
  IntView top;
  SliceView out;
  std::int64_t m;
  int slices, bits;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t q) const {
    const std::int64_t i = q % m, k = q / m;
    const double x = op(i, k);
    const int e = top(i);
    for (int s = 0; s < slices; ++s)
      out(i * slices + s, k) = slice_digit(x, e - (s + 1) * bits, bits);
  }
};

// Slices of op(B): Bs(k, j T + t) = d_t(b_kj), t < T, Bs LayoutLeft k x (T n).
template <class OpB, class IntView, class SliceView>
struct SliceColumnsFunctor {
  OpB op;
  IntView top;
  SliceView out;
  std::int64_t k_count;
  int slices, bits;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t q) const {
    const std::int64_t k = q % k_count, j = q / k_count;
    const double x = op(k, j);
    const int e = top(j);
    for (int t = 0; t < slices; ++t)
      out(k, j * slices + t) = slice_digit(x, e - (t + 1) * bits, bits);
  }
};

// The diagonal sums of double slices: Q_g(i, jj) = sum_{s + t = g} P(i S + s, jj T + t), each P
// entry an integer below 2^53, so |Q_g| < min(S, T) 2^53 <= 2^59 in 64-bit integers.
template <class PView>
struct Fp64Diagonals {
  // The slots take at most this many diagonals: 2 limbs of beta bits per slot, 2 + 12 / 2 = 8.
  static constexpr int max_fast_diagonals = 13;
  static constexpr int sum_bits = 59;  // |Q_g| < 2^sum_bits
  PView P;
  int slices_a, slices_b;
  KOKKOS_INLINE_FUNCTION std::int64_t operator()(std::int64_t i, std::int64_t jj, int g) const {
    std::int64_t q = 0;
    const int s_end = g < slices_a ? g : slices_a - 1;
    for (int s = g < slices_b ? 0 : g - slices_b + 1; s <= s_end; ++s)
      q += static_cast<std::int64_t>(P(i * slices_a + s, jj * slices_b + (g - s)));
    return q;
  }
};

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_OZAKISLICES_IMPL_HPP
