// Kokkos helpers shared by the test suites (header-only: the support library stays Kokkos-free).
#ifndef EXKOKKOSTEST_VIEWS_HPP
#define EXKOKKOSTEST_VIEWS_HPP

#include <Kokkos_Core.hpp>

#include <vector>

namespace ExKokkosTest {

// A rank-1 view in Space's memory holding v.
template <class Space, class T>
Kokkos::View<T*, typename Space::memory_space> to_view(const std::vector<T>& v) {
  Kokkos::View<T*, typename Space::memory_space> d("v", v.size());
  auto h = Kokkos::create_mirror_view(d);
  for (std::size_t i = 0; i < v.size(); ++i) h(i) = v[i];
  Kokkos::deep_copy(d, h);
  return d;
}

// The elements of a rank-1 view, on the host.
template <class View>
std::vector<typename View::non_const_value_type> to_host(const View& v) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  std::vector<typename View::non_const_value_type> out(v.extent(0));
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = h(i);
  return out;
}

}  // namespace ExKokkosTest

#endif  // EXKOKKOSTEST_VIEWS_HPP
