// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The kernels behind exgemm. Every c_ij is a gemv output: the exact sum S_ij = sum_k op(A)(i, k)
// op(B)(k, j), then one rounding of alpha S_ij + beta c_ij (core/ExKokkos_ScaledSumRounding.hpp).
// So exgemm runs exgemv's schedules (ExKokkos_Gemv_impl.hpp) over all m * n outputs at once, in
// one launch:
//   output_lanes (host): a thread takes 32 consecutive rows of one column of C as the 32 lanes of
//     gemv's output-lanes functor, x being that column of op(B); consecutive work items walk the
//     columns of C for the same rows, so the 32 x k panel of op(A) stays in cache;
//   inner_lanes and team_per_output (host, any backend): the outputs flattened column by column,
//     o = i + m j, each a dot product of row i of op(A) with column j of op(B).
// Every schedule adds exact terms into exact sinks and rounds each output once, so all give the
// same bits (ExBLAS, ExGEMM: an expansion per element of C, the long accumulator on overflow and at
// the end, reused from one element to the next).
//
// Not here: the Ozaki schedule (ExKokkos_GemmOzaki_impl.hpp), slices of A and B whose products an
// ordinary GEMM computes exactly. With data spread over many binades it needs many slices per
// operand (every bit of every entry must land in some slice), so its cost depends on the data
// while this one's does not; exgemm keeps both and picks by a cost model.
#ifndef EXKOKKOS_GEMM_IMPL_HPP
#define EXKOKKOS_GEMM_IMPL_HPP

#include "ExKokkos_Gemv_impl.hpp"

#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace ExKokkos {
namespace Impl {

// Column j of op(B) as the x of one gemv.
template <class OpB>
struct OperandColumn {
  OpB op;
  std::int64_t j;
  KOKKOS_INLINE_FUNCTION double operator()(std::int64_t k) const { return op(k, j); }
};

// Column j of C as the y of one gemv (GemvFinish reads and writes y(i)).
template <class CView>
struct MatrixColumn {
  using non_const_value_type = typename CView::non_const_value_type;
  CView C;
  std::int64_t j;
  KOKKOS_INLINE_FUNCTION non_const_value_type& operator()(std::int64_t i) const { return C(i, j); }
};

// The outputs of C flattened column by column: output o is c_(o mod m, o div m).
template <class CView>
struct FlatMatrixOutput {
  using non_const_value_type = typename CView::non_const_value_type;
  CView C;
  std::int64_t m;
  KOKKOS_INLINE_FUNCTION non_const_value_type& operator()(std::int64_t o) const {
    return C(o % m, o / m);
  }
};

// op(A) with flattened outputs: row o mod m of op(A) is the left factor of output o.
template <class OpA>
struct FlatRowsOperand {
  OpA op;
  std::int64_t m, n;
  KOKKOS_INLINE_FUNCTION double operator()(std::int64_t o, std::int64_t k) const {
    return op(o % m, k);
  }
  std::int64_t outputs() const { return m * n; }
  std::int64_t inner() const { return op.inner(); }
  bool inner_contiguous() const { return op.inner_contiguous(); }
};

// The right factors of the flattened outputs: column o div m of op(B).
template <class OpB>
struct FlatColumnsOperand {
  OpB op;
  std::int64_t m;
};

template <class OpB>
KOKKOS_INLINE_FUNCTION double right_factor(const FlatColumnsOperand<OpB>& x, std::int64_t o,
                                           std::int64_t k) {
  return x.op(k, o / x.m);
}

// output_lanes over all of C: work item t is the block of 32 rows t div n in column t mod n.
template <class OpA, class OpB, class CView, int N>
struct GemmOutputLanesFunctor {
  using Finish = GemvFinish<MatrixColumn<CView>>;
  using ColumnFunctor = OutputLanesFunctor<OpA, OperandColumn<OpB>, Finish, N>;
  using T = typename CView::non_const_value_type;
  OpA op_a;
  OpB op_b;
  CView C;
  T alpha, beta;
  std::int64_t m, n, k_count;

  static std::int64_t row_blocks(std::int64_t m) {
    return (m + ColumnFunctor::W - 1) / ColumnFunctor::W;
  }

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t t) const {
    const std::int64_t j = t % n;
    const ColumnFunctor column{op_a, OperandColumn<OpB>{op_b, j},
                               Finish{MatrixColumn<CView>{C, j}, alpha, beta}, m, k_count};
    column(t / n);
  }
};

