// exgemm by error-free splitting (the Ozaki scheme: Ozaki, Ogita, Oishi, Rump, "Error-free
// transformations of matrix multiplication by using fast routines of matrix multiplication and its
// applications", Numer. Algorithms 59, 2012), made exact rather than accurate: every bit of every
// entry goes into some slice, every slice product is computed exactly by an ordinary GEMM, and the
// slice products are summed exactly and rounded once with alpha and beta, exactly as the other
// schedules round (GemvFinish: round_scaled_sum / round_from_slots). So this path gives the same
// bits as every other schedule; it only lets a vendor GEMM do the O(m n k) work.
//
// Splitting. Let K = ceil(log2 k) and beta = floor((53 - K) / 2) bits per slice, so that
// 2 beta + K <= 53. Row i of op(A) gets the power of two 2^ea_i > max_k |a_ik| (ea_i is one more
// than the exponent of the row's largest entry), column j of op(B) likewise 2^eb_j. Slice s of
// a_ik is the integer d_s(a_ik) made of the bits of |a_ik| at the positions
// [ea_i - (s+1) beta, ea_i - s beta), with a_ik's sign, so that
//     a_ik = sum_s d_s(a_ik) 2^(ea_i - (s+1) beta),   |d_s| <= 2^beta - 1,
// exactly, as soon as the slices reach down to the lowest set bit of every entry of the row: the
// number of slices S is taken from the data (the widest row: ceil((ea_i - lowest bit) / beta)),
// never truncated, so the method is exact, not approximate. The digits are cut from the IEEE bits
// with integer shifts (no floating-point operation, nothing to underflow): the stored slice values
// are small integers whatever the magnitude of the data, the scales 2^ea_i are kept apart as
// integers and applied only when the products are summed.
//
// Why an ordinary GEMM is exact on slices. The slice product P_st = A_s B_t has entries
//     P_st(i, j) = sum_k d_s(a_ik) d_t(b_kj),
// a sum of k integers each of magnitude <= (2^beta - 1)^2 < 2^(2 beta). Any partial sum that any
// GEMM forms, in any order, blocked or not, with or without FMA, split over threads or not, is a
// sum of a subset of these products: an integer of magnitude < k 2^(2 beta) <= 2^(K + 2 beta)
// <= 2^53, so exactly representable in double. Every floating-point addition and every FMA in
// it therefore has an exact result and rounds nothing: the computed P_st is the exact P_st, bit
// for bit, whatever the GEMM (OpenBLAS with FMA kernels, cuBLAS, Kokkos Kernels' own kernels,
// the plain kernel below). What would break this: fast algorithms that add or subtract entries of
// A or B before multiplying (Strassen, Winograd), since the sums of slices are no longer below
// 2^beta and their products no longer below 2^(2 beta); and a GEMM that itself computes
// approximately (reduced-precision or "emulated FP64" modes of a vendor library, TF32-style
// tensor-core modes): leave those off for this path.
//
// Summation. The exact element is
//     S_ij = sum_{s,t} P_st(i, j) 2^(ea_i + eb_j - (s + t + 2) beta),
// S T terms per element, each an integer below 2^53 times a power of two; those of one diagonal
// s + t = g share their power of two and are summed first in 64-bit integers (exact). Usually
// (S + T <= 14, scales inside 2^+-1000) the S + T - 1 diagonal sums are carried into beta-bit
// limbs and become at most 8 non-overlapping exact doubles for the certified rounding without a
// long accumulator (OzakiFinishFunctor::carried_slots, packed_slots); the elements it cannot
// certify (near-ties, more diagonals, the edges of the range, exact zeros) are summed in a long
// accumulator by a second launch (OzakiFinishFunctor::exact; a term that is not a double, at the
// edges of the range, as an exact product of two doubles). Either way the element is rounded once
// as RN(alpha S_ij + beta c_ij) by GemvFinish, the code every other schedule uses.
//
// When the path is taken: every entry of op(A) and op(B) finite (NaN and inf keep the IEEE rules
// of the other path); max ea + max eb + K + ceil(log2 min(S, T)) <= 2047, so that each term
// Q 2^x of the finishing (Q a sum of at most min(S, T) slice products, |Q| < min(S, T) 2^(2 beta
// + K)) splits into two doubles (below); at most max_slices slices per operand and the slice
// matrices within max_slice_doubles. Otherwise exgemm uses its other schedules (same bits). Range
// of the terms: each product (slice of a)(slice of b) is a multiple of 2^-2148 (both slices are bit
// ranges of doubles, whose lowest bits weigh at least 2^-1074), so every term P 2^x is too; with
// |P 2^x| < 2^2047 it is the product of two doubles h = P 2^x1 and g = 2^x2 (add_scaled_integer).
//
// Cost: the scan of op(A) and op(B) (one pass), the slices (S m k + T k n doubles), one GEMM of
// (S m) x k x (T n) (in column blocks of C to bound P's memory), and S T integer additions and
// one certified rounding per element of C.
//
// Int8 slices (ExKokkos_OzakiInt8Slices_impl.hpp): the same with beta = 7 and digits in int8,
// whose S + T - 1 diagonal sums int8 GEMMs form directly in int32 (exact while min(S, T) k 127^2
// < 2^31); the finishing reads one integer per diagonal instead of summing S T products. Where
// int8 GEMMs run an order of magnitude faster than FP64 ones (integer tensor cores), that far
// outweighs the 2.5 to 3 times as many slices (figures: docs/performance.md).
#ifndef EXKOKKOS_GEMMOZAKI_IMPL_HPP
#define EXKOKKOS_GEMMOZAKI_IMPL_HPP

