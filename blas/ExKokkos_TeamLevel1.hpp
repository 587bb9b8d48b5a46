// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The exact reductions inside a user's kernel, shaped like KokkosBlas::Experimental::dot(team,
// x, y): called by every thread of a team (or by one thread, the serial forms), they return the
// correctly rounded value to every caller, the same bits as the device-wide exdot, exsum, exasum
// and exnrm2 on the same data, for every team size, vector length and backend.
//
//   Kokkos::parallel_for(policy, KOKKOS_LAMBDA(const member_type& team) {
//     auto x = Kokkos::subview(X, Kokkos::ALL(), team.league_rank());
//     const double d = ExKokkos::Experimental::exdot(team, x, y);   // every thread gets d
//     const double n = ExKokkos::Experimental::exnrm2(team, x);
//   });
//   double s = ExKokkos::Experimental::serial_exsum(x);             // one thread alone
//
//   exdot(team, x, y)  exsum(team, x)  exasum(team, x)  exnrm2(team, x)
//   serial_exdot(x, y) serial_exsum(x) serial_exasum(x) serial_exnrm2(x)
//
// x, y: rank-1 views of double or float (the same type), any layout, strided subviews and views
// in team scratch memory included, readable where the kernel runs. The value: the exact sum (of
// x_i, |x_i|, x_i y_i) rounded once to nearest, ties to even, in the value type; exnrm2 the square
// root of the exact sum of squares rounded once. IEEE special values and the sign of an exact
// zero as the device-wide routines; an empty x gives +0.
// Kokkos::complex<double> and Kokkos::complex<float> views: the device-wide routines' complex
// definitions (exdot conj(x) . y, each part its exact sum rounded once; exsum each part; exasum
// BLAS' sum of |re| + |im| and exnrm2 the root of the exact sum of re^2 + im^2, both real), from
// the same real terms (blas/impl/ExKokkos_ComplexTerms_impl.hpp), so the same bits: a complex
// result is two team reductions, one a part.
//
// Team scratch: none (team_scratch_size() is 0). The threads meet in the team's reduction
// (blas/impl/ExKokkos_TeamReduce_impl.hpp), like a nested Kokkos::parallel_reduce.
// Collective: every thread of the team calls with the same views, as for KokkosBlas' team forms.
// The serial forms use nothing of a team and can run in any thread (or vector lane) alone.
//
// Cost: doubles (dot, sum, asum) first try a compensated sum (a TwoProd and a TwoSum a term) and
// one team reduction of 32 bytes; only when its rounding is not certified (sums rounded near a
// tie, huge range, NaN/Inf, exact zeros) each thread sums exactly in an expansion and a long
// accumulator of its own (1 KiB of stack), and the team adds the accumulators in nine
// reductions. Floats and exnrm2 always take the exact way. A team of one thread (the host's
// usual teams) and the serial forms run the certify-or-exact engine on their own: a compensated
// sum (doubles), else an expansion rounded from its slots when certified, else a long
// accumulator built only when the expansion spills.
//
// Mismatched extents in exdot cannot throw inside a kernel: the call aborts with
// Kokkos::abort and a message naming the routine (KokkosBlas reads past the shorter vector).
#ifndef EXKOKKOS_TEAMLEVEL1_HPP
#define EXKOKKOS_TEAMLEVEL1_HPP

#include "ExKokkos_Asum.hpp"
#include "ExKokkos_Dot.hpp"
#include "ExKokkos_Nrm2.hpp"
#include "ExKokkos_Sum.hpp"
#include "impl/ExKokkos_ComplexTerms_impl.hpp"
#include "impl/ExKokkos_TeamReduce_impl.hpp"

#include <impl/ExKokkos_ViewTraits_impl.hpp>

#include <cstddef>
#include <type_traits>

