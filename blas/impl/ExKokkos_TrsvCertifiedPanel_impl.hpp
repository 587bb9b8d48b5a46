// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The panel of extrsv's certified rows: for each row q = p + i of a diagonal block, the
// compensated sum (CompensatedSum, Dot2 of Ogita, Rump and Oishi) of -T(q, r) x_r over a range of
// solved columns r < p, kept unrounded for the diagonal block (ExKokkos_TrsvCertifiedRows_impl.hpp:
// the columns before the previous block in the previous block's launch, that block's own columns
// in a launch of their own).
//
// A block has few rows (up to 1024) and many columns. A team takes a slice of S neighbouring rows
// (S = 32 on devices: a warp reads one coalesced piece of a column when T's columns are
// contiguous, y = A x with LayoutLeft) and a chunk of the columns; its T / S groups of S threads
// stride the chunk's columns, and the team merges their sums (CompensatedSum::merge) into one
// part per row and chunk. The panel between two blocks also merges the parts of the one beside the
// previous block's chains into its own (part j into chunk j mod chunks's), so that the diagonal
// block merges at most 32 parts a row (its single team read 64 of them). CompensatedSum's
// margin holds for any order of additions and any tree of merges, so the split changes no bit: the
// certified rounding either gives RN of the exact sum or refuses.
//
// The parts are kept as separate arrays (s, c, magnitude, terms), read and written one coalesced
// field at a time: nvcc writes a View of CompensatedSum byte by byte.
#ifndef EXKOKKOS_TRSVCERTIFIEDPANEL_IMPL_HPP
#define EXKOKKOS_TRSVCERTIFIEDPANEL_IMPL_HPP

#include <impl/ExKokkos_Tuning_impl.hpp>
#include "ExKokkos_TrsvOperands_impl.hpp"

#include <ExKokkos_CompensatedSum.hpp>

#include <string>

namespace ExKokkos {
namespace Impl {

// Compensated sums (part, row of the block), one array per field (head, errors, magnitude and the
// count of error terms, an integer below 2^21 and so exact in a double), in one allocation.
template <class ExecSpace>
struct CompensatedParts {
  Kokkos::View<double***, Kokkos::LayoutRight, typename ExecSpace::memory_space> fields;

  CompensatedParts() = default;
  CompensatedParts(const char* label, std::size_t parts, std::size_t rows)
      : fields(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)), 4, parts,
               rows) {}

  KOKKOS_INLINE_FUNCTION CompensatedSum get(std::int64_t j, std::int64_t i) const {
    return CompensatedSum(fields(0, j, i), fields(1, j, i), fields(2, j, i),
                          static_cast<int>(fields(3, j, i)));
  }
  KOKKOS_INLINE_FUNCTION void set(std::int64_t j, std::int64_t i, const CompensatedSum& s) const {
    fields(0, j, i) = s.head();
    fields(1, j, i) = s.errors();
    fields(2, j, i) = s.magnitude();
    fields(3, j, i) = double(s.terms());
  }
};

// How a panel is split: slices of `slice` rows, `chunks` ranges of `columns` columns.
constexpr std::int64_t certified_panel_most_chunks = 32;
struct CertifiedPanelShape {
  int slice;  // rows a team (the team size when smaller than 32)
  std::int64_t slices, chunks, columns;
};

// The panel's team: 256 threads on devices, one on the host.
template <class ExecSpace>
constexpr int certified_panel_team_size() {
  return is_host_space<ExecSpace>() ? 1 : 256;
}

// Devices: about four teams a multiprocessor over the whole panel (Kokkos counts 2048 threads a
// multiprocessor), each of whose threads takes at least `least` columns, and at most
// certified_panel_most_chunks parts a row; the host: one team a thread. `columns` columns, teams
// of team_size threads. The panel beside the chains (CertifiedChainWithPanel) has time to spare
// and takes 64 columns a thread (fewer parts for the panel between blocks to merge); the small
// one between two blocks is on the solve's path and takes 8, one round of loads a thread (with
// 64 each thread would wait on eight rounds of loads, a tenth of the block's time).
template <class ExecSpace>
CertifiedPanelShape certified_panel_shape(const ExecSpace& space, std::int64_t columns,
                                          std::int64_t rows,
                                          int team_size = certified_panel_team_size<ExecSpace>(),
                                          std::int64_t least = 64) {
  const int slice = team_size < 32 ? team_size : 32;
  const std::int64_t groups = team_size / slice;  // threads sharing a row
  const std::int64_t slices = (rows + slice - 1) / slice;
  const std::int64_t teams = is_host_space<ExecSpace>()
                                 ? std::int64_t(compat::concurrency(space))
                                 : std::int64_t(compat::concurrency(space)) / 512;
  std::int64_t chunks = teams / slices;
  const std::int64_t useful = (columns + least * groups - 1) / (least * groups);
  if (chunks > useful) chunks = useful;
  if (chunks > certified_panel_most_chunks) chunks = certified_panel_most_chunks;
  if (chunks < 1) chunks = 1;
  return {slice, slices, chunks, (columns + chunks - 1) / chunks};
}

