// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A user's translation unit that calls nine routines once each on the most common view types,
// with default options: the yardstick for what ExKokkos costs a user's build (docs/performance.md,
// "Build time"). Compiled only on demand (target exkokkos_compile_time_user_file).
#include <ExKokkos.hpp>

#include <cstdio>

int main(int argc, char* argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 64;
    Kokkos::View<double*> x("x", n), y("y", n);
    Kokkos::View<double**, Kokkos::LayoutLeft> A("A", n, n), B("B", n, n), C("C", n, n);
    Kokkos::View<int*> ipiv("ipiv", n);
    Kokkos::deep_copy(x, 1.0);
    Kokkos::deep_copy(y, 2.0);
    Kokkos::deep_copy(A, 0.5);
    Kokkos::deep_copy(B, 0.25);
    double r = ExKokkos::exdot(x, y);
    r += ExKokkos::exsum(x);
    r += ExKokkos::exnrm2(x);
    r += ExKokkos::exasum(x);
    ExKokkos::exaxpby(2.0, x, 3.0, y);
    ExKokkos::exgemv("N", 1.0, A, x, 0.0, y);
    ExKokkos::extrsv("L", "N", "U", A, y);
    ExKokkos::exgemm("N", "N", 1.0, A, B, 0.0, C);
    const int info = ExKokkos::exgetf2(C, ipiv);
    std::printf("%g %d\n", r, info);
  }
  Kokkos::finalize();
  return 0;
}
