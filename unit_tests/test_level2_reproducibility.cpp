// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// exgemv, extrsv, the LU (exgesv_batched refined and not, exgesv with refinement, exgetrf),
// exgemm, exger, exsyr2, extrsm and extrmm give the same bits whatever runs them. Within one
// process: every schedule, team and league size, and a random permutation of the inner index (an
// exact sum does not depend on order; for the rank updates and extrsm/extrmm, of the rows or
// right-hand sides). Across processes: ctest runs this suite with OMP_NUM_THREADS = 1, 2, 3 and
// 4; each run writes a digest of the bits it got to $EXKOKKOS_REPRO_OUT and
// repro2_compare_thread_counts compares the four files. Ordinary KokkosBlas::gemv and gemm on the
// same data are printed beside for contrast.
#include <ExKokkos.hpp>

#include <ExKokkosTest_Generators.hpp>

#include "ExKokkosTest_Digest.hpp"
#include "ExKokkosTest_Views.hpp"

#ifdef EXKOKKOS_TEST_HAVE_KOKKOSKERNELS
#include <KokkosBlas2_gemv.hpp>
#include <KokkosBlas3_gemm.hpp>
#endif

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace {
// A name of its own: the suites of one executable compile as one translation unit (CMakeLists.txt).
namespace Level2ReproducibilitySuite {

using Space = Kokkos::DefaultExecutionSpace;
using Matrix = Kokkos::View<double**, Kokkos::LayoutLeft, Space::memory_space>;
using Vec = Kokkos::View<double*, Space::memory_space>;

using ExKokkosTest::digest;

// A matrix with a wide dynamic range and heavy cancellation along rows and columns, so that any
// change in the order of additions would show in the last bits.
Matrix wide_matrix(std::size_t m, std::size_t n, std::uint64_t seed) {
  ExKokkosTest::Rng rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::uniform_int_distribution<int> e(-40, 40);
  Matrix A("A", m, n);
  auto h = Kokkos::create_mirror_view(A);
  for (std::size_t j = 0; j < n; ++j)
    for (std::size_t i = 0; i < m; ++i) h(i, j) = std::ldexp(u(rng), e(rng));
  Kokkos::deep_copy(A, h);
  return A;
}

Vec wide_vector(std::size_t n, std::uint64_t seed) {
  ExKokkosTest::Rng rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::uniform_int_distribution<int> e(-40, 40);
  std::vector<double> v(n);
  for (auto& x : v) x = std::ldexp(u(rng), e(rng));
  return ExKokkosTest::to_view<Space>(v);
}

// A well-conditioned operand for the triangular solves (both triangles filled): the diagonal in
// [1, 2), the rest below 1/n in magnitude.
Matrix well_conditioned_matrix(std::size_t n, std::uint64_t seed) {
  ExKokkosTest::Rng rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  Matrix T("T", n, n);
  auto h = Kokkos::create_mirror_view(T);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) h(i, j) = i == j ? 1.5 + 0.5 * u(rng) : u(rng) / n;
  Kokkos::deep_copy(T, h);
  return T;
}

std::vector<double> gemv(const char* trans, const Matrix& A, const Vec& x, const Vec& y0,
                         const ExKokkos::Options& o = {}) {
  Vec y("y", y0.extent(0));
  Kokkos::deep_copy(y, y0);
  ExKokkos::exgemv(Space(), trans, 0.75, A, x, -1.25, y, o);
  return ExKokkosTest::to_host(y);
}

TEST(Level2Reproducibility, EveryScheduleOrderAndThreadCountGivesTheSameBits) {
  FILE* out = nullptr;
  if (const char* path = std::getenv("EXKOKKOS_REPRO_OUT")) out = std::fopen(path, "w");

  const std::size_t m = 300, n = 500;
  const Matrix A = wide_matrix(m, n, 1);
  for (const char* trans : {"N", "T"}) {
    const bool t = trans[0] == 'T';
    const Vec x = wide_vector(t ? m : n, 2), y0 = wide_vector(t ? n : m, 3);
    const auto reference = gemv(trans, A, x, y0);
    for (auto s : ExKokkosTest::gemv_schedules<Space>()) {
      ExKokkos::Options o;
      o.schedule = s;
      EXPECT_EQ(digest(gemv(trans, A, x, y0, o)), digest(reference))
          << trans << " schedule " << static_cast<int>(s);
    }
    // The inner index permuted: columns of op(A) and elements of x moved together.
    ExKokkosTest::Rng rng(4);
    std::vector<std::size_t> perm(t ? m : n);
    std::iota(perm.begin(), perm.end(), 0);
    std::shuffle(perm.begin(), perm.end(), rng);
    Matrix P("P", m, n);
    Vec px("px", x.extent(0));
    auto hA = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), A);
    auto hP = Kokkos::create_mirror_view(P);
    auto hx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x);
    auto hpx = Kokkos::create_mirror_view(px);
    for (std::size_t k = 0; k < perm.size(); ++k) {
      hpx(k) = hx(perm[k]);
      for (std::size_t o = 0; o < (t ? n : m); ++o) {
        if (t)
          hP(k, o) = hA(perm[k], o);
        else
          hP(o, k) = hA(o, perm[k]);
      }
    }
    Kokkos::deep_copy(P, hP);
    Kokkos::deep_copy(px, hpx);
    EXPECT_EQ(digest(gemv(trans, P, px, y0)), digest(reference)) << trans << " permuted";