#include <ExKokkos_config.hpp>

#include "ExKokkos_CublasSliceGemm_impl.hpp"
#include "ExKokkos_OzakiInt8Slices_impl.hpp"
#include "ExKokkos_Gemv_impl.hpp"

#if EXKOKKOS_HAVE_KOKKOSKERNELS
#include <KokkosBlas3_gemm.hpp>
#endif

#include <algorithm>
#include <cstdint>
#include <vector>

namespace ExKokkos {

// What the Ozaki schedule of exgemm would do with given A and B (ExKokkos::exgemm_ozaki_plan):
// whether the data can be split (feasible), into how many slices per operand, of how many bits.
struct OzakiPlan {
  bool feasible = false;
  int slices_a = 0;         // slices of op(A) (of its widest row)
  int slices_b = 0;         // slices of op(B) (of its widest column)
  int slice_bits = 0;       // beta: bits per slice, 2 beta + ceil(log2 k) <= 53 (7 for int8)
  bool int8 = false;        // int8 slices with int32 products, else double slices
  const char* reason = "";  // why not feasible
};

// What the slices are made of. fp64: beta-bit integers in doubles, products by a double GEMM
// (every backend). int8: 7-bit digits in int8, products by an int8 GEMM with int32 sums (the
// integer tensor cores through cuBLAS on CUDA, an order of magnitude above the FP64 rate; a plain
// Kokkos kernel elsewhere, for the tests). automatic: int8 where the execution space has an int8
// vendor GEMM and the data allow it, else fp64.
enum class SliceDigits : int { automatic, fp64, int8 };

namespace Impl {

struct OzakiLimits {
  // More slices than this per operand and the path is not taken, even when forced (the slices of
  // a row of data spread over 2^+-300 at k = 1024 are 30; the full double range needs 81 of 26
  // bits). The cost model refuses far fewer.
  static constexpr int max_slices = 48;
  // Slices of op(A) and op(B) together, in doubles (2 GiB).
  static constexpr std::int64_t max_slice_doubles = std::int64_t(1) << 28;
  // The product of the slices is computed in column blocks of C of at most this many bytes of
  // slice products (128 MiB of doubles; 1 GiB of int8 slices' diagonal sums, since int8 GEMMs
  // need wide blocks to run at their rate: 2 blocks of 2048 columns at 4096^3).
  static constexpr std::int64_t product_block_bytes = std::int64_t(1) << 27;
  static constexpr std::int64_t int8_product_block_bytes = std::int64_t(1) << 30;
  // Marker in a line's top exponent: NaN or inf in the line. Above every exponent, so that a max
  // over partial results carries it.
  static constexpr int not_finite = 1 << 20;
};

// Which GEMM multiplies the slices: vendor is cuBLAS for Kokkos::Cuda where ExKokkos was configured
// with it, else Kokkos Kernels' (a vendor BLAS behind it where configured); internal is the plain
// Kokkos kernel below (every backend; the only one without either library).
enum class SliceGemm : int { automatic, vendor, internal };

// Line l of op(A) (a row) or of op(B)^T (a column of op(B)) as a function of (l, k).
template <class Op>
struct RowLines {
  Op op;
  KOKKOS_INLINE_FUNCTION double operator()(std::int64_t l, std::int64_t k) const {
    return op(l, k);
  }
};
template <class Op>
struct ColumnLines {
  Op op;
  KOKKOS_INLINE_FUNCTION double operator()(std::int64_t l, std::int64_t k) const {
    return op(k, l);
  }
};

// Per line: top(l) = e with every |x| < 2^e (one more than the largest exponent; 0 for a zero
// line), low(l) = the weight of the lowest set bit of any entry (top(l) for a zero line), and
// top(l) = not_finite when the line holds NaN or inf. A work item scans Block consecutive lines
// over one chunk of k, k outermost: on the host (Block = 32, chunks of 4096) the rows of
// op(A) = A of a LayoutLeft A are then read 32 contiguous entries at a time instead of one entry
// per cache line; on devices (Block = 1, chunks of 64) a thread per line and chunk, consecutive
// threads reading consecutive lines. A thread per whole line would leave a GPU with 4096 threads
// for a 4096 x 4096 operand, each walking 4096 dependent loads. With several chunks, the items
// write partial results (hi: the largest e, `none` when all zero, not_finite; lo: the lowest bit)
// that OzakiScanCombineFunctor reduces per line.
template <class Lines, class IntView, int Block>
struct OzakiScanFunctor {
  static constexpr int none = -100000;
  Lines lines;
  IntView top, low;  // count entries, or count x chunks partial results (chunks > 1)
  std::int64_t count, k_count, k_chunk, chunks;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t item) const {
    const std::int64_t blocks = (count + Block - 1) / Block;
    const std::int64_t block = item % blocks, chunk = item / blocks;
    const std::int64_t l0 = block * Block;
    const int width = static_cast<int>(count - l0 < Block ? count - l0 : Block);
    const std::int64_t k0 = chunk * k_chunk;
    const std::int64_t k1 = k0 + k_chunk < k_count ? k0 + k_chunk : k_count;
    int hi[Block], lo[Block];
    bool finite[Block];
    for (int b = 0; b < Block; ++b) {
      hi[b] = none;
      lo[b] = -none;
      finite[b] = true;
    }
    for (std::int64_t k = k0; k < k1; ++k)
      for (int b = 0; b < width; ++b) {
        const double x = lines(l0 + b, k);
        const FloatClass c = classify(x);
        if (c == FloatClass::zero) continue;
        if (c != FloatClass::finite) {
          finite[b] = false;
          continue;
        }
        const DecomposedDouble d = decompose(x);
        const int e = d.exponent + bit_width(d.significand);
        const int z = d.exponent + trailing_zeros(d.significand);
        hi[b] = e > hi[b] ? e : hi[b];
        lo[b] = z < lo[b] ? z : lo[b];
      }
    for (int b = 0; b < width; ++b) {
      const bool zero = hi[b] == none;
      if (chunks > 1) {
        top(l0 + b + count * chunk) = !finite[b] ? OzakiLimits::not_finite : hi[b];
        low(l0 + b + count * chunk) = lo[b];
      } else {
        top(l0 + b) = !finite[b] ? OzakiLimits::not_finite : (zero ? 0 : hi[b]);
        low(l0 + b) = !finite[b] || zero ? 0 : lo[b];
      }
    }
  }
};

// Line l's partial results over the chunks into top(l) and low(l), as the one-chunk scan writes
// them. not_finite is above every exponent, so the max carries it.
template <class IntView>
struct OzakiScanCombineFunctor {
  static constexpr int none = -100000;
  IntView part_hi, part_lo, top, low;
  std::int64_t count, chunks;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t l) const {
    int hi = none, lo = -none;
    for (std::int64_t c = 0; c < chunks; ++c) {
      const int h = part_hi(l + count * c), z = part_lo(l + count * c);
      hi = h > hi ? h : hi;
      lo = z < lo ? z : lo;
    }
    const bool finite = hi != OzakiLimits::not_finite, zero = hi == none;
    top(l) = !finite ? OzakiLimits::not_finite : (zero ? 0 : hi);
    low(l) = !finite || zero ? 0 : lo;
  }
};

