// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// One team factors one matrix: the LU with partial pivoting of the ExBLAS LU paper (Iakymchuk,
// Graillat, Defour, Quintana-Orti, "Hierarchical approach for deriving a reproducible unblocked LU
// factorization", Alg. 7), every entry the same exact dot product rounded once. For every step j:
//   a_ij = RN(a_ij - sum_{k<j} l_ik u_kj)        i >= j (a11 and a21, independent rows)
//   p = the first index of the largest |a_ij|, i >= j; swap rows j and p everywhere
//   l_ij = RN(a_ij / a_jj)                       i > j  (one correctly rounded division)
//   u_jc = RN(a_jc - sum_{k<j} l_jk u_kc)        c > j  (row j of U, independent columns)
// Alg. 7 is left-looking (jik): it computes u_ij for i < j at step j, as a triangular solve of
// column j, in order. Taking row j of U at the end of step j instead (Crout's order) gives the
// same bits: row j is final once step j has swapped it (later swaps touch rows below j only), so
// u_jc is the same exact sum of the same l_jk u_kc as in Alg. 7, rounded once; and its entries
// are independent, so a team computes them in parallel instead of one thread in order.
// Every sum is exact (an expansion per thread spilling into a long accumulator) and rounded once,
// so each entry, each pivot and info depend on nothing but the input: any team size, batch size
// or backend gives the same bits, and a batched factor equals the unbatched one.
#ifndef EXKOKKOS_GETF2_IMPL_HPP
#define EXKOKKOS_GETF2_IMPL_HPP

#include "ExKokkos_ComplexLu_impl.hpp"

