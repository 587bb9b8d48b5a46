// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// exgetrf: the factors, pivots and info of exgetf2 (whose bits test_lapack_getf2 checks against
// the MPFR oracle's definition), bit for bit, for every panel width, shape and layout: random
// data (certified roundings), small integers (exact cancellations and ties, which the certified
// sums refuse, so the exact path answers), a wide exponent range, singular matrices and special
// values; the default panel on a matrix large enough to take the blocked schedule; the same bits
// on Serial as on the default space; and refused arguments leave A and ipiv as they were.
#include <ExKokkos.hpp>

#include "ExKokkosTest_LuFactors.hpp"
#include "ExKokkosTest_Matrices.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace {
// A name of its own: the suites of one executable compile as one translation unit (CMakeLists.txt).
namespace GetrfSuite {

using Space = Kokkos::DefaultExecutionSpace;
using Rng = std::mt19937_64;

using Factors = ExKokkosTest::LuFactors<double>;
using ExKokkosTest::expect_same_factors;

enum class Data { uniform, integers, wide, singular, special };

std::vector<double> make(Data d, int m, int n, Rng& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::uniform_int_distribution<int> small(-3, 3), exponent(-60, 60);
  std::vector<double> a(std::size_t(m) * n);
  for (auto& v : a) {
    switch (d) {
      case Data::integers:
        v = small(rng);
        break;
      case Data::wide:
        v = std::ldexp(u(rng), exponent(rng));
        break;
      default:
        v = u(rng);
    }
  }
  if (d == Data::singular && n > 3) {  // column 3 repeats column 1, row 2 is zero
    for (int i = 0; i < m; ++i) a[std::size_t(i) * n + 3] = a[std::size_t(i) * n + 1];
    for (int c = 0; c < n && m > 2; ++c) a[2 * std::size_t(n) + c] = 0.0;
  }
  if (d == Data::special && m > 5 && n > 5) {
    a[std::size_t(4) * n + 5] = std::numeric_limits<double>::quiet_NaN();
    a[std::size_t(m - 1) * n + n - 1] = std::numeric_limits<double>::infinity();
    a[std::size_t(1) * n + 2] = -std::numeric_limits<double>::infinity();
  }
  return a;
}

// exgetrf (Blocked) or exgetf2 on a copy of a in ViewLayout.
template <class ViewLayout, class ExecSpace, bool Blocked>
Factors factor(const ExecSpace& space, const std::vector<double>& a, int m, int n,
               const ExKokkos::Options& o = {}) {
  return ExKokkosTest::factor_lu<ViewLayout, ExecSpace>(
      a, m, n, [&](const auto& A, const auto& ipiv) {
        return Blocked ? ExKokkos::exgetrf(space, A, ipiv, o) : ExKokkos::exgetf2(space, A, ipiv);
      });
}

std::string describe(Data d, int m, int n, int nb, const char* layout) {
  return "data " + std::to_string(int(d)) + ", " + std::to_string(m) + " x " + std::to_string(n) +
         ", block_size " + std::to_string(nb) + ", " + layout;
}

TEST(Getrf, EqualsGetf2BitForBitForEveryPanelWidth) {
  Rng rng(20261129);
  const std::vector<std::pair<int, int>> shapes = {{1, 1},   {5, 5},   {37, 37}, {64, 64},
                                                   {70, 70}, {90, 41}, {41, 90}, {33, 130}};
  for (Data d : {Data::uniform, Data::integers, Data::wide, Data::singular, Data::special})
    for (const auto& s : shapes) {
      const int m = s.first, n = s.second;
      const auto a = make(d, m, n, rng);
      const Factors want = factor<Kokkos::LayoutRight, Space, false>(Space(), a, m, n);
      for (int nb : {1, 2, 3, 8, 17, 64}) {
        ExKokkos::Options o;
        o.block_size = nb;
        expect_same_factors(want, factor<Kokkos::LayoutLeft, Space, true>(Space(), a, m, n, o),
                            describe(d, m, n, nb, "LayoutLeft"));
        expect_same_factors(want, factor<Kokkos::LayoutRight, Space, true>(Space(), a, m, n, o),
                            describe(d, m, n, nb, "LayoutRight"));
      }
      ExKokkos::Options o;
      o.block_size = 5;
      expect_same_factors(want, factor<Kokkos::LayoutStride, Space, true>(Space(), a, m, n, o),
                          describe(d, m, n, 5, "LayoutStride"));
    }
}

// Integer data: the singular and cancelling cases reach the exact path in every part of the
// blocked schedule (column, row of U in the panel, rows of U right of it), and info is LAPACK's.
TEST(Getrf, SingularMatricesReportLapacksInfo) {
  Rng rng(7);
  const int n = 40;
  auto a = make(Data::integers, n, n, rng);
  for (int i = 0; i < n; ++i) a[std::size_t(i) * n + 9] = 0.0;  // U(9, 9) is zero
  const Factors want = factor<Kokkos::LayoutLeft, Space, false>(Space(), a, n, n);
  EXPECT_GT(want.info, 0);
  ExKokkos::Options o;
  o.block_size = 4;
  const Factors got = factor<Kokkos::LayoutLeft, Space, true>(Space(), a, n, n, o);
  expect_same_factors(want, got, "integers with a zero column");
  EXPECT_EQ(got.info, 10);
}

// The default panel, on a matrix that takes the blocked schedule by default (and through exgesv).
TEST(Getrf, DefaultPanelOnALargeMatrix) {
  Rng rng(11);
  const int n = 400;
  const auto a = make(Data::uniform, n, n, rng);
  const Factors want = factor<Kokkos::LayoutRight, Space, false>(Space(), a, n, n);
  expect_same_factors(want, factor<Kokkos::LayoutLeft, Space, true>(Space(), a, n, n), "400 x 400");
#if defined(KOKKOS_ENABLE_SERIAL)
  if (!std::is_same<Space, Kokkos::Serial>::value)
    expect_same_factors(want,
                        factor<Kokkos::LayoutLeft, Kokkos::Serial, true>(Kokkos::Serial(), a, n, n),
                        "400 x 400 on Serial");
#endif
}

TEST(Getrf, EmptyMatrices) {
  for (const auto& s : {std::pair<int, int>{0, 0}, {0, 5}, {5, 0}}) {
    Kokkos::View<double**, Kokkos::LayoutLeft, Space::memory_space> A("A", s.first, s.second);
    Kokkos::View<int*, Space::memory_space> ipiv("ipiv", 0);
    EXPECT_EQ(ExKokkos::exgetrf(Space(), A, ipiv), 0);
  }
}

TEST(Getrf, RefusedArgumentsWriteNothing) {
  Rng rng(3);
  const int n = 20;
  const auto a = make(Data::uniform, n, n, rng);
  auto A = ExKokkosTest::to_matrix<Kokkos::LayoutLeft, Space>(a, n, n);
  Kokkos::View<int*, Space::memory_space> ipiv("ipiv", n), short_ipiv("short", n - 1);
  Kokkos::deep_copy(ipiv, -7);
  const auto before = ExKokkosTest::host_copy(A);
  const auto refused = [&](const std::function<void()>& call, const std::string& what) {
    try {
      call();
      ADD_FAILURE() << what << ": not refused";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("ExKokkos::exgetrf"), std::string::npos) << e.what();
    }
    const auto after = ExKokkosTest::host_copy(A);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        EXPECT_EQ(std::memcmp(&before(i, j), &after(i, j), sizeof(double)), 0) << what;
    auto hp = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), ipiv);
    for (int j = 0; j < n; ++j) EXPECT_EQ(hp(j), -7) << what;
  };
  refused([&] { ExKokkos::exgetrf(Space(), A, short_ipiv); }, "ipiv extent");
  for (int nb : {-1, 513}) {
    ExKokkos::Options o;
    o.block_size = nb;
    refused([&] { ExKokkos::exgetrf(Space(), A, ipiv, o); }, "block_size " + std::to_string(nb));
  }
  ExKokkos::Options o;
  o.expansion_size = 5;
  refused([&] { ExKokkos::exgetrf(Space(), A, ipiv, o); }, "expansion_size 5");
}

}  // namespace GetrfSuite
}  // namespace
