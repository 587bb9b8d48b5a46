// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The shared kernel of the rank-1 and rank-2 updates (exger, exsyr, exsyr2): every updated
// element of A is one independent, correctly rounded RN(a_ij + alpha (...)) (core's
// ExKokkos_RoundedRankUpdate.hpp), so any partition gives the same bits. A two-dimensional range
// whose fastest index is A's contiguous one (coalesced on devices, unit stride on the host); for
// exsyr and exsyr2 the elements outside the named triangle are neither read nor written.
// Kokkos::complex values: trans "T" takes the factors as they are, "H" conjugates y_j (exger),
// x_j (exsyr), or gives exsyr2's Hermitian element a + alpha x_i conj(y_j) + conj(alpha) y_i
// conj(x_j) (rounded_complex_rank_update).
#ifndef EXKOKKOS_RANKUPDATE_IMPL_HPP
#define EXKOKKOS_RANKUPDATE_IMPL_HPP

#include "ExKokkos_Elementwise_impl.hpp"

#include <ExKokkos_RoundedRankUpdate.hpp>
#include <impl/ExKokkos_ArgumentChecks_impl.hpp>
#include <impl/ExKokkos_HostCall_impl.hpp>

#include <cstdint>
#include <sstream>
#include <stdexcept>

namespace ExKokkos {
namespace Impl {

// Which elements an update writes: all of them (exger) or one triangle, the diagonal included
// (exsyr, exsyr2 with uplo "L" or "U").
enum class UpdatedPart { whole, lower, upper };

// The factors of element (i, j): x_i, y_j for K = 1; x_i, y_i and y_j, x_j for K = 2.
template <int K, class T, class XView, class YView>
KOKKOS_INLINE_FUNCTION void rank_factors(const XView& x, const YView& y, const std::int64_t i,
                                         const std::int64_t j, T (&xs)[K], T (&ys)[K]) {
  xs[0] = x(i);
  ys[0] = y(j);
  if constexpr (K == 2) {
    xs[1] = y(i);
    ys[1] = x(j);
  }
}

// The elements of one line of A for certified_block (host threads, double and
// Kokkos::complex<double>): a column of a LayoutLeft A (a row otherwise), `outer` its index, k the
// position along it. F: the RankUpdateFunctor below, whose views and alpha it reads.
template <class F>
struct RankLineOp {
  static constexpr int K = F::rank;
  F f;
  std::int64_t outer;
  KOKKOS_INLINE_FUNCTION std::int64_t row(const std::size_t k) const {
    return F::left ? std::int64_t(k) : outer;
  }
  KOKKOS_INLINE_FUNCTION std::int64_t col(const std::size_t k) const {
    return F::left ? outer : std::int64_t(k);
  }
  KOKKOS_FORCEINLINE_FUNCTION bool fast(const std::size_t k, double& r) const {
    const std::int64_t i = row(k), j = col(k);
    return rounded_rank_update_fast<K>(f.A(i, j), f.alpha, f.x(i), f.y(j), K == 2 ? f.y(i) : 0.0,
                                       K == 2 ? f.x(j) : 0.0, r);
  }
  // Complex: K = 1, exmult's fast path on 1 a_ij + alpha x_i w_j (w_j = y_j, or conj(y_j) for
  // "H"); K = 2, rounded_complex_rank2_fast on the factors RankUpdateFunctor::value forms.
  KOKKOS_FORCEINLINE_FUNCTION bool fast(const std::size_t k, double& re, double& im) const {
    const std::int64_t i = row(k), j = col(k);
    // References, read part by part: GCC does not vectorize a loop that copies a complex whole.
    const auto &a = f.A(i, j), &x = f.x(i), &y = f.y(j);
    // Kokkos::conj's sign (-0 included) as a product: GCC does not vectorize the select.
    const double conj_sign = 1.0 - 2.0 * double(f.conjugate);
    const double yi = conj_sign * y.imag();
    if constexpr (K == 1) {
      return rounded_complex_mult_fast(Kokkos::complex<double>(1.0, 0.0), a.real(), a.imag(), true,
                                       f.alpha, x.real(), x.imag(), y.real(), yi, re, im);
    } else {
      // x_i w_j + v_i x_j with v_i = y_i, or conj(y_i) for "H".
      const auto &v = f.y(i), &xj = f.x(j);
      const double vi = conj_sign * v.imag();
      return rounded_complex_rank2_fast(a.real(), a.imag(), f.alpha, x.real(), x.imag(), y.real(),
                                        yi, v.real(), vi, xj.real(), xj.imag(), f.conjugate, re,
                                        im);
    }
  }
  KOKKOS_INLINE_FUNCTION typename F::T exact(const std::size_t k) const {
    const std::int64_t i = row(k), j = col(k);
    if constexpr (is_exact_complex<typename F::T>()) {
      return f.value(i, j);
    } else {
      double xs[K], ys[K];
      rank_factors<K>(f.x, f.y, i, j, xs, ys);
      return rounded_rank_update_exact(f.A(i, j), f.alpha, xs, ys);
    }
  }
  KOKKOS_INLINE_FUNCTION void store(const std::size_t k, const typename F::T v) const {
    f.A(row(k), col(k)) = v;
  }
};

// The element (i, j) of a rank-K update: K = 1 adds alpha x_i y_j (exger; exsyr with y = x),
// K = 2 adds alpha (x_i y_j + y_i x_j) (exsyr2). On devices one work item per element (a
// two-dimensional range whose fastest index is A's contiguous one, so a warp's loads coalesce);
// on the host one per column of a LayoutLeft A (a row otherwise), its elements walked along
// contiguous memory.
template <int K, class AView, class XView, class YView>
struct RankUpdateFunctor {
  static_assert(K == 1 || K == 2, "rank-1 or rank-2 updates");
  static constexpr int rank = K;
  using T = typename AView::non_const_value_type;
  static constexpr bool left =
      std::is_same<typename AView::array_layout, Kokkos::LayoutLeft>::value;
  AView A;
  XView x;
  YView y;
  T alpha;
  UpdatedPart part;
  bool conjugate;  // trans "H" (complex values only)