template <class ExecSpace, class Lines, class IntView>
void scan_lines(const ExecSpace& space, const Lines& lines, const IntView& top, const IntView& low,
                std::int64_t count, std::int64_t k_count) {
  constexpr bool host = is_host_space<ExecSpace>();
  constexpr int block = host ? 32 : 1;
  using Scan = OzakiScanFunctor<Lines, IntView, block>;
  const std::int64_t blocks = (count + block - 1) / block;
  const std::int64_t k_chunk = host ? 4096 : 64;
  const std::int64_t chunks = std::max<std::int64_t>(1, (k_count + k_chunk - 1) / k_chunk);
  if (chunks == 1) {
    Kokkos::parallel_for("ExKokkos::exgemm ozaki scan",
                         Kokkos::RangePolicy<ExecSpace>(space, 0, blocks),
                         Scan{lines, top, low, count, k_count, k_chunk, 1});
    return;
  }
  const IntView part_hi(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "ExKokkos::exgemm ozaki scan hi"),
      count * chunks);
  const IntView part_lo(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "ExKokkos::exgemm ozaki scan lo"),
      count * chunks);
  Kokkos::parallel_for("ExKokkos::exgemm ozaki scan",
                       Kokkos::RangePolicy<ExecSpace>(space, 0, blocks * chunks),
                       Scan{lines, part_hi, part_lo, count, k_count, k_chunk, chunks});
  Kokkos::parallel_for("ExKokkos::exgemm ozaki scan",
                       Kokkos::RangePolicy<ExecSpace>(space, 0, count),
                       OzakiScanCombineFunctor<IntView>{part_hi, part_lo, top, low, count, chunks});
}

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

// The plain slice GEMM, P = A B, for builds without Kokkos Kernels (any backend): a team per
// 32 x 32 tile of P, panels of 32 of A and B and the tile itself in scratch memory. Exact on
// slices for the reason given at the top (every partial sum is an integer below 2^53), so its
// summation order does not matter.
template <class ExecSpace, class AV, class BV, class PV>
struct SliceGemmFunctor {
  static constexpr int tile = 32;
  using member_type = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  AV A;
  BV B;
  PV P;
  std::int64_t rows, cols, depth, tiles_m, tiles;