// A sink for the tiles schedule: it only remembers that an expansion could not keep a term (a
// leftover below its last slot, a special value, a product whose TwoProd may be inexact). The
// term is dropped, so the element's expansion is no longer its exact sum: the whole tile is then
// left unwritten and recomputed by the team_per_output schedule, which keeps every term.
struct SpillFlag {
  bool spilled = false;
  KOKKOS_INLINE_FUNCTION void add(double) { spilled = true; }
  KOKKOS_INLINE_FUNCTION void add_product(double, double) { spilled = true; }
};

// The tiles schedule (ExBLAS, ExGEMM: two levels of blocking): a team owns a tile_m x tile_n tile
// of C and walks k in panels of panel_k, the panels of op(A) and op(B) staged in scratch memory;
// each thread owns per_thread elements of the tile, an expansion each in registers. A tile whose
// expansions all kept every term rounds each element from its expansion (exact: the slots sum to
// S_ij) by steps 2 and 3 of the engine (ExKokkos_CertifyOrExact_impl.hpp): from the slots where
// certified, else through a long accumulator. A tile where any
// expansion spilled writes nothing and is listed in spilled_tiles (entry 0 counts them) for the
// exact fallback. Elements, tiles and panels only split the same exact sums: every tiling, team
// and league size gives the same bits.
// Team scratch of a tile of the tiles schedule: panels of op(A) (tile_m x panel_k) and op(B)
// (panel_k x tile_n) as doubles, and two spill counters.
inline std::size_t gemm_tiles_scratch_bytes(int tile_m, int tile_n, std::int64_t panel_k) {
  return sizeof(double) * std::size_t(panel_k) * std::size_t(tile_m + tile_n) +
         sizeof(std::uint32_t) * 2;
}

template <class ExecSpace, class OpA, class OpB, class CView, int N>
struct GemmTilesFunctor {
  static constexpr int per_thread = 4;
  using member_type = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using T = typename CView::non_const_value_type;
  using TileList = Kokkos::View<std::int64_t*, typename ExecSpace::memory_space>;
  using Finish = GemvFinish<MatrixColumn<CView>>;
  OpA op_a;
  OpB op_b;
  CView C;
  T alpha, beta;
  std::int64_t m, n, k_count;
  int tile_m, tile_n, panel_k;
  std::int64_t tiles_m, tiles;
  TileList spilled_tiles;

  static std::size_t scratch_size(int tile_m, int tile_n, int panel_k) {
    return gemm_tiles_scratch_bytes(tile_m, tile_n, panel_k);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    double* a_panel = static_cast<double*>(
        team.team_scratch(0).get_shmem(sizeof(double) * std::size_t(tile_m) * panel_k));
    double* b_panel = static_cast<double*>(
        team.team_scratch(0).get_shmem(sizeof(double) * std::size_t(tile_n) * panel_k));
    std::uint32_t* spills =
        static_cast<std::uint32_t*>(team.team_scratch(0).get_shmem(sizeof(std::uint32_t) * 2));
    for (std::int64_t t = team.league_rank(); t < tiles; t += team.league_size()) {
      const std::int64_t i0 = (t % tiles_m) * tile_m, j0 = (t / tiles_m) * tile_n;
      team.team_barrier();  // every thread has read the previous tile's spill count
      if (team.team_rank() == 0) spills[0] = 0;
      Expansion<N, false> e[per_thread];
      SpillFlag spill[per_thread];
      for (std::int64_t k0 = 0; k0 < k_count; k0 += panel_k) {
        const int kb = static_cast<int>(k_count - k0 < panel_k ? k_count - k0 : panel_k);
        team.team_barrier();  // the previous panel is no longer read
        stage(team, i0, j0, k0, kb, a_panel, b_panel);
        team.team_barrier();
        for (int s = 0; s < per_thread; ++s) {
          const int q = team.team_rank() + s * team.team_size();
          const double* a_row = a_panel + q % tile_m;
          const double* b_col = b_panel + std::size_t(q / tile_m) * kb;
          for (int kk = 0; kk < kb; ++kk)
            e[s].add_product(a_row[std::size_t(kk) * tile_m], b_col[kk], spill[s]);
        }
      }
      bool any = false;
      for (int s = 0; s < per_thread; ++s) any = any || spill[s].spilled;
      if (any) compat::atomic_fetch_add(spills, std::uint32_t(1));
      team.team_barrier();
      if (spills[0] != 0) {
        if (team.team_rank() == 0) {
          const std::int64_t slot = Kokkos::atomic_fetch_add(&spilled_tiles(0), std::int64_t(1));
          spilled_tiles(1 + slot) = t;
        }
        continue;
      }
      for (int s = 0; s < per_thread; ++s) {
        const int q = team.team_rank() + s * team.team_size();
        const std::int64_t i = i0 + q % tile_m, j = j0 + q / tile_m;
        if (i >= m || j >= n) continue;
        LazyAccumulator nothing_spilled;
        round_exact(Finish{MatrixColumn<CView>{C, j}, alpha, beta}, i, e[s], nothing_spilled);
      }
    }
  }

