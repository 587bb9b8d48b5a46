// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// exgetrs and exgesv: the solves against their definition evaluated with the MPFR oracle (row
// swaps, then substitutions whose every component is RN(RN(exact residual) / diagonal)); batched
// equals unbatched bit for bit, refinement steps included; singular systems leave B alone; and
// refinement reaches the correctly rounded solution of A x = b (MPFR Gaussian elimination with
// 4000 bits) on well-conditioned systems.
#include <ExKokkos.hpp>

#include <ExKokkosTest_Oracle.hpp>

#include "ExKokkosTest_ExpectBits.hpp"
#include "ExKokkosTest_Matrices.hpp"
#include "ExKokkosTest_Views.hpp"

#include <gtest/gtest.h>

#include <mpfr.h>

#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace {
// A name of its own: the suites of one executable compile as one translation unit (CMakeLists.txt).
namespace GetrsSuite {

using ExKokkosTest::expect_bits;

using ExKokkosTest::describe;
using ExKokkosTest::same_bits;
using ExKokkosTest::to_host;
using Space = Kokkos::DefaultExecutionSpace;
using Mem = Space::memory_space;
using Rng = std::mt19937_64;

std::vector<double> random_matrix(int n, Rng& rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> a(std::size_t(n) * n);
  for (auto& v : a) v = u(rng);
  for (int i = 0; i < n; ++i) a[i * n + i] += 2.0 * (u(rng) < 0 ? -1 : 1);  // well-conditioned
  return a;
}

// One substitution by the definition: op(T) lower when forward.
void defined_substitution(const std::vector<double>& lu, int n, std::vector<double>& b,
                          bool upper_stored, bool transposed, bool unit) {
  const bool forward = upper_stored == transposed;
  auto t = [&](int i, int j) { return transposed ? lu[j * n + i] : lu[i * n + j]; };
  for (int q = 0; q < n; ++q) {
    const int i = forward ? q : n - 1 - q;
    ExKokkosTest::ExactSum s;
    s.add(b[i]);
    for (int p = 0; p < q; ++p) {
      const int j = forward ? p : n - 1 - p;
      s.add_product(-t(i, j), b[j]);
    }
    const double r = s.round_double();
    b[i] = unit ? r : r / t(i, i);
  }
}

std::vector<double> defined_getrs(bool transposed, const std::vector<double>& lu,
                                  const std::vector<int>& piv, int n, std::vector<double> b) {
  if (!transposed) {
    for (int j = 0; j < n; ++j) std::swap(b[j], b[piv[j]]);
    defined_substitution(lu, n, b, false, false, true);
    defined_substitution(lu, n, b, true, false, false);
  } else {
    defined_substitution(lu, n, b, true, true, false);
    defined_substitution(lu, n, b, false, true, true);
    for (int j = n - 1; j >= 0; --j) std::swap(b[j], b[piv[j]]);
  }
  return b;
}

// The exact solution of A x = b rounded once (MPFR elimination with partial pivoting at 4000
// bits: well-conditioned systems lose a few bits of them).
std::vector<double> exact_solution(const std::vector<double>& a, int n,
                                   const std::vector<double>& b) {
  const mpfr_prec_t prec = 4000;
  // An array of mpfr_t, not a std::vector: mpfr_t is an array type (nvcc refuses the vector).
  const std::size_t entries = std::size_t(n) * (n + 1);
  const std::unique_ptr<mpfr_t[]> m(new mpfr_t[entries]);
  for (std::size_t e = 0; e < entries; ++e) mpfr_init2(m[e], prec);
  auto at = [&](int i, int j) -> mpfr_t& { return m[std::size_t(i) * (n + 1) + j]; };
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) mpfr_set_d(at(i, j), a[i * n + j], MPFR_RNDN);
    mpfr_set_d(at(i, n), b[i], MPFR_RNDN);
  }
  mpfr_t f, t;
  mpfr_init2(f, prec);
  mpfr_init2(t, prec);
  for (int k = 0; k < n; ++k) {
    int p = k;
    for (int i = k + 1; i < n; ++i)
      if (mpfr_cmpabs(at(i, k), at(p, k)) > 0) p = i;
    for (int j = 0; j <= n; ++j) mpfr_swap(at(k, j), at(p, j));
    for (int i = k + 1; i < n; ++i) {
      mpfr_div(f, at(i, k), at(k, k), MPFR_RNDN);
      for (int j = k; j <= n; ++j) {
        mpfr_mul(t, f, at(k, j), MPFR_RNDN);
        mpfr_sub(at(i, j), at(i, j), t, MPFR_RNDN);
      }
    }
  }
  std::vector<double> x(n);
  for (int i = n - 1; i >= 0; --i) {
    for (int j = i + 1; j < n; ++j) {
      mpfr_mul(t, at(i, j), at(j, n), MPFR_RNDN);
      mpfr_sub(at(i, n), at(i, n), t, MPFR_RNDN);
    }
    mpfr_div(at(i, n), at(i, n), at(i, i), MPFR_RNDN);
    x[i] = ExKokkosTest::round_to_double(at(i, n));
  }
  mpfr_clear(f);
  mpfr_clear(t);
  for (std::size_t e = 0; e < entries; ++e) mpfr_clear(m[e]);
  return x;
}

