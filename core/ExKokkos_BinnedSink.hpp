// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ExKokkos::Impl::BinnedSink<Sink>: a sink in front of a long accumulator's sink that makes each
// exact term, a double or the exact product of two, one integer addition, for CPU threads whose
// data no expansion can hold.
//
// Why. Data spread over many binades (lognormal, full exponent range) leaves a leftover for the
// long accumulator at nearly every step of an expansion's cascade, and a deposit into the long
// accumulator cuts its term into 32-bit chunks at the term's bit position: a loop with a branch per
// chunk, which was the whole cost of such sums. A table of integers indexed by the term's exponent
// (R. M. Neal, "Fast exact summation using small and large superaccumulators", 2015: the large
// superaccumulator) makes a term one addition at the index of its exponent; the table goes to the
// long accumulator once at the end (and after every `capacity` terms).
//
// Format. Bins come in pairs, for positive and for negative terms (so that no term is ever
// negated; Neal indexes his by sign too): bin k (0 .. 4195) of sign s sits at index 2k + s, so the
// two signs of one exponent share a cache line and the index is a shift and an OR. A bin holds an
// unsigned 128-bit integer c_k (two 64-bit words) and stands for c_k * 2^(k - 2148), with its sign:
// the unit of bin 0 is the last bit of the smallest exact product of two doubles (2^-1074 *
// 2^-1074). A finite non-zero double with exponent field e and significand m < 2^53 (the hidden bit
// included) is exactly m units of bin u + 1073, where u = max(e, 1) (its last bit weighs
// 2^(u - 1075); subnormals share the unit of field 1). The exact product of two of them is the
// integer ma * mb < 2^106 in units of bin ua + ub - 2 (at most 2 * 2046 - 2 = 4090). Nothing
// rounds: the bins always hold the exact sum of what they took.
//
// Headroom. A term adds less than 2^106 to one c_k, so 2^20 terms (`capacity`) keep every c_k
// below 2^126: no 128-bit word can overflow. One count for all bins, and every 2^20 terms the bins
// are emptied into the long accumulator; no per-bin test on the way. Emptying deposits each
// non-zero bin once (at most four 32-bit words at bin k's unit: Sink::add_scaled_magnitude;
// c_k 2^(k - 2148) < 2^(4090 + 126 - 2148) stays far below the long accumulator's top), and a
// non-zero bin took at least one term, so the long accumulator takes no more deposits than there
// were terms.
//
// Many terms at once (add_terms_reserved, add_products_reserved) take two passes over each chunk
// of 64: the first reads every term's fields (significand, bin index) with no branch, a loop the
// compiler vectorizes, and gives each unusual term (zero, subnormal, infinite or NaN, or a product
// with such a factor) the significand 0, which adds nothing; the second does one integer product
// and one 128-bit addition per term; the chunk's unusual terms then go the one-term way. The bins
// end with the same integers as term by term, in about half the time on a CPU core (figures:
// docs/performance.md). The first pass keeps only one "some term was unusual" bit, a reduction
// that leaves the pass vectorizable, and the rare chunk that has one reads its terms again to
// find them; a flag or mask kept per term costs every term more than the re-reading costs those
// rare chunks (docs/performance.md).
//
// Special values and zeros (NaN, +-inf, +-0, and products with such a factor) go straight to the
// long accumulator's sink, whose flags carry what they mean (ExKokkos_LongAccumulator.hpp). A bin
// sums magnitudes of one sign, so it is non-zero exactly when it took a term: emptying it gives
// the sink the flags of a finite non-zero term, and an empty bin gives none (a sum of -0 terms
// stays -0).
//
// 131 KiB of bins: a host-only object (one per CPU thread, on its stack, so threads need stacks
// of at least 256 KiB: docs/guarantees.md), cleared only when the first term reaches it, so sums
// that never leave their expansion pay nothing for it.
#ifndef EXKOKKOS_BINNEDSINK_HPP
#define EXKOKKOS_BINNEDSINK_HPP

#include "impl/ExKokkos_FloatBits.hpp"
#include "impl/ExKokkos_WideMultiply.hpp"

#include <cstdint>

namespace ExKokkos {
namespace Impl {

template <class Sink>
class BinnedSink {
 public:
  static constexpr int num_bins = 4196;                              // units 2^-2148 .. 2^2047
  static constexpr std::uint32_t capacity = std::uint32_t(1) << 20;  // terms between two emptyings

  KOKKOS_INLINE_FUNCTION explicit BinnedSink(Sink& sink) : sink_(sink), used_(false), room_(0) {}