  // The panels: a_panel(r, kk) = op(A)(i0 + r, k0 + kk) column by column (consecutive threads
  // read consecutive rows), b_panel(kk, c) = op(B)(k0 + kk, j0 + c); rows and columns past the
  // edge of C hold zeros whose products no element in C uses.
  KOKKOS_INLINE_FUNCTION void stage(const member_type& team, std::int64_t i0, std::int64_t j0,
                                    std::int64_t k0, int kb, double* a_panel,
                                    double* b_panel) const {
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, tile_m * kb), [&](const int q) {
      const std::int64_t i = i0 + q % tile_m;
      a_panel[q] = i < m ? op_a(i, k0 + q / tile_m) : 0.0;
    });
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, tile_n * kb), [&](const int q) {
      const std::int64_t j = j0 + q / kb;
      b_panel[q] = j < n ? op_b(k0 + q % kb, j) : 0.0;
    });
  }
};

// Outputs picked from a list of flat output indices (the tiles' exact fallback): output q is flat
// output index(q) of the underlying operands.
template <class Flat, class IndexView>
struct IndexedRows {
  Flat flat;
  IndexView index;
  KOKKOS_INLINE_FUNCTION double operator()(std::int64_t q, std::int64_t k) const {
    return flat(index(q), k);
  }
  std::int64_t outputs() const { return static_cast<std::int64_t>(index.extent(0)); }
  std::int64_t inner() const { return flat.inner(); }
  bool inner_contiguous() const { return flat.inner_contiguous(); }
};

template <class Columns, class IndexView>
struct IndexedColumns {
  Columns columns;
  IndexView index;
};

template <class Columns, class IndexView>
KOKKOS_INLINE_FUNCTION double right_factor(const IndexedColumns<Columns, IndexView>& x,
                                           std::int64_t q, std::int64_t k) {
  return right_factor(x.columns, x.index(q), k);
}

template <class Output, class IndexView>
struct IndexedOutput {
  using non_const_value_type = typename Output::non_const_value_type;
  Output out;
  IndexView index;
  KOKKOS_INLINE_FUNCTION non_const_value_type& operator()(std::int64_t q) const {
    return out(index(q));
  }
};

// Tile shape for a team: per_thread elements a thread, at most 32 rows.
struct TileShape {
  int tile_m, tile_n, panel_k;
};
inline TileShape tile_shape(int team_size, int per_thread, int panel_k) {
  const int elements = team_size * per_thread;
  const int rows = elements <= 32 || elements % 32 != 0 ? elements : 32;
  return TileShape{rows, elements / rows, panel_k > 0 ? panel_k : 32};
}

// op(A) is m x k, op(B) k x n, C m x n; anything else throws naming every extent.
template <class AView, class BView, class CView>
void check_gemm_extents(const char* routine, bool trans_a, bool trans_b, const AView& A,
                        const BView& B, const CView& C) {
  const std::size_t m = A.extent(trans_a ? 1 : 0), ka = A.extent(trans_a ? 0 : 1);
  const std::size_t kb = B.extent(trans_b ? 1 : 0), n = B.extent(trans_b ? 0 : 1);
  if (ka != kb || C.extent(0) != m || C.extent(1) != n) {
    std::ostringstream msg;
    msg << routine << ": op(A) is " << m << " x " << ka << " (A is " << A.extent(0) << " x "
        << A.extent(1) << ", transA " << (trans_a ? "T" : "N") << "), op(B) is " << kb << " x " << n
        << " (B is " << B.extent(0) << " x " << B.extent(1) << ", transB " << (trans_b ? "T" : "N")
        << "), so C must be " << m << " x " << n << " and the inner extents equal, but C is "
        << C.extent(0) << " x " << C.extent(1);
    throw std::invalid_argument(msg.str());
  }
}