#include <impl/ExKokkos_CertifyOrExact_impl.hpp>
#include <ExKokkos_Compat.hpp>
#include <impl/ExKokkos_Tuning_impl.hpp>
#include <impl/ExKokkos_ViewTraits_impl.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace ExKokkos {
namespace Impl {

// lu_update's certified try: a_ij - sum_{k < count} a_ik a_kj as a CompensatedSum (doubles; the
// engine tries none for floats).
template <class AView>
KOKKOS_INLINE_FUNCTION CompensatedSum lu_compensated_sum(const AView& A, int i, int j, int count) {
  if constexpr (std::is_same<typename AView::non_const_value_type, double>::value) {
    // The sum starts at a_ij: head a_ij, no error term. add(a_ij) on an empty sum would spend a
    // TwoSum (six additions) on 0 + a_ij, whose error is zero; the head is the same (a -0 becomes
    // +0 there, and a zero sum is refused either way), so are the bits.
    CompensatedSum c(A(i, j), 0.0, compat::fabs(A(i, j)), 0);
    if (count > 0) {
      // The terms' factors walked by pointer, four terms' loads issued together: the view's
      // index arithmetic (a 64-bit multiply-add per index and stride, any layout) costs more
      // instructions per term than the term's 11 flops on a GPU. Same products, same order, so
      // the same bits.
      const double* a = &A(i, 0);
      const double* b = &A(0, j);
      const std::ptrdiff_t sa = static_cast<std::ptrdiff_t>(A.stride(1)),
                           sb = static_cast<std::ptrdiff_t>(A.stride(0));
      int k = 0;
      for (; k + 4 <= count; k += 4) {
        const double a0 = a[0], a1 = a[sa], a2 = a[2 * sa], a3 = a[3 * sa];
        const double b0 = b[0], b1 = b[sb], b2 = b[2 * sb], b3 = b[3 * sb];
        a += 4 * sa;
        b += 4 * sb;
        c.add_product(-a0, b0);
        c.add_product(-a1, b1);
        c.add_product(-a2, b2);
        c.add_product(-a3, b3);
      }
      for (; k < count; ++k, a += sa, b += sb) c.add_product(-*a, *b);
    }
    return c;
  } else {
    (void)A, (void)i, (void)j, (void)count;
    return CompensatedSum();
  }
}

// RN(a_ij - sum_{k < count} a_ik a_kj), exact before the one rounding, by the certify-or-exact
// engine (ExKokkos_CertifyOrExact_impl.hpp): first the cheap certified try (CompensatedSum: a
// TwoProd, one TwoSum and four additions per term instead of an expansion's N TwoSums); only when
// it refuses (a rounding within reach of the sum's error bound, special values, underflow) the
// exact sum: an expansion, rounded from its slots or spilling into a long accumulator. Complex
// values: each part so (complex_lu_update, ExKokkos_ComplexLu_impl.hpp).
template <int N, class AView>
KOKKOS_INLINE_FUNCTION typename AView::non_const_value_type lu_update(const AView& A, int i, int j,
                                                                      int count) {
  using T = typename AView::non_const_value_type;
  if constexpr (is_exact_complex<T>()) {
    return complex_lu_update<N>(A, i, j, count);
  } else {
    T entry;
    const auto finish = round_sum_into<T>([&](std::int64_t, T v) { entry = v; });
    certify_or_exact<N>(
        finish, 0, true, [&]() { return lu_compensated_sum(A, i, j, count); },
        [&](LazyAccumulator& s, double(&slots)[N]) {
          Expansion<N> e;
          e.add(double(A(i, j)), s);
          for (int k = 0; k < count; ++k) {
            if (std::is_same<T, double>::value)
              e.add_product(-double(A(i, k)), double(A(k, j)), s);
            else
              e.add(-double(A(i, k)) * double(A(k, j)), s);  // two floats: exact in double
          }
          for (int q = 0; q < N; ++q) slots[q] = e[q];
        });
    return entry;
  }
}

// W entries of the factorization side by side, for ExpansionLanes: entry l is (row, col) =
// (first + l, fixed) of a column (Column) or (fixed, first + l) of a row, and its new value is
// RN(A(row, col) - sum_{k < count} A(row, k) A(k, col)). Lanes past the last entry repeat it.
template <class AView, bool Column>
struct LuLaneEntries {
  const AView& A;
  int fixed, first, last;  // last: the index of the last real entry
  KOKKOS_INLINE_FUNCTION int index(int l) const { return first + l < last ? first + l : last; }
  KOKKOS_INLINE_FUNCTION double initial(int l) const {
    return Column ? double(A(index(l), fixed)) : double(A(fixed, index(l)));
  }
  KOKKOS_INLINE_FUNCTION void factors(int k, int l, double& a, double& b) const {
    a = -double(Column ? A(index(l), k) : A(fixed, k));
    b = double(Column ? A(k, fixed) : A(k, index(l)));
  }
  KOKKOS_INLINE_FUNCTION void store(int l, double v) const {
    (Column ? A(first + l, fixed) : A(fixed, first + l)) = v;
  }
};

// Step s, entry l of a window of lu_update_in_lanes: term k0 + s of entry l.
template <class Entries>
struct LuLaneWindow {
  static constexpr bool is_product = true;
  const Entries& entries;
  int k0;
  KOKKOS_INLINE_FUNCTION void operator()(int s, int l, double& a, double& b) const {
    entries.factors(k0 + s, l, a, b);
  }
};

// The new values of W entries (count of them real) from `terms` exact products each, for a host
// thread that owns the whole matrix: the W sums side by side in ExpansionLanes (vectorized, and W
// independent TwoSum chains where lu_update waits on the latency of each), in windows of up to 8
// terms, by the engine's lanes driver (ExKokkos_CertifyOrExact_impl.hpp). The same exact sums and
// the same single rounding as lu_update, so the same bits. The certified try rounds all W lanes
// at once (CompensatedLanes::round_all, branch-free: each lane's CompensatedSum::round, as
// RoundSum's); the lanes past count repeat the last entry.
template <int N, int W, class Entries>
KOKKOS_INLINE_FUNCTION void lu_update_in_lanes(const Entries& entries, int count, int terms) {
  const auto finish =
      round_sum_into<double>([&](std::int64_t l, double v) { entries.store(int(l), v); });
  certify_or_exact_lanes<N, W>(
      finish, 0, count, true,
      [&](double(&r)[W]) {
        CompensatedLanes<W> fast;
        double a[W];
        for (int l = 0; l < W; ++l) a[l] = entries.initial(l);
        fast.add(a);
        fast.add_products(LuLaneWindow<Entries>{entries, 0}, terms);
        return fast.round_all(r);
      },
      [&](ExpansionLanes<N, W>& lanes, LazyAccumulator* acc, PerLaneSinks<LazyAccumulator>& sinks) {
        using Lanes = ExpansionLanes<N, W>;
        double a[W];
        for (int l = 0; l < W; ++l) a[l] = entries.initial(l);
        if (!lanes.add(a, sinks))  // refused: term by term into the sinks, which take anything
          for (int l = 0; l < count; ++l) acc[l].add(a[l]);
        for (int k = 0; k < terms; k += Lanes::window)
          lanes.add_window(LuLaneWindow<Entries>{entries, k}, sinks,
                           terms - k < Lanes::window ? terms - k : Lanes::window);
      });
}

// Entries [first, last) of column `fixed` (Column) or of row `fixed`, W at a time.
template <int N, int W, bool Column, class AView>
KOKKOS_INLINE_FUNCTION void lu_update_chunks_in_lanes(const AView& A, int fixed, int first,
                                                      int last, int terms) {
  for (int e0 = first; e0 < last; e0 += W) {
    const int count = last - e0 < W ? last - e0 : W;
    lu_update_in_lanes<N, W>(LuLaneEntries<AView, Column>{A, fixed, e0, e0 + count - 1}, count,
                             terms);
  }
}

// Eight lanes (one AVX-512 vector per slot) for short ranges; from 16 entries on, sixteen: two
// independent vectors per slot hide part of the TwoSum latency that binds eight lanes, and the
// fma units take part of the additions (ExpansionLanes::adds_on_fma_units). Sixteen from 16
// entries gains more than from 32 or 64 entries on; 32 lanes gain nothing more (figures:
// docs/performance.md).
template <int N, bool Column, class AView>
KOKKOS_INLINE_FUNCTION void lu_update_range_in_lanes(const AView& A, int fixed, int first, int last,
                                                     int terms) {
  constexpr int wide_range = 16;
  if (last - first >= wide_range)
    lu_update_chunks_in_lanes<N, 16, Column>(A, fixed, first, last, terms);
  else
    lu_update_chunks_in_lanes<N, 8, Column>(A, fixed, first, last, terms);
}

// The expansion size of the LU's exact sums on ExecSpace by default (an entry the certified try
// refuses is summed in an expansion of this many doubles): 3 on the host, 4 on devices, resolved
// to one this build compiles. Every size gives the same bits (ExKokkos_Tuning_impl.hpp).
template <class ExecSpace>
constexpr int lu_default_expansion_size() {
  return compiled_expansion_size<ExecSpace>(is_host_space<ExecSpace>() ? 3 : 4, Kernels::matrix);
}

// A team of one thread, the calling one: what the serial forms (SerialGetf2) hand to team_getf2,
// whose team steps then run as plain loops. No Kokkos team member exists outside a TeamPolicy, and
// the factorization's steps are the same on one thread as on a team of one.
struct OneThread {
  KOKKOS_INLINE_FUNCTION int team_size() const { return 1; }
  KOKKOS_INLINE_FUNCTION int team_rank() const { return 0; }
  KOKKOS_INLINE_FUNCTION void team_barrier() const {}
};
template <class Member>
struct IsOneThread : std::false_type {};
template <>
struct IsOneThread<OneThread> : std::true_type {};

// f(i) for i in [begin, end), the team's threads sharing the indices (a TeamThreadRange), or in
// order on one thread.
template <class Member, class F>
KOKKOS_INLINE_FUNCTION void team_for(const Member& team, int begin, int end, const F& f) {
  if constexpr (IsOneThread<Member>::value) {
    (void)team;
    for (int i = begin; i < end; ++i) f(i);
  } else {
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, begin, end), f);
  }
}

