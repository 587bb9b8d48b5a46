// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Host-level calls from several std::threads at once (docs/guarantees.md, "Calling from several
// threads"): on Kokkos::Serial every call gives the bits the same call gives alone (ExKokkos
// serializes its Serial calls, whose kernels share one team-data block before Kokkos 4); on the
// default host space every call gives those bits or, where Kokkos cannot launch from that thread
// (Kokkos 3's OpenMP backend off the thread that initialized it), throws std::invalid_argument
// before anything is written.
#include <ExKokkos.hpp>
#include "ExKokkosTest_Views.hpp"
#include <Kokkos_Core.hpp>
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstring>
#include <random>
#include <stdexcept>
#include <thread>
#include <vector>

namespace {
// A name of its own: the suites of one executable compile as one translation unit (CMakeLists.txt).
namespace ConcurrentCallsSuite {

using Matrix = Kokkos::View<double**, Kokkos::LayoutLeft, Kokkos::HostSpace>;
using Vector = Kokkos::View<double*, Kokkos::HostSpace>;

bool same(double a, double b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

struct Problem {
  Vector x, y;
  Matrix A;
  Vector v;
  double dot, sum;
  std::vector<double> gemv;
  std::vector<double> lu;
};

// Data whose sums cancel heavily (so that a wrong accumulator shows), and the results of each call
// made alone.
template <class Space>
Problem make_problem(unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Problem p{
      Vector("x", 5000), Vector("y", 5000), Matrix("A", 24, 24), Vector("v", 24), 0, 0, {}, {}};
  for (int i = 0; i < 5000; ++i) {
    p.x(i) = std::ldexp(u(rng), int(rng() % 120) - 60);
    p.y(i) = u(rng);
  }
  for (int i = 0; i < 24; ++i) {
    p.v(i) = u(rng);
    for (int j = 0; j < 24; ++j) p.A(i, j) = u(rng) + (i == j ? 2.0 : 0.0);
  }
  p.dot = ExKokkos::exdot(Space(), p.x, p.y);
  p.sum = ExKokkos::exsum(Space(), p.x);
  Vector out("out", 24);
  ExKokkos::exgemv(Space(), "N", 1.0, p.A, p.v, 0.0, out);
  for (int i = 0; i < 24; ++i) p.gemv.push_back(out(i));
  Matrix F("F", 24, 24);
  Kokkos::deep_copy(F, p.A);
  Kokkos::View<int*, Kokkos::HostSpace> piv("piv", 24);
  ExKokkos::exgetf2(Space(), F, piv);
  for (int j = 0; j < 24; ++j)
    for (int i = 0; i < 24; ++i) p.lu.push_back(F(i, j));
  return p;
}

// Four threads, each calling every routine `rounds` times on its own problem. Returns the number
// of wrong results; counts the calls refused with std::invalid_argument.
template <class Space>
int hammer(int rounds, std::atomic<int>& refused, std::atomic<int>& calls) {
  constexpr int threads = 4;
  std::vector<Problem> problems;
  for (int t = 0; t < threads; ++t) problems.push_back(make_problem<Space>(100 + t));
  // Each thread's output views are made here: a labelled host view is filled by the default
  // host space, which Kokkos 3's OpenMP backend refuses from other threads.
  std::vector<Vector> outs;
  std::vector<Matrix> factors;
  std::vector<Kokkos::View<int*, Kokkos::HostSpace>> pivots;
  for (int t = 0; t < threads; ++t) {
    outs.emplace_back("out", 24);
    factors.emplace_back("F", 24, 24);
    pivots.emplace_back("piv", 24);
  }
  std::atomic<int> wrong{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      const Problem& p = problems[t];
      const Vector out = outs[t];
      const Matrix F = factors[t];
      const Kokkos::View<int*, Kokkos::HostSpace> piv = pivots[t];
      for (int r = 0; r < rounds; ++r) {
        for (int which = 0; which < 4; ++which) {
          ++calls;
          try {
            if (which == 0 && !same(ExKokkos::exdot(Space(), p.x, p.y), p.dot)) ++wrong;
            if (which == 1 && !same(ExKokkos::exsum(Space(), p.x), p.sum)) ++wrong;
            if (which == 2) {
              ExKokkos::exgemv(Space(), "N", 1.0, p.A, p.v, 0.0, out);
              for (int i = 0; i < 24; ++i)
                if (!same(out(i), p.gemv[i])) ++wrong;
            }
            if (which == 3) {
              std::memcpy(F.data(), p.A.data(), sizeof(double) * 24 * 24);
              ExKokkos::exgetf2(Space(), F, piv);
              for (int j = 0; j < 24; ++j)
                for (int i = 0; i < 24; ++i)
                  if (!same(F(i, j), p.lu[24 * j + i])) ++wrong;
            }
          } catch (const std::invalid_argument&) {
            ++refused;
          }
        }
      }
    });
  for (auto& th : pool) th.join();
  return wrong.load();
}

TEST(ConcurrentCalls, SerialGivesTheBitsOfEachCallAlone) {
  std::atomic<int> refused{0}, calls{0};
  EXPECT_EQ(hammer<Kokkos::Serial>(50, refused, calls), 0);
  EXPECT_EQ(refused.load(), 0);
  EXPECT_EQ(calls.load(), 4 * 50 * 4);
}

TEST(ConcurrentCalls, DefaultHostSpaceGivesTheBitsOrRefuses) {
  std::atomic<int> refused{0}, calls{0};
  EXPECT_EQ(hammer<Kokkos::DefaultHostExecutionSpace>(20, refused, calls), 0);
  EXPECT_EQ(calls.load(), 4 * 20 * 4);
#if defined(KOKKOS_ENABLE_OPENMP) && KOKKOS_VERSION < 40000
  // Kokkos 3's OpenMP backend launches only from the thread that initialized Kokkos: every call
  // from the other threads is refused (documented), never a wrong bit.
  if (std::is_same<Kokkos::DefaultHostExecutionSpace, Kokkos::OpenMP>::value)
    EXPECT_EQ(refused.load(), calls.load());
#endif
}

}  // namespace ConcurrentCallsSuite
}  // namespace