#ifdef EXKOKKOS_TEST_HAVE_KOKKOSKERNELS
    Vec y("y", y0.extent(0)), yp("yp", y0.extent(0));
    Kokkos::deep_copy(y, y0);
    Kokkos::deep_copy(yp, y0);
    KokkosBlas::gemv(trans, 0.75, A, x, -1.25, y);
    KokkosBlas::gemv(trans, 0.75, P, px, -1.25, yp);
    std::printf("%s: ExKokkos digest %016" PRIx64
                " (same when permuted); KokkosBlas::gemv %016" PRIx64 ", permuted %016" PRIx64 "\n",
                trans, digest(reference), digest(ExKokkosTest::to_host(y)),
                digest(ExKokkosTest::to_host(yp)));
#endif
    if (out) std::fprintf(out, "exgemv %s %016" PRIx64 "\n", trans, digest(reference));
  }

  // extrsv, all eight variants on one well-conditioned matrix (both triangles filled).
  const std::size_t nt = 400;
  const Matrix T = well_conditioned_matrix(nt, 5);
  const Vec b0 = wide_vector(nt, 6);
  for (const char* uplo : {"L", "U"})
    for (const char* trans : {"N", "T"})
      for (const char* diag : {"N", "U"}) {
        std::vector<std::uint64_t> digests;
        for (int block : {0, 1, 50, 1000}) {
          ExKokkos::Options o;
          o.block_size = block;
          Vec b("b", nt);
          Kokkos::deep_copy(b, b0);
          ExKokkos::extrsv(Space(), uplo, trans, diag, T, b, o);
          digests.push_back(digest(ExKokkosTest::to_host(b)));
        }
        for (auto d : digests) EXPECT_EQ(d, digests[0]) << uplo << trans << diag;
        if (out) std::fprintf(out, "extrsv %s%s%s %016" PRIx64 "\n", uplo, trans, diag, digests[0]);
      }

  // The LU: a batch of matrices with a wide range factored and solved, by teams of 1 (on the host
  // eight matrices at a time in vector lanes, the last group of five) and of every thread; and
  // one larger matrix through exgesv.
  const int batch = 45, nl = 16;
  Kokkos::View<double***, Kokkos::LayoutRight, Space::memory_space> A0("A0", batch, nl, nl);
  Kokkos::View<double**, Kokkos::LayoutRight, Space::memory_space> B0("B0", batch, nl);
  {
    ExKokkosTest::Rng lrng(7);
    std::uniform_real_distribution<double> u(-1, 1);
    std::uniform_int_distribution<int> e(-20, 20);
    auto hA = Kokkos::create_mirror_view(A0);
    auto hB = Kokkos::create_mirror_view(B0);
    for (int s = 0; s < batch; ++s)
      for (int i = 0; i < nl; ++i) {
        hB(s, i) = u(lrng);
        for (int j = 0; j < nl; ++j) hA(s, i, j) = std::ldexp(u(lrng), e(lrng));
      }
    Kokkos::deep_copy(A0, hA);
    Kokkos::deep_copy(B0, hB);
  }
  // Refined in teams of one thread and of the widest team; unrefined in the default form (a range
  // of threads, one a system) and in teams of one thread: each pair gives the same bits.
  std::vector<std::uint64_t> lu_digests;
  const std::pair<int, int> team_and_steps[] = {
      {1, 3}, {ExKokkosTest::widest_team<Space>(), 3}, {0, 0}, {1, 0}};
  for (const auto& [team, refinement] : team_and_steps) {
    auto A = Kokkos::View<double***, Kokkos::LayoutRight, Space::memory_space>("A", batch, nl, nl);
    auto B = Kokkos::View<double**, Kokkos::LayoutRight, Space::memory_space>("B", batch, nl);
    Kokkos::deep_copy(A, A0);
    Kokkos::deep_copy(B, B0);
    Kokkos::View<int**, Space::memory_space> ipiv("ipiv", batch, nl);
    Kokkos::View<int*, Space::memory_space> info("info", batch), steps("steps", batch);
    ExKokkos::Options o;
    o.team_size = team;
    o.refinement_steps = refinement;
    ExKokkos::exgesv_batched(Space(), A, ipiv, B, info, steps, o);
    auto hA = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), A);
    auto hB = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), B);
    std::vector<double> all(hA.data(), hA.data() + hA.span());
    all.insert(all.end(), hB.data(), hB.data() + hB.span());
    lu_digests.push_back(digest(all));
  }
  EXPECT_EQ(lu_digests[0], lu_digests[1]) << "team sizes, refined";
  EXPECT_EQ(lu_digests[2], lu_digests[3]) << "range against teams, unrefined";
  const Vec bl = wide_vector(nt, 8);
  Matrix L("L", nt, nt);
  Kokkos::deep_copy(L, T);
  Kokkos::View<int*, Space::memory_space> lpiv("lpiv", nt);
  ExKokkos::Options refine;
  refine.refinement_steps = 2;
  ExKokkos::exgesv(Space(), L, lpiv, bl, refine);
  const std::uint64_t gesv_digest = digest(ExKokkosTest::to_host(bl));
  // exgetrf on a dense wide-range matrix: the blocked schedule (the default panel, and panels of
  // 17 columns), whose trailing update spreads over every thread, against exgetf2's one thread.
  const Matrix G0 = wide_matrix(nt, nt, 14);
  std::vector<std::uint64_t> getrf_digests;
  for (int panel : {-1, 0, 17}) {  // -1: exgetf2
    Matrix G("G", nt, nt);
    Kokkos::deep_copy(G, G0);
    Kokkos::View<int*, Space::memory_space> gpiv("gpiv", nt);
    ExKokkos::Options o;
    o.block_size = panel > 0 ? panel : 0;
    const int info =
        panel < 0 ? ExKokkos::exgetf2(Space(), G, gpiv) : ExKokkos::exgetrf(Space(), G, gpiv, o);
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), G);
    auto hp = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), gpiv);
    std::vector<double> all(h.data(), h.data() + h.span());
    for (std::size_t i = 0; i < nt; ++i) all.push_back(double(hp(i)));
    all.push_back(double(info));
    getrf_digests.push_back(digest(all));
  }
  for (auto d : getrf_digests) EXPECT_EQ(d, getrf_digests[0]) << "exgetrf against exgetf2";
  if (out) {
    std::fprintf(out, "exgesv_batched %016" PRIx64 "\n", lu_digests[0]);
    std::fprintf(out, "exgesv_batched unrefined %016" PRIx64 "\n", lu_digests[2]);
    std::fprintf(out, "exgesv %016" PRIx64 "\n", gesv_digest);
    std::fprintf(out, "exgetrf %016" PRIx64 "\n", getrf_digests[0]);
    std::fclose(out);
  }
}

