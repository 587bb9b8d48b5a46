// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ExKokkos::exgetrs and ExKokkos::exgesv: solves with the reproducible LU factors of exgetf2.
//
//   ExKokkos::exgetrs(space, "N", LU, ipiv, B);     // B: n (one right-hand side) or n x nrhs
//   ExKokkos::GesvResult r = ExKokkos::exgesv(space, A, ipiv, B, options);
//   ExKokkos::exgetrs_batched(space, "N", LU, ipiv, B);        // LU batch x n x n, B batch x n
//   ExKokkos::exgesv_batched(space, A, ipiv, B, info, steps, options);
//
// Every component of every triangular solve is x_q = RN(RN(b_q - sum_r t_qr x_r) / t_qq) with the
// sum exact (as extrsv; for complex values each part rounded once), so the solution is bitwise
// reproducible and a batched solve equals the unbatched one. trans "N", "T" or "C" ("H" is "C":
// the conjugate transpose, "T" for real values). exgesv factors A in place (exgetrf: exgetf2's
// bits) and overwrites B with the solution; as in LAPACK, a singular factor (info > 0) leaves B
// unchanged. With options.refinement_steps = k > 0 it refines up to k times: r = RN(b - A x)
// computed exactly from a copy of the original A (exgemv), d = A^-1 r with the factors, x = RN(x +
// d), until x no longer changes; the steps taken are reported.
#ifndef EXKOKKOS_GETRS_HPP
#define EXKOKKOS_GETRS_HPP

#include "ExKokkos_Getrf.hpp"
#include "impl/ExKokkos_BatchedSolve_impl.hpp"
#include "impl/ExKokkos_Getrs_impl.hpp"

#include <ExKokkos_Gemv.hpp>
#include <ExKokkos_Trsv.hpp>
#include <impl/ExKokkos_PivotChecks_impl.hpp>