  // The new value of element (i, j).
  KOKKOS_INLINE_FUNCTION T value(const std::int64_t i, const std::int64_t j) const {
    T xs[K], ys[K];
    rank_factors<K>(x, y, i, j, xs, ys);
    if constexpr (is_exact_complex<T>()) {
      // "H": x_i conj(y_j) (exger; exsyr with y = x); exsyr2: x_i conj(y_j) and conj(y_i) x_j,
      // the second term conjugated whole with alpha (rounded_complex_rank_update).
      if (conjugate) {
        ys[0] = Kokkos::conj(ys[0]);
        if constexpr (K == 2) xs[1] = Kokkos::conj(xs[1]);
      }
      return rounded_complex_rank_update<K>(A(i, j), alpha, xs, ys, K == 2 && conjugate);
    } else {
      return rounded_rank_update(A(i, j), alpha, xs, ys);
    }
  }
  KOKKOS_INLINE_FUNCTION void update(const std::int64_t i, const std::int64_t j) const {
    A(i, j) = value(i, j);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i, const std::int64_t j) const {
    if ((part == UpdatedPart::lower && j > i) || (part == UpdatedPart::upper && i > j)) return;
    update(i, j);
  }

  // The host's form: `outer` is a column (LayoutLeft) or a row; the triangle's part of it only.
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t outer) const {
    const std::int64_t length = static_cast<std::int64_t>(left ? A.extent(0) : A.extent(1));
    // Inner indices k with (i, j) = (k, outer) or (outer, k) inside the part.
    const bool from_outer = left ? part == UpdatedPart::lower : part == UpdatedPart::upper;
    const bool to_outer = left ? part == UpdatedPart::upper : part == UpdatedPart::lower;
    const std::int64_t begin = from_outer ? outer : 0;
    const std::int64_t end = to_outer ? outer + 1 : length;
    if constexpr (std::is_same<T, double>::value ||
                  std::is_same<T, Kokkos::complex<double>>::value) {
      // In blocks of 64 whose certified fast paths run as one vectorized loop.
      const RankLineOp<RankUpdateFunctor> op{*this, outer};
      constexpr std::int64_t block = 64;
      for (std::int64_t c = begin; c < end; c += block)
        certified_block<block>(op, c, static_cast<int>(end - c < block ? end - c : block));
    } else {
      for (std::int64_t k = begin; k < end; ++k) update(left ? k : outer, left ? outer : k);
    }
  }
};

// The launch, on canonical views, after the arguments were checked (alpha != 0, A not empty).
template <int K, class ExecSpace, class AView, class XView, class YView>
void rank_update(const ExecSpace& space, const char* label, UpdatedPart part,
                 typename AView::non_const_value_type alpha, const AView& A, const XView& x,
                 const YView& y, bool conjugate) {
  using Functor = RankUpdateFunctor<K, AView, XView, YView>;
  const Functor f{A, x, y, alpha, part, conjugate};
  const std::int64_t m = static_cast<std::int64_t>(A.extent(0));
  const std::int64_t n = static_cast<std::int64_t>(A.extent(1));
  if constexpr (is_host_space<ExecSpace>()) {
    using Policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
    Kokkos::parallel_for(label, Policy(space, 0, Functor::left ? n : m), f);
  } else {
    constexpr Kokkos::Iterate order =
        Functor::left ? Kokkos::Iterate::Left : Kokkos::Iterate::Right;
    using Policy = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<2, order, order>,
                                         Kokkos::IndexType<std::int64_t>>;
    Kokkos::parallel_for(label, Policy(space, {0, 0}, {m, n}), f);
  }
}

// The checks every update shares, before anything is written: value types, the mode `trans`
// ("T", or "H", which is "T" for real values, as KokkosBlas::ger), and A's memory apart from
// x's and y's (A is written while they are read). Returns whether "H" conjugates (complex values).
template <class AView, class XView, class YView>
bool check_rank_update(const char* routine, const char trans[], const AView& A, const XView& x,
                       const YView& y) {
  using T = typename AView::non_const_value_type;
  static_assert(is_exact_value<T>(),
                "ExKokkos: rank updates take double, float or Kokkos::complex views");
  static_assert(std::is_same<T, typename XView::non_const_value_type>::value &&
                    std::is_same<T, typename YView::non_const_value_type>::value,
                "ExKokkos: A, x and y must hold the same value type");
  static_assert(!std::is_const<typename AView::value_type>::value,
                "ExKokkos: the updated matrix A must not be const");
  const bool hermitian = parse_flag(routine, "trans", trans, "TH") == 'H';
  check_no_overlap(routine, "A", A, "x", x);
  check_no_overlap(routine, "A", A, "y", y);
  return hermitian && is_exact_complex<T>();
}

// A must be m x n with x of length m and y of length n.
template <class AView, class XView, class YView>
void check_rank_update_extents(const char* routine, const AView& A, const XView& x,
                               const YView& y) {
  if (A.extent(0) != x.extent(0) || A.extent(1) != y.extent(0)) {
    std::ostringstream msg;
    msg << routine << ": A must be x.extent(0) x y.extent(0), but A is " << A.extent(0) << " x "
        << A.extent(1) << ", x.extent(0) = " << x.extent(0) << " and y.extent(0) = " << y.extent(0);
    throw std::invalid_argument(msg.str());
  }
}

// The symmetric updates: A square, of x's length (and y's), uplo "L" or "U".
template <class AView, class XView>
UpdatedPart check_symmetric_update(const char* routine, const char uplo[], const AView& A,
                                   const XView& x) {
  const UpdatedPart part =
      parse_flag(routine, "uplo", uplo, "LU") == 'L' ? UpdatedPart::lower : UpdatedPart::upper;
  if (A.extent(0) != A.extent(1) || A.extent(0) != x.extent(0)) {
    std::ostringstream msg;
    msg << routine << ": A must be square and match x, but A is " << A.extent(0) << " x "
        << A.extent(1) << " and x.extent(0) = " << x.extent(0);
    throw std::invalid_argument(msg.str());
  }
  return part;
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_RANKUPDATE_IMPL_HPP