  KOKKOS_FORCEINLINE_FUNCTION void add(double x) {
    reserve(1);
    add_reserved(x);
  }

  // Adds the exact product a * b.
  KOKKOS_FORCEINLINE_FUNCTION void add_product(double a, double b) {
    reserve(1);
    add_product_reserved(a, b);
  }

  // Makes room for n <= capacity terms, which the *_reserved forms below then add without a test
  // of their own (a loop over many terms reserves once).
  KOKKOS_INLINE_FUNCTION void reserve(std::uint32_t n) {
    if (room_ < n) make_room();
    room_ -= n;
  }

  KOKKOS_FORCEINLINE_FUNCTION void add_reserved(double x) {
    const std::uint64_t bits = compat::bit_cast<std::uint64_t>(x);
    if (!finite_nonzero(bits)) {
      sink_.add(x);
      return;
    }
    add_integer(0, significand(bits), unit_field(bits) + 1073, (bits >> 63) != 0);
  }

  // (ma 2^(ua - 1075)) (mb 2^(ub - 1075)) = ma mb 2^(ua + ub - 2150): bin ua + ub - 2.
  KOKKOS_FORCEINLINE_FUNCTION void add_product_reserved(double a, double b) {
    const std::uint64_t bits_a = compat::bit_cast<std::uint64_t>(a);
    const std::uint64_t bits_b = compat::bit_cast<std::uint64_t>(b);
    if (!(finite_nonzero(bits_a) && finite_nonzero(bits_b))) {
      sink_.add_product(a, b);
      return;
    }
    std::uint64_t high, low;
    multiply_wide(significand(bits_a), significand(bits_b), high, low);
    add_integer(high, low, unit_field(bits_a) + unit_field(bits_b) - 2,
                ((bits_a ^ bits_b) >> 63) != 0);
  }

  static constexpr int chunk = 64;  // terms per pass of the many-term forms below

  // Adds values(i) for i in [first, first + count), reserved; values(i) returns a double.
  template <class Values>
  KOKKOS_FORCEINLINE_FUNCTION void add_terms_reserved(const Values& values, std::int64_t first,
                                                      std::int64_t count) {
    std::uint64_t m[chunk];
    std::uint32_t index[chunk];
    for (std::int64_t base = first; base < first + count; base += chunk) {
      const int len = first + count - base < chunk ? static_cast<int>(first + count - base) : chunk;
      std::uint64_t unusual = 0;
      for (int j = 0; j < len; ++j) {
        const std::uint64_t bits = compat::bit_cast<std::uint64_t>(values(base + j));
        const std::uint64_t e = field(bits);
        const bool odd = !normal_field(e);
        unusual |= odd;
        m[j] = odd ? 0 : normal_significand(bits);
        index[j] = odd ? 0 : bin_index(static_cast<std::uint32_t>(e) + 1073, bits);
      }
      for (int j = 0; j < len; ++j) add_integer_at(index[j], 0, m[j]);
      if (unusual)
        for (int j = 0; j < len; ++j) {
          const double x = values(base + j);
          if (!normal_field(field(compat::bit_cast<std::uint64_t>(x)))) add_reserved(x);
        }
    }
  }

  // Adds the exact products a * b of pairs(i, a, b) for i in [first, first + count), reserved.
  template <class Pairs>
  KOKKOS_FORCEINLINE_FUNCTION void add_products_reserved(const Pairs& pairs, std::int64_t first,
                                                         std::int64_t count) {
    std::uint64_t ma[chunk], mb[chunk];
    std::uint32_t index[chunk];
    for (std::int64_t base = first; base < first + count; base += chunk) {
      const int len = first + count - base < chunk ? static_cast<int>(first + count - base) : chunk;
      std::uint64_t unusual = 0;
      for (int j = 0; j < len; ++j) {
        double a, b;
        pairs(base + j, a, b);
        const std::uint64_t bits_a = compat::bit_cast<std::uint64_t>(a);
        const std::uint64_t bits_b = compat::bit_cast<std::uint64_t>(b);
        const std::uint64_t ea = field(bits_a), eb = field(bits_b);
        const bool odd = !normal_field(ea) | !normal_field(eb);
        unusual |= odd;
        ma[j] = odd ? 0 : normal_significand(bits_a);
        mb[j] = normal_significand(bits_b);
        index[j] = odd ? 0 : bin_index(static_cast<std::uint32_t>(ea + eb) - 2, bits_a ^ bits_b);
      }
      for (int j = 0; j < len; ++j) {
        std::uint64_t high, low;
        multiply_wide(ma[j], mb[j], high, low);
        add_integer_at(index[j], high, low);
      }
      if (unusual)
        for (int j = 0; j < len; ++j) {
          double a, b;
          pairs(base + j, a, b);
          if (!(normal_field(field(compat::bit_cast<std::uint64_t>(a))) &&
                normal_field(field(compat::bit_cast<std::uint64_t>(b)))))
            add_product_reserved(a, b);
        }
    }
  }

