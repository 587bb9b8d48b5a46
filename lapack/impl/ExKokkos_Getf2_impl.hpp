// One team factors one matrix: the left-looking jik LU with partial pivoting of the ExBLAS LU
// paper (Iakymchuk, Graillat, Defour, Quintana-Orti, "Hierarchical approach for deriving a
// reproducible unblocked LU factorization", Alg. 7). For every column j:
//   u_ij = RN(a_ij - sum_{k<i} l_ik u_kj)        i < j  (a01 := L00^-1 a01, in order)
//   a_ij = RN(a_ij - sum_{k<j} l_ik u_kj)        i >= j (a11 and a21, independent rows)
//   p = the first index of the largest |a_ij|, i >= j; swap rows j and p everywhere
//   l_ij = RN(a_ij / a_jj)                       i > j  (one correctly rounded division)
// Every sum is exact (an expansion per thread spilling into a long accumulator) and rounded once,
// so each entry, each pivot and info depend on nothing but the input: any team size, batch size
// or backend gives the same bits, and a batched factor equals the unbatched one.
#ifndef EXKOKKOS_GETF2_IMPL_HPP
#define EXKOKKOS_GETF2_IMPL_HPP

#include <ExKokkos_Compat.hpp>
#include <ExKokkos_Expansion.hpp>
#include <ExKokkos_ExpansionRounding.hpp>
#include <ExKokkos_LongAccumulator.hpp>

#include <cstdint>
#include <type_traits>

namespace ExKokkos {
namespace Impl {

// Records whether anything reached it, and builds its long accumulator only then: most short
// sums stay inside the expansion, and a 1 KiB accumulator's clearing, normalization and rounding
// would cost more than the sum itself.
class LazyAccumulator {
 public:
  KOKKOS_INLINE_FUNCTION LazyAccumulator() : used_(false) {}
  KOKKOS_INLINE_FUNCTION void add(double x) { get().add(x); }
  KOKKOS_INLINE_FUNCTION void add_product(double a, double b) { get().add_product(a, b); }
  KOKKOS_INLINE_FUNCTION bool used() const { return used_; }
  KOKKOS_INLINE_FUNCTION LongAccumulator& get() {
    if (!used_) {
      acc_ = LongAccumulator();
      used_ = true;
    }
    return acc_;
  }

 private:
  bool used_;
  union {
    LongAccumulator acc_;  // constructed on first use
  };
};

// RN(a_ij - sum_{k < count} a_ik a_kj), exact before the one rounding.
template <int N, class AView>
KOKKOS_INLINE_FUNCTION typename AView::non_const_value_type lu_update(const AView& A, int i, int j,
                                                                      int count) {
  using T = typename AView::non_const_value_type;
  LazyAccumulator s;
  Expansion<N> e;
  e.add(double(A(i, j)), s);
  for (int k = 0; k < count; ++k) {
    if (std::is_same<T, double>::value)
      e.add_product(-double(A(i, k)), double(A(k, j)), s);
    else
      e.add(-double(A(i, k)) * double(A(k, j)), s);  // two floats: exact in double
  }
  double fast;
  if (std::is_same<T, double>::value && !s.used() && round_expansion_fast(e, fast)) return T(fast);
  e.flush(s);
  return s.get().round<T>();
}

// The exact entry update, as the policy of team_getf2 (a benchmark passes a plain one, so that
// its ordinary counterpart has exactly this loop).
template <int N>
struct ExactLuUpdate {
  template <class AView>
  KOKKOS_INLINE_FUNCTION typename AView::non_const_value_type operator()(const AView& A, int i,
                                                                         int j, int count) const {
    return lu_update<N>(A, i, j, count);
  }
};

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
  for (int j = 0; j < n; ++j) {
    const int top = j < m ? j : m;  // rows above the diagonal in this column
    // U part of column j, in order (each row needs the rows above it).
    Kokkos::single(Kokkos::PerTeam(team), [&]() {
      for (int i = 1; i < top; ++i) A(i, j) = update(A, i, j, i);
    });
    team.team_barrier();
    if (j >= m) continue;
    // a11 and a21: independent exact dot products.
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, j, m),
                         [&](const int i) { A(i, j) = update(A, i, j, j); });
    team.team_barrier();
    // The pivot: the first index of the largest magnitude (a NaN is never larger).
    int p = j;
    Kokkos::single(
        Kokkos::PerTeam(team),
        [&](int& pivot) {
          pivot = j;
          T largest = compat::fabs(A(j, j));
          for (int i = j + 1; i < m; ++i) {
            const T v = compat::fabs(A(i, j));
            if (v > largest || (largest != largest && v == v)) {
              largest = v;
              pivot = i;
            }
          }
          ipiv(j) = pivot;
        },
        p);
    if (p != j) {
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n), [&](const int c) {
        const T t = A(j, c);
        A(j, c) = A(p, c);
        A(p, c) = t;
      });
    }
    team.team_barrier();
    const T pivot = A(j, j);
    if (pivot != T(0)) {
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, j + 1, m),
                           [&](const int i) { A(i, j) = A(i, j) / pivot; });
    } else if (info == 0) {
      info = j + 1;
    }
    team.team_barrier();
  }
  return info;
}

template <int N, class ExecSpace, class AView, class PivView, class InfoView>
struct BatchedGetf2Functor {
  using member_type = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  AView A;        // batch x m x n
  PivView ipiv;   // batch x min(m, n)
  InfoView info;  // batch

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const int b = team.league_rank();
    const auto a = Kokkos::subview(A, b, Kokkos::ALL(), Kokkos::ALL());
    const auto piv = Kokkos::subview(ipiv, b, Kokkos::ALL());
    const int result = team_getf2(team, a, piv, ExactLuUpdate<N>());
    Kokkos::single(Kokkos::PerTeam(team), [&]() { info(b) = result; });
  }
};

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_GETF2_IMPL_HPP