  static std::size_t scratch_size() { return sizeof(double) * 3 * tile * tile; }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    double* a = static_cast<double*>(team.team_scratch(0).get_shmem(sizeof(double) * tile * tile));
    double* b = static_cast<double*>(team.team_scratch(0).get_shmem(sizeof(double) * tile * tile));
    double* c = static_cast<double*>(team.team_scratch(0).get_shmem(sizeof(double) * tile * tile));
    for (std::int64_t t = team.league_rank(); t < tiles; t += team.league_size()) {
      const std::int64_t i0 = (t % tiles_m) * tile, j0 = (t / tiles_m) * tile;
      team.team_barrier();  // the previous tile is written out
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, tile * tile),
                           [&](const int q) { c[q] = 0.0; });
      for (std::int64_t k0 = 0; k0 < depth; k0 += tile) {
        const int kb = static_cast<int>(depth - k0 < tile ? depth - k0 : tile);
        team.team_barrier();  // the previous panels are no longer read
        // a(r, kk) column by column, b(kk, c) column by column; zeros past the edges.
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, tile * kb), [&](const int q) {
          const std::int64_t i = i0 + q % tile;
          a[q] = i < rows ? A(i, k0 + q / tile) : 0.0;
        });
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, tile * kb), [&](const int q) {
          const std::int64_t j = j0 + q / kb;
          b[q] = j < cols ? B(k0 + q % kb, j) : 0.0;
        });
        team.team_barrier();
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, tile * tile), [&](const int q) {
          const double* a_row = a + q % tile;
          const double* b_col = b + (q / tile) * kb;
          double sum = c[q];
          for (int kk = 0; kk < kb; ++kk) sum += a_row[kk * tile] * b_col[kk];
          c[q] = sum;
        });
      }
      team.team_barrier();
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, tile * tile), [&](const int q) {
        const std::int64_t i = i0 + q % tile, j = j0 + q / tile;
        if (i < rows && j < cols) P(i, j) = c[q];
      });
    }
  }
};

template <class ExecSpace, class AV, class BV, class PV>
void slice_gemm_internal(const ExecSpace& space, const AV& A, const BV& B, const PV& P) {
  using F = SliceGemmFunctor<ExecSpace, AV, BV, PV>;
  const std::int64_t rows = static_cast<std::int64_t>(P.extent(0));
  const std::int64_t cols = static_cast<std::int64_t>(P.extent(1));
  const std::int64_t tiles_m = (rows + F::tile - 1) / F::tile;
  const std::int64_t tiles = tiles_m * ((cols + F::tile - 1) / F::tile);
  const bool host = is_host_space<ExecSpace>();
  const int league = static_cast<int>(
      std::min<std::int64_t>(tiles, host ? 4 * compat::concurrency(space) : tiles));
  Kokkos::TeamPolicy<ExecSpace> policy(space, league, host ? 1 : 64);
  policy.set_scratch_size(0, Kokkos::PerTeam(F::scratch_size()));
  Kokkos::parallel_for(
      "ExKokkos::exgemm ozaki slices", policy,
      F{A, B, P, rows, cols, static_cast<std::int64_t>(A.extent(1)), tiles_m, tiles});
}

// P = A B for the slices: cuBLAS on CUDA where configured, else Kokkos Kernels where configured
// (on the views' default instance), else the plain kernel.
template <class ExecSpace, class AV, class BV, class PV>
void slice_gemm(const ExecSpace& space, const AV& A, const BV& B, const PV& P, SliceGemm which) {
#if EXKOKKOS_HAVE_CUBLAS && defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same<ExecSpace, Kokkos::Cuda>::value) {
    if (which != SliceGemm::internal) {
      slice_gemm_cublas(space, A, B, P);
      return;
    }
  }
#endif
#if EXKOKKOS_HAVE_KOKKOSKERNELS
  if (which != SliceGemm::internal) {
    // Kokkos Kernels 3.4 has no execution-space-first gemm: it runs on the views' default
    // execution-space instance, so fence around it.
    space.fence();
    KokkosBlas::gemm("N", "N", 1.0, A, B, 0.0, P);
    Kokkos::fence();
    return;
  }
#else
  (void)which;
#endif
  slice_gemm_internal(space, A, B, P);
}

// One diagonal of the int8 slices' product: cuBLAS on CUDA where configured, else the plain kernel
// (no other library multiplies int8 into int32).
template <class ExecSpace, class Int8View, class Int32View>
void slice_gemm_int8(const ExecSpace& space, const Int8View& A8, const Int8View& B8,
                     const Int32View& P, const Int8DiagonalGemm& g, SliceGemm which) {
#if EXKOKKOS_HAVE_CUBLAS && defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same<ExecSpace, Kokkos::Cuda>::value) {
    if (which != SliceGemm::internal) {
      int8_diagonal_gemm_cublas(space, A8, B8, P, g);
      return;
    }
  }
#endif
  (void)which;
  int8_diagonal_gemm_internal(space, A8, B8, P, g);
}

