// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// TeamGetrs and SerialGetrs called from the test's own kernels give exgetrs' solutions bit for bit
// with the same factors (exgetf2's, read in place or from team scratch memory): trans "N" and "T",
// one right-hand side or three (rank 2), on Kokkos::Serial and the default space, for every team
// size and on one thread of a RangePolicy, for square orders 1 to 33 with random, singular,
// ill-conditioned and NaN/Inf matrices. A bad trans, non-square factors, a wrong ipiv or b extent
// and a pivot out of range return LAPACK's negative info and leave b alone.
#include <ExKokkos_Getrs.hpp>
#include <ExKokkos_TeamLU.hpp>

#include <ExKokkosTest_Oracle.hpp>

#include "ExKokkosTest_ExpectBits.hpp"
#include "ExKokkosTest_Matrices.hpp"
#include "ExKokkosTest_TeamLU.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {
// A name of its own: the suites of one executable compile as one translation unit (CMakeLists.txt).
namespace TeamGetrsSuite {

using ExKokkosTest::expect_bits;
using ExKokkosTest::same_bits;
constexpr int nrhs = 3;

template <class Space>
using Mem = typename Space::memory_space;

// The systems of one order on Space: factors by exgetf2, right-hand sides, and exgetrs' solutions
// (for both transposes, each column of B solved as a rank-1 view).
template <class Space>
struct Systems {
  Kokkos::View<double***, Kokkos::LayoutRight, Mem<Space>> LU;
  Kokkos::View<int**, Kokkos::LayoutRight, Mem<Space>> ipiv;
  Kokkos::View<double***, Kokkos::LayoutLeft, Mem<Space>> B;  // batch x n x nrhs
  typename decltype(B)::HostMirror B0;
  std::vector<std::vector<std::vector<double>>> expected[2];  // [trans][system][column]

  Systems(const std::vector<ExKokkosTest::LuMatrix>& mats, int n, ExKokkosTest::Rng& rng)
      : LU("LU", mats.size(), n, n), ipiv("ipiv", mats.size(), n), B("B", mats.size(), n, nrhs) {
    B0 = Kokkos::create_mirror(B);
    auto hLU = Kokkos::create_mirror_view(LU);
    auto hp = Kokkos::create_mirror_view(ipiv);
    for (std::size_t s = 0; s < mats.size(); ++s) {
      auto a = ExKokkosTest::to_matrix<Kokkos::LayoutLeft, Space>(mats[s].a, n, n);
      Kokkos::View<int*, Mem<Space>> p("p", n);
      const int info = ExKokkos::exgetf2(Space(), a, p);
      if (mats[s].singular) EXPECT_GT(info, 0);
      const auto lu = ExKokkosTest::matrix_elements(a);
      const auto piv = ExKokkosTest::to_host(p);
      for (int i = 0; i < n; ++i) {
        hp(s, i) = piv[i];
        for (int j = 0; j < n; ++j) hLU(s, i, j) = lu[std::size_t(i) * n + j];
      }
      for (int t = 0; t < 2; ++t) expected[t].emplace_back();
      for (int c = 0; c < nrhs; ++c) {
        const auto b = ExKokkosTest::uniform(std::size_t(n), rng);
        for (int i = 0; i < n; ++i) B0(s, i, c) = b[i];
        for (int t = 0; t < 2; ++t) {
          const auto x = ExKokkosTest::to_view<Space>(b);
          ExKokkos::exgetrs(Space(), t ? "T" : "N", a, p, x);
          expected[t].back().push_back(ExKokkosTest::to_host(x));
        }
      }
    }
    Kokkos::deep_copy(LU, hLU);
    Kokkos::deep_copy(ipiv, hp);
  }

  // Checks B against exgetrs: all columns, or the first only.
  void check(int t, int columns, const std::string& what) const {
    const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), B);
    for (std::size_t s = 0; s < B.extent(0); ++s)
      for (int c = 0; c < nrhs; ++c) {
        std::vector<double> got(B.extent(1)), expect = expected[t][s][c];
        for (std::size_t i = 0; i < got.size(); ++i) got[i] = h(s, i, c);
        if (c >= columns)
          for (std::size_t i = 0; i < got.size(); ++i) expect[i] = B0(s, i, c);  // untouched
        expect_bits(expect, got,
                    what + " system " + std::to_string(s) + " column " + std::to_string(c));
      }
  }
};

