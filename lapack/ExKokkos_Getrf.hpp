// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ExKokkos::exgetrf: the LU factorization with partial pivoting of exgetf2 (P A = L U, every entry
// one exact expression rounded once) for large matrices: the same factors, pivots and info as
// exgetf2, bit for bit, computed in panels of columns.
//
//   int info = ExKokkos::exgetrf(space, A, ipiv);          // A: m x n, ipiv: min(m, n)
//
// On a host execution space, a double matrix of at least 320 rows and columns (or of more than
// one panel, with block_size set) is factored by the blocked right-looking schedule
// (lapack/impl/ExKokkos_Getrf_impl.hpp): all of the space's threads update the trailing matrix, a
// tile at a time, where exgetf2 gives one matrix to one thread. It needs 24 bytes an entry
// besides A (every entry's compensated sum). Every other case (devices, float and complex
// values, smaller matrices) is exgetf2's own code.
// Options: exgetf2's, and block_size, the columns per panel (0: lu_default_panel_columns; at most
// max_panel_columns, 512).
#ifndef EXKOKKOS_GETRF_HPP
#define EXKOKKOS_GETRF_HPP

#include "ExKokkos_Getf2.hpp"
#include "impl/ExKokkos_Getrf_impl.hpp"

#include <ExKokkos_Options.hpp>
#include <impl/ExKokkos_ArgumentChecks_impl.hpp>
#include <impl/ExKokkos_CanonicalViews_impl.hpp>
#include <impl/ExKokkos_HostCall_impl.hpp>
#include <impl/ExKokkos_OptionChecks_impl.hpp>
#include <impl/ExKokkos_Tuning_impl.hpp>
#include <impl/ExKokkos_ViewTraits_impl.hpp>

#include <type_traits>

namespace ExKokkos {
namespace Impl {

// Columns per panel of the blocked schedule: the trailing update reads each tile of sums once per
// panel, so wider panels read memory less often, while the panel itself (its columns' products,
// row by row) costs about m nb^2 / 2 of the m n^2 / 3 products of the whole. Fastest on the host
// measured (docs/performance.md, "LU").
constexpr int lu_default_panel_columns = 64;

// Below this many steps (min(m, n)) exgetf2's one thread per matrix is as fast as the blocked
// schedule on the host's threads (docs/performance.md, "LU"), and the default takes it.
constexpr int lu_blocked_min_steps = 320;

// Whether exgetrf takes the blocked schedule: host spaces, double values, more than one panel,
// and with the default panel a matrix of at least lu_blocked_min_steps steps.
template <class ExecSpace, class T>
bool getrf_blocked(const Options& o, int m, int n, int nb) {
  const int steps = m < n ? m : n;
  return is_host_space<ExecSpace>() && std::is_same<T, double>::value && steps > nb &&
         (o.block_size > 0 || steps >= lu_blocked_min_steps);
}

// The entry point of exgetrf on canonical views (A LayoutStride m x n, ipiv strided).
template <class ExecSpace, class AView, class PivView>
int getrf_entry(const ExecSpace& space, const AView& A, const PivView& ipiv,
                const Options& options) {
  using T = typename AView::non_const_value_type;
  const int m = static_cast<int>(A.extent(0)), n = static_cast<int>(A.extent(1));
  const int nb = options.block_size > 0 ? options.block_size : lu_default_panel_columns;
  if constexpr (is_host_space<ExecSpace>() && std::is_same<T, double>::value) {
    if (getrf_blocked<ExecSpace, T>(options, m, n, nb)) {
      const Kokkos::View<double*, typename ExecSpace::memory_space> work(
          Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "ExKokkos::exgetrf::work"),
          blocked_lu_doubles(m, n, nb));
      int info = 0;
      with_expansion_size<ExecSpace, Kernels::matrix>(
          lu_expansion_size<ExecSpace>(options), [&](auto size) {
            constexpr int N = decltype(size)::value;
            info = host_getrf_blocked<N>(space, A, ipiv, nb, work.data());
          });
      return info;
    }
  }
  return getf2_single(space, A, ipiv, options);
}

}  // namespace Impl

template <class ExecSpace, class AView, class PivView,
          typename std::enable_if<Impl::is_space<ExecSpace>(), int>::type = 0>
int exgetrf(const ExecSpace& space, const AView& A, const PivView& ipiv,
            const Options& options = {}) {
  Impl::require_accessible<ExecSpace, AView>();
  Impl::require_accessible<ExecSpace, PivView>();
  static_assert(static_cast<int>(AView::rank) == 2 && static_cast<int>(PivView::rank) == 1,
                "ExKokkos::exgetrf: A must be rank 2 and ipiv rank 1");
  static_assert(Impl::is_exact_value<typename AView::non_const_value_type>(),
                "ExKokkos::exgetrf: A must hold double, float or their Kokkos::complex");
  const char* routine = "ExKokkos::exgetrf";
  const Impl::HostCall<ExecSpace> call(space, routine);
  Impl::ProblemFacts facts;
  facts.block_size_max = Impl::max_panel_columns;
  Impl::check_getf2(space, routine, A, ipiv, options, Impl::OptionUses::getrf(), facts);
  if (A.extent(0) == 0 || A.extent(1) == 0) return 0;
  using Mem = typename ExecSpace::memory_space;
  const auto A2 = Impl::canonical_view_t<ExecSpace, typename AView::non_const_value_type, 2,
                                         Kokkos::LayoutStride, Mem>(
      A.data(), Kokkos::LayoutStride(A.extent(0), A.stride(0), A.extent(1), A.stride(1)));
  const auto P1 = Impl::canonical_view_t<ExecSpace, typename PivView::non_const_value_type, 1,
                                         Kokkos::LayoutStride, Mem>(
      ipiv.data(), Kokkos::LayoutStride(ipiv.extent(0), ipiv.stride(0)));
  return Impl::getrf_entry(space, A2, P1, options);
}

template <class AView, class PivView>
int exgetrf(const AView& A, const PivView& ipiv, const Options& options = {}) {
  return exgetrf(typename AView::execution_space(), A, ipiv, options);
}

}  // namespace ExKokkos

#endif  // EXKOKKOS_GETRF_HPP
