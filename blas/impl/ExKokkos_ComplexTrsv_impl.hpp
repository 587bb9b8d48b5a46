// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// extrsv on Kokkos::complex values: the real definition, x_q = RN(RN(S_q) / T(q, q)) with
// S_q = b_q - sum_{r < q} T(q, r) x_r exact, where each RN of a complex value rounds each part
// once: RN(S_q) is the complex of the two parts' exact sums rounded once, and the quotient's parts
// are each the exact quotient of their exact numerator and |T(q, q)|^2, rounded once
// (rounded_complex_quotient, core/ExKokkos_RoundedQuotient.hpp: exinvscal's division).
//
// The parts of S_q are two real sums of 2q + 1 terms over the parts of the solved x_r:
//   re S_q = re b_q + sum_r (-re t_qr) re x_r + (im t_qr) im x_r,
//   im S_q = im b_q + sum_r (-im t_qr) re x_r + (-re t_qr) im x_r,
// so that the blocked substitution of the real extrsv carries over with the complex rows seen as
// real ones (the interleaved form of complex exgemv, ExKokkos_ComplexGemv_impl.hpp):
//   1. panel: both parts of each row q of the block over the columns solved before it, by the real
//      exgemv engine on an operand of 2 rows real outputs and 2p real terms, kept exactly;
//   2. diagonal block, row by row in order on one thread: the panel's sums plus b_q and the
//      block's own terms, each part rounded once by the real rows' certify-or-exact engine, then
//      the quotient.
// T(q, r) = op(A)(idx(q), idx(r)) is lower triangular in the relabelled order of the real solve
// (ExKokkos_TrsvOperands_impl.hpp), op(A) transposed and conjugated independently (extrsm's side
// "R" solves with conj(A), neither transposed nor conjugate-transposed). Every x_q is a function
// of exact quantities only, so every block size, schedule, thread count and backend gives the same
// bits.
#ifndef EXKOKKOS_COMPLEXTRSV_IMPL_HPP
#define EXKOKKOS_COMPLEXTRSV_IMPL_HPP

#include "ExKokkos_Gemv_impl.hpp"
#include "ExKokkos_Trsv_impl.hpp"

#include <ExKokkos_CompensatedSum.hpp>
#include <ExKokkos_Expansion.hpp>
#include <ExKokkos_LongAccumulator.hpp>
#include <ExKokkos_RoundedComplex.hpp>
#include <ExKokkos_RoundedQuotient.hpp>
#include <impl/ExKokkos_ViewTraits_impl.hpp>

namespace ExKokkos {
namespace Impl {

// T(q, r) = op(A)(idx(q), idx(r)) of a complex matrix, op(A)(i, j) = A(i, j) or A(j, i),
// conjugated or not; idx(q) = n - 1 - q when op(A) is upper triangular (reversed). As the real
// solve's strided operand, the relabelling is folded into an origin and two signed strides, here
// over the parts as reals: re T(q, r) at origin[q rs + r cs], im T(q, r) (before conjugation) one
// real further.
template <class Real>
struct ComplexTriangle {
  const Real* origin;
  std::int64_t rs, cs;  // in reals
  std::int64_t n;
  double conj;  // -1 when conjugated, else 1
  bool reversed;

  template <class AView>
  KOKKOS_INLINE_FUNCTION static ComplexTriangle make(const AView& A, bool transposed,
                                                     bool conjugated, bool reversed) {
    ComplexTriangle t;
    const std::int64_t s0 = 2 * std::int64_t(A.stride(0)), s1 = 2 * std::int64_t(A.stride(1));
    t.n = std::int64_t(A.extent(0));
    t.rs = transposed ? s1 : s0;
    t.cs = transposed ? s0 : s1;
    t.origin = reinterpret_cast<const Real*>(A.data());
    if (reversed && t.n > 0) {
      t.origin += (t.n - 1) * (t.rs + t.cs);
      t.rs = -t.rs;
      t.cs = -t.cs;
    }
    t.conj = conjugated ? -1.0 : 1.0;
    t.reversed = reversed;
    return t;
  }

