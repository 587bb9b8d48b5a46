// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Shared by the extrsv suites (test_level2_trsv.cpp at the default options, and
// test_level2_trsv_schedules.cpp in the executable that compiles every expansion size): the eight
// variants, the definition evaluated with the MPFR oracle, random triangles whose unread triangle
// holds NaN, a solve through ExKokkos::extrsv in a given layout, and the team/certified
// diagonal-block check.
#ifndef EXKOKKOSTEST_TRSV_HPP
#define EXKOKKOSTEST_TRSV_HPP

#include <ExKokkos.hpp>

#include <ExKokkosTest_Generators.hpp>
#include <ExKokkosTest_Oracle.hpp>

#include "ExKokkosTest_ExpectBits.hpp"
#include "ExKokkosTest_Matrices.hpp"
#include "ExKokkosTest_Views.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace ExKokkosTest {
namespace TrsvTest {

using Space = Kokkos::DefaultExecutionSpace;

struct Variant {
  char uplo, trans, diag;
  bool lower_op() const { return (uplo == 'L') != (trans == 'T'); }
  std::string name() const { return std::string(1, uplo) + trans + diag; }
};

inline std::vector<Variant> all_variants() {
  std::vector<Variant> v;
  for (char u : {'L', 'U'})
    for (char t : {'N', 'T'})
      for (char d : {'N', 'U'}) v.push_back({u, t, d});
  return v;
}

// op(A)(i, j) for row-major a.
template <class T>
T op_at(const std::vector<T>& a, std::size_t n, char trans, std::size_t i, std::size_t j) {
  return trans == 'T' ? a[j * n + i] : a[i * n + j];
}

// The definition, evaluated with the MPFR oracle (shares no code with ExKokkos).
template <class T>
std::vector<T> defined_solution(const Variant& v, const std::vector<T>& a, std::size_t n,
                                std::vector<T> b) {
  for (std::size_t q = 0; q < n; ++q) {
    const std::size_t i = v.lower_op() ? q : n - 1 - q;
    ExactSum s;
    s.add(b[i]);
    for (std::size_t p = 0; p < q; ++p) {
      const std::size_t j = v.lower_op() ? p : n - 1 - p;
      s.add_product(-double(op_at(a, n, v.trans, i, j)), double(b[j]));
    }
    const T r = std::is_same<T, double>::value ? T(s.round_double()) : T(s.round_float());
    b[i] = v.diag == 'U' ? r : r / op_at(a, n, v.trans, i, i);
  }
  return b;
}

// A well-conditioned triangular A for variant v (diagonal in [1, 2) with random signs,
// off-diagonal U[-1, 1) / n); the other triangle, and the diagonal when unit, hold NaN.
template <class T>
std::vector<T> random_triangle(const Variant& v, std::size_t n, Rng& rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<T> a(n * n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      const bool in_triangle = v.uplo == 'L' ? j < i : j > i;
      if (i == j)
        a[i * n + j] = v.diag == 'U' ? std::numeric_limits<T>::quiet_NaN()
                                     : T((1 + std::fabs(u(rng))) * (u(rng) < 0 ? -1 : 1));
      else
        a[i * n + j] = in_triangle ? T(u(rng) / double(n)) : std::numeric_limits<T>::quiet_NaN();
    }
  return a;
}

template <class ViewLayout, class T>
std::vector<T> run(const Variant& v, const std::vector<T>& a, std::size_t n,
                   const std::vector<T>& b, const ExKokkos::Options& options = {},
                   int* steps = nullptr) {
  const auto A = to_matrix<ViewLayout, Space>(a, n, n);
  const auto x = to_vector<ViewLayout, Space>(b);
  const char uplo[2] = {v.uplo, 0}, trans[2] = {v.trans, 0}, diag[2] = {v.diag, 0};
  const int s = ExKokkos::extrsv(Space(), uplo, trans, diag, A, x, options);
  if (steps) *steps = s;
  return to_host(x);
}

inline std::vector<ExKokkos::Options> trsv_options() {
  std::vector<ExKokkos::Options> all;
  for (int block : {1, 3, 32, 128, 1000})
    for (auto s : gemv_schedules<Space>()) {
      ExKokkos::Options o;
      o.block_size = block;
      o.schedule = s;
      all.push_back(o);
    }
  ExKokkos::Options team;
  team.schedule = ExKokkos::Schedule::team_per_output;
  team.team_size = widest_team<Space>();
  team.league_size = 2;
  team.block_size = 16;
  team.early_exit = 1;
  team.expansion_size = 8;
  all.push_back(team);
  return all;
}

// The device diagonal-block solves against the default, bit for bit: on the host the one-thread
// solve against the team solve (team_per_output) and, for doubles, the certified rows
// (output_block: compensated panel sums, rows owned by threads, exact fallback where the rounding
// is not certified); on a device the certified rows (its default for doubles) against the team
// solve. Random, ill-conditioned and float systems, signed zeros, infinities, NaNs and products
// beyond the double range, every variant, with team sizes, accumulator copies, expansion sizes and
// block sizes that split the rows differently (certified rows: four rows a thread, blocks of at
// most four times the team, chains of one row on the host and of a warp on CUDA; zeros, NaNs and
// ill-conditioned rows make the first launch stop at refused rows anywhere in a chain, and the
// second resume there). On the host this keeps the device's diagonal paths checked by the CPU
// tests.
template <class T>
void expect_team_blocks_match(const Variant& v, const std::vector<T>& a, std::size_t n,
                              const std::vector<T>& b, const std::string& what) {
  const auto expected = run<Kokkos::LayoutLeft>(v, a, n, b);
  const int widest = widest_team<Space>();
  struct Setting {
    ExKokkos::Schedule schedule;
    int team, copies, expansion, early_exit, block;
  };
  for (const Setting s : {Setting{ExKokkos::Schedule::team_per_output, 1, 1, 2, 0, 1},
                          Setting{ExKokkos::Schedule::team_per_output, widest, 2, 3, 1, 7},
                          Setting{ExKokkos::Schedule::output_block, widest, 8, 4, 1, 64},
                          Setting{ExKokkos::Schedule::output_block, 2, 3, 8, 0, 1000},
                          Setting{ExKokkos::Schedule::output_block, widest, 1, 4, 1, widest},
                          Setting{ExKokkos::Schedule::output_block, 1, 1, 2, 0, 5},
                          Setting{ExKokkos::Schedule::output_block, 3, 2, 3, 0, 13}}) {
    ExKokkos::Options o;
    o.schedule = s.schedule;
    o.team_size = std::min(s.team, widest);
    o.accumulators_per_team = s.copies;
    o.expansion_size = s.expansion;
    o.early_exit = s.early_exit;
    o.block_size = s.block;
    expect_bits(expected, run<Kokkos::LayoutLeft>(v, a, n, b, o),
                what + " " + v.name() + " team " + std::to_string(o.team_size) + " block " +
                    std::to_string(s.block));
  }
}

// Every variant, unit and non-unit, n from 0 to 300, solved in ViewLayout: the definition's bits.
template <class ViewLayout>
void expect_all_variants_match_definition(Rng::result_type seed) {
  Rng rng(seed);
  for (const Variant& v : all_variants())
    for (std::size_t n : {0, 1, 2, 17, 100, 300}) {
      const auto a = random_triangle<double>(v, n, rng);
      std::vector<double> b(n);
      std::uniform_real_distribution<double> u(-1, 1);
      for (auto& e : b) e = u(rng);
      expect_bits(
          defined_solution(v, a, n, b), run<ViewLayout>(v, a, n, b),
          v.name() + " n " + std::to_string(n) + " " + ExKokkosTest::name(layout_of<ViewLayout>()));
    }
}

}  // namespace TrsvTest
}  // namespace ExKokkosTest

#endif