// The exact double 2^e, -1074 <= e <= 1023.
KOKKOS_INLINE_FUNCTION double power_of_two(int e) {
  return e >= -1022 ? compose<double>(false, std::uint64_t(1) << 52, e - 52)
                    : compose<double>(false, std::uint64_t(1) << (e + 1074), -1074);
}

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

  // left counts the refused elements. Packed slots of at most 16 diagonals (int8 slices of
  // uniform data at 4096^3: 15) take 4 slots: the certified rounding's VecSum passes then run
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

// The scan's results (the scales of the lines, on the execution space's memory, and what the plan
// needs from the data) and the plan made from them.
template <class Mem>
struct OzakiScales {
  OzakiPlan plan;
  Kokkos::View<int*, Mem> top_a, top_b;
  std::int64_t k = 0;
  bool finite = true;
  int max_a = 0, max_b = 0;    // the largest scales
  int span_a = 0, span_b = 0;  // the widest line's bits, top to lowest set bit
};

inline int ceil_log2(std::int64_t k) {
  int c = 0;
  while ((std::int64_t(1) << c) < k) ++c;
  return c;
}

// The plan for the scanned data with the given slices (fp64 or int8), within the limits of the
// comment at the top.
template <class Mem>
OzakiPlan choose_slices(const OzakiScales<Mem>& sc, std::int64_t m, std::int64_t n,
                        SliceDigits digits) {
  OzakiPlan plan;
  plan.int8 = digits == SliceDigits::int8;
  const std::int64_t k = sc.k;
  const int K = ceil_log2(k);
  plan.slice_bits = plan.int8 ? int8_slice_bits : (53 - K) / 2;
  if (plan.slice_bits < 1) {
    plan.reason = "inner dimension above 2^51";
    return plan;
  }
  if (!sc.finite) {
    plan.reason = "NaN or inf in op(A) or op(B)";
    return plan;
  }
  const int bits = plan.slice_bits;
  plan.slices_a = std::max(1, (sc.span_a + bits - 1) / bits);
  plan.slices_b = std::max(1, (sc.span_b + bits - 1) / bits);
  const int terms = std::min(plan.slices_a, plan.slices_b);
  // The largest term, Q_0 2^(ea + eb - 2 beta) with |Q_0| < min(S, T) k 2^(2 beta), stays
  // below 2^2047 (add_scaled_integer).
  if (sc.max_a + sc.max_b + K + ceil_log2(terms) > 2047) {
    plan.reason = "entries too close to the overflow threshold";
    return plan;
  }
  if (plan.slices_a > OzakiLimits::max_slices || plan.slices_b > OzakiLimits::max_slices) {
    plan.reason = "too many slices (data spread over too many binades)";
    return plan;
  }
  // int8: a diagonal's sum of at most min(S, T) k products of magnitude <= 127^2 in int32.
  if (plan.int8 && !int8_diagonal_fits(k, terms)) {
    plan.reason = "inner dimension too large for int32 sums of int8 slices";
    return plan;
  }
  const double entry_bytes = plan.int8 ? 1.0 : 8.0;
  if (entry_bytes * (double(plan.slices_a) * double(m) * double(k) +
                     double(plan.slices_b) * double(k) * double(n)) >
      8.0 * double(OzakiLimits::max_slice_doubles)) {
    plan.reason = "the slices would take too much memory";
    return plan;
  }
  plan.feasible = true;
  return plan;
}

// Scans op(A) and op(B) and makes the plan for the given slices.
template <class ExecSpace, class OpA, class OpB>
OzakiScales<typename ExecSpace::memory_space> plan_ozaki(const ExecSpace& space, const OpA& op_a,
                                                         const OpB& op_b, std::int64_t m,
                                                         std::int64_t n,
                                                         SliceDigits digits = SliceDigits::fp64) {
  using Mem = typename ExecSpace::memory_space;
  using IntView = Kokkos::View<int*, Mem>;
  OzakiScales<Mem> r;
  r.k = op_a.inner();
  r.top_a = IntView(Kokkos::view_alloc(space, "ExKokkos::exgemm ozaki top_a"), m);
  r.top_b = IntView(Kokkos::view_alloc(space, "ExKokkos::exgemm ozaki top_b"), n);
  const IntView low_a(Kokkos::view_alloc(space, "ExKokkos::exgemm ozaki low_a"), m);
  const IntView low_b(Kokkos::view_alloc(space, "ExKokkos::exgemm ozaki low_b"), n);
  scan_lines(space, RowLines<OpA>{op_a}, r.top_a, low_a, m, r.k);
  scan_lines(space, ColumnLines<OpB>{op_b}, r.top_b, low_b, n, r.k);
  // The per-line results are few (m + n): reduce them on the host.
  const auto ta = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), r.top_a);
  const auto la = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), low_a);
  const auto tb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), r.top_b);
  const auto lb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), low_b);
  r.max_a = r.max_b = -100000;
  for (std::int64_t i = 0; i < m; ++i) {
    r.finite = r.finite && ta(i) != OzakiLimits::not_finite;
    r.max_a = std::max(r.max_a, ta(i));
    r.span_a = std::max(r.span_a, ta(i) - la(i));
  }
  for (std::int64_t j = 0; j < n; ++j) {
    r.finite = r.finite && tb(j) != OzakiLimits::not_finite;
    r.max_b = std::max(r.max_b, tb(j));
    r.span_b = std::max(r.span_b, tb(j) - lb(j));
  }
  r.plan = choose_slices(r, m, n, digits == SliceDigits::int8 ? digits : SliceDigits::fp64);
  return r;
}

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

