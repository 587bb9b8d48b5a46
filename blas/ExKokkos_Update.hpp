// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ExKokkos::exupdate: Z(i) = RN(alpha X(i) + beta Y(i) + gamma Z(i)) (KokkosBlas::update), each
// element the exact value of the whole expression rounded once (ExKokkos_RoundedUpdate.hpp), so
// any partition gives the same bits. As KokkosBlas does, a zero coefficient drops its term and its
// view is not read (NaN there does not propagate): two terms are exaxpby's RN(a x + b y), one term
// RN(a x), none +0. X, Y, Z: rank-1 or rank-2 views of one shape, any layout; Z may alias X or Y.
// Kokkos::complex values too: each part rounded once from its exact value
// (ExKokkos_RoundedComplex.hpp).
//
//   ExKokkos::exupdate(space, alpha, X, beta, Y, gamma, Z);
//   ExKokkos::exupdate(alpha, X, beta, Y, gamma, Z);
#ifndef EXKOKKOS_UPDATE_HPP
#define EXKOKKOS_UPDATE_HPP

#include "impl/ExKokkos_Elementwise_impl.hpp"

#include <ExKokkos_RoundedAxpby.hpp>
#include <ExKokkos_RoundedComplex.hpp>
#include <ExKokkos_RoundedUpdate.hpp>

namespace ExKokkos {
namespace Impl {

template <class XView, class YView, class ZView>
struct UpdateFunctor {
  using T = typename ZView::non_const_value_type;
  XView x;
  YView y;
  ZView z;
  T alpha, beta, gamma;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i) const {
    const bool a = alpha != T(0), b = beta != T(0), c = gamma != T(0);
    if (a && b && c)
      z(i) = rounded_update(alpha, T(x(i)), beta, T(y(i)), gamma, T(z(i)));
    else if (a && b)
      z(i) = rounded_axpby(alpha, T(x(i)), beta, T(y(i)));
    else if (a && c)
      z(i) = rounded_axpby(alpha, T(x(i)), gamma, T(z(i)));
    else if (b && c)
      z(i) = rounded_axpby(beta, T(y(i)), gamma, T(z(i)));
    else if (a)
      z(i) = mul_rn(alpha, T(x(i)));
    else if (b)
      z(i) = mul_rn(beta, T(y(i)));
    else if (c)
      z(i) = mul_rn(gamma, T(z(i)));
    else
      z(i) = T(0);
  }
};

// One element of z = RN(alpha x + beta y + gamma z) for certified_block (host threads, doubles,
// every coefficient non-zero).
template <class XView, class YView, class ZView>
struct UpdateOp {
  XView x;
  YView y;
  ZView z;
  double alpha, beta, gamma;
  KOKKOS_FORCEINLINE_FUNCTION bool fast(const std::size_t i, double& r) const {
    return rounded_update_fast(alpha, x(i), beta, y(i), gamma, z(i), r);
  }
  KOKKOS_INLINE_FUNCTION double exact(const std::size_t i) const {
    return rounded_update_exact(alpha, x(i), beta, y(i), gamma, z(i));
  }
  KOKKOS_INLINE_FUNCTION void store(const std::size_t i, const double v) const { z(i) = v; }
};

// The entry point, on canonical views of rank 1 or 2.
template <class ExecSpace, class XView, class YView, class ZView>
void update_into(const ExecSpace& space, typename ZView::non_const_value_type alpha, const XView& x,
                 typename ZView::non_const_value_type beta, const YView& y,
                 typename ZView::non_const_value_type gamma, const ZView& z) {
  for (std::size_t j = 0; j < num_columns(z); ++j) {
    const auto xj = read_view<ExecSpace>(column(x, j));
    const auto yj = read_view<ExecSpace>(column(y, j));
    const auto zj = write_view<ExecSpace>(column(z, j));
    using T = typename ZView::non_const_value_type;
    if constexpr (is_host_space<ExecSpace>() && std::is_same<T, double>::value) {
      if (alpha != T(0) && beta != T(0) && gamma != T(0)) {
        for_each_certified(
            space, "ExKokkos::exupdate", zj.extent(0),
            UpdateOp<decltype(xj), decltype(yj), decltype(zj)>{xj, yj, zj, alpha, beta, gamma});
        continue;
      }
    }
    if constexpr (is_host_space<ExecSpace>() && std::is_same<T, Kokkos::complex<double>>::value) {
      if (alpha != T(0) && beta != T(0) && gamma != T(0)) {
        using Op = ComplexCombinationOp<3, decltype(zj), decltype(xj), decltype(yj), decltype(zj)>;
        for_each_certified(space, "ExKokkos::exupdate", zj.extent(0),
                           Op{zj, {alpha, beta, gamma}, xj, yj, zj});
        continue;
      }
    }
    for_each_element(
        space, "ExKokkos::exupdate", zj.extent(0),
        UpdateFunctor<decltype(xj), decltype(yj), decltype(zj)>{xj, yj, zj, alpha, beta, gamma});
  }
}

}  // namespace Impl

template <
    class ExecSpace, class XView, class YView, class ZView,
    typename std::enable_if<Impl::is_space<ExecSpace>() && Impl::is_rank1or2_view<XView>() &&
                                Impl::is_rank1or2_view<YView>() && Impl::is_rank1or2_view<ZView>(),
                            int>::type = 0>
void exupdate(const ExecSpace& space, typename ZView::non_const_value_type alpha, const XView& X,
              typename ZView::non_const_value_type beta, const YView& Y,
              typename ZView::non_const_value_type gamma, const ZView& Z) {
  Impl::require_accessible<ExecSpace, XView>();
  Impl::require_accessible<ExecSpace, YView>();
  Impl::require_accessible<ExecSpace, ZView>();
  const Impl::HostCall<ExecSpace> call(space, "ExKokkos::exupdate");
  Impl::check_elementwise_views("ExKokkos::exupdate", Z, X);
  Impl::check_elementwise_views("ExKokkos::exupdate", Z, Y);
  Impl::update_into(space, alpha, Impl::read_view<ExecSpace>(X), beta,
                    Impl::read_view<ExecSpace>(Y), gamma, Impl::write_view<ExecSpace>(Z));
}

template <
    class XView, class YView, class ZView,
    typename std::enable_if<Impl::is_rank1or2_view<XView>() && Impl::is_rank1or2_view<YView>() &&
                                Impl::is_rank1or2_view<ZView>(),
                            int>::type = 0>
void exupdate(typename ZView::non_const_value_type alpha, const XView& X,
              typename ZView::non_const_value_type beta, const YView& Y,
              typename ZView::non_const_value_type gamma, const ZView& Z) {
  exupdate(typename ZView::execution_space(), alpha, X, beta, Y, gamma, Z);
}

}  // namespace ExKokkos

#endif  // EXKOKKOS_UPDATE_HPP