// One system per team: the first column of B as a rank-1 view, or all of B (rank 2); the factors
// read in place or from a copy in team scratch memory.
template <class Space, class LUs, class Pivots, class Bs>
struct TeamSolve {
  using Member = typename Kokkos::TeamPolicy<Space>::member_type;
  LUs LU;
  Pivots ipiv;
  Bs B;
  Kokkos::View<int*, Mem<Space>> info;
  bool transposed, all_columns, staged;
  KOKKOS_INLINE_FUNCTION void operator()(const Member& member) const {
    const int s = member.league_rank();
    const auto lu = Kokkos::subview(LU, s, Kokkos::ALL(), Kokkos::ALL());
    if (staged) {
      const int n = static_cast<int>(lu.extent(0));
      const auto copy = ExKokkos::team_lu_scratch_matrix<double>(member, n, n);
      ExKokkos::team_lu_copy(member, lu, copy);
      solve(member, s, copy);
    } else {
      solve(member, s, lu);
    }
  }
  template <class Factors>
  KOKKOS_INLINE_FUNCTION void solve(const Member& member, int s, const Factors& lu) const {
    const auto p = Kokkos::subview(ipiv, s, Kokkos::ALL());
    const char* trans = transposed ? "T" : "N";
    int r;
    if (all_columns)
      r = ExKokkos::TeamGetrs<Member>::invoke(member, trans, lu, p,
                                              Kokkos::subview(B, s, Kokkos::ALL(), Kokkos::ALL()));
    else
      r = ExKokkos::TeamGetrs<Member>::invoke(member, trans, lu, p,
                                              Kokkos::subview(B, s, Kokkos::ALL(), 0));
    if (member.team_rank() == 0) info(s) = r;
  }
};

// One system per thread, all columns.
template <class LUs, class Pivots, class Bs, class InfoView>
struct SerialSolve {
  LUs LU;
  Pivots ipiv;
  Bs B;
  InfoView info;
  bool transposed;
  KOKKOS_INLINE_FUNCTION void operator()(const int s) const {
    info(s) = ExKokkos::SerialGetrs::invoke(transposed ? "T" : "N",
                                            Kokkos::subview(LU, s, Kokkos::ALL(), Kokkos::ALL()),
                                            Kokkos::subview(ipiv, s, Kokkos::ALL()),
                                            Kokkos::subview(B, s, Kokkos::ALL(), Kokkos::ALL()));
  }
};

template <class Space>
void expect_all_zero(const Kokkos::View<int*, Mem<Space>>& info, const std::string& what) {
  for (const int i : ExKokkosTest::to_host(info)) EXPECT_EQ(i, 0) << what;
}

TEST(TeamGetrs, EqualsExgetrsForBothTransposesAndEveryTeamSize) {
  ExKokkosTest::for_each_backend([](auto space) {
    using Space = decltype(space);
    ExKokkosTest::Rng rng(21);
    for (const auto& shape : ExKokkosTest::lu_shapes()) {
      if (shape.first != shape.second) continue;
      const int n = shape.first;
      const Systems<Space> sys(ExKokkosTest::lu_matrices(n, n, rng), n, rng);
      const int count = static_cast<int>(sys.B.extent(0));
      Kokkos::View<int*, Mem<Space>> info("info", count);
      using F = TeamSolve<Space, decltype(sys.LU), decltype(sys.ipiv), decltype(sys.B)>;
      const std::string where = std::string(Space::name()) + " n " + std::to_string(n);
      const std::size_t scratch = ExKokkos::team_lu_scratch_size<double>(n, n);
      for (const int t : {0, 1})
        for (const int variant : {0, 1, 2}) {  // rank 1, rank 2, rank 2 with staged factors
          const bool all = variant > 0, staged = variant == 2;
          const F f{sys.LU, sys.ipiv, sys.B, info, t == 1, all, staged};
          for (const int team : ExKokkosTest::team_sizes<Space>(f, scratch)) {
            Kokkos::deep_copy(sys.B, sys.B0);
            Kokkos::deep_copy(info, -99);
            Kokkos::parallel_for(Kokkos::TeamPolicy<Space>(Space(), count, team)
                                     .set_scratch_size(0, Kokkos::PerTeam(staged ? scratch : 0)),
                                 f);
            const std::string what = where + (t ? " T" : " N") + " team " + std::to_string(team) +
                                     (all ? " rank 2" : " rank 1") +
                                     (staged ? ", factors in scratch" : "");
            expect_all_zero<Space>(info, what);
            sys.check(t, all ? nrhs : 1, what);
          }
        }
      for (const int t : {0, 1}) {
        Kokkos::deep_copy(sys.B, sys.B0);
        Kokkos::deep_copy(info, -99);
        Kokkos::parallel_for(
            Kokkos::RangePolicy<Space>(Space(), 0, count),
            SerialSolve<decltype(sys.LU), decltype(sys.ipiv), decltype(sys.B), decltype(info)>{
                sys.LU, sys.ipiv, sys.B, info, t == 1});
        const std::string what = where + (t ? " T" : " N") + " SerialGetrs";
        expect_all_zero<Space>(info, what);
        sys.check(t, nrhs, what);
      }
    }
  });
}