// Column blocks of C: as wide as P's budget allows, of equal widths (an int8 GEMM of a narrow
// last block would leave most of a GPU idle).
inline std::int64_t ozaki_block_width(std::int64_t n, std::int64_t bytes_per_column,
                                      std::int64_t budget_bytes) {
  const std::int64_t widest = std::max<std::int64_t>(1, budget_bytes / bytes_per_column);
  const std::int64_t blocks = (n + widest - 1) / widest;
  return std::max<std::int64_t>(1, (n + blocks - 1) / blocks);
}

// The path with double slices: As LayoutLeft (S m) x k, Bs k x (T n), P = As Bs per column block.
template <class ExecSpace, class OpA, class OpB, class CView>
void launch_gemm_ozaki_fp64(const ExecSpace& space,
                            const OzakiScales<typename ExecSpace::memory_space>& sc,
                            const OpA& op_a, const OpB& op_b, const CView& C,
                            typename CView::const_value_type alpha,
                            typename CView::const_value_type beta, SliceGemm which,
                            std::int64_t block_bytes) {
  using Mem = typename ExecSpace::memory_space;
  using Device = Kokkos::Device<ExecSpace, Mem>;
  using Slices = Kokkos::View<double**, Kokkos::LayoutLeft, Device>;
  using IntView = Kokkos::View<int*, Mem>;
  const std::int64_t m = static_cast<std::int64_t>(C.extent(0));
  const std::int64_t n = static_cast<std::int64_t>(C.extent(1));
  const std::int64_t k = sc.k;
  const int S = sc.plan.slices_a, T = sc.plan.slices_b, bits = sc.plan.slice_bits;
  const Slices As(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "ExKokkos::exgemm ozaki A"), m * S, k);
  const Slices Bs(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "ExKokkos::exgemm ozaki B"), k, n * T);
  Kokkos::parallel_for("ExKokkos::exgemm ozaki split",
                       Kokkos::RangePolicy<ExecSpace>(space, 0, m * k),
                       SliceRowsFunctor<OpA, IntView, Slices>{op_a, sc.top_a, As, m, S, bits});
  Kokkos::parallel_for("ExKokkos::exgemm ozaki split",
                       Kokkos::RangePolicy<ExecSpace>(space, 0, k * n),
                       SliceColumnsFunctor<OpB, IntView, Slices>{op_b, sc.top_b, Bs, k, T, bits});
  const std::int64_t width = ozaki_block_width(n, 8 * m * S * T, block_bytes);
  const Slices P(Kokkos::view_alloc(space, "ExKokkos::exgemm ozaki P"), m * S, width * T);
  const Kokkos::View<unsigned char*, Mem> refused(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "ExKokkos::exgemm ozaki refused"),
      m * width);
  for (std::int64_t j0 = 0; j0 < n; j0 += width) {
    const std::int64_t w = std::min(width, n - j0);
    const auto Bb = Kokkos::subview(Bs, Kokkos::ALL(), Kokkos::make_pair(j0 * T, (j0 + w) * T));
    const auto Pb = Kokkos::subview(P, Kokkos::ALL(), Kokkos::make_pair(std::int64_t(0), w * T));
    slice_gemm(space, As, Bb, Pb, which);
    using Diagonals = Fp64Diagonals<typename std::decay<decltype(Pb)>::type>;
    finish_ozaki_block(space, sc, op_a, op_b, C, alpha, beta, Diagonals{Pb, S, T}, j0, w, refused);
  }
  space.fence();  // P, As and Bs are released on return
}

