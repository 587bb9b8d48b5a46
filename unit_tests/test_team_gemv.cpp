// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The team and serial forms of exgemv (ExKokkos_TeamGemv.hpp) inside a TeamPolicy kernel: on
// Serial and the default host space, for every team size from 1 to the widest, vector lengths 1
// and 2, two league sizes, trans 'N' and 'T', several alpha and beta (zeros included), shapes with
// empty, short and long (4099) inner dimensions, easy and hard data (wide exponent ranges,
// cancellation, NaN/Inf), double and float, A and x contiguous, strided and copied into team
// scratch. Every output must have the bits of the device-wide exgemv on the same data, and, for
// finite data, of the MPFR oracle.
#include <ExKokkos.hpp>

#include <ExKokkosTest_GemvOracle.hpp>
#include <ExKokkosTest_Generators.hpp>
#include <ExKokkosTest_Oracle.hpp>

#include "ExKokkosTest_Views.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace {

using ExKokkosTest::same_bits;

enum Where { contiguous, strided, scratch };
const char* const where_names[] = {"contiguous", "strided", "team scratch"};

// Matrix b of the batch is A(:, :, b), with x(:, b) and y0(:, b). Team t computes with batch
// t % batch into column t of Yteam (team form) and of Yserial (serial form, one thread), starting
// from y0(:, t % batch). Odd teams call the tag forms (TeamExGemv, SerialExGemv), even teams the
// functions.
template <class Space, class T, class AView, class XView>
struct Kernel {
  using Member = typename Kokkos::TeamPolicy<Space>::member_type;
  using ScratchMatrix = Kokkos::View<T**, Kokkos::LayoutLeft, typename Space::scratch_memory_space,
                                     Kokkos::MemoryUnmanaged>;
  using ScratchVector =
      Kokkos::View<T*, typename Space::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  AView A;
  XView X;
  Kokkos::View<T**, Kokkos::LayoutLeft, typename Space::memory_space> Yteam, Yserial;
  T alpha, beta;
  bool transposed, in_scratch;
  int batch;

  template <class AV, class XV, class YV>
  KOKKOS_INLINE_FUNCTION void run(const Member& team, const AV& a, const XV& x, const YV& yt,
                                  const YV& ys) const {
    using ExKokkos::Experimental::Trans;
    if (team.league_rank() % 2 == 0) {
      ExKokkos::Experimental::exgemv(team, transposed ? 'T' : 'N', alpha, a, x, beta, yt);
      Kokkos::single(Kokkos::PerTeam(team), [&]() {
        ExKokkos::Experimental::serial_exgemv(transposed ? "t" : "n", alpha, a, x, beta, ys);
      });
    } else if (transposed) {
      ExKokkos::Experimental::TeamExGemv<Member, Trans::Transpose>::invoke(team, alpha, a, x, beta,
                                                                           yt);
      Kokkos::single(Kokkos::PerTeam(team), [&]() {
        ExKokkos::Experimental::SerialExGemv<Trans::Transpose>::invoke(alpha, a, x, beta, ys);
      });
    } else {
      ExKokkos::Experimental::TeamExGemv<Member, Trans::NoTranspose>::invoke(team, alpha, a, x,
                                                                             beta, yt);
      Kokkos::single(Kokkos::PerTeam(team), [&]() {
        ExKokkos::Experimental::SerialExGemv<Trans::NoTranspose>::invoke(alpha, a, x, beta, ys);
      });
    }
    team.team_barrier();
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const int t = team.league_rank(), b = t % batch;
    const auto a = Kokkos::subview(A, Kokkos::ALL(), Kokkos::ALL(), b);
    const auto x = Kokkos::subview(X, Kokkos::ALL(), b);
    const auto yt = Kokkos::subview(Yteam, Kokkos::ALL(), t);
    const auto ys = Kokkos::subview(Yserial, Kokkos::ALL(), t);
    if (!in_scratch) {
      run(team, a, x, yt, ys);
      return;
    }
    const int rows = static_cast<int>(a.extent(0)), cols = static_cast<int>(a.extent(1));
    const int k = static_cast<int>(x.extent(0)), m = static_cast<int>(yt.extent(0));
    const ScratchMatrix sa(team.team_scratch(0), rows, cols);
    const ScratchVector sx(team.team_scratch(0), k), syt(team.team_scratch(0), m),
        sys(team.team_scratch(0), m);
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, rows * cols),
                         [&](const int e) { sa(e % rows, e / rows) = a(e % rows, e / rows); });
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, k), [&](const int i) { sx(i) = x(i); });
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, m), [&](const int i) {
      syt(i) = yt(i);
      sys(i) = ys(i);
    });
    team.team_barrier();
    run(team, sa, sx, syt, sys);
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, m), [&](const int i) {
      yt(i) = syt(i);
      ys(i) = sys(i);
    });
  }

  static std::size_t scratch_bytes(std::size_t rows, std::size_t cols, std::size_t k,
                                   std::size_t m) {
    return ScratchMatrix::shmem_size(rows, cols) + ScratchVector::shmem_size(k) +
           2 * ScratchVector::shmem_size(m) + ExKokkos::Experimental::team_scratch_size();
  }
};