// The exact entry update, as the policy of team_getf2 (a benchmark passes a plain one, so that
// its ordinary counterpart has exactly this loop). HostLanes: the team runs on a host core, where
// a team of one thread updates whole rows and columns through lu_update_range_in_lanes.
template <int N, bool HostLanes = false>
struct ExactLuUpdate {
  static constexpr int size = N;
  template <class AView>
  KOKKOS_INLINE_FUNCTION typename AView::non_const_value_type operator()(const AView& A, int i,
                                                                         int j, int count) const {
    return lu_update<N>(A, i, j, count);
  }
};

// Step j's updates of team_getf2, the team's threads taking entries: rows [j, m) of column j
// (a11 and a21), or columns [j + 1, n) of row j (the row of U). A host team of one thread with
// ExactLuUpdate<N, true> takes them W at a time in vector lanes (lu_update_range_in_lanes).
template <class Update>
struct UsesHostLanes : std::false_type {};
template <int N>
struct UsesHostLanes<ExactLuUpdate<N, true>> : std::true_type {};

template <class Member, class AView, class Update>
KOKKOS_INLINE_FUNCTION void update_column(const Member& team, const AView& A, int j,
                                          const Update& update) {
  const int m = static_cast<int>(A.extent(0));
  if constexpr (UsesHostLanes<Update>::value &&
                std::is_same<typename AView::non_const_value_type, double>::value) {
    if (team.team_size() == 1) return lu_update_range_in_lanes<Update::size, true>(A, j, j, m, j);
  }
  team_for(team, j, m, [&](const int i) { A(i, j) = update(A, i, j, j); });
}
template <class Member, class AView, class Update>
KOKKOS_INLINE_FUNCTION void update_row(const Member& team, const AView& A, int j,
                                       const Update& update) {
  const int n = static_cast<int>(A.extent(1));
  if constexpr (UsesHostLanes<Update>::value &&
                std::is_same<typename AView::non_const_value_type, double>::value) {
    if (team.team_size() == 1)
      return lu_update_range_in_lanes<Update::size, false>(A, j, j + 1, n, j);
  }
  team_for(team, j + 1, n, [&](const int c) { A(j, c) = update(A, j, c, j); });
}

