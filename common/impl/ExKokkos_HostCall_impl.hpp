// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// What a host-level routine (one that launches kernels of its own: every public routine taking an
// execution space) needs of the thread that calls it, checked in one place before anything is
// launched or written (docs/guarantees.md, "Calling from several threads"):
//  - it is not inside a parallel region. A host backend's kernel started from inside another
//    kernel shares that kernel's thread-pool and team data (Kokkos' HostThreadTeamData): it gives
//    wrong results, aborts in organize_team, or crashes. Such a call is refused with
//    std::invalid_argument naming the team-level form to use instead;
//  - Kokkos::Serial's calls do not overlap. Before Kokkos 4.0 every Serial instance shares one
//    team-data block (team scratch memory, reduction buffers) and its kernels take no lock, so two
//    threads running Serial team kernels at once corrupt each other's accumulators. ExKokkos holds
//    one process-wide (recursive) mutex for the whole of each Serial call: calls from several
//    threads run one after another and each gives its own correct bits. Kokkos 4 locks each
//    launch itself; the mutex then only keeps a call's launches together, which costs nothing
//    measurable (an uncontended lock per call).
#ifndef EXKOKKOS_HOSTCALL_IMPL_HPP
#define EXKOKKOS_HOSTCALL_IMPL_HPP

#include "ExKokkos_DeviceTraits_impl.hpp"

#include <ExKokkos_Compat.hpp>
#include <Kokkos_Core.hpp>

#include <mutex>
#include <stdexcept>
#include <string>
#include <type_traits>

#if defined(_OPENMP)
#include <omp.h>
#endif

namespace ExKokkos {
namespace Impl {

// True inside an active OpenMP parallel region: a Kokkos::OpenMP kernel, or a user's own region.
inline bool in_openmp_parallel_region() {
#if defined(_OPENMP)
  return omp_in_parallel() != 0;
#else
  return false;
#endif
}

// The execution spaces whose calls ExKokkos serializes (see above).
template <class ExecSpace>
constexpr bool serializes_calls() {
#if defined(KOKKOS_ENABLE_SERIAL)
  return std::is_same<ExecSpace, Kokkos::Serial>::value;
#else
  return false;
#endif
}

inline std::recursive_mutex& serial_calls_mutex() {
  static std::recursive_mutex mutex;
  return mutex;
}

// What to call inside a kernel instead of the routine `bare` (its name without the namespace).
inline std::string team_level_form(const std::string& bare) {
  if (bare.rfind("exgetf2", 0) == 0) return "ExKokkos::TeamGetf2<Member>::invoke(member, A, ipiv)";
  if (bare.rfind("exgetrs", 0) == 0 || bare.rfind("exgesv", 0) == 0)
    return "ExKokkos::TeamGetf2<Member>::invoke and ExKokkos::TeamGetrs<Member>::invoke";
  return "ExKokkos::Experimental::" + bare + "(team, ...) where it exists";
}

// Throws std::invalid_argument when the calling thread may not launch host kernels of ExecSpace
// now (above). Called before a routine allocates anything as well: with Kokkos 4's OpenMP backend,
// freeing a view fences, and a fence from inside a parallel region can deadlock.
template <class ExecSpace>
void refuse_inside_parallel_region(const ExecSpace& space, const char* routine) {
  if (is_host_space<ExecSpace>() &&
      (in_openmp_parallel_region() || compat::openmp_refuses_this_thread(space))) {
    const std::string name(routine);
    const std::string bare = name.rfind("ExKokkos::", 0) == 0 ? name.substr(10) : name;
    throw std::invalid_argument(
        name +
        ": called inside a parallel region (or, with Kokkos 3's OpenMP backend, from a thread "
        "other than the one that initialized Kokkos). This routine launches kernels of its own, "
        "which would share the running kernel's threads and team data; call it outside parallel "
        "regions, or inside a kernel use the team-level form " +
        team_level_form(bare));
  }
}

// Held for the whole of a public routine's call: construct it first. Throws std::invalid_argument
// when the calling thread may not launch host kernels now; on Kokkos::Serial, waits for the calls
// of other threads to end.
template <class ExecSpace>
class HostCall {
 public:
  HostCall(const ExecSpace& space, const char* routine) {
    refuse_inside_parallel_region(space, routine);
    if constexpr (serializes_calls<ExecSpace>())
      lock_ = std::unique_lock<std::recursive_mutex>(serial_calls_mutex());
  }
  HostCall(const HostCall&) = delete;
  HostCall& operator=(const HostCall&) = delete;

 private:
  std::unique_lock<std::recursive_mutex> lock_;
};

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_HOSTCALL_IMPL_HPP
