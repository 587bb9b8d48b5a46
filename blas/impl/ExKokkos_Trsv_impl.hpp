// The blocked substitution behind extrsv (ExTRSV of the ExBLAS papers). All eight variants are
// one lower-triangular forward substitution on a relabelled matrix: with q = n-1-i when op(A) is
// upper triangular (reversed order), T(q, r) = op(A)(idx(q), idx(r)) is lower triangular.
//
// Block by block (nb rows, the block size), left-looking:
//   1. panel: for each row q of the block, S_q = sum_{r < p} -T(q, r) x_r exactly, by the exgemv
//      schedules (parallel over rows), kept unrounded in a workspace of long accumulators;
//   2. diagonal block, one thread in order: S_q += b_q + sum_{p <= r < q} -T(q, r) x_r exactly,
//      then x_q = RN(RN(S_q) / T(q, q)) (or RN(S_q) with a unit diagonal).
// The residual is the exact sum of b_q and the negated products (negation is exact), so even the
// sign of an exact zero is that of IEEE's b_q - t_q0 x_0 - t_q1 x_1 - ...
// Each x_q is a function of exact quantities only, so every block size, schedule, thread count
// and backend gives the same bits. No team ever waits for another: the blocks are separate
// launches on one execution space instance, which runs them in order.
#ifndef EXKOKKOS_TRSV_IMPL_HPP
#define EXKOKKOS_TRSV_IMPL_HPP

#include "ExKokkos_Gemv_impl.hpp"

namespace ExKokkos {
namespace Impl {

template <class AView, bool Transposed, bool Reversed>
struct TriangleOperand {
  AView A;
  std::int64_t n;
  KOKKOS_INLINE_FUNCTION std::int64_t index(std::int64_t q) const {
    return Reversed ? n - 1 - q : q;
  }
  KOKKOS_INLINE_FUNCTION double operator()(std::int64_t q, std::int64_t r) const {
    const std::int64_t i = index(q), j = index(r);
    return Transposed ? A(j, i) : A(i, j);
  }
  bool row_contiguous() const { return !Reversed && A.stride(Transposed ? 0 : 1) == 1; }
};

// Rows p .. p+rows-1 of -T against the solved columns 0 .. p-1 (an exgemv operand).
template <class Tri>
struct PanelOperand {
  Tri tri;
  std::int64_t p, rows;
  KOKKOS_INLINE_FUNCTION double operator()(std::int64_t i, std::int64_t k) const {
    return -tri(p + i, k);
  }
  std::int64_t outputs() const { return rows; }
  std::int64_t inner() const { return p; }
  bool inner_contiguous() const { return tri.row_contiguous(); }
};

// The whole of row q of -T including its diagonal (-1 when unit), zeros beyond it: the operand
// of the exact residual b - T x.
template <class Tri>
struct FullTriangleOperand {
  Tri tri;
  bool unit;
  KOKKOS_INLINE_FUNCTION double operator()(std::int64_t q, std::int64_t r) const {
    return r < q ? -tri(q, r) : (r == q ? (unit ? -1.0 : -tri(q, q)) : 0.0);
  }
  std::int64_t outputs() const { return tri.n; }
  std::int64_t inner() const { return tri.n; }
  bool inner_contiguous() const { return tri.row_contiguous(); }
};

// x_r in the relabelled order, read from the vector being solved in place.
template <class Tri, class BView>
struct RelabelledVector {
  Tri tri;
  BView b;
  KOKKOS_INLINE_FUNCTION double operator()(std::int64_t r) const { return b(tri.index(r)); }
};

// Panel finish: keeps S exactly.
template <class T, class Workspace>
struct KeepExactSum {
  using value_type = T;
  Workspace ws;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, const LongAccumulator& s) const {
    ws(i) = s;
  }
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, const std::uint64_t* normalized,
                                         std::uint32_t flags) const {
    LongAccumulator s;
    s.merge_normalized(normalized, flags);
    ws(i) = s;
  }
};

// Residual finish: r_q = RN(b_q + S_q) with S_q = sum_r -T(q, r) x_r, one rounding.
template <class Tri, class RView, class BView>
struct ResidualFinish {
  using value_type = typename RView::non_const_value_type;
  Tri tri;
  RView r;
  BView b;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t q, const LongAccumulator& s) const {
    const std::int64_t i = tri.index(q);
    LongAccumulator total = s;
    total.add(b(i));
    r(i) = total.round<value_type>();
  }
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t q, const std::uint64_t* normalized,
                                         std::uint32_t flags) const {
    LongAccumulator s;
    s.merge_normalized(normalized, flags);
    (*this)(q, s);
  }
};

template <class Tri, class BView, class Workspace, int N>
struct DiagonalBlockFunctor {
  using T = typename BView::non_const_value_type;
  Tri tri;
  BView b;
  Workspace ws;
  std::int64_t p, rows;
  bool unit, first_block;