// C = RN(beta C) element by element; beta == 0 writes zeros without reading C (BLAS).
template <class CView>
struct ScaleMatrixFunctor {
  using T = typename CView::non_const_value_type;
  CView C;
  T beta;
  std::int64_t m;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t o) const {
    T& c = C(o % m, o / m);
    c = beta == T(0) ? T(0) : mul_rn(beta, c);
  }
};

// The deepest panel (block_size) whose tile fits the team scratch memory of ExecSpace with the
// team size options ask for (validate_options refuses deeper ones: Kokkos would otherwise try to
// allocate that scratch for every host thread, or refuse the launch, after C was partly written).
template <class ExecSpace>
std::int64_t gemm_tiles_max_panel(const Options& options) {
  // (a team size beyond any backend's is refused by validate_options; it only must not overflow)
  const int team =
      options.team_size > 0 ? std::min(options.team_size, 1 << 20) : default_team_size<ExecSpace>();
  const TileShape shape = tile_shape(team, 4, 1);
  const std::size_t fixed = gemm_tiles_scratch_bytes(shape.tile_m, shape.tile_n, 0);
  const std::size_t most = std::size_t(Kokkos::TeamPolicy<ExecSpace>::scratch_size_max(0));
  const std::size_t per_depth = sizeof(double) * std::size_t(shape.tile_m + shape.tile_n);
  return most > fixed ? std::int64_t((most - fixed) / per_depth) : 1;
}

// exgemv's configuration, and the tiles schedule: the default on devices, where a team per
// output would clear and reduce a team accumulator for every element of C. Its fallback runs
// team_per_output with the same settings (on the host, where this build compiles no team
// schedule, the lanes).
template <class ExecSpace, class Flat>
GemvConfig resolve_gemm_config(const ExecSpace& space, const Options& options, const Flat& flat,
                               bool is_double) {
  const char* routine = "ExKokkos::exgemm";
  const bool tiles = options.schedule == Schedule::tiles ||
                     (options.schedule == Schedule::automatic && !is_host_space<ExecSpace>());
  Options o = options;
  if (tiles) o.schedule = Schedule::team_per_output;
  GemvConfig c = resolve_gemv_config(space, o, flat, is_double, routine);
  if (tiles) c.schedule = Schedule::tiles;
  return c;
}

// Outputs of C as gemv's outputs (flattened, or those a list picks) on a team per output; on a
// host that does not compile the team schedules, on inner_lanes instead (each output's terms
// read along k; output_lanes share one x between outputs, which gemm's columns are not): the same
// bits (compiles_team_schedules).
template <class ExecSpace, class Rows, class Columns, class Finish>
void launch_flat_outputs(const ExecSpace& space, const GemvConfig& c, const Rows& rows,
                         const Columns& columns, const Finish& finish) {
  if constexpr (is_host_space<ExecSpace>() && !compiles_team_schedules<ExecSpace>())
    launch_inner_lanes(space, c, rows, columns, finish);
  else
    launch_team_per_output(space, c, rows, columns, finish);
}