template <class ExecSpace, class Tri, class BView>
struct CertifiedPanelFunctor {
  using policy_type = Kokkos::TeamPolicy<ExecSpace>;
  using member_type = typename policy_type::member_type;
  Tri tri;
  BView b;
  CompensatedParts<ExecSpace> parts;       // (chunk, row of the block)
  std::int64_t p, rows;                    // the block's first row and rows
  std::int64_t first_column, last_column;  // the columns summed: first_column <= r < last_column
  bool prefetch_block;  // bring the block's own entries into the L2 cache (see below)
  CertifiedPanelShape shape;
  // Parts 0 .. absorbed - 1 are merged into chunk j mod chunks's (team c writes part c, which no
  // other team reads).
  std::int64_t absorbed = 0;

  // Each thread's sum, for the team's merge.
  static std::size_t scratch_size(int team_size) {
    return (3 * sizeof(double) + sizeof(int)) * static_cast<std::size_t>(team_size);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    run(team, team.league_rank());
  }

  // Team `league` of the panel (a team of another launch: CertifiedChainWithPanel).
  template <class Member>
  KOKKOS_INLINE_FUNCTION void run(const Member& team, std::int64_t league) const {
    const std::int64_t slice = league % shape.slices;
    const std::int64_t chunk = league / shape.slices;
    const int T = team.team_size(), t = team.team_rank();
    const int lane = t % shape.slice, group = t / shape.slice, groups = T / shape.slice;
    const std::int64_t i = slice * shape.slice + lane;
    const std::int64_t first = first_column + chunk * shape.columns;
    const std::int64_t last =
        first + shape.columns < last_column ? first + shape.columns : last_column;
    CompensatedSum sum;
    if (i < rows && group < groups) {
      const std::int64_t q = p + i;
      // The teams bring the block's own entries (its lower triangle) into the L2 cache for the
      // diagonal solve that follows, whose first loads of them wait on its chains (it asks for
      // the later ones itself, a round ahead): chunk c the columns c, c + chunks, ... of a group.
      if (prefetch_block)
        for (std::int64_t r = group + groups * chunk; r <= i; r += groups * shape.chunks)
          compat::prefetch_l2(tri.address(q, p + r));
      std::int64_t r = first + group;
      // Eight terms' loads issued before their sums, which form a dependent chain.
      for (; r + 7 * groups < last; r += 8 * groups) {
        double a[8], x[8];
        for (int u = 0; u < 8; ++u) {
          a[u] = tri(q, r + u * groups);
          x[u] = b(tri.index(r + u * groups));
        }
        for (int u = 0; u < 8; ++u) sum.add_product(a[u], -x[u]);
      }
      for (; r < last; r += groups) sum.add_product(tri(q, r), -double(b(tri.index(r))));
    }
    auto& shmem = team.team_scratch(0);
    double* heads = static_cast<double*>(shmem.get_shmem(sizeof(double) * T));
    double* errors = static_cast<double*>(shmem.get_shmem(sizeof(double) * T));
    double* magnitudes = static_cast<double*>(shmem.get_shmem(sizeof(double) * T));
    int* terms = static_cast<int*>(shmem.get_shmem(sizeof(int) * T));
    heads[t] = sum.head();
    errors[t] = sum.errors();
    magnitudes[t] = sum.magnitude();
    terms[t] = sum.terms();
    team.team_barrier();
    if (group == 0 && i < rows) {
      for (int g = 1; g < groups; ++g) {
        const int u = g * shape.slice + lane;
        sum.merge(CompensatedSum(heads[u], errors[u], magnitudes[u], terms[u]));
      }
      for (std::int64_t j = chunk; j < absorbed; j += shape.chunks) sum.merge(parts.get(j, i));
      parts.set(chunk, i, sum);  // (after the reads of part chunk)
    }
  }
};

// Row i's sum over the panel: its parts merged.
template <class ExecSpace>
KOKKOS_INLINE_FUNCTION CompensatedSum merged_parts(const CompensatedParts<ExecSpace>& parts,
                                                   std::int64_t count, std::int64_t i) {
  CompensatedSum sum = parts.get(0, i);
  for (std::int64_t j = 1; j < count; ++j) sum.merge(parts.get(j, i));
  return sum;
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_TRSVCERTIFIEDPANEL_IMPL_HPP
