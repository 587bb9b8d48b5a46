// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The wire form of a LongAccumulator, for adding accumulators that live in different processes
// (ExKokkos_MPI.hpp): its normalized digits and its flags as PackedAccumulator::num_words unsigned
// 64-bit words, and the exact sum of two packed accumulators. No MPI and no Kokkos policy here, so
// that the host tests can check the arithmetic alone.
//
//   words[0 .. num_digits-1]  the digits of the normalized accumulator (digit_i < 2^32 but the
//                             top one, which carries the sign in two's complement);
//   words[flags_word]         the accumulator's flags in the low 32 bits; the high 32 bits are
//                             ORed like the flags and free for the caller (the MPI layer reports
//                             invalid arguments on some rank there).
//
// Exactness of combine_packed for any number of processes and any order of combination: both
// operands are normalized, so their sum is one deposit of headroom (AccumulatorDigits.hpp: a
// normalized accumulator takes up to deposit_capacity = 2^31 - 1 merges), and the sum is
// normalized again at once, so the result is normalized as well and the next combination starts
// from the same invariant. The top digits add modulo 2^64 (unsigned, no undefined behaviour), which
// is their two's-complement sum: the top digit's unit is 2^2044 and every term is below 2^2048, so
// after N terms in all it holds at most about 16 N, far inside 63 bits. Reproducibility: the value
// is exact, and the normalized form of a value is unique (digits 0 .. num_digits-2 are its
// base-2^32 digits modulo 2^(32 (num_digits-1)), the top digit the floor of the rest), so every
// tree of combinations that MPI may choose gives the same words.
#ifndef EXKOKKOS_PACKEDACCUMULATOR_HPP
#define EXKOKKOS_PACKEDACCUMULATOR_HPP

#include "ExKokkos_LongAccumulator.hpp"

#include <cstdint>

namespace ExKokkos {
namespace Impl {

struct PackedAccumulator {
  static constexpr int num_digits = AccumulatorFormat::num_digits;
  static constexpr int flags_word = num_digits;
  static constexpr int num_words = num_digits + 1;
  static constexpr std::uint64_t accumulator_flags_mask = 0xffffffffu;
};

// Writes acc's normalized digits and its flags to words[0 .. num_words-1].
inline void pack(const LongAccumulator& acc, std::uint64_t* words) {
  LongAccumulator normalized = acc;
  normalized.normalize();
  const std::uint64_t* digits = normalized.digits();
  for (int i = 0; i < PackedAccumulator::num_digits; ++i) words[i] = digits[i];
  words[PackedAccumulator::flags_word] = normalized.flags();
}

// The accumulator that words (as written by pack or combine_packed) hold.
inline LongAccumulator unpack(const std::uint64_t* words) {
  LongAccumulator acc;
  acc.merge_normalized(words,
                       static_cast<std::uint32_t>(words[PackedAccumulator::flags_word] &
                                                  PackedAccumulator::accumulator_flags_mask));
  return acc;
}

// inout := in + inout exactly, normalized; the flag words are ORed. Both operands must be packed
// (normalized): see the bound at the top of this file.
inline void combine_packed(const std::uint64_t* in, std::uint64_t* inout) {
  for (int i = 0; i < PackedAccumulator::num_digits; ++i) inout[i] += in[i];
  normalize_digits(inout, PackedAccumulator::num_digits);
  inout[PackedAccumulator::flags_word] |= in[PackedAccumulator::flags_word];
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_PACKEDACCUMULATOR_HPP
