// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// exgemv inside a user's kernel, shaped like KokkosBlas::Experimental::gemv(team, ...) and
// KokkosBlas::SerialGemv: y = alpha op(A) x + beta y with every element one rounding of the exact
// alpha (op(A) x)_i + beta y_i, the same bits as the device-wide ExKokkos::exgemv on the same data,
// for every team size, vector length and backend.
//
//   Kokkos::parallel_for(policy, KOKKOS_LAMBDA(const member_type& team) {
//     auto A = Kokkos::subview(As, team.league_rank(), Kokkos::ALL(), Kokkos::ALL());
//     ...
//     ExKokkos::Experimental::exgemv(team, 'N', alpha, A, x, beta, y);   // y complete on return
//   });
//   ExKokkos::Experimental::serial_exgemv('T', alpha, A, x, beta, y);    // one thread alone
//   ExKokkos::Experimental::SerialExGemv<ExKokkos::Experimental::Trans::Transpose>::invoke(
//       alpha, A, x, beta, y);
//   ExKokkos::Experimental::TeamExGemv<member_type, ExKokkos::Experimental::Trans::NoTranspose>::
//       invoke(team, alpha, A, x, beta, y);
//
// trans: 'N', 'T' or 'C' ("C" is "T" for real values), either case, as a char or a string (its
// first character). A, x, y: rank-2 and rank-1 views of double, float or their Kokkos::complex
// (the same type), any layout, strided subviews and views in team scratch memory included. BLAS
// conventions as the device-wide exgemv: beta == 0 does not read y; alpha == 0 (or an inner
// dimension of 0) reads neither A nor x and gives y_i = RN(beta y_i), zeros when beta == 0 too.
//
// Each output is computed by one thread of the team (a vector lane of it), from start to end, by
// the certify-or-exact engine (blas/impl/ExKokkos_CertifyOrExact_impl.hpp) with exgemv's own
// Finish (GemvFinish): a compensated sum certified by its error bound (doubles), else an expansion
// rounded from its slots when certified, else a long accumulator (1 KiB of stack) rounded once.
// Each step gives RN of the exact value, so neither which step answers nor which thread computes
// an output shows in the bits. Complex values: each part of y_i is the device-wide complex
// exgemv's exact value rounded once: for doubles first from both parts of S_i as compensated
// sums, certified as the device-wide routine's pass 2 certifies its sums
// (certify_complex_output), else (and for floats) from both parts in long accumulators
// (complex_gemv_exact, the device-wide routine's exact step); trans 'C' conjugates A. Team scratch:
// none (team_scratch_size() is 0). The team form ends with a team barrier, so that every thread may
// read all of y on return.
//
// Invalid arguments cannot throw inside a kernel: an unknown trans or extents that do not match
// op(A) abort with Kokkos::abort and a message naming the routine, before anything is read or
// written (KokkosBlas' team gemv does nothing for an unknown trans and reads out of bounds on
// mismatched extents).
#ifndef EXKOKKOS_TEAMGEMV_HPP
#define EXKOKKOS_TEAMGEMV_HPP

#include "ExKokkos_Scal.hpp"
#include "impl/ExKokkos_ComplexGemv_impl.hpp"
#include "impl/ExKokkos_Gemv_impl.hpp"
#include "impl/ExKokkos_TeamReduce_impl.hpp"

#include <impl/ExKokkos_ViewTraits_impl.hpp>

#include <cstddef>
#include <type_traits>

namespace ExKokkos {
namespace Experimental {

// The transposition tags of SerialExGemv and TeamExGemv (KokkosBlas::Trans' names).
struct Trans {
  struct NoTranspose {};
  struct Transpose {};
  struct ConjTranspose {};
};

}  // namespace Experimental

namespace Impl {

template <class TransTag>
struct is_transposed_tag;
template <>
struct is_transposed_tag<Experimental::Trans::NoTranspose> : std::false_type {};
template <>
struct is_transposed_tag<Experimental::Trans::Transpose> : std::true_type {};
template <>
struct is_transposed_tag<Experimental::Trans::ConjTranspose> : std::true_type {};
template <class TransTag>
struct is_conjugated_tag : std::is_same<TransTag, Experimental::Trans::ConjTranspose> {};

// Output i of y = alpha op(A) x + beta y, on the calling thread: the engine's three steps, or
// RN(beta y_i) (zeros for beta == 0) when the sum is empty or alpha is zero (exscal's element).
template <bool Transposed, class AView, class XView, class YView>
struct SerialGemvOutputs {
  using T = typename YView::non_const_value_type;
  static constexpr int N = team_expansion_size;
  using Op = MatrixOperand<AView, Transposed>;
  using Terms = RowTerms<Op, XView, std::is_same<T, double>::value>;
  Op op;
  XView x;
  GemvFinish<YView> finish;

