// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Every routine of ExKokkos once, on wide-range data with cancellation (so that any change in how
// a sum is split or ordered would show in the last bits), with the results by routine name; and
// the bit-for-bit comparison of two such runs. test_backends.cpp compares the backends with it at
// the default options; test_backends_tuning.cpp compares team, league, expansion and block
// sizes on one backend, in the executable that compiles every expansion size.
#ifndef EXKOKKOSTEST_EVERYROUTINE_HPP
#define EXKOKKOSTEST_EVERYROUTINE_HPP

#include <ExKokkos.hpp>
#include <ExKokkosTest_Generators.hpp>
#include <ExKokkosTest_Oracle.hpp>

#include "ExKokkosTest_Views.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace ExKokkosTest {
namespace EveryRoutine {

using ExKokkosTest::describe;
using ExKokkosTest::same_bits;
using Results = std::map<std::string, std::vector<double>>;

// Wide range (2^-40 .. 2^40) with random signs: sums cancel and products spread over many digits.
inline std::vector<double> wide(std::size_t n, std::uint64_t seed) {
  ExKokkosTest::Rng rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::uniform_int_distribution<int> e(-40, 40);
  std::vector<double> v(n);
  for (auto& x : v) x = std::ldexp(u(rng), e(rng));
  return v;
}

// A square matrix with a dominant diagonal (for the triangular solves and the LU), row-major.
inline std::vector<double> dominant(std::size_t n, std::uint64_t seed) {
  ExKokkosTest::Rng rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> a(n * n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      a[i * n + j] = i == j ? 1.5 + 0.5 * u(rng) : std::ldexp(u(rng), -10) / double(n);
  return a;
}

template <class Space>
using Vec = Kokkos::View<double*, typename Space::memory_space>;
template <class Space>
using Mat = Kokkos::View<double**, Kokkos::LayoutLeft, typename Space::memory_space>;

template <class Space>
Mat<Space> to_matrix(const std::vector<double>& a, std::size_t rows, std::size_t cols) {
  Mat<Space> m("m", rows, cols);
  auto h = Kokkos::create_mirror_view(m);
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j) h(i, j) = a[i * cols + j];
  Kokkos::deep_copy(m, h);
  return m;
}

// The elements of a rank-1, 2 or 3 view (doubles, or pivots and counts as doubles) in index
// order, so that views of different default layouts on different backends compare.
template <class View>
std::vector<double> flatten(const View& v) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  std::vector<double> out;
  if constexpr (static_cast<int>(View::rank) == 1) {
    for (std::size_t i = 0; i < h.extent(0); ++i) out.push_back(h(i));
  } else if constexpr (static_cast<int>(View::rank) == 2) {
    for (std::size_t i = 0; i < h.extent(0); ++i)
      for (std::size_t j = 0; j < h.extent(1); ++j) out.push_back(h(i, j));
  } else {
    for (std::size_t b = 0; b < h.extent(0); ++b)
      for (std::size_t i = 0; i < h.extent(1); ++i)
        for (std::size_t j = 0; j < h.extent(2); ++j) out.push_back(h(b, i, j));
  }
  return out;
}