// exgemm: every schedule, team and league size and expansion size, and the inner index permuted
// (columns of A and rows of B moved together). Appends to the file the test above started.
TEST(Level3Reproducibility, EveryScheduleOrderAndThreadCountGivesTheSameBits) {
  const std::size_t m = 70, n = 45, k = 300;
  const Matrix A = wide_matrix(m, k, 11), B = wide_matrix(k, n, 12), C0 = wide_matrix(m, n, 13);
  auto gemm = [&](const Matrix& a, const Matrix& b, const ExKokkos::Options& o) {
    Matrix C("C", m, n);
    Kokkos::deep_copy(C, C0);
    ExKokkos::exgemm(Space(), "N", "N", 0.75, a, b, -1.25, C, o);
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), C);
    return digest(std::vector<double>(h.data(), h.data() + h.span()));
  };
  const std::uint64_t reference = gemm(A, B, {});
  std::vector<ExKokkos::Options> all;
  for (auto s : ExKokkosTest::schedules<Space>()) {
    ExKokkos::Options o;
    o.schedule = s;
    all.push_back(o);
  }
  {
    ExKokkos::Options o;  // error-free splitting (falls back, same bits, where it cannot split)
    o.schedule = ExKokkos::Schedule::ozaki;
    all.push_back(o);
  }
  const int threads = ExKokkosTest::widest_team<Space>();
  for (int team : {1, std::min(2, threads), threads}) {  // 1 to 4 threads in the runs
    ExKokkos::Options o;
    o.schedule = ExKokkos::Schedule::tiles;
    o.team_size = team;
    o.block_size = team == 2 ? 7 : 0;
    all.push_back(o);
  }
  for (int league : {1, 7, 5000}) {
    ExKokkos::Options o;
    o.schedule = ExKokkos::Schedule::team_per_output;
    o.team_size = threads;
    o.league_size = league;
    o.expansion_size = league == 7 ? 2 : 6;
    all.push_back(o);
  }
  for (std::size_t i = 0; i < all.size(); ++i)
    EXPECT_EQ(gemm(A, B, all[i]), reference) << "options " << i;

  ExKokkosTest::Rng rng(14);
  std::vector<std::size_t> perm(k);
  std::iota(perm.begin(), perm.end(), 0);
  std::shuffle(perm.begin(), perm.end(), rng);
  Matrix PA("PA", m, k), PB("PB", k, n);
  auto hA = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), A);
  auto hB = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), B);
  auto hPA = Kokkos::create_mirror_view(PA);
  auto hPB = Kokkos::create_mirror_view(PB);
  for (std::size_t l = 0; l < k; ++l) {
    for (std::size_t i = 0; i < m; ++i) hPA(i, l) = hA(i, perm[l]);
    for (std::size_t j = 0; j < n; ++j) hPB(l, j) = hB(perm[l], j);
  }
  Kokkos::deep_copy(PA, hPA);
  Kokkos::deep_copy(PB, hPB);
  EXPECT_EQ(gemm(PA, PB, {}), reference) << "permuted";

