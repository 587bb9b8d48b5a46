// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// TeamGetf2 and SerialGetf2 called from the test's own kernels give exgetf2's factors, pivots and
// info bit for bit on the same matrix: on Kokkos::Serial and the default space, for every team
// size, with A in place in a LayoutRight or a LayoutLeft batch (a strided subview) or copied to
// team scratch memory, and on one thread of a RangePolicy; for square and rectangular shapes with
// random, singular, ill-conditioned and NaN/Inf matrices, in double and in float. Extents that do
// not conform return LAPACK's negative info and leave A and ipiv alone.
#include <ExKokkos_Getf2.hpp>
#include <ExKokkos_TeamLU.hpp>

#include <ExKokkosTest_Oracle.hpp>

#include "ExKokkosTest_LuFactors.hpp"
#include "ExKokkosTest_Matrices.hpp"
#include "ExKokkosTest_TeamLU.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {
// A name of its own: the suites of one executable compile as one translation unit (CMakeLists.txt).
namespace TeamGetf2Suite {

using ExKokkosTest::same_bits;

template <class T>
using Factors = ExKokkosTest::LuFactors<T>;
using ExKokkosTest::expect_same_factors;

template <class Space, class T>
Factors<T> reference(const std::vector<T>& a, int m, int n) {
  return ExKokkosTest::factor_lu<Kokkos::LayoutLeft, Space>(
      a, m, n, [](const auto& A, const auto& ipiv) { return ExKokkos::exgetf2(Space(), A, ipiv); });
}

// One matrix per team: in place, or copied to team scratch memory, factored there and copied back.
template <class Space, class ABatch, class PBatch>
struct TeamFactor {
  using Member = typename Kokkos::TeamPolicy<Space>::member_type;
  ABatch A;
  PBatch ipiv;
  Kokkos::View<int*, typename Space::memory_space> info;
  bool staged;
  KOKKOS_INLINE_FUNCTION void operator()(const Member& member) const {
    const int b = member.league_rank();
    const auto a = Kokkos::subview(A, b, Kokkos::ALL(), Kokkos::ALL());
    const auto p = Kokkos::subview(ipiv, b, Kokkos::ALL());
    int r;
    if (staged) {
      const int m = static_cast<int>(a.extent(0)), n = static_cast<int>(a.extent(1));
      using T = typename ABatch::non_const_value_type;
      const auto s = ExKokkos::team_lu_scratch_matrix<T>(member, m, n);
      ExKokkos::team_lu_copy(member, a, s);
      r = ExKokkos::TeamGetf2<Member>::invoke(member, s, p);
      ExKokkos::team_lu_copy(member, s, a);
    } else {
      r = ExKokkos::TeamGetf2<Member>::invoke(member, a, p);
    }
    if (member.team_rank() == 0) info(b) = r;
  }
};

// One matrix per thread.
template <class ABatch, class PBatch, class InfoView>
struct SerialFactor {
  ABatch A;
  PBatch ipiv;
  InfoView info;
  KOKKOS_INLINE_FUNCTION void operator()(const int b) const {
    info(b) = ExKokkos::SerialGetf2::invoke(Kokkos::subview(A, b, Kokkos::ALL(), Kokkos::ALL()),
                                            Kokkos::subview(ipiv, b, Kokkos::ALL()));
  }
};

template <class Space, class Layout, class T>
struct Batch {
  Kokkos::View<T***, Layout, typename Space::memory_space> A;
  Kokkos::View<int**, Layout, typename Space::memory_space> ipiv;
  Kokkos::View<int*, typename Space::memory_space> info;
  typename Kokkos::View<T***, Layout, typename Space::memory_space>::HostMirror original;

  Batch(const std::vector<ExKokkosTest::LuMatrix>& mats, int m, int n)
      : A("A", mats.size(), m, n),
        ipiv("ipiv", mats.size(), std::min(m, n)),
        info("info", mats.size()),
        original(Kokkos::create_mirror(A)) {
    for (std::size_t b = 0; b < mats.size(); ++b)
      for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) original(b, i, j) = T(mats[b].a[std::size_t(i) * n + j]);
  }
  void reset() const {
    Kokkos::deep_copy(A, original);
    Kokkos::deep_copy(ipiv, -7);
    Kokkos::deep_copy(info, -99);
  }
  Factors<T> result(int b) const {
    const auto hA = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), A);
    const auto hp = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), ipiv);
    const auto hi = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), info);
    Factors<T> f;
    for (std::size_t i = 0; i < A.extent(1); ++i)
      for (std::size_t j = 0; j < A.extent(2); ++j) f.lu.push_back(hA(b, i, j));
    for (std::size_t j = 0; j < ipiv.extent(1); ++j) f.piv.push_back(hp(b, j));
    f.info = hi(b);
    return f;
  }
};