  KOKKOS_INLINE_FUNCTION std::int64_t k_count() const {
    return std::int64_t(op.A.extent(Transposed ? 0 : 1));
  }

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    const std::int64_t k_count = this->k_count();
    if (finish.alpha == T(0) || k_count == 0) {  // BLAS: A and x are not read
      ScalFunctor<YView, YView>{finish.y, finish.y, finish.beta}(std::size_t(i));
      return;
    }
    const Terms terms{op, x, i};
    certify_or_exact<N>(
        finish, i, k_count <= compensated_max_inner,
        [&]() {
          CompensatedSum sum;
          for (std::int64_t k = 0; k < k_count; ++k) add_compensated(terms, k, sum);
          return sum;
        },
        [&](LazyAccumulator& acc, double(&slots)[N]) {
          Expansion<N> e;
          for (std::int64_t k = 0; k < k_count; ++k) add_term(terms, k, e, acc);
          for (int q = 0; q < N; ++q) slots[q] = e[q];
        });
  }
};

// Output i of y = alpha op(A) x + beta y for complex values, on the calling thread: RN(beta y_i)
// part by part (zeros for beta == 0) when the sum is empty or alpha is zero, as the device-wide
// routine; otherwise a certified try from compensated sums (doubles), else its exact step.
template <bool Transposed, bool Conjugated, class AView, class XView, class YView>
struct SerialComplexGemvOutputs {
  using C = typename YView::non_const_value_type;
  using Real = magnitude_t<C>;
  AView A;
  XView x;
  YView y;
  C alpha, beta;

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    const std::int64_t k_count = std::int64_t(A.extent(Transposed ? 0 : 1));
    if (alpha == C(0) || k_count == 0) {  // BLAS: A and x are not read
      ScalFunctor<YView, YView>{y, y, beta}(std::size_t(i));
      return;
    }
    const bool read_y = beta != C(0);
    const C yv = read_y ? C(y(i)) : C(0);
    const double ys[2] = {static_cast<double>(yv.real()), static_cast<double>(yv.imag())};
    double r[2];
    if (certified(i, k_count, ys, read_y, r))
      y(i) = C(r[0], r[1]);
    else
      y(i) = complex_gemv_exact<Real, Transposed, Conjugated>(A, x, i, k_count, alpha, beta, ys,
                                                              read_y);
  }

  // Doubles: both parts of S_i as compensated sums (re S = sum re(a) re(x) - im(a) im(x), im S =
  // sum im(a) re(x) + re(a) im(x), the negation exact), certified as the device-wide routine's
  // pass 2 certifies its kept sums (certify_complex_output, the interleaved form).
  KOKKOS_INLINE_FUNCTION bool certified(std::int64_t i, std::int64_t k_count, const double (&ys)[2],
                                        bool read_y, double (&r)[2]) const {
    if constexpr (std::is_same<Real, double>::value) {
      if (2 * k_count > compensated_max_inner) return false;
      CompensatedSum s[2];
      for (std::int64_t k = 0; k < k_count; ++k) {
        double re, im;
        complex_operand_parts<AView, Transposed, Conjugated>(A, i, k, re, im);
        const C xv = x(k);
        s[0].add_product(re, xv.real());
        s[0].add_product(-im, xv.imag());
        s[1].add_product(im, xv.real());
        s[1].add_product(re, xv.imag());
      }
      double t[2][3], margin[2];
      for (int q = 0; q < 2; ++q) {
        if (!compensated_margin(s[q].magnitude(), s[q].terms(), margin[q])) return false;
        t[q][0] = s[q].head();
        t[q][1] = s[q].errors();
        t[q][2] = 0.0;
      }
      return certify_complex_output<Real, 2, Conjugated>(alpha, beta, t, margin, ys, read_y, r);
    } else {
      (void)i, (void)k_count, (void)ys, (void)read_y, (void)r;
      return false;
    }
  }
};