  KOKKOS_INLINE_FUNCTION void operator()(const int) const {
    for (std::int64_t i = 0; i < rows; ++i) {
      const std::int64_t q = p + i;
      LongAccumulator s;
      if (!first_block) s = ws(i);
      Expansion<N> e;
      for (std::int64_t r = p; r < q; ++r) add(e, -tri(q, r), b(tri.index(r)), s);
      e.flush(s);
      s.add(b(tri.index(q)));
      const T residual = s.round<T>();
      b(tri.index(q)) = unit ? residual : residual / T(tri(q, q));
    }
  }

  // Two floats multiply exactly in double; doubles go through TwoProd.
  KOKKOS_INLINE_FUNCTION static void add(Expansion<N>& e, double t, double x, LongAccumulator& s) {
    if (std::is_same<T, double>::value)
      e.add_product(t, x, s);
    else
      e.add(t * x, s);
  }
};

template <class ExecSpace>
using TrsvWorkspace = Kokkos::View<LongAccumulator*, typename ExecSpace::memory_space>;

template <class T, class ExecSpace, class Tri, class BView>
void blocked_substitution(const ExecSpace& space, const Tri& tri, const BView& b, bool unit,
                          const Options& options, const TrsvWorkspace<ExecSpace>& ws,
                          const char* routine) {
  using Workspace = TrsvWorkspace<ExecSpace>;
  const std::int64_t n = tri.n, nb = static_cast<std::int64_t>(ws.extent(0));
  using host_tag = std::integral_constant<bool, is_host_space<ExecSpace>()>;
  for (std::int64_t p = 0; p < n; p += nb) {
    const std::int64_t rows = n - p < nb ? n - p : nb;
    if (p > 0) {
      const PanelOperand<Tri> panel{tri, p, rows};
      const GemvConfig c =
          resolve_gemv_config(space, options, panel, std::is_same<T, double>::value, routine);
      launch_gemv(space, c, panel, RelabelledVector<Tri, BView>{tri, b},
                  KeepExactSum<T, Workspace>{ws}, host_tag());
    }
    const LaunchConfig c = resolve_reduction_config(space, options, rows, 2, routine);
    with_expansion_size(c.expansion_size, [&](auto size) {
      using F = DiagonalBlockFunctor<Tri, BView, Workspace, decltype(size)::value>;
      Kokkos::parallel_for("ExKokkos::extrsv::diagonal_block",
                           Kokkos::RangePolicy<ExecSpace>(space, 0, 1),
                           F{tri, b, ws, p, rows, unit, p == 0});
    });
  }
}

// Counts the elements where x + d differs from x, and stores RN(x + d) in x.
template <class XView, class DView>
struct ApplyCorrection {
  XView x;
  DView d;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i, std::int64_t& changed) const {
    const auto updated = x(i) + d(i);   // one IEEE addition: correctly rounded
    if (!(updated == x(i))) ++changed;  // NaN counts as a change, but ends no loop early either
    x(i) = updated;
  }
};

// Solves in place, then refines up to options.refinement_steps times (ExBLAS, Alg. 6):
// r = RN(b - T x) with an exact residual, d = T^-1 r, x = RN(x + d), until x stops changing.
// Returns the number of refinement steps taken.
template <class ExecSpace, class Tri, class BView>
int solve_triangular(const ExecSpace& space, const Tri& tri, const BView& b, bool unit,
                     const Options& options, const char* routine) {
  using T = typename BView::non_const_value_type;
  const std::int64_t n = tri.n;
  const bool host = is_host_space<ExecSpace>();
  const std::int64_t block = options.block_size > 0 ? options.block_size : (host ? 128 : 256);
  const TrsvWorkspace<ExecSpace> ws(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "ExKokkos::extrsv::workspace"),
      static_cast<std::size_t>(block < n ? block : n));
  Kokkos::View<T*, typename ExecSpace::memory_space> original, correction;
  if (options.refinement_steps > 0) {
    original = decltype(original)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "b"), n);
    correction = decltype(correction)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "d"), n);
    Kokkos::deep_copy(space, original, b);
  }
  blocked_substitution<T>(space, tri, b, unit, options, ws, routine);
  int steps = 0;
  while (steps < options.refinement_steps) {
    const FullTriangleOperand<Tri> full{tri, unit};
    const GemvConfig c =
        resolve_gemv_config(space, options, full, std::is_same<T, double>::value, routine);
    launch_gemv(
        space, c, full, RelabelledVector<Tri, BView>{tri, b},
        ResidualFinish<Tri, decltype(correction), decltype(original)>{tri, correction, original},
        std::integral_constant<bool, is_host_space<ExecSpace>()>());
    blocked_substitution<T>(space, tri, correction, unit, options, ws, routine);
    std::int64_t changed = 0;
    Kokkos::parallel_reduce("ExKokkos::extrsv::refine", Kokkos::RangePolicy<ExecSpace>(space, 0, n),
                            ApplyCorrection<BView, decltype(correction)>{b, correction}, changed);
    ++steps;
    if (changed == 0) break;
  }
  return steps;
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_TRSV_IMPL_HPP