template <class Space, class Layout, class T>
void check_batch(const std::vector<ExKokkosTest::LuMatrix>& mats,
                 const std::vector<Factors<T>>& ref, int m, int n, const std::string& shape) {
  const std::string where = std::string(Space::name()) + " " + shape + " " +
                            (std::is_same<Layout, Kokkos::LayoutLeft>::value ? "Left" : "Right");
  const Batch<Space, Layout, T> batch(mats, m, n);
  const int count = static_cast<int>(mats.size());
  using F = TeamFactor<Space, decltype(batch.A), decltype(batch.ipiv)>;
  const std::size_t scratch = ExKokkos::team_lu_scratch_size<T>(m, n);
  for (const bool staged : {false, true}) {
    const F f{batch.A, batch.ipiv, batch.info, staged};
    for (const int team : ExKokkosTest::team_sizes<Space>(f, scratch)) {
      batch.reset();
      Kokkos::parallel_for(Kokkos::TeamPolicy<Space>(Space(), count, team)
                               .set_scratch_size(0, Kokkos::PerTeam(staged ? scratch : 0)),
                           f);
      Space().fence();
      for (int b = 0; b < count; ++b)
        expect_same_factors(ref[b], batch.result(b),
                            where + " " + mats[b].kind + " team " + std::to_string(team) +
                                (staged ? " in scratch" : " in place"));
    }
  }
  batch.reset();
  Kokkos::parallel_for(Kokkos::RangePolicy<Space>(Space(), 0, count),
                       SerialFactor<decltype(batch.A), decltype(batch.ipiv), decltype(batch.info)>{
                           batch.A, batch.ipiv, batch.info});
  Space().fence();
  for (int b = 0; b < count; ++b)
    expect_same_factors(ref[b], batch.result(b), where + " " + mats[b].kind + " SerialGetf2");
}

TEST(TeamGetf2, EqualsExgetf2ForEveryTeamSizeAndStaging) {
  ExKokkosTest::for_each_backend([](auto space) {
    using Space = decltype(space);
    ExKokkosTest::Rng rng(11);
    for (const auto& shape : ExKokkosTest::lu_shapes()) {
      const int m = shape.first, n = shape.second;
      const auto mats = ExKokkosTest::lu_matrices(m, n, rng);
      std::vector<Factors<double>> ref;
      for (const auto& mat : mats) {
        ref.push_back(reference<Space>(mat.a, m, n));
        if (mat.singular) EXPECT_GT(ref.back().info, 0) << mat.kind;
      }
      const std::string name = std::to_string(m) + "x" + std::to_string(n);
      check_batch<Space, Kokkos::LayoutRight>(mats, ref, m, n, name);
      check_batch<Space, Kokkos::LayoutLeft>(mats, ref, m, n, name);
    }
  });
}

// Float matrices: the same code with float entries, each an exact sum of exact double products
// rounded once to float.
TEST(TeamGetf2, FloatEqualsExgetf2) {
  ExKokkosTest::for_each_backend([](auto space) {
    using Space = decltype(space);
    ExKokkosTest::Rng rng(13);
    for (const auto& shape : std::vector<std::pair<int, int>>{{7, 7}, {16, 16}, {13, 20}}) {
      const int m = shape.first, n = shape.second;
      const auto mats = ExKokkosTest::lu_matrices(m, n, rng);
      std::vector<Factors<float>> ref;
      for (const auto& mat : mats)
        ref.push_back(reference<Space>(std::vector<float>(mat.a.begin(), mat.a.end()), m, n));
      check_batch<Space, Kokkos::LayoutRight>(
          mats, ref, m, n, std::to_string(m) + "x" + std::to_string(n) + " float");
    }
  });
}

// A wrong ipiv extent: -2 on every thread, nothing written.
template <class Space>
struct BadExtents {
  using Member = typename Kokkos::TeamPolicy<Space>::member_type;
  Kokkos::View<double**, Kokkos::LayoutRight, typename Space::memory_space> A;
  Kokkos::View<int*, typename Space::memory_space> ipiv;
  Kokkos::View<int*, typename Space::memory_space> info;  // [team rank], then the serial form
  KOKKOS_INLINE_FUNCTION void operator()(const Member& member) const {
    info(member.team_rank()) = ExKokkos::TeamGetf2<Member>::invoke(member, A, ipiv);
    member.team_barrier();
    if (member.team_rank() == 0) info(member.team_size()) = ExKokkos::SerialGetf2::invoke(A, ipiv);
  }
};

TEST(TeamGetf2, BadExtentsReturnNegativeInfoAndWriteNothing) {
  ExKokkosTest::for_each_backend([](auto space) {
    using Space = decltype(space);
    ExKokkosTest::Rng rng(12);
    for (const auto& shape : std::vector<std::pair<int, int>>{{4, 4}, {5, 3}, {3, 5}}) {
      const int m = shape.first, n = shape.second;
      const auto a = ExKokkosTest::uniform(std::size_t(m) * n, rng);
      for (const int pivots : {std::min(m, n) - 1, std::min(m, n) + 1}) {
        const BadExtents<Space> f{ExKokkosTest::to_matrix<Kokkos::LayoutRight, Space>(a, m, n),
                                  Kokkos::View<int*, typename Space::memory_space>("p", pivots),
                                  Kokkos::View<int*, typename Space::memory_space>("info", 65)};
        Kokkos::deep_copy(f.ipiv, -7);
        const int team = std::min(2, ExKokkosTest::team_sizes<Space>(f, 0).back());
        Kokkos::parallel_for(Kokkos::TeamPolicy<Space>(Space(), 1, team), f);
        const auto info = ExKokkosTest::to_host(f.info);
        for (int t = 0; t <= team; ++t) EXPECT_EQ(info[t], -2) << Space::name() << " thread " << t;
        const auto got = ExKokkosTest::matrix_elements(f.A);
        for (std::size_t i = 0; i < a.size(); ++i) EXPECT_TRUE(same_bits(got[i], a[i])) << i;
        for (const int p : ExKokkosTest::to_host(f.ipiv)) EXPECT_EQ(p, -7);
      }
    }
  });
}

// Empty matrices are valid: info 0.
TEST(TeamGetf2, EmptyMatrices) {
  Kokkos::View<double**, Kokkos::HostSpace> A("A", 0, 3);
  Kokkos::View<int*, Kokkos::HostSpace> ipiv("p", 0);
  EXPECT_EQ(ExKokkos::SerialGetf2::invoke(A, ipiv), 0);
}

}  // namespace TeamGetf2Suite
}  // namespace
