// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The operands of extrsv's substitution. All eight variants (uplo, trans) are one lower-triangular
// forward substitution on a relabelled matrix: with q = n-1-i when op(A) is upper triangular
// (reversed order), T(q, r) = op(A)(idx(q), idx(r)) is lower triangular (TriangleOperand). The
// panel, the residual and the solved vector are views of it in that order.
#ifndef EXKOKKOS_TRSVOPERANDS_IMPL_HPP
#define EXKOKKOS_TRSVOPERANDS_IMPL_HPP

#include "ExKokkos_StridedOperand_impl.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace ExKokkos {
namespace Impl {

// T(q, r) = op(A)(idx(q), idx(r)) as a strided operand (ExKokkos_StridedOperand_impl.hpp): the
// relabelling folded into the origin and two signed strides, so that the eight variants share
// the instantiations of the substitution's kernels. With m = n - 1, reversing both indices moves
// the origin to op(A)(m, m) and negates both strides.
template <class Op>
struct TriangleOperand {
  Op op;
  std::int64_t n;
  bool reversed;
  KOKKOS_INLINE_FUNCTION std::int64_t index(std::int64_t q) const {
    return reversed ? n - 1 - q : q;
  }
  KOKKOS_INLINE_FUNCTION double operator()(std::int64_t q, std::int64_t r) const {
    return op(q, r);
  }
  KOKKOS_INLINE_FUNCTION const void* address(std::int64_t q, std::int64_t r) const {
    return op.address(q, r);
  }
  bool row_contiguous() const { return op.inner_contiguous(); }
};

// The operand of op(A) for a square rank-2 view A; reversed when op(A) is upper triangular.
template <class AView>
KOKKOS_INLINE_FUNCTION TriangleOperand<StridedOperand<typename AView::non_const_value_type>>
triangle_operand(const AView& A, bool transposed, bool reversed) {
  auto op = strided_operand(A, transposed);
  const std::int64_t n = op.output_count;
  if (reversed && n > 0) {
    op.origin = op.address(n - 1, n - 1);
    op.output_stride = -op.output_stride;
    op.inner_stride = -op.inner_stride;
  }
  return {op, n, reversed};
}

// Rows p .. p+rows-1 of -T against the solved columns 0 .. p-1 (an exgemv operand).
template <class Tri>
struct PanelOperand {
  Tri tri;
  std::int64_t p, rows;
  KOKKOS_INLINE_FUNCTION double operator()(std::int64_t i, std::int64_t k) const {
    return -tri(p + i, k);
  }
  KOKKOS_INLINE_FUNCTION double at_unit_outputs(std::int64_t i, std::int64_t k) const {
    return -tri.at_unit_outputs(p + i, k);
  }
  bool unit_outputs() const { return tri.unit_outputs(); }
  std::int64_t outputs() const { return rows; }
  std::int64_t inner() const { return p; }
  bool inner_contiguous() const { return tri.row_contiguous(); }
};

// The whole of row q of -T including its diagonal (-1 when unit), zeros beyond it: the operand
// of the exact residual b - T x.
template <class Tri>
struct FullTriangleOperand {
  Tri tri;
  bool unit;
  KOKKOS_INLINE_FUNCTION double operator()(std::int64_t q, std::int64_t r) const {
    return r < q ? -tri(q, r) : (r == q ? (unit ? -1.0 : -tri(q, q)) : 0.0);
  }
  std::int64_t outputs() const { return tri.n; }
  std::int64_t inner() const { return tri.n; }
  bool inner_contiguous() const { return tri.row_contiguous(); }
};

// x_r in the relabelled order, read from the vector being solved in place.
template <class Tri, class BView>
struct RelabelledVector {
  Tri tri;
  BView b;
  KOKKOS_INLINE_FUNCTION double operator()(std::int64_t r) const { return b(tri.index(r)); }
};

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_TRSVOPERANDS_IMPL_HPP
