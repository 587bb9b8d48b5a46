// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The shared shape of ExKokkos' elementwise routines (exscal, exinvscal, exaxpy, exaxpby, exabs,
// exreciprocal, exupdate, exmult): one independent, correctly rounded operation per element in a
// RangePolicy, so any partition gives the same bits. On rank-2 views (KokkosBlas' multivectors)
// each column is one such launch on column subviews (ExKokkos_Multivector_impl.hpp).
#ifndef EXKOKKOS_ELEMENTWISE_IMPL_HPP
#define EXKOKKOS_ELEMENTWISE_IMPL_HPP

#include "ExKokkos_Multivector_impl.hpp"
#include "ExKokkos_ReductionRoutine_impl.hpp"

#include <ExKokkos_RoundedComplex.hpp>
#include <ExKokkos_RoundedQuotient.hpp>
#include <impl/ExKokkos_HostCall_impl.hpp>

namespace ExKokkos {
namespace Impl {

template <class ExecSpace, class Functor>
void for_each_element(const ExecSpace& space, const char* label, std::size_t n, const Functor& f) {
  Kokkos::parallel_for(label, Kokkos::RangePolicy<ExecSpace>(space, 0, n), f);
}

// Host threads, doubles (or complex doubles): the elements first..first+count-1 (count <= Block)
// with their certified fast paths (Op::fast(i, r), or Op::fast(i, re, im) for complex values;
// branch-free) run as one loop that vectorizes, then stored, the few a fast path refuses taking
// the exact path (Op::exact(i)); the fast path answers only when it gives the exact path's bits,
// so the result does not depend on the blocking. Op also provides store(i, value). Every element
// reads and writes its own positions only, and is read whole before it is written (a complex
// element's two parts are stored together), so the output may alias an input.
template <int Block, class Op>
KOKKOS_INLINE_FUNCTION void certified_block(const Op& op, const std::size_t first,
                                            const int count) {
  using Value = decltype(op.exact(first));
  int ok[Block];
  if constexpr (complex_traits<Value>::is_complex) {  // the parts in arrays of doubles
    double re[Block], im[Block];
    EXKOKKOS_SIMD
    for (int j = 0; j < count; ++j) {
      double a, b;
      ok[j] = op.fast(first + j, a, b) ? 1 : 0;
      re[j] = a;
      im[j] = b;
    }
    for (int j = 0; j < count; ++j)
      op.store(first + j, ok[j] ? Value(re[j], im[j]) : op.exact(first + j));
  } else {
    double r[Block];
    EXKOKKOS_SIMD
    for (int j = 0; j < count; ++j) {
      double v;
      ok[j] = op.fast(first + j, v) ? 1 : 0;
      r[j] = v;
    }
    for (int j = 0; j < count; ++j) op.store(first + j, ok[j] ? r[j] : op.exact(first + j));
  }
}

// A RangePolicy over blocks of 32 elements, each run by certified_block.
template <class Op>
struct CertifiedBlocksFunctor {
  static constexpr int block = 32;
  Op op;
  std::size_t n;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t b) const {
    const std::size_t first = b * block;
    certified_block<block>(op, first, static_cast<int>(n - first < block ? n - first : block));
  }
};

template <class ExecSpace, class Op>
void for_each_certified(const ExecSpace& space, const char* label, std::size_t n, const Op& op) {
  using F = CertifiedBlocksFunctor<Op>;
  for_each_element(space, label, (n + F::block - 1) / F::block, F{op, n});
}

// One complex element out(i) = RN(c_1 v_1(i) + ... + c_K v_K(i)) per part for certified_block
// (host threads, Kokkos::complex<double>, every coefficient non-zero): exscal (K = 1), exaxpby
// (K = 2) and exupdate (K = 3). The views after the K-th are not read.
template <int K, class OutView, class V0, class V1 = V0, class V2 = V0>
struct ComplexCombinationOp {
  using C = Kokkos::complex<double>;
  OutView out;
  C c[K];
  V0 v0;
  V1 v1;
  V2 v2;
  // The parts of the K values of element i, as plain doubles (what lets the block vectorize).
  KOKKOS_FORCEINLINE_FUNCTION void load(const std::size_t i, double (&vr)[K],
                                        double (&vi)[K]) const {
    vr[0] = v0(i).real();
    vi[0] = v0(i).imag();
    if constexpr (K > 1) {
      vr[1] = v1(i).real();
      vi[1] = v1(i).imag();
    }
    if constexpr (K > 2) {
      vr[2] = v2(i).real();
      vi[2] = v2(i).imag();
    }
  }
  KOKKOS_FORCEINLINE_FUNCTION bool fast(const std::size_t i, double& re, double& im) const {
    double vr[K], vi[K];
    load(i, vr, vi);
    return rounded_complex_combination_fast(c, vr, vi, re, im);
  }
  KOKKOS_INLINE_FUNCTION C exact(const std::size_t i) const {
    double vr[K], vi[K];
    load(i, vr, vi);
    C v[K];
    for (int k = 0; k < K; ++k) v[k] = C(vr[k], vi[k]);
    return rounded_complex_combination(c, v);
  }
  KOKKOS_INLINE_FUNCTION void store(const std::size_t i, const C& r) const { out(i) = r; }
};

// One complex element out(i) = x(i) / a(i) per part for certified_block (host threads,
// Kokkos::complex<double>): exinvscal (a the same coefficient everywhere: ValueOfA) and
// exreciprocal (x = 1, a = the view's element: OneOverA).
template <class OutView, class InView, bool OneOverA>
struct ComplexQuotientOp {
  using C = Kokkos::complex<double>;
  OutView out;
  InView in;
  C coefficient;  // exinvscal's alpha; unused by exreciprocal
  KOKKOS_FORCEINLINE_FUNCTION void operands(const std::size_t i, C& x, C& a) const {
    x = OneOverA ? C(1.0, 0.0) : C(in(i));
    a = OneOverA ? C(in(i)) : coefficient;
  }
  KOKKOS_FORCEINLINE_FUNCTION bool fast(const std::size_t i, double& re, double& im) const {
    const double ir = in(i).real(), ii = in(i).imag();
    const double xr = OneOverA ? 1.0 : ir, xi = OneOverA ? 0.0 : ii;
    const double ar = OneOverA ? ir : coefficient.real(), ai = OneOverA ? ii : coefficient.imag();
    return rounded_complex_quotient_fast(xr, xi, ar, ai, re, im);
  }
  KOKKOS_INLINE_FUNCTION C exact(const std::size_t i) const {
    C x, a;
    operands(i, x, a);
    return rounded_complex_quotient_exact(x, a);
  }
  KOKKOS_INLINE_FUNCTION void store(const std::size_t i, const C& r) const { out(i) = r; }
};

// y and x of one rank and shape, y writable.
template <class YView, class XView>
void check_elementwise_extents(const char* routine, const YView& y, const XView& x) {
  static_assert(!std::is_const<typename YView::value_type>::value,
                "ExKokkos: the output view must not be const");
  static_assert(static_cast<int>(YView::rank) == static_cast<int>(XView::rank),
                "ExKokkos: x and y must have the same rank");
  check_same_extent(routine, x, y);
  if (YView::rank == 2) check_same_shape(routine, "y", y, "x", x);
}

// The above, and y and x of one value type that the routines take.
template <class YView, class XView>
void check_elementwise_views(const char* routine, const YView& y, const XView& x) {
  static_assert(is_exact_value<typename YView::non_const_value_type>(),
                "ExKokkos: elementwise routines take double, float or Kokkos::complex of them");
  static_assert(std::is_same<typename YView::non_const_value_type,
                             typename XView::non_const_value_type>::value,
                "ExKokkos: x and y must hold the same value type");
  check_elementwise_extents(routine, y, x);
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_ELEMENTWISE_IMPL_HPP
