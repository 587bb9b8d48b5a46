// Matrices and vectors in the layouts under test, built from row-major host data (header-only:
// the support library stays Kokkos-free).
#ifndef EXKOKKOSTEST_MATRICES_HPP
#define EXKOKKOSTEST_MATRICES_HPP

#include "ExKokkosTest_Views.hpp"

#include <Kokkos_Core.hpp>

#include <type_traits>
#include <vector>

namespace ExKokkosTest {

enum class Layout { left, right, stride };

inline const char* name(Layout l) {
  return l == Layout::left ? "LayoutLeft" : (l == Layout::right ? "LayoutRight" : "LayoutStride");
}

// The enum of a Kokkos layout type, for tests written against the type.
template <class ViewLayout>
constexpr Layout layout_of() {
  return std::is_same<ViewLayout, Kokkos::LayoutLeft>::value    ? Layout::left
         : std::is_same<ViewLayout, Kokkos::LayoutRight>::value ? Layout::right
                                                                : Layout::stride;
}

// A rows x cols matrix of T in Space's memory with a[i * cols + j] at (i, j). LayoutStride puts
// the elements two apart along columns and leaves a gap between columns, so that no kernel can
// get away with assuming contiguity; the gaps hold a value that must not leak into results.
template <class ViewLayout, class Space, class T>
Kokkos::View<T**, ViewLayout, typename Space::memory_space> to_matrix(const std::vector<T>& a,
                                                                      std::size_t rows,
                                                                      std::size_t cols) {
  using V = Kokkos::View<T**, ViewLayout, typename Space::memory_space>;
  V v;
  if constexpr (std::is_same<ViewLayout, Kokkos::LayoutStride>::value) {
    Kokkos::LayoutStride layout(rows, 2, cols, 2 * rows + 3);
    v = V(Kokkos::view_alloc("strided matrix"), layout);
  } else {
    v = V("matrix", rows, cols);
  }
  auto h = Kokkos::create_mirror_view(v);
  if (h.span() > 0) {
    T* data = h.data();
    for (std::size_t s = 0; s < h.span(); ++s) data[s] = T(12345);
  }
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j) h(i, j) = a[i * cols + j];
  copy_span(v, h);  // gaps included: a strided device view is not contiguous
  return v;
}

// A rank-1 view with elements three apart (LayoutStride), or contiguous.
template <class ViewLayout, class Space, class T>
Kokkos::View<T*, ViewLayout, typename Space::memory_space> to_vector(const std::vector<T>& x) {
  using V = Kokkos::View<T*, ViewLayout, typename Space::memory_space>;
  V v;
  if constexpr (std::is_same<ViewLayout, Kokkos::LayoutStride>::value)
    v = V(Kokkos::view_alloc("strided vector"), Kokkos::LayoutStride(x.size(), 3));
  else
    v = V("vector", x.size());
  auto h = Kokkos::create_mirror_view(v);
  for (std::size_t i = 0; i < x.size(); ++i) h(i) = x[i];
  copy_span(v, h);
  return v;
}

// The elements of a rank-2 view of any layout and memory space, row by row, on the host. Through
// the span (host_copy): Kokkos refuses to deep_copy a strided device view with gaps to the host,
// which the tests' LayoutStride operands are.
template <class View>
std::vector<typename View::non_const_value_type> matrix_elements(const View& v) {
  const auto h = host_copy(v);
  std::vector<typename View::non_const_value_type> out;
  for (std::size_t i = 0; i < v.extent(0); ++i)
    for (std::size_t j = 0; j < v.extent(1); ++j) out.push_back(h(i, j));
  return out;
}

}  // namespace ExKokkosTest

#endif  // EXKOKKOSTEST_MATRICES_HPP
