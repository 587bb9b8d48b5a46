// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The three steps of team_getf2 (ExKokkos_Getf2_impl.hpp) that differ for Kokkos::complex values;
// the factorization's order, swaps and info are the real one's. Each RN of a complex value rounds
// each part once:
//   update:   a_ij = RN(a_ij - sum_{k < count} l_ik u_kj): the parts are two real exact sums of
//             2 count + 1 terms (the formulas of Kokkos::complex's product,
//               re: re a + sum_k (-re l) re u + (im l) im u,
//               im: im a + sum_k (-re l) im u + (-im l) re u),
//             each rounded once by the certify-or-exact engine, as a real entry;
//   pivot:    the first index of the largest exact modulus sqrt(re^2 + im^2), as KokkosBatched's
//             pivot search (Kokkos' abs of a complex value) and exiamax (LAPACK's IZAMAX compares
//             |re| + |im| instead: a cheaper norm, not the modulus); an entry with a NaN part never
//             wins against one without;
//   division: l_ij = a_ij / a_jj with each part the exact quotient of its exact numerator and
//             |a_jj|^2 rounded once (rounded_complex_quotient, exinvscal's and extrsv's division).
// Every step is a function of exact quantities, so the complex factors are as reproducible as the
// real ones, on every team size, batch size and backend.
#ifndef EXKOKKOS_COMPLEXLU_IMPL_HPP
#define EXKOKKOS_COMPLEXLU_IMPL_HPP

#include <impl/ExKokkos_CertifyOrExact_impl.hpp>
#include <impl/ExKokkos_MaxMagnitude_impl.hpp>
#include <ExKokkos_CompensatedSum.hpp>
#include <ExKokkos_Expansion.hpp>
#include <ExKokkos_RoundedQuotient.hpp>

#include <cstdint>
#include <type_traits>

namespace ExKokkos {
namespace Impl {

// f(factor, value) for the two real terms of part `part` (0: re, 1: im) of -l u (the formulas of
// Kokkos::complex's product; negation is exact).
template <class C, class F>
KOKKOS_INLINE_FUNCTION void negated_product_terms(const C& l, const C& u, int part, const F& f) {
  const double lr = static_cast<double>(l.real()), li = static_cast<double>(l.imag());
  const double ur = static_cast<double>(u.real()), ui = static_cast<double>(u.imag());
  if (part == 0) {
    f(-lr, ur);
    f(li, ui);
  } else {
    f(-lr, ui);
    f(-li, ur);
  }
}

// f(factor, value) for the 2 count terms of part `part` of sum_{k < count} -l_ik u_kj.
template <class AView, class F>
KOKKOS_INLINE_FUNCTION void complex_lu_terms(const AView& A, int i, int j, int count, int part,
                                             const F& f) {
  for (int k = 0; k < count; ++k) negated_product_terms(A(i, k), A(k, j), part, f);
}

// RN(a_ij - sum_{k < count} a_ik a_kj) for a complex A, each part exact before its one rounding:
// a compensated sum certified by its error bound (doubles), else an expansion of N doubles
// spilling into the long accumulator.
template <int N, class AView>
KOKKOS_INLINE_FUNCTION typename AView::non_const_value_type complex_lu_update(const AView& A, int i,
                                                                              int j, int count) {
  using C = typename AView::non_const_value_type;
  using T = typename C::value_type;
  const C a = A(i, j);
  T rounded[2];
  for (int part = 0; part < 2; ++part) {
    const double initial = static_cast<double>(part == 0 ? a.real() : a.imag());
    const auto finish = round_sum_into<T>([&](std::int64_t, T v) { rounded[part] = v; });
    certify_or_exact<N>(
        finish, 0, true,
        [&]() {
          CompensatedSum c;
          if constexpr (std::is_same<T, double>::value) {
            c.add(initial);
            complex_lu_terms(A, i, j, count, part,
                             [&](double f, double v) { c.add_product(f, v); });
          }
          return c;
        },
        [&](LazyAccumulator& s, double(&slots)[N]) {
          Expansion<N> e;
          e.add(initial, s);
          complex_lu_terms(A, i, j, count, part, [&](double f, double v) {
            if (std::is_same<T, double>::value)
              e.add_product(f, v, s);
            else
              e.add(f * v, s);  // two floats: exact in double
          });
          for (int q = 0; q < N; ++q) slots[q] = e[q];
        });
  }
  return C(rounded[0], rounded[1]);
}

// The pivot of step j on one thread: the first index i >= j of the largest exact modulus of
// A(i, j), an entry with a NaN part never larger than one without (j when every entry has one).
// exiamax's reduction (MaxMagnitude) taken in order: most entries are passed over by their
// floating-point squares; rounded moduli that tie are ordered by the exact squares.
template <class AView>
KOKKOS_INLINE_FUNCTION int complex_sequential_pivot(const AView& A, int j) {
  const int m = static_cast<int>(A.extent(0));
  MaxMagnitude<2> best = MaxMagnitude<2>::empty();
  for (int i = j; i < m; ++i) best.visit(A(i, j), i);
  return best.index == MaxMagnitude<2>::none ? j : static_cast<int>(best.index);
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_COMPLEXLU_IMPL_HPP