namespace ExKokkos {

struct GesvResult {
  int info = 0;              // exgetf2's info
  int refinement_steps = 0;  // refinement steps taken (the largest over the columns of B)
};

namespace Impl {

template <class BView, class PivView>
struct RowSwapsFunctor {
  BView b;
  PivView ipiv;
  bool reverse;
  KOKKOS_INLINE_FUNCTION void operator()(const int) const { apply_row_swaps(b, ipiv, reverse); }
};

// trans of exgetrs and exgetrs_batched: lu_no_trans, lu_trans or lu_conj_trans (parse_trans's
// refusal for anything but "N", "T", "C" and "H").
inline int parse_lu_trans(const char* routine, const char trans[]) {
  if (!parse_trans(routine, trans)) return lu_no_trans;
  return parse_conjugate(trans) ? lu_conj_trans : lu_trans;
}

template <class ExecSpace, class AView, class PivView, class BView>
void getrs_column(const ExecSpace& space, int trans, const AView& LU, const PivView& ipiv,
                  const BView& b, const Options& options) {
  Options o = options;
  o.refinement_steps = 0;
  // exgesv's schedule chooses exgetf2's; extrsv takes its default for those it has not.
  if (o.schedule == Schedule::trailing_update ||
      (!is_host_space<ExecSpace>() && (schedule_bit(o.schedule) & host_schedules) != 0))
    o.schedule = Schedule::automatic;
  const Kokkos::RangePolicy<ExecSpace> one(space, 0, 1);
  if (trans == lu_no_trans) {
    Kokkos::parallel_for("ExKokkos::exgetrs::swaps", one,
                         RowSwapsFunctor<BView, PivView>{b, ipiv, false});
    extrsv(space, "L", "N", "U", LU, b, o);
    extrsv(space, "U", "N", "N", LU, b, o);
  } else {
    const char* t = trans == lu_conj_trans ? "C" : "T";
    extrsv(space, "U", t, "N", LU, b, o);
    extrsv(space, "L", t, "U", LU, b, o);
    Kokkos::parallel_for("ExKokkos::exgetrs::swaps", one,
                         RowSwapsFunctor<BView, PivView>{b, ipiv, true});
  }
}

template <class AView, class PivView>
void check_factors(const char* routine, const AView& LU, const PivView& ipiv, std::size_t b_rows) {
  if (LU.extent(0) != LU.extent(1) || ipiv.extent(0) != LU.extent(0) || b_rows != LU.extent(0)) {
    std::ostringstream msg;
    msg << routine << ": LU must be square with ipiv and B matching it, but LU is " << LU.extent(0)
        << " x " << LU.extent(1) << ", ipiv.extent(0) = " << ipiv.extent(0)
        << " and B.extent(0) = " << b_rows;
    throw std::invalid_argument(msg.str());
  }
}

template <class BView, int Rank = static_cast<int>(BView::rank)>
struct Columns;
template <class BView>
struct Columns<BView, 1> {
  static std::size_t count(const BView&) { return 1; }
  static BView column(const BView& b, std::size_t) { return b; }
};
template <class BView>
struct Columns<BView, 2> {
  static std::size_t count(const BView& b) { return b.extent(1); }
  static auto column(const BView& b, std::size_t c) { return Kokkos::subview(b, Kokkos::ALL(), c); }
};

// exgesv_batched's arguments beyond exgetf2_batched's: A batch x n x n, B batch x n, and steps
// empty or one entry per system (it is written whenever it is not empty), which must hold one
// entry per system when refinement is asked for.
template <class AView, class BView, class StepsView>
void check_batched_gesv(const char* routine, const AView& A, const BView& B, const StepsView& steps,
                        const Options& options) {
  static_assert(static_cast<int>(AView::rank) == 3 && static_cast<int>(BView::rank) == 2 &&
                    static_cast<int>(StepsView::rank) == 1,
                "ExKokkos::exgesv_batched: A batch x n x n, B batch x n, steps batch");
  const std::size_t batch = A.extent(0), n = A.extent(1);
  const bool steps_ok =
      steps.extent(0) == batch || (steps.extent(0) == 0 && options.refinement_steps == 0);
  if (A.extent(2) != n || B.extent(0) != batch || B.extent(1) != n || !steps_ok) {
    std::ostringstream msg;
    msg << routine << ": A is " << batch << " x " << n << " x " << A.extent(2) << ", B "
        << B.extent(0) << " x " << B.extent(1) << " and steps " << steps.extent(0)
        << ": they must be batch x n x n, batch x n, and batch (or empty without refinement)";
    throw std::invalid_argument(msg.str());
  }
}

}  // namespace Impl

template <class ExecSpace, class AView, class PivView, class BView,
          typename std::enable_if<Impl::is_space<ExecSpace>(), int>::type = 0>
void exgetrs(const ExecSpace& space, const char trans[], const AView& LU, const PivView& ipiv,
             const BView& B, const Options& options = {}) {
  Impl::require_accessible<ExecSpace, AView>();
  Impl::require_accessible<ExecSpace, PivView>();
  Impl::require_accessible<ExecSpace, BView>();
  static_assert(static_cast<int>(BView::rank) == 1 || static_cast<int>(BView::rank) == 2,
                "ExKokkos::exgetrs: B must be rank 1 or 2");
  const char* routine = "ExKokkos::exgetrs";
  const Impl::HostCall<ExecSpace> call(space, routine);
  Impl::validate_options(space, routine, Impl::OptionUses::getrs(), options,
                         Impl::ProblemFacts{std::int64_t(LU.extent(0))});
  const int t = Impl::parse_lu_trans(routine, trans);
  Impl::check_factors(routine, LU, ipiv, B.extent(0));
  Impl::check_int_extent(routine, "LU.extent(0)", LU.extent(0));
  Impl::check_pivot_range(space, routine, ipiv, 1, std::int64_t(LU.extent(0)));
  for (std::size_t c = 0; c < Impl::Columns<BView>::count(B); ++c)
    Impl::getrs_column(space, t, LU, ipiv, Impl::Columns<BView>::column(B, c), options);
}

template <class ExecSpace, class AView, class PivView, class BView,
          typename std::enable_if<Impl::is_space<ExecSpace>(), int>::type = 0>
GesvResult exgesv(const ExecSpace& space, const AView& A, const PivView& ipiv, const BView& B,
                  const Options& options = {}) {
  Impl::require_accessible<ExecSpace, AView>();
  Impl::require_accessible<ExecSpace, PivView>();
  Impl::require_accessible<ExecSpace, BView>();
  using T = typename AView::non_const_value_type;
  using Mem = typename ExecSpace::memory_space;
  const char* routine = "ExKokkos::exgesv";
  const Impl::HostCall<ExecSpace> call(space, routine);
  Impl::validate_options(space, routine, Impl::OptionUses::gesv(), options,
                         Impl::ProblemFacts{std::int64_t(A.extent(0))});
  Impl::check_factors(routine, A, ipiv, B.extent(0));
  Impl::check_int_extent(routine, "A.extent(0)", A.extent(0));
  const std::size_t n = A.extent(0);
  Kokkos::View<T**, Kokkos::LayoutLeft, Mem> original;
  if (options.refinement_steps > 0) {
    original = decltype(original)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "A"), n, n);
    Kokkos::deep_copy(space, original, A);
  }
  GesvResult result;
  // block_size is extrsv's rows per diagonal block here; the factorization takes its own panel.
  Options factor = options;
  factor.block_size = 0;
  result.info = exgetrf(space, A, ipiv, factor);
  if (result.info != 0) return result;
  Kokkos::View<T*, Mem> b0(Kokkos::view_alloc(space, "b"), n), d(Kokkos::view_alloc(space, "d"), n);
  for (std::size_t c = 0; c < Impl::Columns<BView>::count(B); ++c) {
    const auto x = Impl::Columns<BView>::column(B, c);
    if (options.refinement_steps > 0) Kokkos::deep_copy(space, b0, x);
    Impl::getrs_column(space, Impl::lu_no_trans, A, ipiv, x, options);
    int steps = 0;
    while (steps < options.refinement_steps) {
      Kokkos::deep_copy(space, d, b0);
      exgemv(space, "N", T(-1), original, x, T(1), d);  // d = RN(b - A x), exact residual
      Impl::getrs_column(space, Impl::lu_no_trans, A, ipiv, d, options);
      std::int64_t changed = 0;
      Kokkos::parallel_reduce("ExKokkos::exgesv::refine",
                              Kokkos::RangePolicy<ExecSpace>(space, 0, n),
                              Impl::ApplyCorrection<decltype(x), decltype(d)>{x, d}, changed);
      ++steps;
      if (changed == 0) break;
    }
    if (steps > result.refinement_steps) result.refinement_steps = steps;
  }
  return result;
}