struct Factored {
  Kokkos::View<double**, Kokkos::LayoutLeft, Mem> lu;
  Kokkos::View<int*, Mem> ipiv;
  std::vector<double> lu_host;
  std::vector<int> piv_host;
};

Factored factor(const std::vector<double>& a, int n) {
  Factored f;
  f.lu = ExKokkosTest::to_matrix<Kokkos::LayoutLeft, Space>(a, n, n);
  f.ipiv = Kokkos::View<int*, Mem>("ipiv", n);
  EXPECT_EQ(ExKokkos::exgetf2(Space(), f.lu, f.ipiv), 0);
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f.lu);
  auto p = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f.ipiv);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) f.lu_host.push_back(h(i, j));
  for (int j = 0; j < n; ++j) f.piv_host.push_back(p(j));
  return f;
}

TEST(Getrs, MatchesTheDefinitionForBothTransposesAndSeveralRightHandSides) {
  Rng rng(1);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int n : {1, 2, 7, 33, 100}) {
    const Factored f = factor(random_matrix(n, rng), n);
    for (const char* trans : {"N", "T"}) {
      const int nrhs = 3;
      std::vector<std::vector<double>> bs(nrhs, std::vector<double>(n));
      Kokkos::View<double**, Kokkos::LayoutLeft, Mem> B("B", n, nrhs);
      auto hB = Kokkos::create_mirror_view(B);
      for (int c = 0; c < nrhs; ++c)
        for (int i = 0; i < n; ++i) hB(i, c) = bs[c][i] = u(rng);
      Kokkos::deep_copy(B, hB);
      ExKokkos::exgetrs(Space(), trans, f.lu, f.ipiv, B);
      auto rB = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), B);
      for (int c = 0; c < nrhs; ++c) {
        std::vector<double> got(n);
        for (int i = 0; i < n; ++i) got[i] = rB(i, c);
        expect_bits(defined_getrs(trans[0] == 'T', f.lu_host, f.piv_host, n, bs[c]), got,
                    std::string(trans) + " n " + std::to_string(n));
      }
    }
  }
}

TEST(Getrs, BatchedEqualsUnbatched) {
  Rng rng(2);
  std::uniform_real_distribution<double> u(-1, 1);
  const int batch = 23, n = 12;
  Kokkos::View<double***, Kokkos::LayoutRight, Mem> LU("LU", batch, n, n);
  Kokkos::View<int**, Mem> ipiv("ipiv", batch, n);
  Kokkos::View<double**, Kokkos::LayoutRight, Mem> B("B", batch, n);
  auto hLU = Kokkos::create_mirror(LU);
  auto hp = Kokkos::create_mirror(ipiv);
  auto hB = Kokkos::create_mirror(B);
  std::vector<Factored> fs;
  std::vector<std::vector<double>> bs;
  for (int s = 0; s < batch; ++s) {
    fs.push_back(factor(random_matrix(n, rng), n));
    bs.emplace_back(n);
    for (int i = 0; i < n; ++i) {
      hB(s, i) = bs[s][i] = u(rng);
      hp(s, i) = fs[s].piv_host[i];
      for (int j = 0; j < n; ++j) hLU(s, i, j) = fs[s].lu_host[i * n + j];
    }
  }
  Kokkos::deep_copy(LU, hLU);
  Kokkos::deep_copy(ipiv, hp);
  for (const char* trans : {"N", "T"})
    for (int team : {0, 1, 2}) {  // 0: one thread a system (the default), else a team a system
      Kokkos::deep_copy(B, hB);
      ExKokkos::Options o;
      o.team_size = team;
      ExKokkos::exgetrs_batched(Space(), trans, LU, ipiv, B, o);
      auto rB = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), B);
      for (int s = 0; s < batch; ++s) {
        const auto b = ExKokkosTest::to_view<Space>(bs[s]);
        ExKokkos::exgetrs(Space(), trans, fs[s].lu, fs[s].ipiv, b);
        std::vector<double> got(n);
        for (int i = 0; i < n; ++i) got[i] = rB(s, i);
        expect_bits(to_host(b), got, std::string(trans) + " system " + std::to_string(s));
      }
    }
}

