// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The LU calls of api_digest: exgetf2, exgetrs, exgesv and their batched forms.
#include "ApiDigest.hpp"

namespace ApiDigest {
namespace {

template <class T, class Layout, class Space>
void lapack_of(const Space& space, Results& out, const char* layout) {
  const std::string t =
      std::string(std::is_same<T, double>::value ? "double" : "float") + "," + layout;
  using Mem = typename Space::memory_space;
  const std::pair<std::size_t, std::size_t> shapes[] = {{1, 1},   {5, 5},  {32, 32},
                                                        {70, 70}, {10, 7}, {7, 10}};
  for (auto s : shapes)
    for (Data d : {Data::uniform, Data::cancelling, Data::special})
      for (auto sched : {ExKokkos::Schedule::automatic, ExKokkos::Schedule::output_lanes,
                         ExKokkos::Schedule::trailing_update}) {
        if (sched == ExKokkos::Schedule::trailing_update && !std::is_same<T, double>::value)
          continue;
        auto A = mat<T, Layout, Space>(s.first, s.second, d, s.first * 100 + s.second);
        Kokkos::View<int*, Mem> ipiv("ipiv", std::min(s.first, s.second));
        ExKokkos::Options o;
        o.schedule = sched;
        const int info = ExKokkos::exgetf2(space, A, ipiv, o);
        Digest& g = out["exgetf2<" + t + ">"];
        add_view(g, A);
        add_view(g, ipiv);
        g.add(info);
      }
  {  // a singular matrix: LAPACK's info
    auto A = mat<T, Layout, Space>(6, 6, Data::uniform, 77);
    auto h = Kokkos::create_mirror_view(A);
    Kokkos::deep_copy(h, A);
    for (int i = 0; i < 6; ++i) h(i, 3) = h(i, 1);
    Kokkos::deep_copy(A, h);
    Kokkos::View<int*, Mem> ipiv("ipiv", 6);
    const int info = ExKokkos::exgetf2(space, A, ipiv);
    Digest& g = out["exgetf2_singular<" + t + ">"];
    add_view(g, A);
    add_view(g, ipiv);
    g.add(info);
  }
  // exgetrs and exgesv on one system, with one and with three right-hand sides.
  for (std::size_t n : {std::size_t(1), std::size_t(9), std::size_t(40)})
    for (const char* trans : {"N", "T"}) {
      auto A = dominant<T, Layout, Space>(n, 3 * n);
      Kokkos::View<int*, Mem> ipiv("ipiv", n);
      ExKokkos::exgetf2(space, A, ipiv);
      auto b = vec<T, Space>(n, Data::uniform, n + 1);
      ExKokkos::exgetrs(space, trans, A, ipiv, b);
      add_view(out["exgetrs<" + t + ">"], b);
      auto B = mat<T, Layout, Space>(n, 3, Data::uniform, n + 2);
      ExKokkos::exgetrs(space, trans, A, ipiv, B);
      add_view(out["exgetrs_multi<" + t + ">"], B);
    }
  for (std::size_t n : {std::size_t(1), std::size_t(9), std::size_t(40)})
    for (int steps : {0, 2}) {
      auto A = dominant<T, Layout, Space>(n, 7 * n);
      Kokkos::View<int*, Mem> ipiv("ipiv", n);
      auto B = mat<T, Layout, Space>(n, 2, Data::uniform, n + 5);
      ExKokkos::Options o;
      o.refinement_steps = steps;
      const auto r = ExKokkos::exgesv(space, A, ipiv, B, o);
      Digest& g = out["exgesv<" + t + ">"];
      add_view(g, A);
      add_view(g, B);
      g.add(r.info);
      g.add(r.refinement_steps);
    }
  // Batched forms on LayoutRight batches.
  for (std::size_t n : {std::size_t(3), std::size_t(8), std::size_t(20)})
    for (int stage : {-1, 0, 1}) {
      const std::size_t batch = 13;
      Kokkos::View<T***, Kokkos::LayoutRight, Mem> A("A", batch, n, n);
      {
        auto h = Kokkos::create_mirror_view(A);
        Rng g{n * 1000 + 1};
        for (std::size_t s = 0; s < batch; ++s)
          for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = 0; j < n; ++j)
              h(s, i, j) = static_cast<T>(g.uniform() + (i == j ? 0.5 * n : 0.0));
        if (n == 8)  // one singular matrix in the batch
          for (std::size_t i = 0; i < n; ++i) h(4, i, 2) = 0;
        Kokkos::deep_copy(A, h);
      }
      Kokkos::View<int**, Kokkos::LayoutRight, Mem> ipiv("ipiv", batch, n);
      Kokkos::View<int*, Mem> info("info", batch);
      ExKokkos::Options o;
      o.stage_in_scratch = stage;
      ExKokkos::exgetf2_batched(space, A, ipiv, info, o);
      Digest& g = out["exgetf2_batched<" + t + ">"];
      add_view(g, A);
      add_view(g, ipiv);
      add_view(g, info);
      if (n == 8) continue;  // the solves below need nonsingular factors
      Kokkos::View<T**, Kokkos::LayoutRight, Mem> B("B", batch, n);
      {
        auto h = Kokkos::create_mirror_view(B);
        Rng r{n + 99};
        for (std::size_t s = 0; s < batch; ++s)
          for (std::size_t i = 0; i < n; ++i) h(s, i) = static_cast<T>(r.uniform());
        Kokkos::deep_copy(B, h);
      }
      for (const char* trans : {"N", "T"}) {
        auto X = Kokkos::View<T**, Kokkos::LayoutRight, Mem>("X", batch, n);
        Kokkos::deep_copy(X, B);
        ExKokkos::exgetrs_batched(space, trans, A, ipiv, X);
        add_view(out["exgetrs_batched<" + t + ">"], X);
      }
    }
  for (int steps : {0, 2}) {
    const std::size_t batch = 9, n = 12;
    Kokkos::View<T***, Kokkos::LayoutRight, Mem> A("A", batch, n, n);
    Kokkos::View<T**, Kokkos::LayoutRight, Mem> B("B", batch, n);
    {
      auto h = Kokkos::create_mirror_view(A);
      auto hb = Kokkos::create_mirror_view(B);
      Rng g{4242};
      for (std::size_t s = 0; s < batch; ++s)
        for (std::size_t i = 0; i < n; ++i) {
          hb(s, i) = static_cast<T>(g.uniform());
          for (std::size_t j = 0; j < n; ++j)
            h(s, i, j) = static_cast<T>(g.uniform() + (i == j ? 4.0 : 0.0));
        }
      Kokkos::deep_copy(A, h);
      Kokkos::deep_copy(B, hb);
    }
    Kokkos::View<int**, Kokkos::LayoutRight, Mem> ipiv("ipiv", batch, n);
    Kokkos::View<int*, Mem> info("info", batch), taken("steps", batch);
    ExKokkos::Options o;
    o.refinement_steps = steps;
    ExKokkos::exgesv_batched(space, A, ipiv, B, info, taken, o);
    Digest& g = out["exgesv_batched<" + t + ">"];
    add_view(g, A);
    add_view(g, B);
    add_view(g, info);
    if (steps > 0) add_view(g, taken);
  }
}

}  // namespace

template <class Space>
void lapack(const Space& space, Results& out) {
  lapack_of<double, Kokkos::LayoutLeft>(space, out, "Left");
  lapack_of<double, Kokkos::LayoutRight>(space, out, "Right");
  lapack_of<float, Kokkos::LayoutLeft>(space, out, "Left");
}

#ifdef KOKKOS_ENABLE_SERIAL
template void lapack(const Kokkos::Serial&, Results&);
#endif
#ifdef KOKKOS_ENABLE_OPENMP
template void lapack(const Kokkos::OpenMP&, Results&);
#endif
#ifdef KOKKOS_ENABLE_CUDA
template void lapack(const Kokkos::Cuda&, Results&);
#endif

}  // namespace ApiDigest
