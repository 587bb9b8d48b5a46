// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Batched solves with exgetf2's factors: the two forms of the kernel and the one place that
// chooses between them (exgetrs_batched and exgesv_batched). Both run serial_getrs on one thread
// for each system, so the form never changes the bits.
#ifndef EXKOKKOS_BATCHEDSOLVE_IMPL_HPP
#define EXKOKKOS_BATCHEDSOLVE_IMPL_HPP

#include "ExKokkos_Getrs_impl.hpp"

#include <ExKokkos_Options.hpp>
#include <impl/ExKokkos_Tuning_impl.hpp>

namespace ExKokkos {
namespace Impl {

// One thread per system, without refinement (the default of exgetrs_batched, and of exgesv_batched
// with refinement_steps = 0): a device block then solves as many systems as it has threads, where
// a team a system leaves all but one of its threads idle (serial_getrs on one thread either way,
// so the bits are the same).
template <int N, class LUView, class PivView, class BView, class StepsView>
struct BatchedSerialSolveFunctor {
  LUView LU;        // batch x n x n factors
  PivView ipiv;     // batch x n
  BView B;          // batch x n, overwritten by the solution
  StepsView steps;  // batch (may be empty): no refinement step taken
  int trans;        // LuTrans
  KOKKOS_INLINE_FUNCTION void operator()(const int s) const {
    serial_getrs<N>(trans, Kokkos::subview(LU, s, Kokkos::ALL(), Kokkos::ALL()),
                    Kokkos::subview(ipiv, s, Kokkos::ALL()), Kokkos::subview(B, s, Kokkos::ALL()));
    if (steps.extent(0) > 0) steps(s) = 0;
  }
};

// One team per system: solve with the factors on one thread, then refine with the residual
// computed by the team.
template <int N, class ExecSpace, class LUView, class PivView, class BView, class AView,
          class StepsView>
struct BatchedSolveFunctor {
  using member_type = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  LUView LU;        // batch x n x n factors
  PivView ipiv;     // batch x n
  BView B;          // batch x n, overwritten by the solution
  AView original;   // batch x n x n, for refinement (may be empty)
  BView b0, d;      // batch x n workspaces for refinement (may be empty)
  StepsView steps;  // batch (may be empty)
  int trans;        // LuTrans
  int max_steps;

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const int s = team.league_rank();
    const auto lu = Kokkos::subview(LU, s, Kokkos::ALL(), Kokkos::ALL());
    const auto piv = Kokkos::subview(ipiv, s, Kokkos::ALL());
    const auto x = Kokkos::subview(B, s, Kokkos::ALL());
    const int n = static_cast<int>(x.extent(0));
    if (max_steps > 0)
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n), [&](const int i) { b0(s, i) = x(i); });
    team.team_barrier();
    Kokkos::single(Kokkos::PerTeam(team), [&]() { serial_getrs<N>(trans, lu, piv, x); });
    team.team_barrier();
    int taken = 0;
    while (taken < max_steps) {
      const auto a = Kokkos::subview(original, s, Kokkos::ALL(), Kokkos::ALL());
      const auto r = Kokkos::subview(d, s, Kokkos::ALL());
      team_residual<N>(team, a, x, Kokkos::subview(b0, s, Kokkos::ALL()), r);
      team.team_barrier();
      Kokkos::single(Kokkos::PerTeam(team), [&]() { serial_getrs<N>(lu_no_trans, lu, piv, r); });
      team.team_barrier();
      int changed = 0;
      Kokkos::parallel_reduce(
          Kokkos::TeamThreadRange(team, n),
          [&](const int i, int& count) {
            const auto updated = x(i) + r(i);
            if (!(updated == x(i))) ++count;
            x(i) = updated;
          },
          changed);
      team.team_barrier();
      ++taken;
      if (changed == 0) break;
    }
    if (steps.extent(0) > 0) Kokkos::single(Kokkos::PerTeam(team), [&]() { steps(s) = taken; });
  }
};

// Copies the solution of each system whose factorization succeeded (info 0) into B; the others
// keep B, as LAPACK leaves them. A functor, not a lambda: nvcc's host pass cannot name a device
// lambda inside a function template with an unnamed template parameter (the enable_if below).
template <class BView, class XView, class InfoView>
struct StoreSolvedFunctor {
  BView B;
  XView x;
  InfoView info;
  std::size_t n;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t s) const {
    if (info(s) == 0)
      for (std::size_t i = 0; i < n; ++i) B(s, i) = x(s, i);
  }
};

// Solves every system of X (batch x n, overwritten) with its factors: in a range of threads, one
// a system, unless the caller asks for teams (options.team_size > 0) or refinement, which needs a
// team for the residual. original, b0 and d are refinement's copy of A and its workspaces, steps
// the steps taken; any of them may be empty when options.refinement_steps == 0.
template <class ExecSpace, class LUView, class PivView, class XView, class AView, class StepsView>
void launch_batched_solve(const ExecSpace& space, const char* routine, int trans,
                          int expansion_size, const LUView& LU, const PivView& ipiv, const XView& X,
                          const AView& original, const XView& b0, const XView& d,
                          const StepsView& steps, const Options& options) {
  const int batch = static_cast<int>(LU.extent(0));
  with_expansion_size<ExecSpace, Kernels::matrix>(expansion_size, [&](auto size) {
    constexpr int N = decltype(size)::value;
    if (options.refinement_steps > 0 || options.team_size > 0) {
      const int team_size = options.team_size > 0 ? options.team_size : 1;
      using F = BatchedSolveFunctor<N, ExecSpace, LUView, PivView, XView, AView, StepsView>;
      Kokkos::parallel_for(routine, Kokkos::TeamPolicy<ExecSpace>(space, batch, team_size),
                           F{LU, ipiv, X, original, b0, d, steps, trans, options.refinement_steps});
    } else {
      using F = BatchedSerialSolveFunctor<N, LUView, PivView, XView, StepsView>;
      Kokkos::parallel_for(routine, Kokkos::RangePolicy<ExecSpace>(space, 0, batch),
                           F{LU, ipiv, X, steps, trans});
    }
  });
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_BATCHEDSOLVE_IMPL_HPP