struct Shape {
  std::size_t rows, cols;
};

// The batch on the host: a[b][i * cols + j] = A(i, j) of matrix b.
template <class T>
struct Batch {
  std::string name;
  std::size_t rows, cols;
  std::vector<std::vector<T>> a, x, y;
  bool finite;
};

template <class T>
Batch<T> make_batch(const ExKokkosTest::NamedSumGenerator& g, Shape s, bool transposed, int count,
                    ExKokkosTest::Rng& rng) {
  Batch<T> batch{g.name, s.rows, s.cols, {}, {}, {}, g.name != "nan_inf_mix"};
  const std::size_t k = transposed ? s.rows : s.cols, m = transposed ? s.cols : s.rows;
  // Exactly n values (the generators give about the size asked for).
  const auto take = [&](std::size_t n) {
    std::vector<T> out;
    while (out.size() < n) {
      const auto v = g.generate(n, rng);
      out.insert(out.end(), v.begin(), v.end());
    }
    out.resize(n);
    return out;
  };
  for (int b = 0; b < count; ++b) {
    batch.a.push_back(take(s.rows * s.cols));
    batch.x.push_back(take(k));
    batch.y.push_back(take(m));
  }
  // A lambda, not a range-for over {batch.a, batch.x, batch.y}: nvcc 13's front end rejects that
  // braced list here (and it copied every vector).
  const auto check_finite = [&batch](const std::vector<std::vector<T>>& v) {
    for (const auto& w : v)
      for (T e : w) batch.finite = batch.finite && std::isfinite(e);
  };
  check_finite(batch.a);
  check_finite(batch.x);
  check_finite(batch.y);
  return batch;
}

