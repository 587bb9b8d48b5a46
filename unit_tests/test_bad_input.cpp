// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Bad input never writes: every public routine refuses wrong extents, mode characters, pivots,
// extents beyond the LU's int indices, options out of range and calls from inside a parallel
// region with std::invalid_argument, before anything is written: each case compares the bytes of
// every view argument before and after the throw. Options a routine does not read are ignored
// (docs/options.md): they give the default's bits. Options are checked before the early returns
// (empty inputs, alpha = 0). Kokkos::Serial and the default host space, doubles, LayoutLeft.
#include <ExKokkos.hpp>
#include "ExKokkosTest_Refusals.hpp"
#include "ExKokkosTest_Views.hpp"
#include <Kokkos_Core.hpp>
#include <gtest/gtest.h>

#include <sys/mman.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#if defined(_OPENMP)
#include <omp.h>
#endif

namespace {
// A name of its own: the suites of one executable compile as one translation unit (CMakeLists.txt).
namespace BadInputSuite {

using Matrix = Kokkos::View<double**, Kokkos::LayoutLeft, Kokkos::HostSpace>;
using Batch = Kokkos::View<double***, Kokkos::LayoutRight, Kokkos::HostSpace>;
using Vector = Kokkos::View<double*, Kokkos::HostSpace>;
using Scalar = Kokkos::View<double, Kokkos::HostSpace>;
using Ints = Kokkos::View<int*, Kokkos::HostSpace>;
using Ints2 = Kokkos::View<int**, Kokkos::LayoutRight, Kokkos::HostSpace>;
using ExKokkos::Options;
using ExKokkosTest::bytes_of;
using ExKokkosTest::expect_refused;

template <class V>
void fill(const V& v, double first) {
  double* p = v.data();
  for (std::size_t i = 0; i < v.span(); ++i) p[i] = first + 0.25 * double(i % 13) - double(i % 3);
}

Matrix matrix(int m, int n, double first) {
  Matrix A("A", m, n);
  fill(A, first);
  return A;
}

Vector vector(int n, double first) {
  Vector v("v", n);
  fill(v, first);
  return v;
}

// A square matrix with a dominant diagonal (pivots stay on it).
Matrix dominant(int n) {
  Matrix A = matrix(n, n, 0.5);
  for (int i = 0; i < n; ++i) A(i, i) = 8.0 + i;
  return A;
}

// The option settings out of range for every routine that reads expansion_size, team_size
// (and, where `reduction`, early_exit, league_size, accumulators_per_team).
template <class Space>
std::vector<std::pair<std::string, Options>> bad_common(bool reduction) {
  std::vector<std::pair<std::string, Options>> all;
  const auto add = [&all](const std::string& name, auto set) {
    Options o;
    set(o);
    all.emplace_back(name, o);
  };
  add("expansion_size 5", [](Options& o) { o.expansion_size = 5; });
  add("expansion_size -2", [](Options& o) { o.expansion_size = -2; });
  add("team_size -1", [](Options& o) { o.team_size = -1; });
  add("team_size 100000", [](Options& o) { o.team_size = 100000; });
  const int widest = ExKokkosTest::widest_team<Space>();
  add("team_size widest + 1", [widest](Options& o) { o.team_size = std::min(widest, 64) + 1; });
  if (reduction) {
    add("early_exit 2", [](Options& o) { o.early_exit = 2; });
    add("league_size -1", [](Options& o) { o.league_size = -1; });
    add("league_size 2^30", [](Options& o) { o.league_size = 1 << 30; });
    add("accumulators_per_team 65", [](Options& o) { o.accumulators_per_team = 65; });
    add("accumulators_per_team -1", [](Options& o) { o.accumulators_per_team = -1; });
  }
  return all;
}

Options with_schedule(ExKokkos::Schedule s) {
  Options o;
  o.schedule = s;
  return o;
}

template <class Space>
void reductions() {
  const Space space;
  const Vector x = vector(37, 1.0), y = vector(37, -2.0), y36 = vector(36, 3.0), empty("e", 0);
  Scalar r("r");
  r() = 7.0;
  expect_refused(
      "exdot extents", [&] { ExKokkos::exdot(space, r, x, y36); }, r, x, y36);
  for (const auto& c : bad_common<Space>(true)) {
    const Options& o = c.second;
    expect_refused(
        "exsum " + c.first, [&] { ExKokkos::exsum(space, r, x, o); }, r, x);
    expect_refused(
        "exasum " + c.first, [&] { ExKokkos::exasum(space, r, x, o); }, r, x);
    expect_refused(
        "exdot " + c.first, [&] { ExKokkos::exdot(space, r, x, y, o); }, r, x, y);
    expect_refused(
        "exnrm2 " + c.first, [&] { ExKokkos::exnrm2(space, r, x, o); }, r, x);
    expect_refused(
        "exsum (empty) " + c.first, [&] { ExKokkos::exsum(space, r, empty, o); }, r);
  }
  // Options the reductions do not read are ignored: the default's bits.
  Options ignored;
  ignored.block_size = -5;
  ignored.refinement_steps = -1;
  ignored.stage_in_scratch = 9;
  ignored.schedule = ExKokkos::Schedule::tiles;
  const double d = ExKokkos::exdot(space, x, y), s = ExKokkos::exsum(space, x);
  const double di = ExKokkos::exdot(space, x, y, ignored), si = ExKokkos::exsum(space, x, ignored);
  EXPECT_EQ(std::memcmp(&d, &di, sizeof d), 0);
  EXPECT_EQ(std::memcmp(&s, &si, sizeof s), 0);
  // Elementwise routines: extents.
  Vector z = vector(36, 2.0);
  expect_refused(
      "exaxpby extents", [&] { ExKokkos::exaxpby(space, 2.0, x, 3.0, z); }, x, z);
  expect_refused(
      "exaxpy extents", [&] { ExKokkos::exaxpy(space, 2.0, x, z); }, x, z);
  expect_refused(
      "exscal extents", [&] { ExKokkos::exscal(space, z, 2.0, x); }, x, z);
  expect_refused(
      "exinvscal extents", [&] { ExKokkos::exinvscal(space, z, 2.0, x); }, x, z);
}

template <class Space>
void gemv() {
  const Space space;
  const Matrix A = matrix(5, 4, 1.0);
  const Vector x = vector(4, 2.0), y = vector(5, 3.0), x5 = vector(5, 1.0), y0("y0", 0);
  expect_refused(
      "exgemv trans", [&] { ExKokkos::exgemv(space, "Q", 1.0, A, x, 1.0, y); }, A, x, y);
  expect_refused(
      "exgemv extents", [&] { ExKokkos::exgemv(space, "T", 1.0, A, x, 1.0, y); }, A, x, y);
  auto cases = bad_common<Space>(true);
  for (auto s :
       {ExKokkos::Schedule::tiles, ExKokkos::Schedule::ozaki, ExKokkos::Schedule::trailing_update})
    cases.emplace_back("schedule " + std::to_string(int(s)), with_schedule(s));
  for (const auto& c : cases) {
    const Options& o = c.second;
    expect_refused(
        "exgemv " + c.first, [&] { ExKokkos::exgemv(space, "N", 1.0, A, x, 1.0, y, o); }, A, x, y);
    // Checked before the early returns: alpha = 0, an empty y.
    expect_refused(
        "exgemv (alpha 0) " + c.first, [&] { ExKokkos::exgemv(space, "N", 0.0, A, x, 2.0, y, o); },
        A, x, y);
    const Matrix A0("A0", 0, 4);
    expect_refused(
        "exgemv (empty) " + c.first, [&] { ExKokkos::exgemv(space, "N", 1.0, A0, x, 1.0, y0, o); },
        x);
  }
  // extrsv.
  const Matrix T = dominant(5);
  Vector b = vector(5, 1.0);
  expect_refused(
      "extrsv uplo", [&] { ExKokkos::extrsv(space, "X", "N", "N", T, b); }, T, b);
  expect_refused(
      "extrsv diag", [&] { ExKokkos::extrsv(space, "L", "N", "Z", T, b); }, T, b);
  expect_refused(
      "extrsv square", [&] { ExKokkos::extrsv(space, "L", "N", "N", A, b); }, A, b);
  auto trsv_cases = bad_common<Space>(true);
  Options neg_block, neg_steps;
  neg_block.block_size = -1;
  neg_steps.refinement_steps = -1;
  trsv_cases.emplace_back("block_size -1", neg_block);
  trsv_cases.emplace_back("refinement_steps -1", neg_steps);
  trsv_cases.emplace_back("schedule tiles", with_schedule(ExKokkos::Schedule::tiles));
  for (const auto& c : trsv_cases)
    expect_refused(
        "extrsv " + c.first, [&] { ExKokkos::extrsv(space, "L", "N", "N", T, b, c.second); }, T, b);
}

template <class Space>
void gemm() {
  const Space space;
  const Matrix A = matrix(4, 3, 1.0), B = matrix(3, 2, -1.0), C = matrix(4, 2, 5.0);
  const Matrix B33 = matrix(3, 3, 1.0);
  expect_refused(
      "exgemm transA", [&] { ExKokkos::exgemm(space, "X", "N", 1.0, A, B, 1.0, C); }, A, B, C);
  expect_refused(
      "exgemm extents", [&] { ExKokkos::exgemm(space, "N", "N", 1.0, A, B33, 1.0, C); }, A, B33, C);
  auto cases = bad_common<Space>(true);
  for (auto s : {ExKokkos::Schedule::output_block, ExKokkos::Schedule::trailing_update})
    cases.emplace_back("schedule " + std::to_string(int(s)), with_schedule(s));
  Options neg, deep;
  neg.block_size = -1;
  deep.block_size = 1 << 28;  // panels of 2^28 doubles: beyond any team's scratch memory
  deep.schedule = ExKokkos::Schedule::tiles;
  cases.emplace_back("block_size -1", neg);
  cases.emplace_back("block_size 2^28", deep);
  for (const auto& c : cases) {
    const Options& o = c.second;
    expect_refused(
        "exgemm " + c.first, [&] { ExKokkos::exgemm(space, "N", "N", 1.0, A, B, 1.0, C, o); }, A, B,
        C);
    expect_refused(
        "exgemm (alpha 0) " + c.first,
        [&] { ExKokkos::exgemm(space, "N", "N", 0.0, A, B, 1.0, C, o); }, A, B, C);
  }
}

// The rank updates: extents, non-square A, trans and uplo, and A overlapping x or y; checked
// before the early return for alpha == 0.
template <class Space>
void rank_updates() {
  const Space space;
  const Matrix A = matrix(4, 3, 1.0), S = matrix(3, 3, 2.0), S43 = matrix(4, 3, 2.0);
  const Vector x = vector(4, 1.0), y = vector(3, -2.0), x3 = vector(3, 0.5);
  for (const double alpha : {1.0, 0.0}) {
    const std::string a = alpha == 0.0 ? " (alpha 0)" : "";
    expect_refused(
        "exger extents" + a, [&] { ExKokkos::exger(space, "T", alpha, y, y, A); }, A, y);
    expect_refused(
        "exger trans" + a, [&] { ExKokkos::exger(space, "N", alpha, x, y, A); }, A, x, y);
    expect_refused(
        "exger overlap" + a,
        [&] { ExKokkos::exger(space, "T", alpha, Kokkos::subview(A, Kokkos::ALL(), 1), y, A); }, A,
        y);
    expect_refused(
        "exsyr non-square" + a, [&] { ExKokkos::exsyr(space, "T", "L", alpha, x, S43); }, S43, x);
    expect_refused(
        "exsyr extents" + a, [&] { ExKokkos::exsyr(space, "T", "L", alpha, x, S); }, S, x);
    expect_refused(
        "exsyr uplo" + a, [&] { ExKokkos::exsyr(space, "T", "N", alpha, x3, S); }, S, x3);
    expect_refused(
        "exsyr trans" + a, [&] { ExKokkos::exsyr(space, "C", "U", alpha, x3, S); }, S, x3);
    expect_refused(
        "exsyr overlap" + a,
        [&] { ExKokkos::exsyr(space, "T", "U", alpha, Kokkos::subview(S, 0, Kokkos::ALL()), S); },
        S);
    expect_refused(
        "exsyr2 extents" + a, [&] { ExKokkos::exsyr2(space, "T", "L", alpha, x3, x, S); }, S, x3,
        x);
    expect_refused(
        "exsyr2 uplo" + a, [&] { ExKokkos::exsyr2(space, "T", "X", alpha, x3, y, S); }, S, x3, y);
    expect_refused(
        "exsyr2 overlap" + a,
        [&] {
          ExKokkos::exsyr2(space, "T", "L", alpha, x3, Kokkos::subview(S, Kokkos::ALL(), 2), S);
        },
        S, x3);
  }
}

// extrsm and extrmm: mode characters, shapes and (extrsm) options, checked before the early
// returns for alpha = 0 and an empty B.
template <class Space>
void trsm_trmm() {
  const Space space;
  const Matrix T = dominant(4), A43 = matrix(4, 3, 1.0), T3 = dominant(3);
  Matrix B = matrix(4, 2, 5.0), B0("B0", 4, 0);
  const std::pair<std::string, std::function<void(const char*, const char*, const char*,
                                                  const char*, const Matrix&, const Matrix&)>>
      routines[] = {
          {"extrsm",
           [&](const char* s, const char* u, const char* t, const char* d, const Matrix& A,
               const Matrix& X) { ExKokkos::extrsm(space, s, u, t, d, 2.0, A, X); }},
          {"extrmm",
           [&](const char* s, const char* u, const char* t, const char* d, const Matrix& A,
               const Matrix& X) { ExKokkos::extrmm(space, s, u, t, d, 2.0, A, X); }}};
  for (const auto& r : routines) {
    const auto& call = r.second;
    expect_refused(
        r.first + " side", [&] { call("X", "L", "N", "N", T, B); }, T, B);
    expect_refused(
        r.first + " uplo", [&] { call("L", "X", "N", "N", T, B); }, T, B);
    expect_refused(
        r.first + " trans", [&] { call("L", "L", "Q", "N", T, B); }, T, B);
    expect_refused(
        r.first + " diag", [&] { call("L", "L", "N", "Z", T, B); }, T, B);
    expect_refused(
        r.first + " null side", [&] { call(nullptr, "L", "N", "N", T, B); }, T, B);
    expect_refused(
        r.first + " square", [&] { call("L", "L", "N", "N", A43, B); }, A43, B);
    expect_refused(
        r.first + " rows (side L)", [&] { call("L", "U", "T", "U", T3, B); }, T3, B);
    expect_refused(
        r.first + " columns (side R)", [&] { call("R", "U", "T", "U", T, B); }, T, B);
    expect_refused(
        r.first + " columns (side R, empty B)", [&] { call("R", "L", "N", "N", T3, B0); }, T3);
  }
  try {
    ExKokkos::extrsm(space, "R", "L", "N", "N", 1.0, T3, B);
    ADD_FAILURE() << "extrsm: no exception";
  } catch (const std::invalid_argument& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("ExKokkos::extrsm"), std::string::npos) << msg;
    EXPECT_NE(msg.find("A is 3 x 3 and B is 4 x 2"), std::string::npos) << msg;
  }
  auto cases = bad_common<Space>(true);
  Options neg_block, neg_steps;
  neg_block.block_size = -1;
  neg_steps.refinement_steps = -1;
  cases.emplace_back("block_size -1", neg_block);
  cases.emplace_back("refinement_steps -1", neg_steps);
  cases.emplace_back("schedule tiles", with_schedule(ExKokkos::Schedule::tiles));
  for (const auto& c : cases) {
    const Options& o = c.second;
    expect_refused(
        "extrsm " + c.first, [&] { ExKokkos::extrsm(space, "L", "L", "N", "N", 2.0, T, B, o); }, T,
        B);
    expect_refused(
        "extrsm (alpha 0) " + c.first,
        [&] { ExKokkos::extrsm(space, "R", "U", "T", "N", 0.0, T3, B, o); }, T3, B);
    expect_refused(
        "extrsm (empty) " + c.first,
        [&] { ExKokkos::extrsm(space, "L", "L", "N", "N", 2.0, T, B0, o); }, T);
  }
}

// A read-only mapping of zero pages of `bytes` (nothing is allocated): the extents beyond int.
struct ZeroPages {
  void* p;
  std::size_t bytes;
  explicit ZeroPages(std::size_t b)
      : p(mmap(nullptr, b, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)),
        bytes(b) {}
  ~ZeroPages() {
    if (p != MAP_FAILED) munmap(p, bytes);
  }
};

template <class Space>
void lu() {
  const Space space;
  Matrix A = dominant(4);
  Ints p("p", 4), p3("p3", 3);
  expect_refused(
      "exgetf2 ipiv extent", [&] { ExKokkos::exgetf2(space, A, p3); }, A, p3);
  expect_refused(
      "exgetrf ipiv extent", [&] { ExKokkos::exgetrf(space, A, p3); }, A, p3);
  auto cases = bad_common<Space>(false);
  Options stage;
  stage.stage_in_scratch = 2;
  cases.emplace_back("stage_in_scratch 2", stage);
  for (auto s : {ExKokkos::Schedule::tiles, ExKokkos::Schedule::team_per_output,
                 ExKokkos::Schedule::output_block, ExKokkos::Schedule::inner_lanes})
    cases.emplace_back("schedule " + std::to_string(int(s)), with_schedule(s));
  Batch AB("AB", 3, 4, 4);
  fill(AB, 2.0);
  for (int s = 0; s < 3; ++s)
    for (int i = 0; i < 4; ++i) AB(s, i, i) = 9.0;
  Ints2 PB("PB", 3, 4);
  Ints info("info", 3);
  Options panel_negative, panel_too_wide;  // exgetrf's block_size: its panel, at most 512
  panel_negative.block_size = -1;
  panel_too_wide.block_size = 513;
  for (const auto& c : {std::make_pair(std::string("block_size -1"), panel_negative),
                        std::make_pair(std::string("block_size 513"), panel_too_wide)})
    expect_refused(
        "exgetrf " + c.first, [&] { ExKokkos::exgetrf(space, A, p, c.second); }, A, p);
  for (const auto& c : cases) {
    expect_refused(
        "exgetf2 " + c.first, [&] { ExKokkos::exgetf2(space, A, p, c.second); }, A, p);
    expect_refused(
        "exgetrf " + c.first, [&] { ExKokkos::exgetrf(space, A, p, c.second); }, A, p);
    expect_refused(
        "exgetf2_batched " + c.first,
        [&] { ExKokkos::exgetf2_batched(space, AB, PB, info, c.second); }, AB, PB, info);
  }
  // Options the LU does not read are ignored: the default's bits.
  {
    Options ignored;
    ignored.league_size = 1 << 30;
    ignored.accumulators_per_team = 65;
    ignored.early_exit = 5;
    ignored.block_size = -1;
    Matrix A1 = dominant(4), A2 = dominant(4);
    Ints p1("p1", 4), p2("p2", 4);
    ExKokkos::exgetf2(space, A1, p1);
    ExKokkos::exgetf2(space, A2, p2, ignored);
    EXPECT_TRUE(bytes_of(A1, p1) == bytes_of(A2, p2));
  }
  // Extents beyond int: refused, nothing read or written.
  {
    const std::size_t big = (std::size_t(1) << 31) + 5;
    ZeroPages a(big * sizeof(double)), ints(big * sizeof(int));
    ASSERT_NE(a.p, MAP_FAILED);
    ASSERT_NE(ints.p, MAP_FAILED);
    using U = Kokkos::MemoryTraits<Kokkos::Unmanaged>;
    const Kokkos::View<double**, Kokkos::LayoutLeft, Kokkos::HostSpace, U> column(
        static_cast<double*>(a.p), big, 1);
    Ints p1("p1", 1);
    EXPECT_THROW(ExKokkos::exgetf2(space, column, p1), std::invalid_argument);
    EXPECT_THROW(ExKokkos::exgetrf(space, column, p1), std::invalid_argument);
    const Kokkos::View<double***, Kokkos::LayoutRight, Kokkos::HostSpace, U> many(
        static_cast<double*>(a.p), big, 1, 1);
    const Kokkos::View<int**, Kokkos::LayoutRight, Kokkos::HostSpace, U> pivots(
        static_cast<int*>(ints.p), big, 1);
    const Kokkos::View<int*, Kokkos::HostSpace, U> infos(static_cast<int*>(ints.p), big);
    EXPECT_THROW(ExKokkos::exgetf2_batched(space, many, pivots, infos), std::invalid_argument);
  }

  // exgetrs: the factors' shape, trans, options and pivots outside [j, n).
  Matrix LU = dominant(4);
  Ints piv("piv", 4);
  ExKokkos::exgetf2(space, LU, piv);
  Vector b = vector(4, 1.0), b3 = vector(3, 1.0);
  expect_refused(
      "exgetrs trans", [&] { ExKokkos::exgetrs(space, "Z", LU, piv, b); }, LU, piv, b);
  expect_refused(
      "exgetrs extents", [&] { ExKokkos::exgetrs(space, "N", LU, piv, b3); }, LU, piv, b3);
  auto getrs_cases = bad_common<Space>(true);
  Options neg_block;
  neg_block.block_size = -1;
  getrs_cases.emplace_back("block_size -1", neg_block);
  getrs_cases.emplace_back("schedule tiles", with_schedule(ExKokkos::Schedule::tiles));
  for (const auto& c : getrs_cases)
    expect_refused(
        "exgetrs " + c.first, [&] { ExKokkos::exgetrs(space, "N", LU, piv, b, c.second); }, LU, piv,
        b);
  for (int bad : {-1, 4, 1 << 30}) {
    for (int j : {0, 3}) {
      Ints garbage("garbage", 4);
      Kokkos::deep_copy(garbage, piv);
      garbage(j) = bad;
      for (const char* trans : {"N", "T"})
        expect_refused(
            "exgetrs pivot " + std::to_string(bad),
            [&] { ExKokkos::exgetrs(space, trans, LU, garbage, b); }, LU, garbage, b);
    }
  }
  {  // a pivot below its step: row 2 swapped with row 1 at step 2
    Ints below("below", 4);
    Kokkos::deep_copy(below, piv);
    below(2) = 1;
    expect_refused(
        "exgetrs pivot below its step", [&] { ExKokkos::exgetrs(space, "N", LU, below, b); }, LU,
        below, b);
  }

  // exgetrs_batched.
  Batch LUB("LUB", 3, 4, 4);
  Kokkos::deep_copy(LUB, AB);
  Ints2 PVB("PVB", 3, 4);
  Ints infos("infos", 3);
  ExKokkos::exgetf2_batched(space, LUB, PVB, infos);
  Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace> BB("BB", 3, 4), BB2("BB2", 2, 4);
  fill(BB, 1.0);
  fill(BB2, 1.0);
  expect_refused(
      "exgetrs_batched trans", [&] { ExKokkos::exgetrs_batched(space, "?", LUB, PVB, BB); }, LUB,
      PVB, BB);
  expect_refused(
      "exgetrs_batched batch", [&] { ExKokkos::exgetrs_batched(space, "N", LUB, PVB, BB2); }, LUB,
      PVB, BB2);
  for (const auto& c : bad_common<Space>(false))
    expect_refused(
        "exgetrs_batched " + c.first,
        [&] { ExKokkos::exgetrs_batched(space, "N", LUB, PVB, BB, c.second); }, LUB, PVB, BB);
  {
    Ints2 garbage("garbage", 3, 4);
    Kokkos::deep_copy(garbage, PVB);
    garbage(2, 1) = 77;
    expect_refused(
        "exgetrs_batched pivot", [&] { ExKokkos::exgetrs_batched(space, "N", LUB, garbage, BB); },
        LUB, garbage, BB);
  }

  // exgesv: shapes and options (exgetf2's and extrsv's).
  {
    Matrix G = dominant(4), R = matrix(4, 3, 1.0);
    Ints gp("gp", 4);
    Vector gb = vector(4, 1.0), gb3 = vector(3, 1.0);
    expect_refused(
        "exgesv square", [&] { ExKokkos::exgesv(space, R, gp, gb); }, R, gp, gb);
    expect_refused(
        "exgesv B", [&] { ExKokkos::exgesv(space, G, gp, gb3); }, G, gp, gb3);
    auto gesv_cases = bad_common<Space>(true);
    Options neg_steps;
    neg_steps.refinement_steps = -1;
    gesv_cases.emplace_back("refinement_steps -1", neg_steps);
    gesv_cases.emplace_back("block_size -1", neg_block);
    gesv_cases.emplace_back("stage_in_scratch 2", stage);
    for (auto s : {ExKokkos::Schedule::tiles, ExKokkos::Schedule::team_per_output})
      gesv_cases.emplace_back("schedule " + std::to_string(int(s)), with_schedule(s));
    for (const auto& c : gesv_cases)
      expect_refused(
          "exgesv " + c.first, [&] { ExKokkos::exgesv(space, G, gp, gb, c.second); }, G, gp, gb);
  }

  // exgesv_batched: B's batch count and extent, square matrices, steps, options.
  {
    Batch GA("GA", 3, 4, 4), G34("G34", 3, 3, 4), G43("G43", 3, 4, 3);
    Kokkos::deep_copy(GA, AB);
    fill(G34, 1.0);
    fill(G43, 1.0);
    Ints2 gp("gp", 3, 4), gp3("gp3", 3, 3);
    Ints gi("gi", 3), steps("steps", 3), short_steps("short", 1);
    Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace> gb("gb", 3, 4), gb2("gb2", 2, 4),
        gb5("gb5", 3, 5), gb3("gb3", 3, 3);
    fill(gb, 1.0);
    fill(gb2, 1.0);
    fill(gb5, 1.0);
    fill(gb3, 1.0);
    Options refine;
    refine.refinement_steps = 2;
    expect_refused(
        "exgesv_batched B batch", [&] { ExKokkos::exgesv_batched(space, GA, gp, gb2, gi, steps); },
        GA, gp, gb2, gi, steps);
    expect_refused(
        "exgesv_batched B extent", [&] { ExKokkos::exgesv_batched(space, GA, gp, gb5, gi, steps); },
        GA, gp, gb5, gi, steps);
    expect_refused(
        "exgesv_batched 3 x 4", [&] { ExKokkos::exgesv_batched(space, G34, gp3, gb3, gi, steps); },
        G34, gp3, gb3, gi, steps);
    expect_refused(
        "exgesv_batched 4 x 3", [&] { ExKokkos::exgesv_batched(space, G43, gp3, gb, gi, steps); },
        G43, gp3, gb, gi, steps);
    expect_refused(
        "exgesv_batched short steps",
        [&] { ExKokkos::exgesv_batched(space, GA, gp, gb, gi, short_steps); }, GA, gp, gb, gi,
        short_steps);
    expect_refused(
        "exgesv_batched short steps, refining",
        [&] { ExKokkos::exgesv_batched(space, GA, gp, gb, gi, short_steps, refine); }, GA, gp, gb,
        gi, short_steps);
    auto gesv_cases = bad_common<Space>(false);
    Options neg_steps;
    neg_steps.refinement_steps = -1;
    gesv_cases.emplace_back("refinement_steps -1", neg_steps);
    gesv_cases.emplace_back("stage_in_scratch 2", stage);
    gesv_cases.emplace_back("schedule tiles", with_schedule(ExKokkos::Schedule::tiles));
    for (const auto& c : gesv_cases)
      expect_refused(
          "exgesv_batched " + c.first,
          [&] { ExKokkos::exgesv_batched(space, GA, gp, gb, gi, steps, c.second); }, GA, gp, gb, gi,
          steps);
    // An empty steps view is fine without refinement.
    Ints none("none", 0);
    ExKokkos::exgesv_batched(space, GA, gp, gb, gi, none);
    for (int s = 0; s < 3; ++s) EXPECT_EQ(gi(s), 0);
  }
}

// Inside a parallel region, a host-level routine refuses to run (its kernels would share the
// running kernel's threads and team data) and names the team-level form. The views are made
// outside the region: Kokkos 3 cannot initialize a view from a thread of the region either.
template <class Space>
void in_parallel_region() {
#if defined(_OPENMP)
  const Vector x = vector(100, 1.0), y = vector(100, 2.0);
  const Matrix A0 = dominant(4);
  Matrix A[2] = {dominant(4), dominant(4)};
  const Matrix B0 = matrix(4, 3, 1.0);
  Matrix B[2] = {matrix(4, 3, 1.0), matrix(4, 3, 1.0)};
  Ints p[2] = {Ints("p0", 4), Ints("p1", 4)};
  std::atomic<int> refused{0}, calls{0};
  const auto call_all = [&](int t) {
    for (int r = 0; r < 5; ++r) {
      ++calls;
      try {
        if (r == 0) ExKokkos::exdot(Space(), x, y);
        if (r == 1) ExKokkos::exgetf2(Space(), A[t], p[t]);
        if (r == 2) ExKokkos::exsum(Space(), x);
        if (r == 3) ExKokkos::extrsm(Space(), "L", "L", "N", "N", 2.0, A0, B[t]);
        if (r == 4) ExKokkos::extrmm(Space(), "L", "U", "T", "N", 2.0, A0, B[t]);
      } catch (const std::invalid_argument& e) {
        // The message names the team-level form: for the LU, the TeamGetf2 that exists.
        const std::string what = e.what();
        if (what.find("team-level") != std::string::npos &&
            (r != 1 || what.find("TeamGetf2") != std::string::npos))
          ++refused;
      }
    }
  };
  // A user's OpenMP region of two threads.
#pragma omp parallel num_threads(2)
  call_all(omp_get_thread_num() % 2);
  EXPECT_EQ(refused.load(), calls.load());
  // A Kokkos kernel of the default host space (OpenMP: a parallel region of its own threads).
  if (Kokkos::DefaultHostExecutionSpace().concurrency() > 1) {
    refused = 0;
    calls = 0;
    Kokkos::parallel_for(Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, 2),
                         [&](int t) { call_all(t); });
    EXPECT_EQ(refused.load(), calls.load());
  }
  for (int t = 0; t < 2; ++t) {
    EXPECT_TRUE(bytes_of(A[t]) == bytes_of(A0));
    EXPECT_TRUE(bytes_of(B[t]) == bytes_of(B0));
  }
#endif
}

template <class Space>
void all() {
  reductions<Space>();
  gemv<Space>();
  gemm<Space>();
  rank_updates<Space>();
  trsm_trmm<Space>();
  lu<Space>();
  in_parallel_region<Space>();
}

TEST(BadInput, SerialRefusesBeforeWriting) {
  all<Kokkos::Serial>();
}

TEST(BadInput, DefaultHostSpaceRefusesBeforeWriting) {
  all<Kokkos::DefaultHostExecutionSpace>();
}

}  // namespace BadInputSuite
}  // namespace
