// exgetf2 for a team that holds a double matrix in scratch memory (devices; Schedule::
// trailing_update): the entries of team_getf2 (ExKokkos_Getf2_impl.hpp), each RN of the same
// exact sum, reached in the right-looking order as host_getf2_trailing_update reaches them on one
// core. Every entry's certified first try (CompensatedSum) lives in scratch memory from the
// start: its head in the matrix copy itself, its error sum and magnitude sum in two arrays beside
// it. Step k adds -l_ik u_kc to every trailing entry (i, c > k), one entry per thread; at step j
// the sums of column j and of row j of U hold their terms k < j, and are rounded once. An entry
// whose rounding is not certified is summed exactly from the final L and U and from its original
// value, which the global matrix still holds (it is written back at the end; `origin` maps the
// copy's rows, swapped by the pivots, to the global rows), as lu_update would.
// So the factors, pivots and info are those of every other schedule, team size and backend.
//
// Why: left-looking, step j of a 32 x 32 matrix gives a warp 32 - j entries of column j and
// 31 - j of row j, each a dot product of j terms, so most lanes idle while one walks its terms
// (the H100 kernel issued about 43 instructions per term, 2026-11-24). Right-looking, step j has
// (31 - j)^2 independent one-term updates: every lane busy, and no loop over the terms.
#ifndef EXKOKKOS_TEAMGETF2TRAILINGUPDATE_IMPL_HPP
#define EXKOKKOS_TEAMGETF2TRAILINGUPDATE_IMPL_HPP

#include "ExKokkos_Getf2_impl.hpp"

#include <ExKokkos_CompensatedSum.hpp>
#include <ExKokkos_ErrorFreeTransforms.hpp>

#include <cstddef>