template <class Space, class T, class Layout>
void check_batch(const Batch<T>& h, bool transposed, T alpha, T beta, Where where) {
  using Mem = typename Space::memory_space;
  const int count = static_cast<int>(h.a.size());
  const std::size_t rows = h.rows, cols = h.cols;
  const std::size_t k = transposed ? rows : cols, m = transposed ? cols : rows;
  Kokkos::View<T***, Layout, Mem> A("A", rows, cols, count);
  Kokkos::View<T**, Layout, Mem> X("X", k, count);
  Kokkos::View<T**, Kokkos::LayoutLeft, Mem> Y0("Y0", m, count), Ywide("Ywide", m, count);
  {
    auto ha = Kokkos::create_mirror_view(A);
    auto hx = Kokkos::create_mirror_view(X);
    auto hy = Kokkos::create_mirror_view(Y0);
    for (int b = 0; b < count; ++b) {
      for (std::size_t i = 0; i < rows; ++i)
        for (std::size_t j = 0; j < cols; ++j) ha(i, j, b) = h.a[b][i * cols + j];
      for (std::size_t i = 0; i < k; ++i) hx(i, b) = h.x[b][i];
      for (std::size_t i = 0; i < m; ++i) hy(i, b) = h.y[b][i];
    }
    Kokkos::deep_copy(A, ha);
    Kokkos::deep_copy(X, hx);
    Kokkos::deep_copy(Y0, hy);
    Kokkos::deep_copy(Ywide, Y0);
  }
  const char* trans = transposed ? "T" : "N";
  // The device-wide routine, and the oracle where the data are finite.
  for (int b = 0; b < count; ++b)
    ExKokkos::exgemv(Space(), trans, alpha, Kokkos::subview(A, Kokkos::ALL(), Kokkos::ALL(), b),
                     Kokkos::subview(X, Kokkos::ALL(), b), beta,
                     Kokkos::subview(Ywide, Kokkos::ALL(), b));
  const auto wide = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), Ywide);
  const std::string what = std::string(h.name) + " " + std::to_string(rows) + " x " +
                           std::to_string(cols) + " trans " + trans + " alpha " +
                           std::to_string(alpha) + " beta " + std::to_string(beta) + ", " +
                           where_names[where];
  // With an empty inner dimension and alpha != 0 the device-wide exgemv scales y (RN(beta y),
  // -0 for beta < 0 and y = +0) where the oracle adds alpha * (+0), giving +0: the two references
  // differ only in that sign of zero, and the team forms follow the device-wide routine.
  if (h.finite && !(k == 0 && alpha != T(0))) {
    for (int b = 0; b < count; ++b)
      for (std::size_t i = 0; i < m; ++i) {
        std::vector<T> row(k);
        for (std::size_t j = 0; j < k; ++j)
          row[j] = transposed ? h.a[b][j * cols + i] : h.a[b][i * cols + j];
        const T expected = ExKokkosTest::exact_gemv_entry(alpha, row, h.x[b], beta, h.y[b][i]);
        ASSERT_TRUE(same_bits(wide(i, b), expected))
            << "device-wide vs oracle, " << what << ", y(" << i << "): " << wide(i, b) << " vs "
            << expected;
      }
  }

  using K = Kernel<Space, T, decltype(A), decltype(X)>;
  const int widest = ExKokkosTest::widest_team<Space>();
  for (int vector_length : {1, 2}) {
    for (int team_size = 1; team_size <= widest; ++team_size) {
      for (int league : {count, 2 * count + 1}) {
        // One league size for the strided and scratch views (the same kernel code).
        if (where != contiguous && league == count) continue;
        Kokkos::View<T**, Kokkos::LayoutLeft, Mem> Yteam("Yteam", m, league),
            Yserial("Yserial", m, league);
        for (int t = 0; t < league; ++t) {
          Kokkos::deep_copy(Kokkos::subview(Yteam, Kokkos::ALL(), t),
                            Kokkos::subview(Y0, Kokkos::ALL(), t % count));
          Kokkos::deep_copy(Kokkos::subview(Yserial, Kokkos::ALL(), t),
                            Kokkos::subview(Y0, Kokkos::ALL(), t % count));
        }
        Kokkos::TeamPolicy<Space> policy(league, team_size, vector_length);
        if (where == scratch)
          policy.set_scratch_size(0, Kokkos::PerTeam(K::scratch_bytes(rows, cols, k, m)));
        Kokkos::parallel_for(
            "team_gemv", policy,
            K{A, X, Yteam, Yserial, alpha, beta, transposed, where == scratch, count});
        const auto yt = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), Yteam);
        const auto ys = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), Yserial);
        for (int t = 0; t < league; ++t)
          for (std::size_t i = 0; i < m; ++i) {
            ASSERT_TRUE(same_bits(yt(i, t), wide(i, t % count)))
                << "team form, " << what << ", team " << team_size << " vector " << vector_length
                << " league " << league << ", y(" << i << ") of team " << t << ": " << yt(i, t)
                << " vs " << wide(i, t % count);
            ASSERT_TRUE(same_bits(ys(i, t), wide(i, t % count)))
                << "serial form, " << what << ", team " << team_size << " vector " << vector_length
                << " league " << league << ", y(" << i << ") of team " << t << ": " << ys(i, t)
                << " vs " << wide(i, t % count);
          }
      }
    }
  }
}

