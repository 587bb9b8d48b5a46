// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Built against an installed ExKokkos through find_package: the batched LU and solve.
//   1. exgetf2_batched on a batch of random matrices (LayoutRight, batch x n x n) gives the same
//      factors, pivots and info, bit for bit, as exgetf2 on each matrix alone (copied into a
//      LayoutLeft view): every entry is one exact expression rounded once, whatever the batch.
//   2. exgesv_batched with refinement solves every non-singular system with a backward error
//      ||b - A x|| / (||A|| ||x|| n eps) below 30 (LAPACK's test threshold), the residual computed
//      exactly on the host with a LongAccumulator; its solutions equal exgesv's on each system
//      alone, bit for bit.
//   3. One system of the batch is singular, its column 4 zero: every candidate for U(4, 4) is an
//      exact zero, so info = 5 there (LAPACK's 1-based index of the first zero pivot), and its
//      right-hand side is left as it was, as LAPACK does.
// Exits non-zero on any failure.
#include <ExKokkos.hpp>

#include <cmath>
#include <cstdio>
#include <limits>
#include <random>

namespace {

using Space = Kokkos::DefaultExecutionSpace;
using Mem = Space::memory_space;
using Batch = Kokkos::View<double***, Kokkos::LayoutRight, Mem>;

constexpr int batch = 40, n = 12, singular = 17, zero_column = 4;

int failures = 0;

void expect(bool ok, const char* what, int s) {
  if (!ok) {
    std::printf("system %d: %s\n", s, what);
    ++failures;
  }
}

template <class T>
bool same_bits(T a, T b) {
  return a == b || (a != a && b != b);
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  {
    std::mt19937_64 rng(5);
    std::normal_distribution<double> normal(0.0, 1.0);
    Batch A("A", batch, n, n);
    Kokkos::View<double**, Kokkos::LayoutRight, Mem> B("B", batch, n);
    const auto hA = Kokkos::create_mirror_view(A);
    const auto hB = Kokkos::create_mirror_view(B);
    for (int s = 0; s < batch; ++s)
      for (int i = 0; i < n; ++i) {
        hB(s, i) = normal(rng);
        for (int j = 0; j < n; ++j) hA(s, i, j) = normal(rng);
      }
    for (int i = 0; i < n; ++i) hA(singular, i, zero_column) = 0.0;
    Kokkos::deep_copy(A, hA);
    Kokkos::deep_copy(B, hB);

    // 1. batched factors against unbatched ones
    Batch LU("LU", batch, n, n);
    Kokkos::View<int**, Mem> ipiv("ipiv", batch, n);
    Kokkos::View<int*, Mem> info("info", batch);
    Kokkos::deep_copy(LU, A);
    ExKokkos::exgetf2_batched(Space(), LU, ipiv, info);
    const auto hLU = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), LU);
    const auto hpiv = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), ipiv);
    const auto hinfo = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), info);
    for (int s = 0; s < batch; ++s) {
      Kokkos::View<double**, Kokkos::LayoutLeft, Mem> one("one", n, n);
      Kokkos::View<int*, Mem> one_piv("one_piv", n);
      Kokkos::deep_copy(one, Kokkos::subview(A, s, Kokkos::ALL(), Kokkos::ALL()));
      const int one_info = ExKokkos::exgetf2(Space(), one, one_piv);
      const auto h1 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), one);
      const auto hp1 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), one_piv);
      bool equal = one_info == hinfo(s);
      for (int i = 0; i < n; ++i) {
        equal = equal && hp1(i) == hpiv(s, i);
        for (int j = 0; j < n; ++j) equal = equal && same_bits(h1(i, j), hLU(s, i, j));
      }
      expect(equal, "exgetf2_batched differs from exgetf2", s);
      expect(hinfo(s) == (s == singular ? zero_column + 1 : 0), "info is wrong", s);
    }

    // 2. and 3. batched solve with refinement
    ExKokkos::Options options;
    options.refinement_steps = 3;
    Kokkos::View<int*, Mem> steps("steps", batch), info2("info2", batch);
    Kokkos::View<double**, Kokkos::LayoutRight, Mem> X("X", batch, n);
    Kokkos::deep_copy(LU, A);
    Kokkos::deep_copy(X, B);
    ExKokkos::exgesv_batched(Space(), LU, ipiv, X, info2, steps, options);
    const auto hX = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), X);
    const auto hinfo2 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), info2);
    const double eps = std::numeric_limits<double>::epsilon();
    double worst = 0;
    for (int s = 0; s < batch; ++s) {
      expect(hinfo2(s) == hinfo(s), "exgesv_batched's info differs from exgetf2_batched's", s);
      if (hinfo2(s) != 0) {
        bool unchanged = true;
        for (int i = 0; i < n; ++i) unchanged = unchanged && same_bits(hX(s, i), hB(s, i));
        expect(unchanged, "singular system: B was changed", s);
        continue;
      }
      double residual = 0, norm_a = 0, norm_x = 0;
      for (int i = 0; i < n; ++i) {
        ExKokkos::LongAccumulator r, row;
        r.add(hB(s, i));
        for (int j = 0; j < n; ++j) {
          r.add_product(-hA(s, i, j), hX(s, j));
          row.add(std::fabs(hA(s, i, j)));
        }
        residual = std::fmax(residual, std::fabs(r.round()));
        norm_a = std::fmax(norm_a, row.round());
        norm_x = std::fmax(norm_x, std::fabs(hX(s, i)));
      }
      const double ratio = residual / (norm_a * norm_x * n * eps);
      worst = std::fmax(worst, ratio);
      expect(ratio < 30, "backward error too large", s);

      // the same system alone
      Kokkos::View<double**, Kokkos::LayoutLeft, Mem> one("one", n, n);
      Kokkos::View<double*, Mem> x("x", n);
      Kokkos::View<int*, Mem> one_piv("one_piv", n);
      Kokkos::deep_copy(one, Kokkos::subview(A, s, Kokkos::ALL(), Kokkos::ALL()));
      Kokkos::deep_copy(x, Kokkos::subview(B, s, Kokkos::ALL()));
      ExKokkos::exgesv(Space(), one, one_piv, x, options);
      const auto hx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x);
      bool equal = true;
      for (int i = 0; i < n; ++i) equal = equal && same_bits(hx(i), hX(s, i));
      expect(equal, "exgesv_batched differs from exgesv", s);
    }
    std::printf("LU: %d systems of %d x %d, worst backward error %.2f n eps; %s\n", batch, n, n,
                worst, failures == 0 ? "ok" : "FAILED");
  }
  return failures == 0 ? 0 : 1;
}
