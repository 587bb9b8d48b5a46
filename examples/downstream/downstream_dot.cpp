// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Built against an installed ExKokkos through find_package: a dot product whose exact value is
// known (1 + 2^-60 - 1 = 2^-60, where a plain left-to-right sum gives 0), checked bit for bit.
#include <ExKokkos.hpp>
#include <ExKokkos_Dot.hpp>
#include <ExKokkos_Sum.hpp>

#include <cstdio>

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  Kokkos::View<double*> x("x", 3), y("y", 3);
  auto hx = Kokkos::create_mirror_view(x);
  auto hy = Kokkos::create_mirror_view(y);
  hx(0) = 1.0;
  hy(0) = 1.0;
  hx(1) = 0x1p-30;
  hy(1) = 0x1p-30;
  hx(2) = -1.0;
  hy(2) = 1.0;
  Kokkos::deep_copy(x, hx);
  Kokkos::deep_copy(y, hy);
  const double dot = ExKokkos::exdot(x, y);
  const double sum = ExKokkos::exsum(x);
  std::printf("exdot = %a (expected 0x1p-60), exsum = %a (expected 0x1p-30)\n", dot, sum);
  return dot == 0x1p-60 && sum == 0x1p-30 ? 0 : 1;
}
