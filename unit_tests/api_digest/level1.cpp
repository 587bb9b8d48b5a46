// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The level-1 calls of api_digest: every reduction and elementwise routine, double and float.
#include "ApiDigest.hpp"

namespace ApiDigest {
namespace {

const std::size_t level1_sizes[] = {0, 1, 7, 33, 1000, 100003};

ExKokkos::Options level1_options(int variant) {
  ExKokkos::Options o;
  switch (variant) {
    case 1:
      o.expansion_size = 2;
      o.early_exit = 1;
      break;
    case 2:
      o.expansion_size = 8;
      o.early_exit = 0;
      o.league_size = 3;
      break;
    case 3:
      o.expansion_size = 4;
      o.team_size = 1;
      o.league_size = 17;
      break;
    default:
      break;
  }
  return o;
}

template <class T, class Space>
void level1_of(const Space& space, Results& out) {
  const std::string t = std::is_same<T, double>::value ? "double" : "float";
  for (Data d : all_data)
    for (std::size_t n : level1_sizes)
      for (int v = 0; v < 4; ++v) {
        const auto o = level1_options(v);
        const auto x = vec<T, Space>(n, d, 11 * n + 1);
        const auto y = vec<T, Space>(n, d, 13 * n + 2);
        out["exsum<" + t + ">"].add(ExKokkos::exsum(space, x, o));
        out["exasum<" + t + ">"].add(ExKokkos::exasum(space, x, o));
        out["exdot<" + t + ">"].add(ExKokkos::exdot(space, x, y, o));
        out["exnrm2<" + t + ">"].add(ExKokkos::exnrm2(space, x, o));
        const Kokkos::View<T, typename Space::memory_space> r("r");
        ExKokkos::exdot(space, r, x, y, o);
        T rv;
        Kokkos::deep_copy(rv, r);
        out["exdot_view<" + t + ">"].add(rv);
      }
  const T alphas[] = {T(0), T(1), T(-0.75), T(3.0000001)};
  for (Data d : all_data)
    for (std::size_t n : {std::size_t(0), std::size_t(5), std::size_t(1001)})
      for (T a : alphas)
        for (T b : alphas) {
          const auto x = vec<T, Space>(n, d, 17 * n + 3);
          auto y = vec<T, Space>(n, d, 19 * n + 4);
          ExKokkos::exaxpby(space, a, x, b, y);
          add_view(out["exaxpby<" + t + ">"], y);
          y = vec<T, Space>(n, d, 19 * n + 4);
          ExKokkos::exaxpy(space, a, x, y);
          add_view(out["exaxpy<" + t + ">"], y);
          ExKokkos::exscal(space, y, a, x);
          add_view(out["exscal<" + t + ">"], y);
          if (a != T(0)) {
            ExKokkos::exinvscal(space, y, a, x);
            add_view(out["exinvscal<" + t + ">"], y);
          }
        }
}

}  // namespace

template <class Space>
void level1(const Space& space, Results& out) {
  level1_of<double>(space, out);
  level1_of<float>(space, out);
}

#ifdef KOKKOS_ENABLE_SERIAL
template void level1(const Kokkos::Serial&, Results&);
#endif
#ifdef KOKKOS_ENABLE_OPENMP
template void level1(const Kokkos::OpenMP&, Results&);
#endif
#ifdef KOKKOS_ENABLE_CUDA
template void level1(const Kokkos::Cuda&, Results&);
#endif

}  // namespace ApiDigest