TEST(Gesv, RefinementReachesTheCorrectlyRoundedSolution) {
  Rng rng(3);
  std::uniform_real_distribution<double> u(-1, 1);
  int total = 0, plain_ok = 0, refined_ok = 0;
  for (int trial = 0; trial < 10; ++trial) {
    const int n = 20;
    const auto a = random_matrix(n, rng);
    std::vector<double> b(n);
    for (auto& v : b) v = u(rng);
    const auto exact = exact_solution(a, n, b);
    for (int steps : {0, 3}) {
      auto A = ExKokkosTest::to_matrix<Kokkos::LayoutLeft, Space>(a, n, n);
      Kokkos::View<int*, Mem> ipiv("ipiv", n);
      const auto x = ExKokkosTest::to_view<Space>(b);
      ExKokkos::Options o;
      o.refinement_steps = steps;
      const ExKokkos::GesvResult r = ExKokkos::exgesv(Space(), A, ipiv, x, o);
      EXPECT_EQ(r.info, 0);
      if (steps > 0) EXPECT_GE(r.refinement_steps, 1);
      const auto got = to_host(x);
      for (int i = 0; i < n; ++i) (steps ? refined_ok : plain_ok) += same_bits(got[i], exact[i]);
    }
    total += n;
  }
  std::printf("correctly rounded components: %d/%d without refinement, %d/%d with\n", plain_ok,
              total, refined_ok, total);
  EXPECT_EQ(refined_ok, total);
}

TEST(Gesv, BatchedEqualsUnbatchedAndSingularSystemsKeepB) {
  Rng rng(4);
  std::uniform_real_distribution<double> u(-1, 1);
  const int batch = 17, n = 10;
  Kokkos::View<double***, Kokkos::LayoutRight, Mem> A("A", batch, n, n);
  Kokkos::View<int**, Mem> ipiv("ipiv", batch, n);
  Kokkos::View<double**, Kokkos::LayoutRight, Mem> B("B", batch, n);
  Kokkos::View<int*, Mem> info("info", batch), steps("steps", batch);
  auto hA = Kokkos::create_mirror(A);
  auto hB = Kokkos::create_mirror(B);
  std::vector<std::vector<double>> as, bs;
  for (int s = 0; s < batch; ++s) {
    as.push_back(random_matrix(n, rng));
    if (s % 4 == 3)
      for (int j = 0; j < n; ++j) as.back()[2 * n + j] = 0.0;  // a zero row: singular
    bs.emplace_back(n);
    for (int i = 0; i < n; ++i) {
      hB(s, i) = bs[s][i] = u(rng);
      for (int j = 0; j < n; ++j) hA(s, i, j) = as[s][i * n + j];
    }
  }
  // Refinement in teams of two, and the default solve without it (one thread a system).
  for (const int most : {3, 0}) {
    Kokkos::deep_copy(A, hA);
    Kokkos::deep_copy(B, hB);
    Kokkos::deep_copy(steps, -1);
    ExKokkos::Options o;
    o.refinement_steps = most;
    o.team_size = most > 0 ? 2 : 0;
    ExKokkos::exgesv_batched(Space(), A, ipiv, B, info, steps, o);
    auto rB = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), B);
    auto ri = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), info);
    auto rs = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), steps);
    for (int s = 0; s < batch; ++s) {
      const std::string what =
          "refinement " + std::to_string(most) + ", system " + std::to_string(s);
      auto a = ExKokkosTest::to_matrix<Kokkos::LayoutLeft, Space>(as[s], n, n);
      Kokkos::View<int*, Mem> p("p", n);
      const auto x = ExKokkosTest::to_view<Space>(bs[s]);
      ExKokkos::Options single;
      single.refinement_steps = most;
      const auto r = ExKokkos::exgesv(Space(), a, p, x, single);
      EXPECT_EQ(r.info, ri(s)) << what;
      std::vector<double> got(n);
      for (int i = 0; i < n; ++i) got[i] = rB(s, i);
      expect_bits(to_host(x), got, what);
      if (s % 4 == 3) {
        EXPECT_GT(ri(s), 0);
        expect_bits(bs[s], got, "singular system keeps B, " + what);
      } else {
        EXPECT_EQ(r.refinement_steps, rs(s)) << what;
      }
    }
  }
}

TEST(Getrs, BadInputThrows) {
  Kokkos::View<double**, Mem> LU("LU", 3, 3), R("R", 3, 4);
  Kokkos::View<int*, Mem> p3("p", 3), p2("p", 2);
  Kokkos::View<double*, Mem> b3("b", 3), b4("b", 4);
  EXPECT_THROW(ExKokkos::exgetrs(Space(), "N", LU, p3, b4), std::invalid_argument);
  EXPECT_THROW(ExKokkos::exgetrs(Space(), "N", LU, p2, b3), std::invalid_argument);
  EXPECT_THROW(ExKokkos::exgetrs(Space(), "N", R, p3, b3), std::invalid_argument);
  EXPECT_THROW(ExKokkos::exgetrs(Space(), "Q", LU, p3, b3), std::invalid_argument);
}

}  // namespace GetrsSuite
}  // namespace