// The path with int8 slices (ExKokkos_OzakiInt8Slices_impl.hpp): A8 (S kp) x m, B8 (T kp) x n,
// and per column block the S + T - 1 diagonal sums in int32, P(i, g width + jj), P's rows padded
// to a multiple of 4.
template <class ExecSpace, class OpA, class OpB, class CView>
void launch_gemm_ozaki_int8(const ExecSpace& space,
                            const OzakiScales<typename ExecSpace::memory_space>& sc,
                            const OpA& op_a, const OpB& op_b, const CView& C,
                            typename CView::const_value_type alpha,
                            typename CView::const_value_type beta, SliceGemm which,
                            std::int64_t block_bytes) {
  using Mem = typename ExecSpace::memory_space;
  using Device = Kokkos::Device<ExecSpace, Mem>;
  using Int8View = Kokkos::View<std::int8_t**, Kokkos::LayoutLeft, Device>;
  using Int32View = Kokkos::View<std::int32_t**, Kokkos::LayoutLeft, Device>;
  using IntView = Kokkos::View<int*, Mem>;
  const std::int64_t m = static_cast<std::int64_t>(C.extent(0));
  const std::int64_t n = static_cast<std::int64_t>(C.extent(1));
  const std::int64_t k = sc.k, kp = int8_padded_depth(k);
  const int S = sc.plan.slices_a, T = sc.plan.slices_b, G = S + T - 1;
  const Int8View A8(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "ExKokkos::exgemm ozaki A8"), S * kp,
      m);
  const Int8View B8(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "ExKokkos::exgemm ozaki B8"), T * kp,
      n);
  Kokkos::parallel_for("ExKokkos::exgemm ozaki split",
                       Kokkos::RangePolicy<ExecSpace>(space, 0, kp * m),
                       Int8SliceRowsFunctor<OpA, IntView, Int8View>{op_a, sc.top_a, A8, k, kp, S});
  Kokkos::parallel_for(
      "ExKokkos::exgemm ozaki split", Kokkos::RangePolicy<ExecSpace>(space, 0, kp * n),
      Int8SliceColumnsFunctor<OpB, IntView, Int8View>{op_b, sc.top_b, B8, k, kp, T});
  const std::int64_t mp = (m + 3) / 4 * 4;
  const std::int64_t width = ozaki_block_width(n, 4 * mp * G, block_bytes);
  const Int32View P(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "ExKokkos::exgemm ozaki P32"), mp,
      width * G);
  const Kokkos::View<unsigned char*, Mem> refused(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "ExKokkos::exgemm ozaki refused"),
      m * width);
  for (std::int64_t j0 = 0; j0 < n; j0 += width) {
    const std::int64_t w = std::min(width, n - j0);
    for (int g = 0; g < G; ++g) {
      const int s0 = g < T ? 0 : g - T + 1, s1 = g < S ? g : S - 1;
      const Int8DiagonalGemm d{s0 * kp, (T - 1 - g + s0) * kp, j0, g * width, (s1 - s0 + 1) * kp, m,
                               w};
      slice_gemm_int8(space, A8, B8, P, d, which);
    }
    finish_ozaki_block(space, sc, op_a, op_b, C, alpha, beta, Int8Diagonals<Int32View>{P, width},
                       j0, w, refused);
  }
  space.fence();  // P, A8 and B8 are released on return
}

// Runs the Ozaki path for a feasible plan: slices, their products in column blocks of C, the
// exact sums and one rounding per element. block_bytes bounds P's memory (0: the default of the
// slices' kind).
template <class ExecSpace, class OpA, class OpB, class CView>
void launch_gemm_ozaki(const ExecSpace& space,
                       const OzakiScales<typename ExecSpace::memory_space>& sc, const OpA& op_a,
                       const OpB& op_b, const CView& C, typename CView::const_value_type alpha,
                       typename CView::const_value_type beta, SliceGemm which,
                       std::int64_t block_bytes = 0) {
  if (sc.plan.int8)
    launch_gemm_ozaki_int8(space, sc, op_a, op_b, C, alpha, beta, which,
                           block_bytes > 0 ? block_bytes : OzakiLimits::int8_product_block_bytes);
  else
    launch_gemm_ozaki_fp64(space, sc, op_a, op_b, C, alpha, beta, which,
                           block_bytes > 0 ? block_bytes : OzakiLimits::product_block_bytes);
}

// The cost model of Schedule::automatic (host execution spaces with Kokkos Kernels; CUDA with
// cuBLAS below), in seconds, fitted to perf_tests/bench_blas3 on a 2-core CPU (OpenMP, 2 threads,
// OpenBLAS behind KokkosBlas::gemm; docs/performance.md): the other schedules cost about
// exact_per_term per term of the m n k; the
// Ozaki path a fixed overhead, S T GEMMs at gemm_flops_per_s (less when the smallest extent of the
// slice GEMM is below 256), the scan and split per slice of each entry of A and B, and the exact
// sum and rounding of each element of C. It is taken only when predicted below margin times the
// other: near the break-even (n around 256 for uniform data) either path is as good. On CUDA with
// cuBLAS (OzakiCostModel::cuda()) the same terms, fitted to perf_tests/bench_cuda_blas3 on an
// H100 (docs/performance.md): the tiles schedule, and cublasDgemm on slices.
struct OzakiCostModel {
  double exact_per_term = 2.7e-9;
  double fixed = 2e-3;
  double gemm_flops_per_s = 4.5e10;
  double full_rate_extent = 256;
  double split_per_entry = 1.0e-8;
  double per_element = 1.2e-7, per_diagonal = 5e-9;
  double margin = 0.75;