  // Hands every bin to the sink and clears them: the sink then holds the exact sum of everything
  // this sink took. Call after the last term; the bins may take terms again afterwards.
  KOKKOS_INLINE_FUNCTION void flush() {
    if (!used_) return;
    for (int t = 0; t < 2 * num_bins; ++t) {
      const std::uint64_t low = bins_[t][0], high = bins_[t][1];
      if ((high | low) != 0) sink_.add_scaled_magnitude(high, low, t / 2 - 2148, (t & 1) != 0);
    }
    used_ = false;
    room_ = 0;  // the next term clears the bins
  }

 private:
  // Neither zero nor infinite nor NaN: (bits << 1) - 1 wraps to the largest word for +-0 and is
  // at least (0x7ff << 53) - 1 for +-inf and NaN, so one unsigned comparison tells.
  KOKKOS_FORCEINLINE_FUNCTION static bool finite_nonzero(std::uint64_t bits) {
    constexpr std::uint64_t special = std::uint64_t(0x7ff) << 53;
    return (bits << 1) - 1 < special - 1;
  }
  // max(e, 1) for the exponent field e: subnormals share the unit of field 1.
  KOKKOS_FORCEINLINE_FUNCTION static int unit_field(std::uint64_t bits) {
    const int e = static_cast<int>((bits >> 52) & 0x7ff);
    return e + static_cast<int>(e == 0);
  }
  // The significand with its hidden bit (none for a subnormal).
  KOKKOS_FORCEINLINE_FUNCTION static std::uint64_t significand(std::uint64_t bits) {
    const std::uint64_t hidden = static_cast<std::uint64_t>(((bits >> 52) & 0x7ff) != 0) << 52;
    return (bits & ((std::uint64_t(1) << 52) - 1)) | hidden;
  }

  // The exponent field, and whether it is that of a normal number (1 .. 2046): one unsigned
  // comparison, e - 1 wrapping to the largest word for 0.
  KOKKOS_FORCEINLINE_FUNCTION static std::uint64_t field(std::uint64_t bits) {
    return (bits >> 52) & 0x7ff;
  }
  KOKKOS_FORCEINLINE_FUNCTION static bool normal_field(std::uint64_t e) { return e - 1 < 2046; }
  // The significand of a normal number, its hidden bit included.
  KOKKOS_FORCEINLINE_FUNCTION static std::uint64_t normal_significand(std::uint64_t bits) {
    return (bits & ((std::uint64_t(1) << 52) - 1)) | (std::uint64_t(1) << 52);
  }
  // Index of bin k for the sign bit of sign_bits (bit 63).
  KOKKOS_FORCEINLINE_FUNCTION static std::uint32_t bin_index(std::uint32_t k,
                                                             std::uint64_t sign_bits) {
    return (k << 1) | static_cast<std::uint32_t>(sign_bits >> 63);
  }

  // Adds (high 2^64 + low) units to the bin at index t.
  KOKKOS_FORCEINLINE_FUNCTION void add_integer_at(std::uint32_t t, std::uint64_t high,
                                                  std::uint64_t low) {
    std::uint64_t* bin = bins_[t];
    const std::uint64_t sum_low = bin[0] + low;
    bin[1] += high + static_cast<std::uint64_t>(sum_low < low);  // carry out of the low word
    bin[0] = sum_low;
  }
  // Adds (high 2^64 + low) units of bin k of the sign.
  KOKKOS_FORCEINLINE_FUNCTION void add_integer(std::uint64_t high, std::uint64_t low, int k,
                                               bool negative) {
    add_integer_at((static_cast<std::uint32_t>(k) << 1) | static_cast<std::uint32_t>(negative),
                   high, low);
  }

  // Clears the bins on first use, and empties them when they have taken `capacity` terms.
  KOKKOS_INLINE_FUNCTION void make_room() {
    if (used_) flush();
    for (int k = 0; k < 2 * num_bins; ++k) bins_[k][0] = bins_[k][1] = 0;
    used_ = true;
    room_ = capacity;
  }

  Sink& sink_;
  bool used_;
  std::uint32_t room_;  // terms the bins may still take before they must be emptied
  std::uint64_t bins_[2 * num_bins][2];  // bin k of sign s at 2k + s; low and high words
};

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_BINNEDSINK_HPP
