// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Kokkos helpers shared by the test suites (header-only: the support library stays Kokkos-free).
#ifndef EXKOKKOSTEST_VIEWS_HPP
#define EXKOKKOSTEST_VIEWS_HPP

#include <ExKokkos_Options.hpp>
#include <Kokkos_Core.hpp>

#include <type_traits>
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

// The elements from v.data() to v's last element, both included: 1 + sum of (extent - 1) * stride.
// Not span(): for a LayoutStride view, Kokkos' View (3.x, and 4.x's legacy View) takes the
// span as the largest extent times its stride, which reaches stride - 1 elements past the last
// element, and so past the allocation's end for a subview such as a row of a LayoutLeft matrix.
template <class View>
std::size_t reach(const View& v) {
  if (v.size() == 0) return 0;
  std::size_t r = 1;
  for (int d = 0; d < static_cast<int>(View::rank); ++d) r += (v.extent(d) - 1) * v.stride(d);
  return r;
}

// Copies the memory from src's first to its last element into dst's, gaps included: both have
// the same layout and strides (a view and its mirror). Kokkos' deep_copy between a device and the
// host needs contiguous views (or a common execution space), which strided views with gaps are
// not; the ranges they cover are.
template <class Dst, class Src>
void copy_span(const Dst& dst, const Src& src) {
  using T = typename Dst::non_const_value_type;
  using Unmanaged = Kokkos::MemoryTraits<Kokkos::Unmanaged>;
  if (static_cast<const void*>(dst.data()) == static_cast<const void*>(src.data())) return;
  Kokkos::deep_copy(
      Kokkos::View<T*, typename Dst::memory_space, Unmanaged>(dst.data(), reach(dst)),
      Kokkos::View<const T*, typename Src::memory_space, Unmanaged>(src.data(), reach(src)));
}

// A host copy of a view of any layout and memory space, in the view's own layout.
template <class View>
auto host_copy(const View& v) {
  auto h = Kokkos::create_mirror_view(v);
  copy_span(h, v);
  return h;
}

// A copy of a host view in Space's memory, in the same layout and strides: the view itself where
// Space's memory is the host's. copy_span(h, d) brings an output back.
template <class Space, class View>
auto space_copy(const View& h) {
  auto d = Kokkos::create_mirror_view(typename Space::memory_space(), h);
  copy_span(d, h);
  return d;
}

// Whether the default execution space is another than the default host space (a GPU build): the
// complex suites then run each routine on it too.
constexpr bool default_space_is_a_device() {
  return !std::is_same<Kokkos::DefaultExecutionSpace, Kokkos::DefaultHostExecutionSpace>::value;
}

// The elements of a rank-1 view, on the host.
template <class View>
std::vector<typename View::non_const_value_type> to_host(const View& v) {
  const auto h = host_copy(v);
  std::vector<typename View::non_const_value_type> out(v.extent(0));
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = h(i);
  return out;
}

// The largest team the suites try: every thread of a host backend, a few warps on a device
// (whose concurrency() counts every thread of every multiprocessor).
template <class Space>
int widest_team() {
  const int threads = static_cast<int>(Space().concurrency());
  return Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Space::memory_space>::accessible
             ? threads
             : 64;
}

// The exgemv schedules Space runs: the lane schedules are host schedules.
template <class Space>
std::vector<ExKokkos::Schedule> schedules() {
  if (!Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Space::memory_space>::accessible)
    return {ExKokkos::Schedule::automatic, ExKokkos::Schedule::team_per_output};
  return {ExKokkos::Schedule::automatic, ExKokkos::Schedule::output_lanes,
          ExKokkos::Schedule::inner_lanes, ExKokkos::Schedule::team_per_output};
}

// exgemv's and extrsv's schedules: the above and output_block (exgemm has tiles instead).
template <class Space>
std::vector<ExKokkos::Schedule> gemv_schedules() {
  std::vector<ExKokkos::Schedule> all = schedules<Space>();
  all.push_back(ExKokkos::Schedule::output_block);
  return all;
}

}  // namespace ExKokkosTest

#endif  // EXKOKKOSTEST_VIEWS_HPP