  double gemm_rate(std::int64_t rows, std::int64_t cols, std::int64_t k) const {
    const double smallest = double(std::min(std::min(rows, cols), k));
    return gemm_flops_per_s * std::min(1.0, smallest / full_rate_extent);
  }
  double exact(std::int64_t m, std::int64_t n, std::int64_t k) const {
    return exact_per_term * double(m) * double(n) * double(k);
  }
  double ozaki(std::int64_t m, std::int64_t n, std::int64_t k, int S, int T) const {
    const double flops = 2.0 * double(S) * double(T) * double(m) * double(n) * double(k);
    return fixed + flops / gemm_rate(S * m, T * n, k) +
           split_per_entry * (double(m) * double(k) * (1 + S) + double(k) * double(n) * (1 + T)) +
           double(m) * double(n) * (per_element + per_diagonal * (S + T - 1));
  }
  bool pays(std::int64_t m, std::int64_t n, std::int64_t k, int S, int T) const {
    return ozaki(m, n, k, S, T) < margin * exact(m, n, k);
  }
  // int8 slices (only where an int8 vendor GEMM exists: int8_ops_per_s > 0): S + T - 1 GEMMs of
  // S T m n k multiply-adds in all, at the int8 rate; the rest as above.
  double int8_ops_per_s = 0;
  double ozaki_int8(std::int64_t m, std::int64_t n, std::int64_t k, int S, int T) const {
    const double ops = 2.0 * double(S) * double(T) * double(m) * double(n) * double(k);
    const double smallest = double(std::min(std::min(m, n), k));
    const double rate = int8_ops_per_s * std::min(1.0, smallest / full_rate_extent);
    return fixed + ops / rate +
           split_per_entry * (double(m) * double(k) * (1 + S) + double(k) * double(n) * (1 + T)) +
           double(m) * double(n) * (per_element + per_diagonal * (S + T - 1));
  }
  double cost(std::int64_t m, std::int64_t n, std::int64_t k, const OzakiPlan& plan) const {
    return plan.int8 ? ozaki_int8(m, n, k, plan.slices_a, plan.slices_b)
                     : ozaki(m, n, k, plan.slices_a, plan.slices_b);
  }

  static OzakiCostModel cuda() {
    OzakiCostModel c;
    c.exact_per_term = 1.2e-11;  // tiles: 13.8 ms at 1024^3, 757 ms at 4096^3
    c.fixed = 2e-4;              // a dozen launches and the plan's copy to the host
    c.gemm_flops_per_s = 5e13;   // cublasDgemm on slices: 51 TFLOP/s (12288 x 4096 x 1365)
    c.full_rate_extent = 1024;
    c.split_per_entry = 5e-12;  // 0.58 ms to split two 4096^2 operands into 3 slices
    c.per_element = 1e-10;
    c.per_diagonal = 1e-11;
    c.int8_ops_per_s = 1.2e15;  // cublasGemmEx int8 "T" "N": 1198 TOPS at 4096^3 (k' = 4096)
    return c;
  }
  // The host's model on host execution spaces, CUDA's on devices.
  template <class ExecSpace>
  static OzakiCostModel for_space() {
    return is_host_space<ExecSpace>() ? OzakiCostModel() : cuda();
  }
};

// Whether ExecSpace has a vendor slice GEMM (and so the automatic schedule considers the Ozaki
// path): host spaces with Kokkos Kernels, Kokkos::Cuda with cuBLAS.
template <class ExecSpace>
constexpr bool has_vendor_slice_gemm() {
#if EXKOKKOS_HAVE_CUBLAS && defined(KOKKOS_ENABLE_CUDA)
  if (std::is_same<ExecSpace, Kokkos::Cuda>::value) return true;
#endif
  return is_host_space<ExecSpace>() && EXKOKKOS_HAVE_KOKKOSKERNELS;
}

// Whether ExecSpace has an int8 vendor GEMM for the int8 slices: Kokkos::Cuda with cuBLAS.
template <class ExecSpace>
constexpr bool has_vendor_int8_slice_gemm() {
#if EXKOKKOS_HAVE_CUBLAS && defined(KOKKOS_ENABLE_CUDA)
  return std::is_same<ExecSpace, Kokkos::Cuda>::value;
#else
  return false;
#endif
}

// The slices for scanned data: as asked, or (automatic) int8 where the execution space has an
// int8 vendor GEMM, the data allow it and the model says it is the cheaper, else double slices.
// sc.plan holds the double slices' plan on entry (plan_ozaki) and the chosen one on return.
template <class ExecSpace>
void choose_digits(OzakiScales<typename ExecSpace::memory_space>& sc, std::int64_t m,
                   std::int64_t n, SliceDigits digits, const OzakiCostModel& model) {
  if (digits == SliceDigits::fp64) return;
  const OzakiPlan int8 = choose_slices(sc, m, n, SliceDigits::int8);
  if (digits == SliceDigits::int8) {
    sc.plan = int8;
    return;
  }
  if (!has_vendor_int8_slice_gemm<ExecSpace>() || !int8.feasible) return;
  if (!sc.plan.feasible || model.cost(m, n, sc.k, int8) < model.cost(m, n, sc.k, sc.plan))
    sc.plan = int8;
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_GEMMOZAKI_IMPL_HPP
