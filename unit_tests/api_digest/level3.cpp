// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The level-3 calls of api_digest: exgemm on every schedule and transposition.
#include "ApiDigest.hpp"

namespace ApiDigest {
namespace {

template <class T, class Layout, class Space>
void level3_of(const Space& space, Results& out, const char* layout) {
  const std::string t =
      std::string(std::is_same<T, double>::value ? "double" : "float") + "," + layout;
  struct Shape {
    std::size_t m, n, k;
  };
  const Shape shapes[] = {{1, 1, 1}, {7, 5, 3}, {40, 33, 50}, {0, 3, 2}, {3, 4, 0}};
  const T coefficients[][2] = {{T(1), T(0)}, {T(1.5), T(0.5)}, {T(0), T(2)}};
  const ExKokkos::Schedule schedules[] = {
      ExKokkos::Schedule::automatic,    ExKokkos::Schedule::tiles,
      ExKokkos::Schedule::ozaki,        ExKokkos::Schedule::team_per_output,
      ExKokkos::Schedule::output_lanes, ExKokkos::Schedule::inner_lanes};
  for (Data d : all_data)
    for (auto s : shapes)
      for (const char* ta : {"N", "T"})
        for (const char* tb : {"N", "T"})
          for (auto ab : coefficients)
            for (auto sched : schedules) {
              const bool tra = ta[0] == 'T', trb = tb[0] == 'T';
              const auto A = tra ? mat<T, Layout, Space>(s.k, s.m, d, s.m + 3 * s.k)
                                 : mat<T, Layout, Space>(s.m, s.k, d, s.m + 3 * s.k);
              const auto B = trb ? mat<T, Layout, Space>(s.n, s.k, d, s.n + 5 * s.k)
                                 : mat<T, Layout, Space>(s.k, s.n, d, s.n + 5 * s.k);
              auto C = mat<T, Layout, Space>(s.m, s.n, d, s.m * s.n + 1);
              ExKokkos::Options o;
              o.schedule = runnable<Space>(sched);
              ExKokkos::exgemm(space, ta, tb, ab[0], A, B, ab[1], C, o);
              add_view(out["exgemm<" + t + "," + ta + tb + ",schedule " +
                           std::to_string(static_cast<int>(sched)) + ">"],
                       C);
            }
}

}  // namespace

template <class Space>
void level3(const Space& space, Results& out) {
  level3_of<double, Kokkos::LayoutLeft>(space, out, "Left");
  level3_of<double, Kokkos::LayoutRight>(space, out, "Right");
  level3_of<float, Kokkos::LayoutLeft>(space, out, "Left");
}

#ifdef KOKKOS_ENABLE_SERIAL
template void level3(const Kokkos::Serial&, Results&);
#endif
#ifdef KOKKOS_ENABLE_OPENMP
template void level3(const Kokkos::OpenMP&, Results&);
#endif
#ifdef KOKKOS_ENABLE_CUDA
template void level3(const Kokkos::Cuda&, Results&);
#endif

}  // namespace ApiDigest
