// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ExKokkos::exgetf2: LU factorization with partial pivoting, P A = L U, every entry computed as
// one correctly rounded exact expression (lapack/impl/ExKokkos_Getf2_impl.hpp), so the factors,
// the pivots and info are bitwise the same on every backend and for every team or batch size.
//
//   int info = ExKokkos::exgetf2(space, A, ipiv);          // A: m x n, ipiv: min(m, n)
//   ExKokkos::exgetf2_batched(space, A, ipiv, info);       // A: batch x m x n, ipiv: batch x
//                                                          // min(m, n), info: batch
//
// Pivots are 0-based row indices, as Kokkos Kernels writes them: row j was swapped with row
// ipiv(j) at step j (LAPACK's ipiv minus one). info is LAPACK's: 0, or k > 0 when U(k-1, k-1) is
// exactly zero (the factorization completes; that column of L is not scaled). NaN and Inf
// propagate as IEEE arithmetic does; a NaN never wins the pivot search against a number.
// A holds double, float or their Kokkos::complex: complex entries are rounded part by part and
// pivoted by their exact moduli (lapack/impl/ExKokkos_ComplexLu_impl.hpp).
// Wrong ranks, value types or extents are compile errors or std::invalid_argument.
#ifndef EXKOKKOS_GETF2_HPP
#define EXKOKKOS_GETF2_HPP

#include "impl/ExKokkos_BatchedGetf2_impl.hpp"
#include "impl/ExKokkos_BatchedLuInterleaved_impl.hpp"

#include <ExKokkos_Options.hpp>
#include <impl/ExKokkos_ArgumentChecks_impl.hpp>
#include <impl/ExKokkos_HostCall_impl.hpp>
#include <impl/ExKokkos_OptionChecks_impl.hpp>
#include <impl/ExKokkos_CanonicalViews_impl.hpp>
#include <impl/ExKokkos_Tuning_impl.hpp>
#include <impl/ExKokkos_ViewTraits_impl.hpp>

#include <sstream>
#include <stdexcept>