// The tiles schedule, then launch_flat_outputs for the tiles that spilled (rare for data whose sums
// fit the expansions; every tile for NaN, inf or products at the edges of the range).
template <class ExecSpace, class OpA, class OpB, class CView>
void launch_gemm_tiles(const ExecSpace& space, const GemvConfig& c, const OpA& op_a,
                       const OpB& op_b, const CView& C, typename CView::const_value_type alpha,
                       typename CView::const_value_type beta, int panel_k) {
  const std::int64_t m = static_cast<std::int64_t>(C.extent(0));
  const std::int64_t n = static_cast<std::int64_t>(C.extent(1));
  using Mem = typename ExecSpace::memory_space;
  const int per_thread = 4;
  const TileShape shape = tile_shape(c.launch.team_size, per_thread, panel_k);
  const std::int64_t tiles_m = (m + shape.tile_m - 1) / shape.tile_m;
  const std::int64_t tiles = tiles_m * ((n + shape.tile_n - 1) / shape.tile_n);
  Kokkos::View<std::int64_t*, Mem> spilled(Kokkos::view_alloc(space, "ExKokkos::exgemm spilled"),
                                           tiles + 1);
  with_expansion_size<ExecSpace, Kernels::matrix>(c.launch.expansion_size, [&](auto size) {
    using F = GemmTilesFunctor<ExecSpace, OpA, OpB, CView, decltype(size)::value>;
    static_assert(F::per_thread == 4, "tile_shape above assumes 4 elements per thread");
    const int league = static_cast<int>(
        std::min<std::int64_t>(tiles, c.launch.league_size > 0 ? c.launch.league_size : tiles));
    Kokkos::TeamPolicy<ExecSpace> policy(space, league, c.launch.team_size);
    policy.set_scratch_size(
        0, Kokkos::PerTeam(F::scratch_size(shape.tile_m, shape.tile_n, shape.panel_k)));
    Kokkos::parallel_for("ExKokkos::exgemm tiles", policy,
                         F{op_a, op_b, C, alpha, beta, m, n, op_a.inner(), shape.tile_m,
                           shape.tile_n, shape.panel_k, tiles_m, tiles, spilled});
  });
  auto host_spilled = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), spilled);
  const std::int64_t count = host_spilled(0);
  if (count == 0) return;
  // The elements of the spilled tiles, in tile order (any order gives the same bits).
  std::vector<std::int64_t> outputs;
  for (std::int64_t s = 1; s <= count; ++s) {
    const std::int64_t t = host_spilled(s);
    const std::int64_t i0 = (t % tiles_m) * shape.tile_m, j0 = (t / tiles_m) * shape.tile_n;
    for (std::int64_t j = j0; j < j0 + shape.tile_n && j < n; ++j)
      for (std::int64_t i = i0; i < i0 + shape.tile_m && i < m; ++i) outputs.push_back(i + m * j);
  }
  using Index = Kokkos::View<std::int64_t*, Mem>;
  Index index(Kokkos::view_alloc(space, "ExKokkos::exgemm fallback"), outputs.size());
  const Kokkos::View<const std::int64_t*, Kokkos::HostSpace,
                     Kokkos::MemoryTraits<Kokkos::Unmanaged>>
      host_index(outputs.data(), outputs.size());
  Kokkos::deep_copy(space, index, host_index);
  using Flat = FlatRowsOperand<OpA>;
  using Columns = FlatColumnsOperand<OpB>;
  using Output = FlatMatrixOutput<CView>;
  const IndexedRows<Flat, Index> rows{Flat{op_a, m, n}, index};
  GemvConfig fallback = c;
  fallback.launch.league_size =
      static_cast<int>(std::min<std::int64_t>(rows.outputs(), fallback.launch.league_size));
  launch_flat_outputs(space, fallback, rows,
                      IndexedColumns<Columns, Index>{Columns{op_b, m}, index},
                      GemvFinish<IndexedOutput<Output, Index>>{
                          IndexedOutput<Output, Index>{Output{C, m}, index}, alpha, beta});
  space.fence();  // host_index's memory must outlive the copy
}

// tiles; on the host also output_lanes over the columns of C or gemv's inner_lanes over the
// flattened outputs; else launch_flat_outputs. (The last argument, whether the space is the
// host's, is implied by ExecSpace and ignored.)
template <class ExecSpace, class OpA, class OpB, class CView, class Host = std::true_type>
void launch_gemm(const ExecSpace& space, const GemvConfig& c, const OpA& op_a, const OpB& op_b,
                 const CView& C, typename CView::const_value_type alpha,
                 typename CView::const_value_type beta, int panel_k, Host = {}) {
  const std::int64_t m = static_cast<std::int64_t>(C.extent(0));
  const std::int64_t n = static_cast<std::int64_t>(C.extent(1));
  if (c.schedule == Schedule::tiles)
    return launch_gemm_tiles(space, c, op_a, op_b, C, alpha, beta, panel_k);
  const FlatRowsOperand<OpA> flat{op_a, m, n};
  const FlatColumnsOperand<OpB> columns{op_b, m};
  const GemvFinish<FlatMatrixOutput<CView>> finish{FlatMatrixOutput<CView>{C, m}, alpha, beta};
  if constexpr (is_host_space<ExecSpace>()) {
    if (c.schedule == Schedule::output_lanes) {
      with_expansion_size<ExecSpace, Kernels::matrix>(c.launch.expansion_size, [&](auto size) {
        using F = GemmOutputLanesFunctor<OpA, OpB, CView, decltype(size)::value>;
        Kokkos::parallel_for("ExKokkos::exgemm",
                             Kokkos::RangePolicy<ExecSpace>(space, 0, F::row_blocks(m) * n),
                             F{op_a, op_b, C, alpha, beta, m, n, op_a.inner()});
      });
      return;
    }
    if (c.schedule == Schedule::inner_lanes)
      return launch_inner_lanes(space, c, flat, columns, finish);
  }
  launch_flat_outputs(space, c, flat, columns, finish);
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_GEMM_IMPL_HPP
