// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The operands of extrsv's substitution. All eight variants (uplo, trans) are one lower-triangular
// forward substitution on a relabelled matrix: with q = n-1-i when op(A) is upper triangular
// (reversed order), T(q, r) = op(A)(idx(q), idx(r)) is lower triangular (TriangleOperand). The
// panel, the residual and the solved vector are views of it in that order.
#ifndef EXKOKKOS_TRSVOPERANDS_IMPL_HPP
#define EXKOKKOS_TRSVOPERANDS_IMPL_HPP

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace ExKokkos {
namespace Impl {

template <class AView, bool Transposed, bool Reversed>
struct TriangleOperand {
  AView A;
  std::int64_t n;
  KOKKOS_INLINE_FUNCTION std::int64_t index(std::int64_t q) const {
    return Reversed ? n - 1 - q : q;
  }
  KOKKOS_INLINE_FUNCTION double operator()(std::int64_t q, std::int64_t r) const {
    const std::int64_t i = index(q), j = index(r);
    return Transposed ? A(j, i) : A(i, j);
  }
  KOKKOS_INLINE_FUNCTION const void* address(std::int64_t q, std::int64_t r) const {
    const std::int64_t i = index(q), j = index(r);
    return Transposed ? &A(j, i) : &A(i, j);
  }
  bool row_contiguous() const { return !Reversed && A.stride(Transposed ? 0 : 1) == 1; }
};

// Rows p .. p+rows-1 of -T against the solved columns 0 .. p-1 (an exgemv operand).
template <class Tri>
struct PanelOperand {
  Tri tri;
  std::int64_t p, rows;
  KOKKOS_INLINE_FUNCTION double operator()(std::int64_t i, std::int64_t k) const {
    return -tri(p + i, k);
  }
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