// B: batch x n, one right-hand side per system.
template <class ExecSpace, class LUView, class PivView, class BView,
          typename std::enable_if<Impl::is_space<ExecSpace>(), int>::type = 0>
void exgetrs_batched(const ExecSpace& space, const char trans[], const LUView& LU,
                     const PivView& ipiv, const BView& B, const Options& options = {}) {
  Impl::require_accessible<ExecSpace, LUView>();
  Impl::require_accessible<ExecSpace, PivView>();
  Impl::require_accessible<ExecSpace, BView>();
  static_assert(static_cast<int>(LUView::rank) == 3 && static_cast<int>(BView::rank) == 2,
                "ExKokkos::exgetrs_batched: LU batch x n x n, ipiv batch x n, B batch x n");
  const char* routine = "ExKokkos::exgetrs_batched";
  const Impl::HostCall<ExecSpace> call(space, routine);
  Impl::validate_options(space, routine, Impl::OptionUses::getrs_batched(), options);
  const int t = Impl::parse_lu_trans(routine, trans);
  if (LU.extent(1) != LU.extent(2) || ipiv.extent(1) != LU.extent(1) ||
      B.extent(1) != LU.extent(1) || ipiv.extent(0) != LU.extent(0) ||
      B.extent(0) != LU.extent(0)) {
    std::ostringstream msg;
    msg << routine << ": LU is " << LU.extent(0) << " x " << LU.extent(1) << " x " << LU.extent(2)
        << ", ipiv " << ipiv.extent(0) << " x " << ipiv.extent(1) << ", B " << B.extent(0) << " x "
        << B.extent(1) << ": they must be batch x n x n, batch x n and batch x n";
    throw std::invalid_argument(msg.str());
  }
  Impl::check_int_extent(routine, "LU.extent(0)", LU.extent(0));
  Impl::check_int_extent(routine, "LU.extent(1)", LU.extent(1));
  Impl::check_pivot_range(space, routine, ipiv, std::int64_t(LU.extent(0)),
                          std::int64_t(LU.extent(1)));
  if (LU.extent(0) == 0) return;
  using Steps = Kokkos::View<int*, typename ExecSpace::memory_space>;
  Impl::launch_batched_solve(space, routine, t, Impl::lu_expansion_size<ExecSpace>(options), LU,
                             ipiv, B, LUView(), BView(), BView(), Steps(), options);
}