  KOKKOS_INLINE_FUNCTION std::int64_t index(std::int64_t q) const {
    return reversed ? n - 1 - q : q;
  }
  KOKKOS_INLINE_FUNCTION const Real* at(std::int64_t q, std::int64_t r) const {
    return origin + q * rs + r * cs;
  }
  KOKKOS_INLINE_FUNCTION void parts(std::int64_t q, std::int64_t r, double& re, double& im) const {
    const Real* a = at(q, r);
    re = static_cast<double>(a[0]);
    im = conj * static_cast<double>(a[1]);
  }
  // Whether a row of T is contiguous in memory (the engine's choice of schedule only).
  bool row_contiguous() const { return cs == 2 || cs == -2; }
};

// The factor of real term k (x's part k & 1 of column k >> 1) in part p of -t x, t = T(q, r):
// part 0 -re t, +im t; part 1 -im t, -re t (negation is exact). Branch-free from t's parts in
// memory: the part read is re when p and k have the same parity, else im (conjugation flips its
// sign); the signs are - and + for part 0, - and - for part 1.
template <class Tri>
KOKKOS_INLINE_FUNCTION double negated_product_factor(const Tri& tri, std::int64_t q, std::int64_t r,
                                                     int p, std::int64_t k) {
  const int odd = int(k & 1);
  const int which = p ^ odd;
  const double v = static_cast<double>(tri.at(q, r)[which]);
  const double sign = (p == 0 && odd == 1) ? tri.conj : (which == 1 ? -tri.conj : -1.0);
  return sign * v;
}

// Rows p .. p + rows - 1 of -T against the solved columns 0 .. p - 1, as 2 rows real outputs
// (2 i + part) of 2p real terms each: the panel, an exgemv operand.
template <class Tri>
struct ComplexPanelOperand {
  Tri tri;
  std::int64_t p, rows;
  KOKKOS_INLINE_FUNCTION double operator()(std::int64_t o, std::int64_t k) const {
    return negated_product_factor(tri, p + (o >> 1), k >> 1, int(o & 1), k);
  }
  std::int64_t outputs() const { return 2 * rows; }
  std::int64_t inner() const { return 2 * p; }
  bool inner_contiguous() const { return tri.row_contiguous(); }
};

// The whole of row q of -T including its diagonal (-1 when unit), zeros beyond it, as the panel's
// real rows: the operand of the exact residual b - T x.
template <class Tri>
struct ComplexFullTriangleOperand {
  Tri tri;
  bool unit;
  KOKKOS_INLINE_FUNCTION double operator()(std::int64_t o, std::int64_t k) const {
    const std::int64_t q = o >> 1, r = k >> 1;
    if (r > q) return 0.0;
    if (r == q && unit) return (o & 1) == (k & 1) ? -1.0 : 0.0;  // -(1 + 0i)
    return negated_product_factor(tri, q, r, int(o & 1), k);
  }
  std::int64_t outputs() const { return 2 * tri.n; }
  std::int64_t inner() const { return 2 * tri.n; }
  bool inner_contiguous() const { return tri.row_contiguous(); }
};

// x's parts in the relabelled order: real term k is part k & 1 of x_{k >> 1}.
template <class Tri, class BView>
struct ComplexRelabelledParts {
  Tri tri;
  BView b;
  KOKKOS_INLINE_FUNCTION double operator()(std::int64_t k) const {
    const auto v = b(tri.index(k >> 1));
    return static_cast<double>((k & 1) != 0 ? v.imag() : v.real());
  }
};

// Residual finish (ExKokkos_Finish_impl.hpp): part o & 1 of r_q, q = o >> 1, is RN(b_q + S) with
// S that part of sum_r -T(q, r) x_r, one rounding; r holds the parts interleaved (a complex
// vector's memory seen as reals), in b's order (r_q at idx(q)).
template <class Tri, class RView, class BView>
struct ComplexResidualFinish {
  using value_type = typename RView::non_const_value_type;
  Tri tri;
  RView r;  // 2n reals
  BView b;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t o, const LongAccumulator& s) const {
    const std::int64_t i = tri.index(o >> 1);
    const auto v = b(i);
    LongAccumulator total = s;
    total.add((o & 1) != 0 ? v.imag() : v.real());
    r(2 * i + (o & 1)) = total.round<value_type>();
  }
};

// Rows p .. p + rows - 1 on one thread, in order: each part of S_q is a real sum (the panel's
// exact sum in ws, none when first, plus b_q's part and the block's 2 (q - p) terms), rounded once
// by the certify-or-exact engine as the real solve's rows are (SerialSubstitution): a compensated
// sum certified by its bound (doubles, first block), else an expansion of N doubles spilling into
// the long accumulator that holds the panel's sum; then x_q = RN(S_q) / T(q, q) with each part
// rounded once (or RN(S_q) with a unit diagonal). PanelSums: the panel's exact sums, part p of
// row i at 2 i + p, or NoPanelSums for a solve that starts at row 0.
struct NoPanelSums {};

template <int N, class Tri, class BView, class PanelSums>
KOKKOS_INLINE_FUNCTION void complex_substitute_rows(const Tri& tri, const BView& b,
                                                    const PanelSums& ws, std::int64_t p,
                                                    std::int64_t rows, bool unit, bool first) {
  using C = typename BView::non_const_value_type;
  using T = magnitude_t<C>;
  // f(factor, x part) for the block's terms of part `part` of row q: two a column r, against the
  // parts of x_r (negated_product_factor).
  const auto for_each_term = [&](std::int64_t q, int part, const auto& f) {
    for (std::int64_t r = p; r < q; ++r) {
      const C x = b(tri.index(r));
      f(negated_product_factor(tri, q, r, part, 0), static_cast<double>(x.real()));
      f(negated_product_factor(tri, q, r, part, 1), static_cast<double>(x.imag()));
    }
  };
  for (std::int64_t i = 0; i < rows; ++i) {
    const std::int64_t q = p + i;
    const C bq = b(tri.index(q));
    T rounded[2];
    for (int part = 0; part < 2; ++part) {
      const double bp = static_cast<double>(part == 0 ? bq.real() : bq.imag());
      const auto finish = round_sum_into<T>([&](std::int64_t, T v) { rounded[part] = v; });
      certify_or_exact<N>(
          finish, q, first,
          [&]() {
            CompensatedSum c;
            if constexpr (std::is_same<T, double>::value) {
              for_each_term(q, part, [&](double t, double x) { c.add_product(t, x); });
              c.add(bp);
            }
            return c;
          },
          [&](LazyAccumulator& s, double(&slots)[N]) {
            if constexpr (!std::is_same<PanelSums, NoPanelSums>::value) {
              if (!first) s.get() = ws(2 * i + part);
            }
            Expansion<N> e;
            for_each_term(q, part, [&](double t, double x) {
              if (std::is_same<T, double>::value)
                e.add_product(t, x, s);
              else
                e.add(t * x, s);  // two floats: exact in double
            });
            s.add(bp);
            for (int u = 0; u < N; ++u) slots[u] = e[u];
          });
    }
    const C residual(rounded[0], rounded[1]);
    C x = residual;
    if (!unit) {
      double re, im;
      tri.parts(q, q, re, im);
      x = rounded_complex_quotient(residual, C(static_cast<T>(re), static_cast<T>(im)));
    }
    b(tri.index(q)) = x;
  }
}

// The whole solve T x = b on the calling thread (the LU's solves inside a team: lapack/).
template <int N, class Tri, class BView>
KOKKOS_INLINE_FUNCTION void complex_serial_substitution(const Tri& tri, const BView& b, bool unit) {
  complex_substitute_rows<N>(tri, b, NoPanelSums(), 0, tri.n, unit, true);
}

// The diagonal block p .. p + rows - 1 of the blocked solve, on one thread.
template <int N, class Tri, class BView, class Workspace>
struct ComplexDiagonalBlockFunctor {
  Tri tri;
  BView b;
  Workspace ws;  // 2 rows exact sums, part p of row i at 2 i + p
  std::int64_t p, rows;
  bool unit, first;
  KOKKOS_INLINE_FUNCTION void operator()(const int) const {
    complex_substitute_rows<N>(tri, b, ws, p, rows, unit, first);
  }
};

// The block size: options.block_size, else 128 rows on the host and 32 on devices (where one
// thread solves each diagonal block).
template <class ExecSpace>
std::int64_t complex_trsv_block(const Options& options, std::int64_t n) {
  const std::int64_t block =
      options.block_size > 0 ? options.block_size : (is_host_space<ExecSpace>() ? 128 : 32);
  return block < n ? block : (n > 0 ? n : 1);
}

template <class ExecSpace, class Tri, class BView>
void complex_blocked_substitution(const ExecSpace& space, const Tri& tri, const BView& b, bool unit,
                                  const Options& options, std::int64_t nb, int expansion_size,
                                  const TrsvWorkspace<ExecSpace>& ws, const char* routine) {
  using T = magnitude_t<typename BView::non_const_value_type>;
  for (std::int64_t p = 0; p < tri.n; p += nb) {
    const std::int64_t rows = tri.n - p < nb ? tri.n - p : nb;
    if (p > 0) {
      const ComplexPanelOperand<Tri> panel{tri, p, rows};
      const GemvConfig c =
          resolve_gemv_config(space, options, panel, std::is_same<T, double>::value, routine);
      launch_gemv(space, c, panel, ComplexRelabelledParts<Tri, BView>{tri, b},
                  KeepExactSum<T, TrsvWorkspace<ExecSpace>>{ws});
    }
    with_expansion_size<ExecSpace, Kernels::matrix>(expansion_size, [&](auto size) {
      using F =
          ComplexDiagonalBlockFunctor<decltype(size)::value, Tri, BView, TrsvWorkspace<ExecSpace>>;
      Kokkos::parallel_for("ExKokkos::extrsv::complex_diagonal_block",
                           Kokkos::RangePolicy<ExecSpace>(space, 0, 1),
                           F{tri, b, ws, p, rows, unit, p == 0});
    });
  }
}

// Solves in place, then refines up to options.refinement_steps times as the real solve does:
// r = RN(b - T x) with each part's residual exact, d = T^-1 r, x = RN(x + d) part by part, until x
// stops changing. Returns the number of refinement steps taken.
template <class ExecSpace, class Tri, class BView>
int complex_solve_triangular(const ExecSpace& space, const Tri& tri, const BView& b, bool unit,
                             const Options& options, const char* routine) {
  using C = typename BView::non_const_value_type;
  using T = magnitude_t<C>;
  using Memory = typename ExecSpace::memory_space;
  const std::int64_t n = tri.n;
  const std::int64_t nb = complex_trsv_block<ExecSpace>(options, n);
  const TrsvWorkspace<ExecSpace> ws(Kokkos::view_alloc(space, "ExKokkos::extrsv::complex_panel"),
                                    2 * nb);
  Kokkos::View<C*, Memory> original;
  if (options.refinement_steps > 0) {
    original = decltype(original)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "b"), n);
    Kokkos::deep_copy(space, original, b);
  }
  // The diagonal blocks' expansion size, as the real solve's (options.expansion_size or the
  // default of a matrix kernel).
  const int expansion_size =
      resolve_reduction_config(space, options, nb, 2, routine, Kernels::matrix).expansion_size;
  complex_blocked_substitution(space, tri, b, unit, options, nb, expansion_size, ws, routine);
  if (options.refinement_steps <= 0) return 0;
  // d is solved for as b's type, so that the substitutions of b and of d share their kernels.
  const Kokkos::View<C*, Memory> correction_memory(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "d"), n);
  const BView correction = correction_memory;
  // The residual is written part by part into d's memory seen as 2n reals (Kokkos::complex<T> is
  // laid out as T[2], real part first), where the substitution then solves for d.
  const Kokkos::View<T*, Memory, Kokkos::MemoryTraits<Kokkos::Unmanaged>> residual(
      reinterpret_cast<T*>(correction_memory.data()), 2 * n);
  int steps = 0;
  while (steps < options.refinement_steps) {
    const ComplexFullTriangleOperand<Tri> full{tri, unit};
    const GemvConfig c =
        resolve_gemv_config(space, options, full, std::is_same<T, double>::value, routine);
    launch_gemv(space, c, full, ComplexRelabelledParts<Tri, BView>{tri, b},
                ComplexResidualFinish<Tri, decltype(residual), decltype(original)>{tri, residual,
                                                                                   original});
    complex_blocked_substitution(space, tri, correction, unit, options, nb, expansion_size, ws,
                                 routine);
    // Kokkos::complex's + adds part by part: one IEEE addition, one rounding, a part.
    std::int64_t changed = 0;
    Kokkos::parallel_reduce("ExKokkos::extrsv::refine", Kokkos::RangePolicy<ExecSpace>(space, 0, n),
                            ApplyCorrection<BView, BView>{b, correction}, changed);
    ++steps;
    if (changed == 0) break;
  }
  return steps;
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_COMPLEXTRSV_IMPL_HPP