namespace ExKokkos {
namespace Impl {

template <class XView>
constexpr bool is_team_level1_vector() {
  return is_rank1_view<XView>();
}

// The value of a reduction of terms [0, n) rounded by RoundSum, or by RoundSqrt for exnrm2, on a
// team (Member) or on one thread (std::nullptr_t).
template <class T, template <class, class> class Rounding, class Member, class Terms>
KOKKOS_INLINE_FUNCTION T team_reduction_value(const Member& team, const Terms& terms,
                                              std::int64_t n) {
  static_assert(is_exact_scalar<T>(),
                "ExKokkos::Experimental: the team and serial reductions take double or float");
  if (n == 0) return T(0);  // as the device-wide routines: +0
  T value;
  const Rounding<T, StoreValue<T>> finish{StoreValue<T>{&value}};
  if constexpr (std::is_same<Member, std::nullptr_t>::value) {
    (void)team;
    serial_certify_or_exact<false>(terms, n, finish);  // any thread of any backend
  } else {
    team_certify_or_exact(team, terms, n, finish);
  }
  return value;
}

template <class XView, class YView>
KOKKOS_INLINE_FUNCTION void check_team_dot_extents(const XView& x, const YView& y) {
  if (x.extent(0) != y.extent(0))
    Kokkos::abort(
        "ExKokkos::Experimental::exdot(team, x, y) / serial_exdot(x, y): x and y have "
        "different extents");
}

}  // namespace Impl

namespace Experimental {

template <class Member, class XView, class YView,
          typename std::enable_if<
              Impl::is_team_level1_vector<XView>() && Impl::is_rank1_view<YView>(), int>::type = 0>
KOKKOS_INLINE_FUNCTION typename XView::non_const_value_type exdot(const Member& team,
                                                                  const XView& x, const YView& y) {
  using T = typename XView::non_const_value_type;
  static_assert(std::is_same<T, typename YView::non_const_value_type>::value,
                "ExKokkos::Experimental::exdot: x and y must hold the same value type");
  Impl::check_team_dot_extents(x, y);
  const std::int64_t n = std::int64_t(x.extent(0));
  if constexpr (Impl::is_exact_complex<T>()) {
    using R = Impl::magnitude_t<T>;
    const R re = Impl::team_reduction_value<R, Impl::RoundSum>(
        team, Impl::ComplexDotTerms<XView, YView, false>{x, y}, 2 * n);
    const R im = Impl::team_reduction_value<R, Impl::RoundSum>(
        team, Impl::ComplexDotTerms<XView, YView, true>{x, y}, 2 * n);
    return T(re, im);
  } else {
    return Impl::team_reduction_value<T, Impl::RoundSum>(team,
                                                         Impl::dot_terms_t<XView, YView>{x, y}, n);
  }
}

template <class Member, class XView,
          typename std::enable_if<Impl::is_team_level1_vector<XView>(), int>::type = 0>
KOKKOS_INLINE_FUNCTION typename XView::non_const_value_type exsum(const Member& team,
                                                                  const XView& x) {
  using T = typename XView::non_const_value_type;
  const std::int64_t n = std::int64_t(x.extent(0));
  if constexpr (Impl::is_exact_complex<T>()) {
    using R = Impl::magnitude_t<T>;
    const R re = Impl::team_reduction_value<R, Impl::RoundSum>(
        team, Impl::ComplexPartTerms<XView, false>{x}, n);
    const R im = Impl::team_reduction_value<R, Impl::RoundSum>(
        team, Impl::ComplexPartTerms<XView, true>{x}, n);
    return T(re, im);
  } else {
    return Impl::team_reduction_value<T, Impl::RoundSum>(team, Impl::SumTerms<XView>{x}, n);
  }
}

template <class Member, class XView,
          typename std::enable_if<Impl::is_team_level1_vector<XView>(), int>::type = 0>
KOKKOS_INLINE_FUNCTION Impl::magnitude_t<typename XView::non_const_value_type> exasum(
    const Member& team, const XView& x) {
  using T = typename XView::non_const_value_type;
  const std::int64_t n = std::int64_t(x.extent(0));
  if constexpr (Impl::is_exact_complex<T>())
    return Impl::team_reduction_value<Impl::magnitude_t<T>, Impl::RoundSum>(
        team, Impl::ComplexAbsTerms<XView>{x}, 2 * n);
  else
    return Impl::team_reduction_value<T, Impl::RoundSum>(team, Impl::AbsTerms<XView>{x}, n);
}

template <class Member, class XView,
          typename std::enable_if<Impl::is_team_level1_vector<XView>(), int>::type = 0>
KOKKOS_INLINE_FUNCTION Impl::magnitude_t<typename XView::non_const_value_type> exnrm2(
    const Member& team, const XView& x) {
  using T = typename XView::non_const_value_type;
  const std::int64_t n = std::int64_t(x.extent(0));
  if constexpr (Impl::is_exact_complex<T>())
    return Impl::team_reduction_value<Impl::magnitude_t<T>, Impl::RoundSqrt>(
        team, Impl::ComplexSquareTerms<XView>{x}, 2 * n);
  else
    return Impl::team_reduction_value<T, Impl::RoundSqrt>(team, Impl::square_terms_t<XView>{x}, n);
}

template <class XView, class YView,
          typename std::enable_if<
              Impl::is_team_level1_vector<XView>() && Impl::is_rank1_view<YView>(), int>::type = 0>
KOKKOS_INLINE_FUNCTION typename XView::non_const_value_type serial_exdot(const XView& x,
                                                                         const YView& y) {
  return exdot(nullptr, x, y);
}

template <class XView, typename std::enable_if<Impl::is_team_level1_vector<XView>(), int>::type = 0>
KOKKOS_INLINE_FUNCTION typename XView::non_const_value_type serial_exsum(const XView& x) {
  return exsum(nullptr, x);
}

template <class XView, typename std::enable_if<Impl::is_team_level1_vector<XView>(), int>::type = 0>
KOKKOS_INLINE_FUNCTION Impl::magnitude_t<typename XView::non_const_value_type> serial_exasum(
    const XView& x) {
  return exasum(nullptr, x);
}

template <class XView, typename std::enable_if<Impl::is_team_level1_vector<XView>(), int>::type = 0>
KOKKOS_INLINE_FUNCTION Impl::magnitude_t<typename XView::non_const_value_type> serial_exnrm2(
    const XView& x) {
  return exnrm2(nullptr, x);
}

}  // namespace Experimental
}  // namespace ExKokkos

#endif  // EXKOKKOS_TEAMLEVEL1_HPP