// One output per TeamThreadRange index, on one vector lane of its thread.
template <class Member, class Outputs>
struct TeamGemvOutput {
  const Member& team;
  const Outputs& outputs;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i) const {
    Kokkos::single(Kokkos::PerThread(team), SingleOutput{outputs, i});
  }
  struct SingleOutput {
    const Outputs& outputs;
    std::int64_t i;
    KOKKOS_INLINE_FUNCTION void operator()() const { outputs(i); }
  };
};

// 'N' -> 0, 'T' -> 1, 'C' -> 2 (either case; "C" is "T" for real values), anything else -> -1.
KOKKOS_INLINE_FUNCTION int team_trans_mode(char trans) {
  if (trans == 'N' || trans == 'n') return 0;
  if (trans == 'T' || trans == 't') return 1;
  if (trans == 'C' || trans == 'c') return 2;
  return -1;
}

template <class AView, class XView, class YView>
KOKKOS_INLINE_FUNCTION void check_team_gemv(int mode, const AView& A, const XView& x,
                                            const YView& y) {
  using T = typename YView::non_const_value_type;
  static_assert(
      is_exact_value<T>(),
      "ExKokkos::Experimental::exgemv: y must hold double, float or their Kokkos::complex");
  static_assert(std::is_same<T, typename AView::non_const_value_type>::value &&
                    std::is_same<T, typename XView::non_const_value_type>::value,
                "ExKokkos::Experimental::exgemv: A, x and y must hold the same value type");
  static_assert(!std::is_const<typename YView::value_type>::value,
                "ExKokkos::Experimental::exgemv: y must not be const");
  static_assert(is_rank2_view<AView>() && is_rank1_view<XView>() && is_rank1_view<YView>(),
                "ExKokkos::Experimental::exgemv: A must be a rank-2 view, x and y rank-1 views");
  if (mode < 0)
    Kokkos::abort("ExKokkos::Experimental::exgemv (team or serial): trans must be 'N', 'T' or 'C'");
  const bool transposed = mode >= 1;
  if (x.extent(0) != A.extent(transposed ? 0 : 1) || y.extent(0) != A.extent(transposed ? 1 : 0))
    Kokkos::abort(
        "ExKokkos::Experimental::exgemv (team or serial): the extents of x and y do not "
        "match op(A)");
}

// The outputs' functor: exgemv's certify-or-exact engine for real values, the complex exact step
// (A conjugated when Conjugated) for complex ones.
template <bool Transposed, bool Conjugated, class AView, class XView, class YView>
KOKKOS_INLINE_FUNCTION auto gemv_outputs(typename YView::const_value_type& alpha, const AView& A,
                                         const XView& x, typename YView::const_value_type& beta,
                                         const YView& y) {
  if constexpr (is_exact_complex<typename YView::non_const_value_type>())
    return SerialComplexGemvOutputs<Transposed, Conjugated, AView, XView, YView>{A, x, y, alpha,
                                                                                 beta};
  else
    return SerialGemvOutputs<Transposed, AView, XView, YView>{MatrixOperand<AView, Transposed>{A},
                                                              x, GemvFinish<YView>{y, alpha, beta}};
}

template <bool Transposed, bool Conjugated, class Member, class AView, class XView, class YView>
KOKKOS_INLINE_FUNCTION void team_gemv(const Member& team, typename YView::const_value_type& alpha,
                                      const AView& A, const XView& x,
                                      typename YView::const_value_type& beta, const YView& y) {
  const auto outputs = gemv_outputs<Transposed, Conjugated>(alpha, A, x, beta, y);
  using Outputs = decltype(outputs);
  Kokkos::parallel_for(Kokkos::TeamThreadRange(team, std::int64_t(y.extent(0))),
                       TeamGemvOutput<Member, Outputs>{team, outputs});
  team.team_barrier();
}

template <bool Transposed, bool Conjugated, class AView, class XView, class YView>
KOKKOS_INLINE_FUNCTION void serial_gemv(typename YView::const_value_type& alpha, const AView& A,
                                        const XView& x, typename YView::const_value_type& beta,
                                        const YView& y) {
  const auto outputs = gemv_outputs<Transposed, Conjugated>(alpha, A, x, beta, y);
  for (std::int64_t i = 0; i < std::int64_t(y.extent(0)); ++i) outputs(i);
}