#ifdef EXKOKKOS_TEST_HAVE_KOKKOSKERNELS
  auto plain = [&](const Matrix& a, const Matrix& b) {
    Matrix C("C", m, n);
    Kokkos::deep_copy(C, C0);
    KokkosBlas::gemm("N", "N", 0.75, a, b, -1.25, C);
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), C);
    return digest(std::vector<double>(h.data(), h.data() + h.span()));
  };
  std::printf("gemm: ExKokkos digest %016" PRIx64
              " (same when permuted); KokkosBlas::gemm %016" PRIx64 ", permuted %016" PRIx64 "\n",
              reference, plain(A, B), plain(PA, PB));
#endif
  if (const char* path = std::getenv("EXKOKKOS_REPRO_OUT")) {
    if (FILE* out = std::fopen(path, "a")) {
      std::fprintf(out, "exgemm NN %016" PRIx64 "\n", reference);
      std::fclose(out);
    }
  }
}

// The rank updates and the triangular level-3 routines: exger with the rows of A and x permuted
// together (each result row moves with them), extrsm under several of extrsv's block sizes and
// with its right-hand sides permuted, extrmm with B's rows permuted (side R); each digest is
// appended to the file the first test started, for the thread-count comparison.
TEST(Level3Reproducibility, RankUpdatesAndTriangularMatricesGiveTheSameBits) {
  const auto host = [](const Matrix& M) {
    return Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), M);
  };
  // P(k, .) = M(perm[k], .) (rows) or P(., k) = M(., perm[k]) (columns).
  const auto permuted = [&host](const Matrix& M, const std::vector<std::size_t>& perm, bool rows) {
    const auto h = host(M);
    Matrix P("P", M.extent(0), M.extent(1));
    auto hP = Kokkos::create_mirror_view(P);
    for (std::size_t i = 0; i < M.extent(0); ++i)
      for (std::size_t j = 0; j < M.extent(1); ++j) hP(i, j) = rows ? h(perm[i], j) : h(i, perm[j]);
    Kokkos::deep_copy(P, hP);
    return P;
  };
  const auto shuffled = [](std::size_t n, std::uint64_t seed) {
    std::vector<std::size_t> perm(n);
    std::iota(perm.begin(), perm.end(), 0);
    ExKokkosTest::Rng rng(seed);
    std::shuffle(perm.begin(), perm.end(), rng);
    return perm;
  };
  const auto bits = [&host](const Matrix& M) {
    const auto h = host(M);
    return digest(std::vector<double>(h.data(), h.data() + h.span()));
  };
  std::vector<std::pair<std::string, std::uint64_t>> digests;

  // exger, rows permuted.
  const std::size_t m = 120, n = 90;
  const Matrix A0 = wide_matrix(m, n, 21), X = wide_matrix(m, 1, 22);
  const auto x = Kokkos::subview(X, Kokkos::ALL(), 0);
  const Vec y = wide_vector(n, 23);
  const auto perm = shuffled(m, 24);
  Matrix G("G", m, n);
  Kokkos::deep_copy(G, A0);
  const Matrix PG = permuted(A0, perm, true), PX = permuted(X, perm, true);
  ExKokkos::exger(Space(), "T", 0.75, x, y, G);
  ExKokkos::exger(Space(), "T", 0.75, Kokkos::subview(PX, Kokkos::ALL(), 0), y, PG);
  EXPECT_EQ(bits(permuted(G, perm, true)), bits(PG)) << "exger, rows permuted";
  digests.emplace_back("exger", bits(G));
  Matrix S("S", n, n);
  Kokkos::deep_copy(S, Kokkos::subview(A0, std::make_pair(std::size_t(0), n), Kokkos::ALL()));
  ExKokkos::exsyr2(Space(), "T", "L", -1.25, y,
                   Kokkos::subview(X, std::make_pair(std::size_t(0), n), 0), S);
  digests.emplace_back("exsyr2", bits(S));

  // extrsm (lower, "N") on 5 right-hand sides, refined, under block sizes 0, 1 and 40; then the
  // right-hand sides permuted. extrmm, side R, with B's rows permuted.
  const std::size_t nt = 200, rhs = 5;
  const Matrix T = well_conditioned_matrix(nt, 25);
  const Matrix B0 = wide_matrix(nt, rhs, 26);
  std::vector<std::uint64_t> trsm;
  for (int block : {0, 1, 40}) {
    ExKokkos::Options o;
    o.block_size = block;
    o.refinement_steps = 2;
    Matrix B("B", nt, rhs);
    Kokkos::deep_copy(B, B0);
    ExKokkos::extrsm(Space(), "L", "L", "N", "N", 0.75, T, B, o);
    trsm.push_back(bits(B));
    if (block == 0) {
      const auto cols = shuffled(rhs, 27);
      const Matrix PB = permuted(B0, cols, false);
      ExKokkos::extrsm(Space(), "L", "L", "N", "N", 0.75, T, PB, o);
      EXPECT_EQ(bits(permuted(B, cols, false)), bits(PB)) << "extrsm, right-hand sides permuted";
    }
  }
  for (auto d : trsm) EXPECT_EQ(d, trsm[0]) << "extrsm, block sizes";
  digests.emplace_back("extrsm", trsm[0]);
  const Matrix M0 = wide_matrix(rhs, nt, 28);
  Matrix M("M", rhs, nt);
  Kokkos::deep_copy(M, M0);
  const auto rows = shuffled(rhs, 29);
  const Matrix PM = permuted(M0, rows, true);
  ExKokkos::extrmm(Space(), "R", "U", "T", "N", -1.25, T, M);
  ExKokkos::extrmm(Space(), "R", "U", "T", "N", -1.25, T, PM);
  EXPECT_EQ(bits(permuted(M, rows, true)), bits(PM)) << "extrmm, rows of B permuted";
  digests.emplace_back("extrmm", bits(M));

  if (const char* path = std::getenv("EXKOKKOS_REPRO_OUT"))
    if (FILE* out = std::fopen(path, "a")) {
      for (const auto& d : digests)
        std::fprintf(out, "%s %016" PRIx64 "\n", d.first.c_str(), d.second);
      std::fclose(out);
    }
}

}  // namespace Level2ReproducibilitySuite
}  // namespace
