// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Compile-time facts about the arguments of the public routines: view ranks, the value types
// ExKokkos reduces exactly, and the execution-space constraint with the check that a space can
// read a view, each failing with a message that names what is wrong.
#ifndef EXKOKKOS_VIEWTRAITS_IMPL_HPP
#define EXKOKKOS_VIEWTRAITS_IMPL_HPP

#include <Kokkos_Core.hpp>

#include <type_traits>

namespace ExKokkos {
namespace Impl {

// Rank tests usable in enable_if on any type (a non-view has no rank).
template <class T, int Rank, bool = Kokkos::is_view<T>::value>
struct is_view_of_rank : std::false_type {};
template <class T, int Rank>
struct is_view_of_rank<T, Rank, true>
    : std::integral_constant<bool, static_cast<int>(T::rank) == Rank> {};

template <class View>
KOKKOS_INLINE_FUNCTION constexpr bool is_rank1_view() {
  return is_view_of_rank<View, 1>::value;
}

template <class View>
KOKKOS_INLINE_FUNCTION constexpr bool is_rank2_view() {
  return is_view_of_rank<View, 2>::value;
}

template <class View>
KOKKOS_INLINE_FUNCTION constexpr bool is_rank0_view() {
  return is_view_of_rank<View, 0>::value;
}

// The value types ExKokkos reduces exactly. Callable in device code too (the team-level LU checks
// its views' value types inside kernels), as are the rank tests above and the complex tests below
// (static_assert and if constexpr in functors and team routines: nvcc warns, #20013-D, on a
// constexpr host function called there).
template <class T>
KOKKOS_INLINE_FUNCTION constexpr bool is_exact_scalar() {
  return std::is_same<T, double>::value || std::is_same<T, float>::value;
}

// Kokkos::complex of an exact scalar: the level-1 reductions take it too, each part of a complex
// result its exact value rounded once (blas/impl/ExKokkos_ComplexTerms_impl.hpp).
template <class T>
struct complex_traits {
  static constexpr bool is_complex = false;
  using real_type = T;
};
template <class T>
struct complex_traits<Kokkos::complex<T>> {
  static constexpr bool is_complex = true;
  using real_type = T;
};

template <class T>
KOKKOS_INLINE_FUNCTION constexpr bool is_exact_complex() {
  return complex_traits<T>::is_complex && is_exact_scalar<typename complex_traits<T>::real_type>();
}

// What the level-1 reductions accept: double, float and their Kokkos::complex.
template <class T>
KOKKOS_INLINE_FUNCTION constexpr bool is_exact_value() {
  return is_exact_scalar<T>() || is_exact_complex<T>();
}

// The type of a magnitude of T (exasum's and exnrm2's result), as KokkosBlas' mag_type: T's real
// type.
template <class T>
using magnitude_t = typename complex_traits<T>::real_type;

// The first argument of the routines that take one: an execution space instance. A public
// routine's ExecSpace parameter is constrained by this, so that a view in that place (exsum(r, x)
// with a rank-0 r) selects another overload or fails at the call, not deep inside a kernel.
template <class T>
constexpr bool is_space() {
  return Kokkos::is_execution_space<T>::value;
}

// True when kernels of ExecSpace may read and write View's memory.
template <class ExecSpace, class View>
constexpr bool is_accessible_from() {
  return Kokkos::SpaceAccessibility<ExecSpace, typename View::memory_space>::accessible;
}

// Stops compilation with a message when kernels of ExecSpace cannot access View's memory (a host
// view passed with a device execution space); the instantiation trace names the routine.
template <class ExecSpace, class View>
constexpr void require_accessible() {
  static_assert(is_accessible_from<ExecSpace, View>(),
                "ExKokkos: a view argument is not accessible from the execution space passed "
                "(its memory space cannot be read by that space's kernels)");
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_VIEWTRAITS_IMPL_HPP