// Runs f.template operator()<Transposed, Conjugated>() for a checked mode (conjugation only for
// complex values: "C" is "T" for real ones).
template <class T, class F>
KOKKOS_INLINE_FUNCTION void with_trans_mode(int mode, const F& f) {
  if (mode == 0)
    f(std::false_type(), std::false_type());
  else if (mode == 2 && is_exact_complex<T>())
    f(std::true_type(), std::true_type());
  else
    f(std::true_type(), std::false_type());
}

}  // namespace Impl

namespace Experimental {

template <class Member, class AView, class XView, class YView>
KOKKOS_INLINE_FUNCTION void exgemv(const Member& team, const char trans,
                                   typename YView::const_value_type& alpha, const AView& A,
                                   const XView& x, typename YView::const_value_type& beta,
                                   const YView& y) {
  const int mode = Impl::team_trans_mode(trans);
  Impl::check_team_gemv(mode, A, x, y);
  Impl::with_trans_mode<typename YView::non_const_value_type>(mode, [&](auto t, auto c) {
    Impl::team_gemv<decltype(t)::value, decltype(c)::value>(team, alpha, A, x, beta, y);
  });
}

// The device-wide exgemv's form of trans, a string (its first character counts).
template <class Member, class AView, class XView, class YView>
KOKKOS_INLINE_FUNCTION void exgemv(const Member& team, const char trans[],
                                   typename YView::const_value_type& alpha, const AView& A,
                                   const XView& x, typename YView::const_value_type& beta,
                                   const YView& y) {
  exgemv(team, trans == nullptr ? '\0' : trans[0], alpha, A, x, beta, y);
}

template <class AView, class XView, class YView>
KOKKOS_INLINE_FUNCTION void serial_exgemv(const char trans, typename YView::const_value_type& alpha,
                                          const AView& A, const XView& x,
                                          typename YView::const_value_type& beta, const YView& y) {
  const int mode = Impl::team_trans_mode(trans);
  Impl::check_team_gemv(mode, A, x, y);
  Impl::with_trans_mode<typename YView::non_const_value_type>(mode, [&](auto t, auto c) {
    Impl::serial_gemv<decltype(t)::value, decltype(c)::value>(alpha, A, x, beta, y);
  });
}

template <class AView, class XView, class YView>
KOKKOS_INLINE_FUNCTION void serial_exgemv(const char trans[],
                                          typename YView::const_value_type& alpha, const AView& A,
                                          const XView& x, typename YView::const_value_type& beta,
                                          const YView& y) {
  serial_exgemv(trans == nullptr ? '\0' : trans[0], alpha, A, x, beta, y);
}

// KokkosBlas::SerialGemv's shape: the transposition as a tag; invoke returns 0.
template <class ArgTrans>
struct SerialExGemv {
  template <class AView, class XView, class YView>
  KOKKOS_INLINE_FUNCTION static int invoke(typename YView::const_value_type& alpha, const AView& A,
                                           const XView& x, typename YView::const_value_type& beta,
                                           const YView& y) {
    constexpr bool transposed = Impl::is_transposed_tag<ArgTrans>::value;
    constexpr bool conjugated = Impl::is_conjugated_tag<ArgTrans>::value &&
                                Impl::is_exact_complex<typename YView::non_const_value_type>();
    Impl::check_team_gemv(transposed ? 1 : 0, A, x, y);
    Impl::serial_gemv<transposed, conjugated>(alpha, A, x, beta, y);
    return 0;
  }
};

// KokkosBlas::TeamGemv's shape: the transposition as a tag; invoke returns 0.
template <class Member, class ArgTrans>
struct TeamExGemv {
  template <class AView, class XView, class YView>
  KOKKOS_INLINE_FUNCTION static int invoke(const Member& team,
                                           typename YView::const_value_type& alpha, const AView& A,
                                           const XView& x, typename YView::const_value_type& beta,
                                           const YView& y) {
    constexpr bool transposed = Impl::is_transposed_tag<ArgTrans>::value;
    constexpr bool conjugated = Impl::is_conjugated_tag<ArgTrans>::value &&
                                Impl::is_exact_complex<typename YView::non_const_value_type>();
    Impl::check_team_gemv(transposed ? 1 : 0, A, x, y);
    Impl::team_gemv<transposed, conjugated>(team, alpha, A, x, beta, y);
    return 0;
  }
};

}  // namespace Experimental
}  // namespace ExKokkos

#endif  // EXKOKKOS_TEAMGEMV_HPP