template <class Space, class T>
void check_all(Where where) {
  const Shape shapes[] = {{0, 3}, {3, 0}, {1, 1}, {2, 2}, {17, 17}, {3, 1000}, {2, 4099}, {40, 17}};
  const T scalars[][2] = {{T(1), T(0)}, {T(0.75), T(-1.25)}, {T(0), T(2)}, {T(-3), T(1)}};
  const auto generators = ExKokkosTest::sum_generators();
  ExKokkosTest::Rng rng(99);
  for (const Shape& s : shapes)
    for (bool transposed : {false, true})
      for (const auto& g : generators) {
        // The long shapes with the easy and the hardest data only: the rest is covered by the
        // short ones.
        if (s.rows * s.cols > 1000 && g.name != "uniform" && g.name != "full_range" &&
            g.name != "exact_cancellation")
          continue;
        const Batch<T> batch = make_batch<T>(g, s, transposed, 2, rng);
        for (const auto& ab : scalars) {
          if (where == strided)
            check_batch<Space, T, Kokkos::LayoutRight>(batch, transposed, ab[0], ab[1], where);
          else
            check_batch<Space, T, Kokkos::LayoutLeft>(batch, transposed, ab[0], ab[1], where);
          if (::testing::Test::HasFatalFailure()) return;
        }
      }
}

TEST(TeamGemv, SerialDouble) {
  for (Where w : {contiguous, strided, scratch}) check_all<Kokkos::Serial, double>(w);
}
TEST(TeamGemv, SerialFloat) {
  for (Where w : {contiguous, strided, scratch}) check_all<Kokkos::Serial, float>(w);
}
TEST(TeamGemv, DefaultHostSpaceDouble) {
  for (Where w : {contiguous, strided, scratch})
    check_all<Kokkos::DefaultHostExecutionSpace, double>(w);
}
TEST(TeamGemv, DefaultHostSpaceFloat) {
  for (Where w : {contiguous, strided, scratch})
    check_all<Kokkos::DefaultHostExecutionSpace, float>(w);
}

// beta == 0 does not read y: NaN there is overwritten. alpha == 0 reads neither A nor x.
TEST(TeamGemv, ZeroScalarsDoNotRead) {
  using Space = Kokkos::DefaultHostExecutionSpace;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  Kokkos::View<double**, Kokkos::LayoutLeft, Kokkos::HostSpace> A("A", 2, 2);
  Kokkos::View<double*, Kokkos::HostSpace> x("x", 2), y("y", 2);
  A(0, 0) = 1, A(0, 1) = 2, A(1, 0) = 3, A(1, 1) = 4, x(0) = 1, x(1) = 1;
  y(0) = nan, y(1) = nan;
  ExKokkos::Experimental::serial_exgemv('N', 1.0, A, x, 0.0, y);
  EXPECT_EQ(y(0), 3.0);
  EXPECT_EQ(y(1), 7.0);
  A(0, 0) = nan, x(1) = nan;
  ExKokkos::Experimental::serial_exgemv('N', 0.0, A, x, 0.5, y);
  EXPECT_EQ(y(0), 1.5);
  EXPECT_EQ(y(1), 3.5);
  (void)Space();
}

// Invalid arguments cannot throw inside a kernel: the call aborts, naming the routine.
TEST(TeamGemvDeathTest, BadTransAndExtentsAbort) {
  ::testing::FLAGS_gtest_death_test_style = "threadsafe";
  Kokkos::View<double**, Kokkos::LayoutLeft, Kokkos::HostSpace> A("A", 2, 3);
  Kokkos::View<double*, Kokkos::HostSpace> x("x", 3), y("y", 2), x_short("x", 2);
  EXPECT_DEATH(ExKokkos::Experimental::serial_exgemv('X', 1.0, A, x, 0.0, y), "exgemv.*trans");
  EXPECT_DEATH(ExKokkos::Experimental::serial_exgemv('N', 1.0, A, x_short, 0.0, y),
               "exgemv.*extents");
  EXPECT_DEATH(ExKokkos::Experimental::serial_exgemv('T', 1.0, A, x, 0.0, y), "exgemv.*extents");
}

}  // namespace
