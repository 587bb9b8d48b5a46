// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// op(A) of a rank-2 view as its first element's address and two signed strides:
// op(A)(i, k) = origin[i * output_stride + k * inner_stride]. Transposition (and extrsv's reversed
// order) are then values, not types: exgemm's four transposition pairs and extrsv's eight
// variants, and every layout of the user's views, share the instantiations of their kernels.
// Every element is read from the address the view itself gives it, so the values, and the bits,
// are the view's.
//
// One stride is also a type: UnitOutputs says output_stride is 1. exgemv's output_lanes schedule
// reads W consecutive outputs of one column at a time; with a stride known to be 1 that slice is
// one contiguous vector load, with a run-time stride a gather (docs/performance.md, "Before and
// after the strided operands"). The host entry points make that one test (with_unit_outputs);
// devices, whose threads load one element each, keep a single instantiation.
#ifndef EXKOKKOS_STRIDEDOPERAND_IMPL_HPP
#define EXKOKKOS_STRIDEDOPERAND_IMPL_HPP

#include <impl/ExKokkos_DeviceTraits_impl.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace ExKokkos {
namespace Impl {

template <class T, bool UnitOutputs = false>
struct StridedOperand {
  const T* origin;
  std::int64_t output_stride, inner_stride;
  std::int64_t output_count, inner_count;
  KOKKOS_INLINE_FUNCTION std::int64_t offset(std::int64_t i, std::int64_t k) const {
    return (UnitOutputs ? i : i * output_stride) + k * inner_stride;
  }
  KOKKOS_INLINE_FUNCTION double operator()(std::int64_t i, std::int64_t k) const {
    return origin[offset(i, k)];
  }
  KOKKOS_INLINE_FUNCTION const T* address(std::int64_t i, std::int64_t k) const {
    return origin + offset(i, k);
  }
  std::int64_t outputs() const { return output_count; }
  std::int64_t inner() const { return inner_count; }
  // True when consecutive k are adjacent in memory (a row of op(A) is contiguous).
  bool inner_contiguous() const { return inner_stride == 1; }
};

// op(A) = A, or A^T when transposed ("T", "C": the same for real values), of a rank-2 view whose
// element (i, j) lies at data() + i stride(0) + j stride(1) (every layout, subviews included).
template <class AView>
KOKKOS_INLINE_FUNCTION StridedOperand<typename AView::non_const_value_type> strided_operand(
    const AView& A, bool transposed) {
  const std::int64_t s0 = static_cast<std::int64_t>(A.stride(0));
  const std::int64_t s1 = static_cast<std::int64_t>(A.stride(1));
  const std::int64_t e0 = static_cast<std::int64_t>(A.extent(0));
  const std::int64_t e1 = static_cast<std::int64_t>(A.extent(1));
  if (transposed) return {A.data(), s1, s0, e1, e0};
  return {A.data(), s0, s1, e0, e1};
}

// f(op) on the host with op's output stride made a constant where it is 1; f(op) as it is on
// other backends.
template <class ExecSpace, class T, class F>
decltype(auto) with_unit_outputs(const StridedOperand<T>& op, F&& f) {
  if constexpr (is_host_space<ExecSpace>()) {
    if (op.output_stride == 1)
      return f(
          StridedOperand<T, true>{op.origin, 1, op.inner_stride, op.output_count, op.inner_count});
  }
  return f(op);
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_STRIDEDOPERAND_IMPL_HPP
