// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The labels of the kernels launched while a LaunchCounter lives (parallel_for, parallel_reduce
// and parallel_scan on any backend), recorded through Kokkos' tool callbacks, the interface that
// profiling tools use: a test can tell which kernels a call ran, and so which path it took.
// Header-only, shared by the suites that count launches.
#ifndef EXKOKKOSTEST_LAUNCHCOUNTER_HPP
#define EXKOKKOSTEST_LAUNCHCOUNTER_HPP

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ExKokkosTest {
namespace Impl {

// One list for the whole process: Kokkos' callbacks are plain function pointers.
inline std::vector<std::string>& launched_labels() {
  static std::vector<std::string> labels;
  return labels;
}

inline void record_launch(const char* name, std::uint32_t, std::uint64_t* id) {
  launched_labels().emplace_back(name);
  *id = launched_labels().size();
}

inline void launch_ended(std::uint64_t) {}

inline void set_launch_callbacks(void (*begin)(const char*, std::uint32_t, std::uint64_t*),
                                 void (*end)(std::uint64_t)) {
  namespace T = Kokkos::Tools::Experimental;
  T::set_begin_parallel_for_callback(begin);
  T::set_begin_parallel_reduce_callback(begin);
  T::set_begin_parallel_scan_callback(begin);
  T::set_end_parallel_for_callback(end);
  T::set_end_parallel_reduce_callback(end);
  T::set_end_parallel_scan_callback(end);
}

struct Nothing {
  KOKKOS_INLINE_FUNCTION void operator()(const int) const {}
};

}  // namespace Impl

// Records from construction to destruction; one counter at a time (the callbacks are global).
class LaunchCounter {
 public:
  LaunchCounter() {
    Impl::launched_labels().clear();
    Impl::set_launch_callbacks(Impl::record_launch, Impl::launch_ended);
  }
  ~LaunchCounter() { Impl::set_launch_callbacks(nullptr, nullptr); }
  LaunchCounter(const LaunchCounter&) = delete;
  LaunchCounter& operator=(const LaunchCounter&) = delete;

  const std::vector<std::string>& labels() const { return Impl::launched_labels(); }
  std::size_t size() const { return labels().size(); }
  // Launches labelled `label`.
  std::size_t count(const std::string& label) const {
    std::size_t c = 0;
    for (const std::string& l : labels()) c += l == label;
    return c;
  }
  // Launches whose label starts with `prefix` (Kokkos labels the initialization of a view
  // "Kokkos::View::initialization [<view's label>]", so a routine's prefix does not count those).
  std::size_t count_prefix(const std::string& prefix) const {
    std::size_t c = 0;
    for (const std::string& l : labels()) c += l.compare(0, prefix.size(), prefix) == 0;
    return c;
  }
  // Every label so far, for failure messages: " [a] [b] ...".
  std::string list() const {
    std::string all;
    for (const std::string& l : labels()) all += " [" + l + "]";
    return all;
  }

  // Whether Kokkos calls the callbacks in this build: one plain launch on Space must be seen
  // once. Call it with no other counter alive.
  template <class Space = Kokkos::DefaultExecutionSpace>
  static bool callbacks_active() {
    const LaunchCounter counter;
    Kokkos::parallel_for("ExKokkosTest::launch_counter_probe", Kokkos::RangePolicy<Space>(0, 1),
                         Impl::Nothing{});
    Space().fence();
    return counter.size() == 1;
  }
};

}  // namespace ExKokkosTest

#endif  // EXKOKKOSTEST_LAUNCHCOUNTER_HPP
