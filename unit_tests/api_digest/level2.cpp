// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The level-2 calls of api_digest: exgemv on every schedule and extrsv in all variants.
#include "ApiDigest.hpp"

namespace ApiDigest {
namespace {

const ExKokkos::Schedule gemv_schedules[] = {
    ExKokkos::Schedule::automatic, ExKokkos::Schedule::output_lanes,
    ExKokkos::Schedule::inner_lanes, ExKokkos::Schedule::team_per_output,
    ExKokkos::Schedule::output_block};

template <class T, class Layout, class Space>
void level2_of(const Space& space, Results& out, const char* layout) {
  const std::string t =
      std::string(std::is_same<T, double>::value ? "double" : "float") + "," + layout;
  const std::pair<std::size_t, std::size_t> shapes[] = {{1, 1}, {5, 7}, {64, 33}, {300, 200}};
  const T coefficients[][2] = {{T(1), T(0)}, {T(1.5), T(0.5)}, {T(0), T(2)}, {T(-1), T(1)}};
  for (Data d : all_data)
    for (auto s : shapes)
      for (const char* trans : {"N", "T"})
        for (auto ab : coefficients)
          for (auto sched : gemv_schedules) {
            const bool tr = trans[0] == 'T';
            const std::size_t m = s.first, n = s.second;
            const auto A = mat<T, Layout, Space>(m, n, d, m * 31 + n);
            const auto x = vec<T, Space>(tr ? m : n, d, m + 7 * n);
            auto y = vec<T, Space>(tr ? n : m, d, 3 * m + n);
            ExKokkos::Options o;
            o.schedule = runnable<Space>(sched);
            ExKokkos::exgemv(space, trans, ab[0], A, x, ab[1], y, o);
            add_view(out["exgemv<" + t + "," + trans + ",schedule " +
                         std::to_string(static_cast<int>(sched)) + ">"],
                     y);
          }
  // extrsv: every variant, with and without refinement and with each schedule.
  for (std::size_t n : {std::size_t(1), std::size_t(17), std::size_t(100)})
    for (const char* uplo : {"L", "U"})
      for (const char* trans : {"N", "T"})
        for (const char* diag : {"N", "U"})
          for (int steps : {0, 3})
            for (auto sched :
                 {ExKokkos::Schedule::automatic, ExKokkos::Schedule::team_per_output}) {
              const auto A = dominant<T, Layout, Space>(n, 5 * n + 1);
              auto b = vec<T, Space>(n, Data::uniform, 9 * n);
              ExKokkos::Options o;
              o.refinement_steps = steps;
              o.schedule = sched;
              const int taken = ExKokkos::extrsv(space, uplo, trans, diag, A, b, o);
              Digest& g = out["extrsv<" + t + "," + uplo + trans + diag + ",steps " +
                              std::to_string(steps) + ">"];
              add_view(g, b);
              g.add(taken);
            }
}

}  // namespace

template <class Space>
void level2(const Space& space, Results& out) {
  level2_of<double, Kokkos::LayoutLeft>(space, out, "Left");
  level2_of<double, Kokkos::LayoutRight>(space, out, "Right");
  level2_of<float, Kokkos::LayoutLeft>(space, out, "Left");
}

#ifdef KOKKOS_ENABLE_SERIAL
template void level2(const Kokkos::Serial&, Results&);
#endif
#ifdef KOKKOS_ENABLE_OPENMP
template void level2(const Kokkos::OpenMP&, Results&);
#endif
#ifdef KOKKOS_ENABLE_CUDA
template void level2(const Kokkos::Cuda&, Results&);
#endif

}  // namespace ApiDigest