// The pivot rule on one thread: the first index i >= j of the largest |A(i, j)|, a NaN never
// larger than a number (j when the whole column is NaN); complex values by their exact moduli
// (complex_sequential_pivot).
template <class AView>
KOKKOS_INLINE_FUNCTION int sequential_pivot(const AView& A, int j) {
  using T = typename AView::non_const_value_type;
  if constexpr (is_exact_complex<T>()) {
    return complex_sequential_pivot(A, j);
  } else {
    const int m = static_cast<int>(A.extent(0));
    T largest = T(-1);  // below every magnitude: "no number seen"
    int first = j;
    for (int i = j; i < m; ++i) {
      const T v = compat::fabs(A(i, j));
      if (v > largest) {  // false for a NaN; strict: the first of equal magnitudes stays
        largest = v;
        first = i;
      }
    }
    return first;
  }
}

// The search of team_pivot (below) for columns longer than a warp: two team reductions.
template <class Member, class AView>
KOKKOS_INLINE_FUNCTION int team_shared_pivot(const Member& team, const AView& A, int j) {
  using T = typename AView::non_const_value_type;
  const int m = static_cast<int>(A.extent(0));
  T largest = T(-1);  // below every magnitude: "no number seen"
  Kokkos::parallel_reduce(
      Kokkos::TeamThreadRange(team, j, m),
      [&](const int i, T& mx) {
        const T v = compat::fabs(A(i, j));
        if (v > mx) mx = v;  // false for a NaN
      },
      Kokkos::Max<T>(largest));
  if (!(largest >= T(0))) return j;
  int first = m;
  Kokkos::parallel_reduce(
      Kokkos::TeamThreadRange(team, j, m),
      [&](const int i, int& f) {
        if (compat::fabs(A(i, j)) == largest && i < f) f = i;
      },
      Kokkos::Min<int>(first));
  return first;
}