// Every routine of ExKokkos on Space with options o; the results by routine name.
template <class Space>
Results run_all(const ExKokkos::Options& o) {
  Results r;
  const Space space;
  // Level 1.
  const std::size_t n = 20011;
  const auto hx = wide(n, 1), hy = wide(n, 2);
  const auto x = ExKokkosTest::to_view<Space>(hx), y = ExKokkosTest::to_view<Space>(hy);
  r["exsum"] = {ExKokkos::exsum(space, x, o)};
  r["exasum"] = {ExKokkos::exasum(space, x, o)};
  r["exdot"] = {ExKokkos::exdot(space, x, y, o)};
  r["exnrm2"] = {ExKokkos::exnrm2(space, x, o)};
  Vec<Space> z("z", n);
  ExKokkos::exscal(space, z, 0.1, x);
  r["exscal"] = flatten(z);
  ExKokkos::exinvscal(space, z, 0.1, x);
  r["exinvscal"] = flatten(z);
  Kokkos::deep_copy(z, y);
  ExKokkos::exaxpy(space, 0.1, x, z);
  r["exaxpy"] = flatten(z);
  Kokkos::deep_copy(z, y);
  ExKokkos::exaxpby(space, 0.1, x, -0.3, z);
  r["exaxpby"] = flatten(z);

  // Level 2: exgemv on a non-square matrix, both ways.
  const std::size_t m = 150, k = 230;
  const Mat<Space> A = to_matrix<Space>(wide(m * k, 3), m, k);
  for (const char* trans : {"N", "T"}) {
    const bool t = trans[0] == 'T';
    const auto xv = ExKokkosTest::to_view<Space>(wide(t ? m : k, 4));
    const auto yv = ExKokkosTest::to_view<Space>(wide(t ? k : m, 5));
    ExKokkos::exgemv(space, trans, 0.75, A, xv, -1.25, yv, o);
    r[std::string("exgemv ") + trans] = flatten(yv);
  }
  // The rank updates: exger on A's shape, exsyr and exsyr2 on both triangles.
  const auto xm = ExKokkosTest::to_view<Space>(wide(m, 8));
  const auto yk = ExKokkosTest::to_view<Space>(wide(k, 9));
  const Mat<Space> G = to_matrix<Space>(wide(m * k, 10), m, k);
  ExKokkos::exger(space, "T", 0.75, xm, yk, G);
  r["exger"] = flatten(G);
  for (const char* uplo : {"L", "U"}) {
    const Mat<Space> S1 = to_matrix<Space>(wide(k * k, 11), k, k);
    ExKokkos::exsyr(space, "T", uplo, -1.25, yk, S1);
    r[std::string("exsyr ") + uplo] = flatten(S1);
    const Mat<Space> S2 = to_matrix<Space>(wide(m * m, 12), m, m);
    ExKokkos::exsyr2(space, "T", uplo, 0.75, xm, ExKokkosTest::to_view<Space>(wide(m, 13)), S2);
    r[std::string("exsyr2 ") + uplo] = flatten(S2);
  }
  // extrsv, all eight variants, with two refinement steps on the "N" ones.
  const std::size_t nt = 200;
  const auto hT = dominant(nt, 6);
  const Mat<Space> T = to_matrix<Space>(hT, nt, nt);
  const auto hb = wide(nt, 7);
  for (const char* uplo : {"L", "U"})
    for (const char* trans : {"N", "T"})
      for (const char* diag : {"N", "U"}) {
        const auto b = ExKokkosTest::to_view<Space>(hb);
        ExKokkos::Options ot = o;
        ot.refinement_steps = trans[0] == 'N' ? 2 : 0;
        const int steps = ExKokkos::extrsv(space, uplo, trans, diag, T, b, ot);
        std::vector<double> out = flatten(b);
        out.push_back(steps);
        r[std::string("extrsv ") + uplo + trans + diag] = out;
      }
  // extrsm on both sides (refined on the left), extrmm on both sides, B of 3 right-hand sides.
  for (const char* side : {"L", "R"}) {
    const bool left = side[0] == 'L';
    const Mat<Space> B = to_matrix<Space>(wide(nt * 3, 12), left ? nt : 3, left ? 3 : nt);
    ExKokkos::Options ot = o;
    ot.refinement_steps = left ? 2 : 0;
    const int steps =
        ExKokkos::extrsm(space, side, left ? "L" : "U", left ? "N" : "T", "N", 0.75, T, B, ot);
    std::vector<double> out = flatten(B);
    out.push_back(steps);
    r[std::string("extrsm ") + side] = out;
    const Mat<Space> M = to_matrix<Space>(wide(nt * 3, 13), left ? nt : 3, left ? 3 : nt);
    ExKokkos::extrmm(space, side, left ? "U" : "L", left ? "T" : "N", "U", -1.25, T, M);
    r[std::string("extrmm ") + side] = flatten(M);
  }

  // LAPACK: one matrix factored, then solved both ways; exgesv with refinement.
  const std::size_t nl = 60;
  {
    const Mat<Space> LU = to_matrix<Space>(wide(nl * nl, 8), nl, nl);
    Kokkos::View<int*, typename Space::memory_space> ipiv("ipiv", nl);
    const int info = ExKokkos::exgetf2(space, LU, ipiv, o);
    std::vector<double> out = flatten(LU);
    for (double p : flatten(ipiv)) out.push_back(p);
    out.push_back(info);
    r["exgetf2"] = out;
    // exgetrf in panels of 2 to 29 columns (the blocked schedule on the host; 16 by default here,
    // others with the tuning suite's block sizes): exgetf2's bits.
    const Mat<Space> LU2 = to_matrix<Space>(wide(nl * nl, 8), nl, nl);
    Kokkos::View<int*, typename Space::memory_space> ipiv2("ipiv2", nl);
    ExKokkos::Options panels = o;
    panels.block_size = o.block_size > 0 ? 1 + o.block_size % 29 : 16;
    const int info2 = ExKokkos::exgetrf(space, LU2, ipiv2, panels);
    std::vector<double> out2 = flatten(LU2);
    for (double p : flatten(ipiv2)) out2.push_back(p);
    out2.push_back(info2);
    r["exgetrf"] = out2;
    for (const char* trans : {"N", "T"}) {
      const Mat<Space> B = to_matrix<Space>(wide(nl * 3, 9), nl, 3);
      ExKokkos::exgetrs(space, trans, LU, ipiv, B, o);
      r[std::string("exgetrs ") + trans] = flatten(B);
    }
  }
  {
    const Mat<Space> Ad = to_matrix<Space>(dominant(nl, 10), nl, nl);
    const auto b = ExKokkosTest::to_view<Space>(wide(nl, 11));
    Kokkos::View<int*, typename Space::memory_space> ipiv("ipiv", nl);
    ExKokkos::Options og = o;
    og.refinement_steps = 3;
    const ExKokkos::GesvResult g = ExKokkos::exgesv(space, Ad, ipiv, b, og);
    std::vector<double> out = flatten(b);
    out.push_back(g.info);
    out.push_back(g.refinement_steps);
    r["exgesv"] = out;
  }
  // Batched: a batch of small wide-range matrices, factored; and solved with refinement.
  const int batch = 30, nb = 16;
  ExKokkosTest::Rng rng(12);
  std::uniform_real_distribution<double> u(-1, 1);
  std::uniform_int_distribution<int> e(-20, 20);
  using Batch = Kokkos::View<double***, Kokkos::LayoutRight, typename Space::memory_space>;
  Batch A0("A0", batch, nb, nb);
  Kokkos::View<double**, Kokkos::LayoutRight, typename Space::memory_space> B0("B0", batch, nb);
  {
    auto hA = Kokkos::create_mirror_view(A0);
    auto hB = Kokkos::create_mirror_view(B0);
    for (int s = 0; s < batch; ++s)
      for (int i = 0; i < nb; ++i) {
        hB(s, i) = u(rng);
        for (int j = 0; j < nb; ++j) hA(s, i, j) = std::ldexp(u(rng), e(rng));
      }
    Kokkos::deep_copy(A0, hA);
    Kokkos::deep_copy(B0, hB);
  }
  {
    Batch Ab("A", batch, nb, nb);
    Kokkos::deep_copy(Ab, A0);
    Kokkos::View<int**, typename Space::memory_space> ipiv("ipiv", batch, nb);
    Kokkos::View<int*, typename Space::memory_space> info("info", batch);
    ExKokkos::exgetf2_batched(space, Ab, ipiv, info, o);
    std::vector<double> out = flatten(Ab);
    for (double p : flatten(ipiv)) out.push_back(p);
    for (double i : flatten(info)) out.push_back(i);
    r["exgetf2_batched"] = out;
  }
  {
    Batch Ab("A", batch, nb, nb);
    auto Bb =
        Kokkos::View<double**, Kokkos::LayoutRight, typename Space::memory_space>("B", batch, nb);
    Kokkos::deep_copy(Ab, A0);
    Kokkos::deep_copy(Bb, B0);
    Kokkos::View<int**, typename Space::memory_space> ipiv("ipiv", batch, nb);
    Kokkos::View<int*, typename Space::memory_space> info("info", batch), steps("steps", batch);
    ExKokkos::Options og = o;
    og.refinement_steps = 3;
    ExKokkos::exgesv_batched(space, Ab, ipiv, Bb, info, steps, og);
    std::vector<double> out = flatten(Bb);
    for (double i : flatten(info)) out.push_back(i);
    for (double s : flatten(steps)) out.push_back(s);
    r["exgesv_batched"] = out;
  }
  return r;
}

inline void expect_same(const Results& expected, const Results& got, const std::string& what) {
  ASSERT_EQ(expected.size(), got.size()) << what;
  for (const auto& entry : expected) {
    const auto it = got.find(entry.first);
    ASSERT_NE(it, got.end()) << what << ": " << entry.first << " missing";
    ASSERT_EQ(entry.second.size(), it->second.size()) << what << ": " << entry.first;
    for (std::size_t i = 0; i < entry.second.size(); ++i)
      ASSERT_TRUE(same_bits(entry.second[i], it->second[i]))
          << what << ": " << entry.first << " element " << i << " is " << describe(it->second[i])
          << ", expected " << describe(entry.second[i]);
  }
}

}  // namespace EveryRoutine
}  // namespace ExKokkosTest

#endif