// Each bad argument on its own: the code on every thread of a team of two and from the serial
// form; b keeps its bits.
template <class Space, class LUView, class PivView, class BView>
struct BadCall {
  using Member = typename Kokkos::TeamPolicy<Space>::member_type;
  char flag;  // trans is "<flag>", or a null pointer when flag is 0 (built in the kernel: a host
              // string would not be readable on a device)
  LUView LU;
  PivView ipiv;
  BView b;
  Kokkos::View<int*, Mem<Space>> info;  // [team rank], then the serial form
  KOKKOS_INLINE_FUNCTION void operator()(const Member& member) const {
    const char text[2] = {flag, '\0'};
    const char* trans = flag == 0 ? nullptr : text;
    info(member.team_rank()) = ExKokkos::TeamGetrs<Member>::invoke(member, trans, LU, ipiv, b);
    member.team_barrier();
    if (member.team_rank() == 0)
      info(member.team_size()) = ExKokkos::SerialGetrs::invoke(trans, LU, ipiv, b);
  }
};

template <class Space, class LUView, class PivView>
void expect_refused(char trans, const LUView& LU, const PivView& ipiv, int rows, int expected,
                    const std::string& what) {
  ExKokkosTest::Rng rng(22);
  const auto b0 = ExKokkosTest::uniform(std::size_t(rows), rng);
  const auto b = ExKokkosTest::to_view<Space>(b0);
  using F = BadCall<Space, LUView, PivView, decltype(b)>;
  const F f{trans, LU, ipiv, b, Kokkos::View<int*, Mem<Space>>("info", 65)};
  const int team = std::min(2, ExKokkosTest::team_sizes<Space>(f, 0).back());
  Kokkos::parallel_for(Kokkos::TeamPolicy<Space>(Space(), 1, team), f);
  const auto info = ExKokkosTest::to_host(f.info);
  for (int t = 0; t <= team; ++t) EXPECT_EQ(info[t], expected) << what << " thread " << t;
  if (expected != 0) expect_bits(b0, ExKokkosTest::to_host(b), what + ": b written");
}

TEST(TeamGetrs, BadArgumentsReturnNegativeInfoAndWriteNothing) {
  ExKokkosTest::for_each_backend([](auto space) {
    using Space = decltype(space);
    const std::string where = Space::name();
    ExKokkosTest::Rng rng(23);
    const int n = 4;
    auto LU = ExKokkosTest::to_matrix<Kokkos::LayoutLeft, Space>(
        ExKokkosTest::uniform(std::size_t(n) * n, rng), n, n);
    auto R = ExKokkosTest::to_matrix<Kokkos::LayoutLeft, Space>(
        ExKokkosTest::uniform(std::size_t(n) * (n + 1), rng), n, n + 1);
    const auto good = ExKokkosTest::to_view<Space>(std::vector<int>{2, 1, 3, 3});
    const auto short_piv = ExKokkosTest::to_view<Space>(std::vector<int>{2, 1, 3});
    const auto above = ExKokkosTest::to_view<Space>(std::vector<int>{2, 0, 3, 3});  // 0 < 1
    const auto beyond = ExKokkosTest::to_view<Space>(std::vector<int>{2, 1, 3, 4});
    expect_refused<Space>('Q', LU, good, n, -1, where + " trans Q");
    expect_refused<Space>(0, LU, good, n, -1, where + " trans null");
    expect_refused<Space>('N', R, good, n, -2, where + " LU 4 x 5");
    expect_refused<Space>('N', LU, short_piv, n, -3, where + " 3 pivots");
    expect_refused<Space>('T', LU, above, n, -3, where + " pivot above its step");
    expect_refused<Space>('N', LU, beyond, n, -3, where + " pivot past n");
    expect_refused<Space>('N', LU, good, n + 1, -4, where + " b of 5");
    expect_refused<Space>('n', LU, good, n, 0, where + " good arguments");  // the control
  });
}

}  // namespace TeamGetrsSuite
}  // namespace