// The pivot of step j: the first index i >= j of the largest |A(i, j)|, a NaN never larger than a
// number (j when the whole column is NaN). A column of up to a warp's length (32 rows) is searched
// by every thread on its own (the column is final after the step's barrier, so all find the same
// row); team_getf2's barrier before a swap keeps the swap from overwriting row j under a thread
// still reading it. A Kokkos team reduction, with its warp synchronization and integer divisions
// by the team size, costs more than a scan of 32 entries (figures: docs/performance.md). Longer
// columns take the sequential rule split in two reductions that are exact and order-free (a
// maximum, then a minimum of the indices reaching it), so the team's threads share the column and
// every team size picks the same row. Complex columns are scanned by every thread whatever their
// length (an exact tie-break has no Kokkos reducer).
template <class Member, class AView>
KOKKOS_INLINE_FUNCTION int team_pivot(const Member& team, const AView& A, int j) {
  const int m = static_cast<int>(A.extent(0));
  constexpr int scanned_rows = 32;
  if constexpr (IsOneThread<Member>::value ||
                is_exact_complex<typename AView::non_const_value_type>()) {
    (void)team, (void)m, (void)scanned_rows;
    return sequential_pivot(A, j);
  } else {
    if (team.team_size() == 1 || m - j <= scanned_rows) return sequential_pivot(A, j);
    return team_shared_pivot(team, A, j);
  }
}

// l_ij = RN(a_ij / a_jj): one IEEE division, or for complex values each part of the quotient
// rounded once from its exact numerator and |a_jj|^2.
template <class T>
KOKKOS_INLINE_FUNCTION T lu_quotient(const T& a, const T& pivot) {
  if constexpr (is_exact_complex<T>())
    return rounded_complex_quotient(a, pivot);
  else
    return a / pivot;
}

// Factors A (m x n) in place with the team; pivots (0-based row indices, min(m, n) of them) go to
// ipiv. Returns LAPACK's info on every thread: 0, or k when U(k-1, k-1) (1-based k) is exactly
// zero; the factorization still completes (a zero pivot's column is not scaled). update(A, i, j,
// count) gives the new a_ij from a_ij and the first `count` terms of row i times column j.
template <class Member, class AView, class PivView, class Update>
KOKKOS_INLINE_FUNCTION int team_getf2(const Member& team, const AView& A, const PivView& ipiv,
                                      const Update& update) {
  using T = typename AView::non_const_value_type;
  const int m = static_cast<int>(A.extent(0)), n = static_cast<int>(A.extent(1));
  int info = 0;
  const int steps = m < n ? m : n;
  for (int j = 0; j < steps; ++j) {
    // a11 and a21: independent exact dot products (the U part of column j above the diagonal
    // was computed as rows of U in the steps before).
    update_column(team, A, j, update);
    team.team_barrier();
    const int p = team_pivot(team, A, j);  // the same on every thread
    // One thread records it, by its rank rather than Kokkos::single(PerTeam), whose warp mask
    // takes two integer divisions by the block's extents on CUDA.
    if (team.team_rank() == 0) ipiv(j) = p;
    if (p != j) {
      // Every thread has read column j (team_pivot's scan) before the swap writes rows j and p;
      // without a swap the barrier below orders the scan before the division.
      team.team_barrier();
      team_for(team, 0, n, [&](const int c) {
        const T t = A(j, c);
        A(j, c) = A(p, c);
        A(p, c) = t;
      });
    }
    team.team_barrier();
    const T pivot = A(j, j);
    if (pivot != T(0)) {
      team_for(team, j + 1, m, [&](const int i) { A(i, j) = lu_quotient(A(i, j), pivot); });
    } else if (info == 0) {
      info = j + 1;
    }
    // Row j of U right of the diagonal: independent exact dot products, now that row j is final
    // (no later swap touches it).
    update_row(team, A, j, update);
    team.team_barrier();
  }
  return info;
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_GETF2_IMPL_HPP