namespace ExKokkos {
namespace Impl {

// (Options are validated by the public routines: common/impl/ExKokkos_OptionChecks_impl.hpp.)
template <class ExecSpace>
int lu_expansion_size(const Options& o) {
  return o.expansion_size > 0
             ? compiled_expansion_size<ExecSpace>(o.expansion_size, Kernels::matrix)
             : lu_default_expansion_size<ExecSpace>();
}

// Threads per matrix. On the host one (a core walks whole rows and columns in vector lanes). On
// devices a team's threads take the independent entries of a column or row of each step (one
// thread per matrix would leave a GPU block with a single thread): a warp (32) below n = 64 and
// two from there, the fastest in bench_cuda_lapack; teams of 8 and 16 are slower at every size,
// n = 8 included (figures: docs/performance.md).
//
// Devices take at most device_lu_max_team_size (64) threads per matrix
// (common/impl/ExKokkos_DeviceTraits_impl.hpp says why).

template <class ExecSpace>
int batched_lu_team_size(const Options& o, int n) {
  const bool host = is_host_space<ExecSpace>();
  if (o.team_size > 0) return o.team_size;
  return host ? 1 : (n >= 64 ? 64 : 32);
}

// Whether a host core factors a double matrix with the trailing-update schedule
// (host_getf2_trailing_update: every entry's compensated sum kept in level-1 scratch memory, 24
// bytes an entry, and updated right-looking) rather than the left-looking lanes
// (Schedule::output_lanes): the default wherever its workspace fits in the scratch memory a host
// team may have (20 MiB with Kokkos' host backends: up to about 900 x 900): it is faster at
// every size measured (figures: docs/performance.md). Teams of more than one thread use
// team_getf2.
template <class ExecSpace, class T>
bool lu_trailing_update(const Options& o, int m, int n) {
  if (!is_host_space<ExecSpace>() || !std::is_same<T, double>::value) return false;
  if (o.schedule == Schedule::output_lanes) return false;
  return trailing_update_lu_bytes(m, n) <=
         std::size_t(Kokkos::TeamPolicy<ExecSpace>::scratch_size_max(1));
}

// Whether batched exgetf2 factors lu_interleave matrices at a time on a host core, one in each
// vector lane (host_getf2_interleaved): host spaces, double values, one thread a matrix, the
// default schedule, no staging asked for, and at least lu_interleave matrices of at most
// lu_interleaved_max_extent rows and columns (a workspace of up to 100 KiB a group): there it is
// faster than one matrix at a time, and slower beyond (figures: docs/performance.md).
constexpr int lu_interleaved_max_extent = 20;

template <class ExecSpace, class T>
bool lu_interleaved(const Options& o, int batch, int m, int n) {
  return is_host_space<ExecSpace>() && std::is_same<T, double>::value && o.team_size <= 1 &&
         o.schedule == Schedule::automatic && o.stage_in_scratch != 1 && batch >= lu_interleave &&
         m <= lu_interleaved_max_extent && n <= lu_interleaved_max_extent;
}

// Whether the matrices are factored in team scratch memory. The default: on devices, when the
// copy takes at most 48 KiB (the shared memory any CUDA block may have without opting in: up to
// 78 x 78 doubles), which is faster at every size that fits; on the host never (a core's caches
// hold the matrix it works on). Figures: docs/performance.md.
template <class ExecSpace, class T>
LuStaging lu_staging(const Options& o, int m, int n) {
  LuStaging s;
  s.ld = LuStaging::row_stride(n);
  const bool fits = s.bytes<T>(m) <= 48 * 1024;
  const bool stage =
      o.stage_in_scratch == 1 || (o.stage_in_scratch == -1 && !is_host_space<ExecSpace>());
  if (!stage || !fits || m == 0 || n == 0) s.ld = 0;
  s.trailing_update = s.ld == 0 && lu_trailing_update<ExecSpace, T>(o, m, n);
  return s;
}

// The launch bounds of the batched LU: 65536 / (threads * blocks) = 64 registers either way. Kokkos
// refuses a launch whose blocks' scratch memory keeps a multiprocessor under the minimum block
// count, so the kernel that stages its matrix in scratch asks for at least 4 blocks of up to 256
// threads (up to 57 KiB of scratch each), the one in place for 16 of up to 64.
template <class ExecSpace, bool Staged>
using BatchedLuPolicy = Kokkos::TeamPolicy<
    ExecSpace, Kokkos::LaunchBounds<(Staged ? 4 : 1) * device_lu_max_team_size, Staged ? 4 : 16>>;

template <class ExecSpace, class AView, class PivView, class InfoView>
void launch_batched_getf2(const ExecSpace& space, const AView& A, const PivView& ipiv,
                          const InfoView& info, const Options& options) {
  using T = typename AView::non_const_value_type;
  const int batch = static_cast<int>(A.extent(0));
  const int m = static_cast<int>(A.extent(1)), n = static_cast<int>(A.extent(2));
  const int team_size = batched_lu_team_size<ExecSpace>(options, n);
  const LuStaging staging = lu_staging<ExecSpace, T>(options, m, n);
  const bool interleaved = lu_interleaved<ExecSpace, T>(options, batch, m, n);
  with_expansion_size<ExecSpace, Kernels::matrix>(
      lu_expansion_size<ExecSpace>(options), [&](auto size) {
        constexpr int N = decltype(size)::value;
        if constexpr (is_host_space<ExecSpace>() && std::is_same<T, double>::value) {
          if (interleaved) {
            using F = BatchedGetf2InterleavedFunctor<N, ExecSpace, AView, PivView, InfoView>;
            Kokkos::parallel_for(
                "ExKokkos::exgetf2",
                Kokkos::TeamPolicy<ExecSpace>(space, (batch + lu_interleave - 1) / lu_interleave, 1)
                    .set_scratch_size(1, Kokkos::PerTeam(lu_interleaved_bytes(m, n))),
                F{A, ipiv, info});
            return;
          }
        }
        if (staging.ld > 0) {
          using F = BatchedGetf2Functor<N, true, ExecSpace, AView, PivView, InfoView>;
          Kokkos::parallel_for("ExKokkos::exgetf2",
                               BatchedLuPolicy<ExecSpace, true>(space, batch, team_size)
                                   .set_scratch_size(0, Kokkos::PerTeam(staging.bytes<T>(m))),
                               F{A, ipiv, info, staging});
        } else {
          using F = BatchedGetf2Functor<N, false, ExecSpace, AView, PivView, InfoView>;
          const std::size_t work = staging.trailing_update ? trailing_update_lu_bytes(m, n) : 0;
          Kokkos::parallel_for("ExKokkos::exgetf2",
                               BatchedLuPolicy<ExecSpace, false>(space, batch, team_size)
                                   .set_scratch_size(1, Kokkos::PerTeam(work)),
                               F{A, ipiv, info, staging});
        }
      });
}

inline void check_pivots(const char* routine, std::size_t m, std::size_t n,
                         std::size_t piv_extent) {
  const std::size_t k = m < n ? m : n;
  if (piv_extent != k) {
    std::ostringstream msg;
    msg << routine << ": ipiv needs min(m, n) = " << k << " entries for a " << m << " x " << n
        << " matrix, but has " << piv_extent;
    throw std::invalid_argument(msg.str());
  }
}

// Every argument of exgetf2_batched (A batch x m x n, ipiv batch x min(m, n), info batch) and its
// options; exgetf2 checks the batch of one it makes.
template <class ExecSpace, class AView, class PivView, class InfoView>
void check_batched_getf2(const ExecSpace& space, const char* routine, const AView& A,
                         const PivView& ipiv, const InfoView& info, const Options& options,
                         const OptionUse& use) {
  validate_options(space, routine, use, options);
  check_int_extent(routine, "A.extent(0)", A.extent(0));
  check_int_extent(routine, "A.extent(1)", A.extent(1));
  check_int_extent(routine, "A.extent(2)", A.extent(2));
  check_pivots(routine, A.extent(1), A.extent(2), ipiv.extent(1));
  if (ipiv.extent(0) != A.extent(0) || info.extent(0) != A.extent(0)) {
    std::ostringstream msg;
    msg << routine << ": A holds " << A.extent(0)
        << " matrices but ipiv.extent(0) = " << ipiv.extent(0)
        << " and info.extent(0) = " << info.extent(0);
    throw std::invalid_argument(msg.str());
  }
}

// Every argument of exgetf2 or exgetrf (A m x n, ipiv min(m, n)) and its options.
template <class ExecSpace, class AView, class PivView>
void check_getf2(const ExecSpace& space, const char* routine, const AView& A, const PivView& ipiv,
                 const Options& options, const OptionUse& use, const ProblemFacts& facts = {}) {
  validate_options(space, routine, use, options, facts);
  check_int_extent(routine, "A.extent(0)", A.extent(0));
  check_int_extent(routine, "A.extent(1)", A.extent(1));
  check_pivots(routine, A.extent(0), A.extent(1), ipiv.extent(0));
}

// The entry point of exgetf2: the matrix as a batch of one, on canonical views
// (common/impl/ExKokkos_CanonicalViews_impl.hpp), strided whatever the caller's layout.
template <class ExecSpace, class AView, class PivView>
int getf2_entry(const ExecSpace& space, const AView& A, const PivView& ipiv,
                const Options& options) {
  const Kokkos::View<int*, typename ExecSpace::memory_space> info(
      Kokkos::view_alloc(space, "ExKokkos::exgetf2::info"), 1);
  launch_batched_getf2(space, A, ipiv, info, options);
  int result = 0;
  Kokkos::deep_copy(space, result, Kokkos::subview(info, 0));
  space.fence();
  return result;
}

// exgetf2 on one matrix (A rank 2, ipiv rank 1, any layouts; arguments checked, extents not zero):
// a batch of one, the same team code as the batched form, so the bits agree by construction.
template <class ExecSpace, class AView, class PivView>
int getf2_single(const ExecSpace& space, const AView& A, const PivView& ipiv,
                 const Options& options) {
  using Mem = typename ExecSpace::memory_space;
  const auto A3 = canonical_view_t<ExecSpace, typename AView::non_const_value_type, 3,
                                   Kokkos::LayoutStride, Mem>(
      A.data(), Kokkos::LayoutStride(1, 0, A.extent(0), A.stride(0), A.extent(1), A.stride(1)));
  const auto P2 = canonical_view_t<ExecSpace, typename PivView::non_const_value_type, 2,
                                   Kokkos::LayoutStride, Mem>(
      ipiv.data(), Kokkos::LayoutStride(1, 0, ipiv.extent(0), ipiv.stride(0)));
  return getf2_entry(space, A3, P2, options);
}

}  // namespace Impl

template <class ExecSpace, class AView, class PivView, class InfoView,
          typename std::enable_if<Impl::is_space<ExecSpace>(), int>::type = 0>
void exgetf2_batched(const ExecSpace& space, const AView& A, const PivView& ipiv,
                     const InfoView& info, const Options& options = {}) {
  Impl::require_accessible<ExecSpace, AView>();
  Impl::require_accessible<ExecSpace, PivView>();
  Impl::require_accessible<ExecSpace, InfoView>();
  static_assert(static_cast<int>(AView::rank) == 3 && static_cast<int>(PivView::rank) == 2 &&
                    static_cast<int>(InfoView::rank) == 1,
                "ExKokkos::exgetf2_batched: A rank 3 (batch x m x n), ipiv rank 2, info rank 1");
  static_assert(Impl::is_exact_value<typename AView::non_const_value_type>(),
                "ExKokkos::exgetf2_batched: A must hold double, float or their Kokkos::complex");
  const char* routine = "ExKokkos::exgetf2_batched";
  const Impl::HostCall<ExecSpace> call(space, routine);
  Impl::check_batched_getf2(space, routine, A, ipiv, info, options, Impl::OptionUses::getf2());
  if (A.extent(0) == 0) return;
  Impl::launch_batched_getf2(space, A, ipiv, info, options);
}

template <class ExecSpace, class AView, class PivView,
          typename std::enable_if<Impl::is_space<ExecSpace>(), int>::type = 0>
int exgetf2(const ExecSpace& space, const AView& A, const PivView& ipiv,
            const Options& options = {}) {
  Impl::require_accessible<ExecSpace, AView>();
  Impl::require_accessible<ExecSpace, PivView>();
  static_assert(static_cast<int>(AView::rank) == 2 && static_cast<int>(PivView::rank) == 1,
                "ExKokkos::exgetf2: A must be rank 2 and ipiv rank 1");
  static_assert(Impl::is_exact_value<typename AView::non_const_value_type>(),
                "ExKokkos::exgetf2: A must hold double, float or their Kokkos::complex");
  const char* routine = "ExKokkos::exgetf2";
  const Impl::HostCall<ExecSpace> call(space, routine);
  Impl::check_getf2(space, routine, A, ipiv, options, Impl::OptionUses::getf2());
  if (A.extent(0) == 0 || A.extent(1) == 0) return 0;
  return Impl::getf2_single(space, A, ipiv, options);
}

template <class AView, class PivView>
int exgetf2(const AView& A, const PivView& ipiv, const Options& options = {}) {
  return exgetf2(typename AView::execution_space(), A, ipiv, options);
}

}  // namespace ExKokkos

#endif  // EXKOKKOS_GETF2_HPP