namespace ExKokkos {
namespace Impl {

// The scratch memory of team_getf2_trailing_update, for an m x n matrix copied with row stride
// ld: the copy (the sums' heads), the error sums, the magnitude sums, and the rows' origins.
KOKKOS_INLINE_FUNCTION std::size_t team_trailing_update_bytes(int m, int ld) {
  const std::size_t origins = (sizeof(int) * std::size_t(m) + 7) / 8 * 8;
  return 3 * sizeof(double) * std::size_t(m) * std::size_t(ld) + origins;
}

// One product of CompensatedSum::add_product (the same steps, so its margin holds) on a sum kept
// as three doubles in scratch memory.
KOKKOS_INLINE_FUNCTION void compensated_add_product(double& s, double& c, double& magnitude,
                                                    double a, double b) {
  double p, e, q, head;
  two_prod(a, b, p, e);
  two_sum(s, p, head, q);
  s = head;
  c = (c + q) + e;
  magnitude += compat::fabs(p);
}

// Factors the matrix held in S (m x n, row-major: unit column stride; heads: S itself, errors and
// magnitudes: E and M, the same row stride; all three and origin[] set up by the caller: S = the
// matrix, E = 0, M = |S|, origin[i] = i). a: the original matrix, read only (where a rounding is
// refused). Returns info on every thread, as team_getf2; the caller copies S back.
template <int N, class Member, class SView, class AView, class PivView>
KOKKOS_INLINE_FUNCTION int team_getf2_trailing_update(const Member& team, const SView& S,
                                                      const SView& E, const SView& M, int* origin,
                                                      const AView& a, const PivView& ipiv) {
  const int m = static_cast<int>(S.extent(0)), n = static_cast<int>(S.extent(1));
  const int rank = team.team_rank(), size = team.team_size();
  // Entry (i, c) after its terms k < j: RN of its exact value (1 + 2 j error terms so far).
  const auto settle = [&](int i, int c, int j) {
    double r;
    if (!round_compensated(S(i, c), E(i, c), M(i, c), 1 + 2 * j, r))
      r = lu_exact_update<N>(double(a(origin[i], c)), S, i, c, j);
    S(i, c) = r;
  };
  int info = 0;
  const int steps = m < n ? m : n;
  if (steps > 0) {  // column 0: no terms yet
    for (int i = rank; i < m; i += size) settle(i, 0, 0);
    team.team_barrier();
  }
  for (int j = 0; j < steps; ++j) {
    const int p = team_pivot(team, S, j);
    Kokkos::single(Kokkos::PerTeam(team), [&]() {
      ipiv(j) = p;
      if (p != j) {
        const int t = origin[j];
        origin[j] = origin[p];
        origin[p] = t;
      }
    });
    if (p != j) {  // the whole rows; the sums of entries right of column j
      for (int c = rank; c < n; c += size) {
        double t = S(j, c);
        S(j, c) = S(p, c);
        S(p, c) = t;
        if (c > j) {
          t = E(j, c);
          E(j, c) = E(p, c);
          E(p, c) = t;
          t = M(j, c);
          M(j, c) = M(p, c);
          M(p, c) = t;
        }
      }
    }
    team.team_barrier();
    const double pivot = S(j, j);
    // Column j of L and row j of U: disjoint entries, neither reading the other.
    if (pivot != 0.0) {
      for (int i = j + 1 + rank; i < m; i += size) S(i, j) = S(i, j) / pivot;
    } else if (info == 0) {
      info = j + 1;
    }
    for (int c = j + 1 + rank; c < n; c += size) settle(j, c, j);
    team.team_barrier();

    // Step j's products for the trailing matrix, one entry per thread at a time, the entries of
    // a row side by side; the thread that gives an entry of column j + 1 its last term rounds it
    // at once (its terms k <= j are final: no barrier needed before the next pivot search).
    // Two entries a round, loaded before either is stored: they are distinct, which the compiler
    // cannot know of three arrays it sees as one scratch buffer, and the two chains overlap.
    const int rows = m - j - 1, cols = n - j - 1;
    if (rows > 0 && cols > 0) {
      // Walk e = rank, rank + size, ... over the rows x cols entries without a division per
      // entry: (i, c) advances by (size / cols, size % cols) with a carry.
      const int di = size / cols, dc = size - di * cols;
      const auto advance = [&](int& i, int& c) {
        i += di;
        c += dc;
        if (c >= cols) {
          c -= cols;
          ++i;
        }
      };
      const std::size_t ld = S.stride(0);
      double* const s = S.data();
      double* const err = E.data();
      double* const mag = M.data();
      int i = rank / cols, c = rank - (rank / cols) * cols;
      while (i < rows) {
        int i2 = i, c2 = c;
        advance(i2, c2);
        const std::size_t at = std::size_t(j + 1 + i) * ld + std::size_t(j + 1 + c);
        if (i2 < rows) {
          const std::size_t at2 = std::size_t(j + 1 + i2) * ld + std::size_t(j + 1 + c2);
          double s1 = s[at], e1 = err[at], m1 = mag[at];
          double s2 = s[at2], e2 = err[at2], m2 = mag[at2];
          const double l1 = -s[std::size_t(j + 1 + i) * ld + j],
                       u1 = s[std::size_t(j) * ld + j + 1 + c];
          const double l2 = -s[std::size_t(j + 1 + i2) * ld + j],
                       u2 = s[std::size_t(j) * ld + j + 1 + c2];
          compensated_add_product(s1, e1, m1, l1, u1);
          compensated_add_product(s2, e2, m2, l2, u2);
          s[at] = s1, err[at] = e1, mag[at] = m1;
          s[at2] = s2, err[at2] = e2, mag[at2] = m2;
          if (c == 0) settle(j + 1 + i, j + 1, j + 1);
          if (c2 == 0) settle(j + 1 + i2, j + 1, j + 1);
          i = i2;
          c = c2;
          advance(i, c);
        } else {
          compensated_add_product(s[at], err[at], mag[at], -s[std::size_t(j + 1 + i) * ld + j],
                                  s[std::size_t(j) * ld + j + 1 + c]);
          if (c == 0) settle(j + 1 + i, j + 1, j + 1);
          i = i2;
          c = c2;
        }
      }
    }
    team.team_barrier();
  }
  return info;
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_TEAMGETF2TRAILINGUPDATE_IMPL_HPP
