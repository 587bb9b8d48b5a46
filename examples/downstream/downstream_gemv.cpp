// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Built against an installed ExKokkos through find_package: exgemv checked against two other
// exact computations of the same numbers.
//   1. alpha = 1, beta = 0: y_i = RN(sum_k op(A)_ik x_k) is by definition the dot product of row i
//      of op(A) with x, so it must equal exdot on that row (a subview) bit for bit, "N" and "T".
//   2. alpha = 2^-3, beta = -3: y_i = RN(alpha sum_k A_ik x_k + beta y_i). With alpha a power of
//      two, alpha A_ik is exact, so the whole expression is a sum of exact products that a host
//      LongAccumulator adds exactly and rounds once.
//   3. beta = 0 does not read y (BLAS): a y full of NaN gives the same result as case 1.
// The data cancel heavily (terms over 2^-30 .. 2^30 of both signs), so that a result rounded
// more than once would show. Exits non-zero on any difference.
#include <ExKokkos.hpp>

#include <cmath>
#include <cstdio>
#include <limits>
#include <random>

namespace {

using Space = Kokkos::DefaultExecutionSpace;

template <class Matrix>
void fill(const Matrix& A, std::mt19937_64& rng) {
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_int_distribution<int> exponent(-30, 30);
  const auto h = Kokkos::create_mirror_view(A);
  for (std::size_t i = 0; i < h.extent(0); ++i)
    for (std::size_t j = 0; j < h.extent(1); ++j) h(i, j) = std::ldexp(normal(rng), exponent(rng));
  Kokkos::deep_copy(A, h);
}

template <class Layout>
int check_layout(const char* layout, std::mt19937_64& rng) {
  const int m = 45, n = 37;
  Kokkos::View<double**, Layout, Space::memory_space> A("A", m, n), xy("x and y", 2, m + n);
  fill(A, rng);
  fill(xy, rng);
  int failures = 0;
  for (const char* trans : {"N", "T"}) {
    const bool t = trans[0] == 'T';
    const int rows = t ? n : m, cols = t ? m : n;
    const auto x = Kokkos::subview(xy, 0, Kokkos::make_pair(0, cols));
    const auto y0 = Kokkos::subview(xy, 1, Kokkos::make_pair(0, rows));
    Kokkos::View<double*, Space::memory_space> y("y", rows);

    // 1. against exdot of each row of op(A)
    ExKokkos::exgemv(Space(), trans, 1.0, A, x, 0.0, y);
    const auto hy = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
    for (int i = 0; i < rows; ++i) {
      const double d = t ? ExKokkos::exdot(Space(), Kokkos::subview(A, Kokkos::ALL(), i), x)
                         : ExKokkos::exdot(Space(), Kokkos::subview(A, i, Kokkos::ALL()), x);
      if (!(d == hy(i))) {
        std::printf("%s %s: y(%d) = %a, exdot of the row = %a\n", layout, trans, i, hy(i), d);
        ++failures;
      }
    }

    // 3. beta = 0 with y full of NaN
    Kokkos::deep_copy(y, std::numeric_limits<double>::quiet_NaN());
    ExKokkos::exgemv(Space(), trans, 1.0, A, x, 0.0, y);
    const auto hnan = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
    for (int i = 0; i < rows; ++i)
      if (!(hnan(i) == hy(i))) {
        std::printf("%s %s, beta = 0: y(%d) = %a read the NaN in y\n", layout, trans, i, hnan(i));
        ++failures;
      }

    // 2. alpha = 2^-3, beta = -3 against a host long accumulator
    const double alpha = 0x1p-3, beta = -3.0;
    Kokkos::deep_copy(y, y0);
    ExKokkos::exgemv(Space(), trans, alpha, A, x, beta, y);
    const auto ha = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), A);
    const auto hx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x);
    const auto hy0 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y0);
    Kokkos::deep_copy(hy, y);
    for (int i = 0; i < rows; ++i) {
      ExKokkos::LongAccumulator acc;
      for (int k = 0; k < cols; ++k) acc.add_product(alpha * (t ? ha(k, i) : ha(i, k)), hx(k));
      acc.add_product(beta, hy0(i));
      if (!(acc.round() == hy(i))) {
        std::printf("%s %s, alpha 2^-3, beta -3: y(%d) = %a, exact value rounded = %a\n", layout,
                    trans, i, hy(i), acc.round());
        ++failures;
      }
    }
  }
  std::printf("exgemv, %s: %s\n", layout, failures == 0 ? "ok" : "FAILED");
  return failures;
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  std::mt19937_64 rng(11);
  const int failures = check_layout<Kokkos::LayoutLeft>("LayoutLeft", rng) +
                       check_layout<Kokkos::LayoutRight>("LayoutRight", rng);
  return failures == 0 ? 0 : 1;
}
