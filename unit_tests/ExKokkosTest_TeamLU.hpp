// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Matrices and helpers shared by the suites of the team-level LU (header-only): square and
// rectangular shapes, each with random, singular and ill-conditioned matrices built from the
// support library's generators, and the loop over the host backends under test.
#ifndef EXKOKKOSTEST_TEAMLU_HPP
#define EXKOKKOSTEST_TEAMLU_HPP

#include <ExKokkosTest_Generators.hpp>
#include <ExKokkosTest_Triangular.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace ExKokkosTest {

struct LuMatrix {
  std::string kind;
  std::vector<double> a;  // row-major m x n
  bool singular = false;  // made so that some pivot is exactly zero
};

// A square matrix of condition about 1e30 and more: the lower triangle of the support library's
// ill-conditioned triangular systems (entries growing like (1 + c)^(i - j)) times the transpose
// of a well-conditioned one, rows shuffled so that the pivoting has work to do.
inline std::vector<double> ill_conditioned_square(int n, Rng& rng) {
  const TriangularSystem t = ill_conditioned_lower_triangular(std::size_t(n), 1e30, rng);
  const TriangularSystem r = random_lower_triangular(std::size_t(n), rng);
  std::vector<double> a(std::size_t(n) * n, 0.0);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double s = 0;
      for (int k = 0; k <= std::min(i, j); ++k) s += t.a[i * n + k] * r.a[j * n + k];
      a[i * n + j] = s;
    }
  for (int i = n - 1; i > 0; --i) {
    const int k = std::uniform_int_distribution<int>(0, i)(rng);
    for (int j = 0; j < n; ++j) std::swap(a[i * n + j], a[k * n + j]);
  }
  return a;
}

// The matrices of one shape: two random ones; a singular one (a zero column, so that the pivot of
// its step is zero, and, when m > 1, a row twice another, exactly); for square shapes from 3 on,
// an ill-conditioned one; and one with a NaN and an infinity.
inline std::vector<LuMatrix> lu_matrices(int m, int n, Rng& rng) {
  std::vector<LuMatrix> out;
  for (int r = 0; r < 2; ++r) out.push_back({"random", uniform(std::size_t(m) * n, rng), false});
  LuMatrix s{"singular", uniform(std::size_t(m) * n, rng), true};
  const int zero_column = std::min(n - 1, 1);
  for (int i = 0; i < m; ++i) s.a[std::size_t(i) * n + zero_column] = 0.0;
  if (m > 1)
    for (int j = 0; j < n; ++j) s.a[std::size_t(m - 1) * n + j] = 2.0 * s.a[j];
  out.push_back(s);
  if (m == n && n >= 3) out.push_back({"ill-conditioned", ill_conditioned_square(n, rng), false});
  LuMatrix special{"NaN and Inf", uniform(std::size_t(m) * n, rng), false};
  special.a[0] = std::numeric_limits<double>::quiet_NaN();
  special.a.back() = std::numeric_limits<double>::infinity();
  out.push_back(special);
  return out;
}

// The shapes under test: square orders 1, 2, 3, 7, 16, 33 and two rectangular shapes.
inline std::vector<std::pair<int, int>> lu_shapes() {
  return {{1, 1}, {2, 2}, {3, 3}, {7, 7}, {16, 16}, {33, 33}, {20, 13}, {13, 20}};
}

// f(Space()) for Kokkos::Serial and for the default execution space (OpenMP on the host, the
// device in a GPU build) when it is another.
template <class F>
void for_each_backend(const F& f) {
#if defined(KOKKOS_ENABLE_SERIAL)
  f(Kokkos::Serial());
  if (!std::is_same<Kokkos::DefaultExecutionSpace, Kokkos::Serial>::value)
    f(Kokkos::DefaultExecutionSpace());
#else
  f(Kokkos::DefaultExecutionSpace());
#endif
}

// The team sizes to try on Space for a kernel: every one from 1 to the largest the policy
// allows on the host; on devices a warp's divisors and multiples up to 64.
template <class Space, class Functor>
std::vector<int> team_sizes(const Functor& f, std::size_t scratch_bytes) {
  Kokkos::TeamPolicy<Space> policy(1, 1);
  policy.set_scratch_size(0, Kokkos::PerTeam(scratch_bytes));
  const int largest = policy.team_size_max(f, Kokkos::ParallelForTag());
  std::vector<int> sizes;
  if (Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Space::memory_space>::accessible) {
    for (int t = 1; t <= largest; ++t) sizes.push_back(t);
  } else {
    for (int t : {1, 2, 3, 7, 16, 32, 33, 64})
      if (t <= largest) sizes.push_back(t);
  }
  return sizes;
}

}  // namespace ExKokkosTest

#endif  // EXKOKKOSTEST_TEAMLU_HPP