// A: batch x n x n (factored in place), B: batch x n (overwritten by the solutions), info and
// steps: batch (steps may be an empty view when options.refinement_steps == 0). Systems with
// info > 0 are left unsolved, as LAPACK does.
template <class ExecSpace, class AView, class PivView, class BView, class InfoView, class StepsView,
          typename std::enable_if<Impl::is_space<ExecSpace>(), int>::type = 0>
void exgesv_batched(const ExecSpace& space, const AView& A, const PivView& ipiv, const BView& B,
                    const InfoView& info, const StepsView& steps, const Options& options = {}) {
  Impl::require_accessible<ExecSpace, AView>();
  Impl::require_accessible<ExecSpace, PivView>();
  Impl::require_accessible<ExecSpace, BView>();
  Impl::require_accessible<ExecSpace, InfoView>();
  Impl::require_accessible<ExecSpace, StepsView>();
  using T = typename AView::non_const_value_type;
  using Mem = typename ExecSpace::memory_space;
  const char* routine = "ExKokkos::exgesv_batched";
  const Impl::HostCall<ExecSpace> call(space, routine);
  Impl::check_batched_getf2(space, routine, A, ipiv, info, options,
                            Impl::OptionUses::gesv_batched());
  Impl::check_batched_gesv(routine, A, B, steps, options);
  const std::size_t batch = A.extent(0), n = A.extent(1);
  Kokkos::View<T***, Kokkos::LayoutRight, Mem> original;
  Kokkos::View<T**, Kokkos::LayoutRight, Mem> b0, d;
  if (options.refinement_steps > 0) {
    original =
        decltype(original)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "A"), batch, n, n);
    Kokkos::deep_copy(space, original, A);
    b0 = decltype(b0)(Kokkos::view_alloc(space, "b0"), batch, n);
    d = decltype(d)(Kokkos::view_alloc(space, "d"), batch, n);
  }
  exgetf2_batched(space, A, ipiv, info, options);
  if (batch == 0) return;
  // Unsolved systems (info > 0) keep B: solve into a copy and take only the good ones.
  Kokkos::View<T**, Kokkos::LayoutRight, Mem> x(Kokkos::view_alloc(space, "x"), batch, n);
  Kokkos::deep_copy(space, x, B);
  Impl::launch_batched_solve(space, routine, Impl::lu_no_trans,
                             Impl::lu_expansion_size<ExecSpace>(options), A, ipiv, x, original, b0,
                             d, steps, options);
  Kokkos::parallel_for("ExKokkos::exgesv_batched::store",
                       Kokkos::RangePolicy<ExecSpace>(space, 0, batch),
                       Impl::StoreSolvedFunctor<BView, decltype(x), InfoView>{B, x, info, n});
}

}  // namespace ExKokkos

#endif  // EXKOKKOS_GETRS_HPP
