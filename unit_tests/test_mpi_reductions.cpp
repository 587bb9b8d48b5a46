// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// ExKokkos::mpi (mpi/ExKokkos_MPI.hpp) bit for bit: exsum, exasum, exdot, exnrm2 (on real and
// Kokkos::complex values, rank-1 and multivector forms) and the allreduce of a user's ExactSum
// reducer, over MPI_COMM_WORLD, must equal the MPFR oracle of the
// whole data and the single-process routine on the whole data, for every input generator (full
// exponent range, cancellation, ties, NaN/Inf, signed zeros, ill-conditioned dot products), under
// several distributions of the data over the ranks (uneven blocks with empty ranks, everything on
// one rank, round robin through strided views, random owners), with tuning options that differ
// between ranks; every rank must get the same bits. ctest runs this suite under mpirun with 1, 2,
// 3, 4 and 8 ranks; rank 0 writes the bits to $EXKOKKOS_REPRO_OUT and a compare step checks that
// all rank counts wrote the same.
// First, so that the build checks that the MPI header is self-contained.
#include <ExKokkos_MPI.hpp>

#include <ExKokkos.hpp>

#include <ExKokkosTest_Generators.hpp>
#include <ExKokkosTest_Oracle.hpp>

#include "ExKokkosTest_Complex.hpp"
#include "ExKokkosTest_Views.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using ExKokkos::LongAccumulator;
using ExKokkosTest::describe;
using ExKokkosTest::same_bits;
using ExKokkosTest::to_view;
using Space = Kokkos::DefaultExecutionSpace;
using Mem = Space::memory_space;

int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

int world_size() {
  int s = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}

std::uint64_t bits(double x) {
  std::uint64_t b;
  std::memcpy(&b, &x, 8);
  return b;
}

std::uint64_t bits(float x) {
  std::uint32_t b;
  std::memcpy(&b, &x, 4);
  return b;
}

// True on every rank when every rank holds the same words.
bool same_on_every_rank(const std::vector<std::uint64_t>& words) {
  std::vector<std::uint64_t> low(words.size()), high(words.size());
  MPI_Allreduce(words.data(), low.data(), static_cast<int>(words.size()), MPI_UINT64_T, MPI_MIN,
                MPI_COMM_WORLD);
  MPI_Allreduce(words.data(), high.data(), static_cast<int>(words.size()), MPI_UINT64_T, MPI_MAX,
                MPI_COMM_WORLD);
  return low == high;
}

// Rank 0's values, on every rank (the oracle is computed once).
template <class T>
void broadcast(std::vector<T>& values) {
  MPI_Bcast(values.data(), static_cast<int>(values.size() * sizeof(T)), MPI_BYTE, 0,
            MPI_COMM_WORLD);
}

// --- Distributions of n global elements over the ranks --------------------------------------

enum class Distribution { even_blocks, random_blocks, all_on_last, round_robin, random_owner };
const Distribution all_distributions[] = {Distribution::even_blocks, Distribution::random_blocks,
                                          Distribution::all_on_last, Distribution::round_robin,
                                          Distribution::random_owner};

const char* name(Distribution d) {
  switch (d) {
    case Distribution::even_blocks:
      return "even_blocks";
    case Distribution::random_blocks:
      return "random_blocks";
    case Distribution::all_on_last:
      return "all_on_last";
    case Distribution::round_robin:
      return "round_robin";
    default:
      return "random_owner";
  }
}

// The global indices this rank owns. The random distributions draw from a generator seeded the
// same on every rank, so the ranks agree on who owns what.
std::vector<std::size_t> owned(Distribution d, std::size_t n, int rank, int size,
                               std::uint64_t seed) {
  std::vector<std::size_t> mine;
  std::mt19937_64 rng(seed);
  std::size_t begin = 0, end = 0;
  switch (d) {
    case Distribution::even_blocks:
      begin = n * rank / size;
      end = n * (rank + 1) / size;
      break;
    case Distribution::random_blocks: {
      // Random cut points: blocks of random, often zero, length.
      std::vector<std::size_t> cuts{0, n};
      for (int k = 1; k < size; ++k) cuts.push_back(rng() % (n + 1));
      std::sort(cuts.begin(), cuts.end());
      begin = cuts[rank];
      end = cuts[rank + 1];
      break;
    }
    case Distribution::all_on_last:
      if (rank == size - 1) end = n;
      break;
    case Distribution::round_robin:
      for (std::size_t i = rank; i < n; i += size) mine.push_back(i);
      return mine;
    case Distribution::random_owner:
      for (std::size_t i = 0; i < n; ++i)
        if (static_cast<int>(rng() % size) == rank) mine.push_back(i);
      return mine;
  }
  for (std::size_t i = begin; i < end; ++i) mine.push_back(i);
  return mine;
}

template <class T>
std::vector<T> gather(const std::vector<T>& global, const std::vector<std::size_t>& indices) {
  std::vector<T> out;
  for (std::size_t i : indices) out.push_back(global[i]);
  return out;
}

// A local part as a strided view (a row of a LayoutLeft matrix with three rows, the other rows
// holding values that must not leak in), as round-robin data would be seen in place.
template <class T>
Kokkos::View<T*, Kokkos::LayoutStride, Mem> strided_view(const std::vector<T>& v) {
  Kokkos::View<T**, Kokkos::LayoutLeft, Mem> matrix("matrix", 3, v.size());
  auto h = Kokkos::create_mirror_view(matrix);
  for (std::size_t i = 0; i < v.size(); ++i) {
    h(0, i) = h(2, i) = T(12345);
    h(1, i) = v[i];
  }
  Kokkos::deep_copy(matrix, h);
  return Kokkos::subview(matrix, 1, Kokkos::ALL());
}

// Tuning that differs from rank to rank (it changes no bits): league sizes, and expansion sizes 2
// and 8, which every build compiles as two different sizes (2 and 3 on the host, 4 and 8 on
// devices: options.md, "Compiled kernel variants"; every size with ALL_KERNEL_VARIANTS).
ExKokkos::Options rank_options(Distribution d, int rank) {
  ExKokkos::Options o;
  if (d == Distribution::random_owner) {
    o.league_size = 1 + rank % 3;
    o.expansion_size = rank % 2 ? 8 : 2;
  }
  return o;
}

// --- Oracles ---------------------------------------------------------------------------------

using ExKokkosTest::rounded;

// sum, asum, dot, nrm2 and sum x_i + x_i y_i (the reducer's expression), exactly, rounded once.
template <class T>
std::vector<T> oracle(const std::vector<T>& x, const std::vector<T>& y) {
  std::vector<T> r(5);
  if (world_rank() == 0) {
    ExKokkosTest::ExactSum s, a, d, mixed;
    for (std::size_t i = 0; i < x.size(); ++i) {
      s.add(double(x[i]));
      a.add(std::fabs(double(x[i])));
      d.add_product(double(x[i]), double(y[i]));
      mixed.add(double(x[i]));
      mixed.add_product(double(x[i]), double(y[i]));
    }
    r = {rounded<T>(s), rounded<T>(a), rounded<T>(d), ExKokkosTest::exact_nrm2(x),
         rounded<T>(mixed)};
  }
  broadcast(r);
  return r;
}

const char* const routine_names[] = {"exsum", "exasum", "exdot", "exnrm2", "reducer allreduce"};

// The user's own exact reduction over the local part, finished across the ranks.
template <class XView, class YView>
LongAccumulator reducer_allreduce(const XView& x, const YView& y, MPI_Comm comm) {
  LongAccumulator acc;
  Kokkos::parallel_reduce(
      "mixed", Kokkos::RangePolicy<Space>(0, x.extent(0)),
      KOKKOS_LAMBDA(const int i, LongAccumulator& a) {
        a.add(x(i));
        a.add_product(x(i), y(i));
      },
      ExKokkos::ExactSum<>(acc));
  ExKokkos::mpi::allreduce(acc, comm);
  return acc;
}

std::vector<std::uint64_t> packed_words(const LongAccumulator& acc) {
  std::vector<std::uint64_t> w(ExKokkos::Impl::PackedAccumulator::num_words);
  ExKokkos::Impl::pack(acc, w.data());
  return w;
}

// FNV-1a of the words, to print an accumulator in the repro file.
std::uint64_t fingerprint(const std::vector<std::uint64_t>& words) {
  std::uint64_t h = 14695981039346656037ull;
  for (std::uint64_t w : words)
    for (int b = 0; b < 8; ++b) h = (h ^ ((w >> (8 * b)) & 0xff)) * 1099511628211ull;
  return h;
}

// Every routine under every distribution against the oracle and the single-process routine;
// returns what this rank got (results and the reducer's accumulator, per distribution) as a line
// of the repro file, which no rank count may change.
template <class T>
std::string check_case(const std::vector<T>& x, const std::vector<T>& y, const std::string& what,
                       std::uint64_t seed) {
  const int rank = world_rank(), size = world_size();
  const std::vector<T> expected = oracle(x, y);
  const auto gx = to_view<Space>(x), gy = to_view<Space>(y);
  const T single[4] = {ExKokkos::exsum(Space(), gx), ExKokkos::exasum(Space(), gx),
                       ExKokkos::exdot(Space(), gx, gy), ExKokkos::exnrm2(Space(), gx)};
  for (int r = 0; r < 4; ++r)
    EXPECT_TRUE(same_bits(single[r], expected[r]))
        << what << " single-process " << routine_names[r] << ": " << describe(single[r])
        << " vs oracle " << describe(expected[r]);

  std::string line = what + " n=" + std::to_string(x.size());
  for (Distribution d : all_distributions) {
    const std::vector<std::size_t> mine = owned(d, x.size(), rank, size, seed);
    const std::vector<T> lx = gather(x, mine), ly = gather(y, mine);
    const ExKokkos::Options o = rank_options(d, rank);
    T got[5];
    LongAccumulator acc;
    if (d == Distribution::round_robin) {
      const auto vx = strided_view(lx), vy = strided_view(ly);
      got[0] = ExKokkos::mpi::exsum(Space(), vx, MPI_COMM_WORLD, o);
      got[1] = ExKokkos::mpi::exasum(Space(), vx, MPI_COMM_WORLD, o);
      got[2] = ExKokkos::mpi::exdot(Space(), vx, vy, MPI_COMM_WORLD, o);
      got[3] = ExKokkos::mpi::exnrm2(Space(), vx, MPI_COMM_WORLD, o);
      acc = reducer_allreduce(vx, vy, MPI_COMM_WORLD);
    } else {
      const auto vx = to_view<Space>(lx), vy = to_view<Space>(ly);
      got[0] = ExKokkos::mpi::exsum(vx, MPI_COMM_WORLD, o);
      got[1] = ExKokkos::mpi::exasum(vx, MPI_COMM_WORLD, o);
      got[2] = ExKokkos::mpi::exdot(vx, vy, MPI_COMM_WORLD, o);
      got[3] = ExKokkos::mpi::exnrm2(vx, MPI_COMM_WORLD, o);
      acc = reducer_allreduce(vx, vy, MPI_COMM_WORLD);
    }
    got[4] = acc.template round<T>();
    std::vector<std::uint64_t> words = packed_words(acc);
    char hex[24];
    std::snprintf(hex, sizeof hex, " %016" PRIx64, fingerprint(words));
    line += std::string(" ") + name(d) + hex;
    for (int r = 0; r < 5; ++r) {
      words.push_back(bits(got[r]));
      std::snprintf(hex, sizeof hex, " %016" PRIx64, bits(got[r]));
      line += hex;
      EXPECT_TRUE(same_bits(got[r], expected[r]))
          << what << " " << name(d) << " rank " << rank << "/" << size << " (" << lx.size()
          << " local elements) " << routine_names[r] << ": " << describe(got[r]) << " vs oracle "
          << describe(expected[r]);
      if (r < 4)
        EXPECT_TRUE(same_bits(got[r], single[r]))
            << what << " " << name(d) << " rank " << rank << " " << routine_names[r]
            << ": differs from the single-process result " << describe(single[r]);
    }
    EXPECT_TRUE(same_on_every_rank(words))
        << what << " " << name(d) << ": the ranks got different bits or accumulators";
  }
  return line + "\n";
}

// --- Multivectors -----------------------------------------------------------------------------

// Columns (each a global vector) as an n x c matrix of the rows `rows`: LayoutStride, the middle
// plane of a rank-3 view whose other planes hold values that must not leak in; or a copy of it in
// the layout of View (LayoutLeft, LayoutRight).
template <class T>
Kokkos::View<T**, Kokkos::LayoutStride, Mem> to_strided_matrix(
    const std::vector<std::vector<T>>& columns, const std::vector<std::size_t>& rows) {
  const std::size_t c = columns.size(), n = rows.size();
  Kokkos::View<T***, Kokkos::LayoutRight, Mem> planes("planes", n, 3, c);
  auto h = Kokkos::create_mirror_view(planes);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < c; ++j) {
      h(i, 0, j) = h(i, 2, j) = T(12345);
      h(i, 1, j) = columns[j][rows[i]];
    }
  Kokkos::deep_copy(planes, h);
  return Kokkos::subview(planes, Kokkos::ALL(), 1, Kokkos::ALL());
}

template <class View, class T>
View to_matrix(const std::vector<std::vector<T>>& columns, const std::vector<std::size_t>& rows) {
  View m("m", rows.size(), columns.size());
  Kokkos::deep_copy(m, to_strided_matrix(columns, rows));  // one space: any two layouts
  return m;
}

template <class RView>
std::vector<typename RView::non_const_value_type> to_vector(const RView& r) {
  auto h = Kokkos::create_mirror_view(r);
  Kokkos::deep_copy(h, r);
  std::vector<typename RView::non_const_value_type> v(r.extent(0));
  for (std::size_t j = 0; j < v.size(); ++j) v[j] = h(j);
  return v;
}

const char* const multivector_names[] = {"exsum", "exasum", "exnrm2", "exdot", "exdot(X, y)"};

// The distributed multivector routines on this rank's rows of X and Y; R(j) of each of the five
// forms, in the order of multivector_names (exdot(X, y): every column of X against the rank-1
// first column of Y).
template <class T, class XView>
std::vector<std::vector<T>> distributed_multivector(const XView& x, const XView& y,
                                                    const ExKokkos::Options& o, bool strided_r) {
  const std::size_t c = x.extent(1);
  std::vector<std::vector<T>> got;
  // R contiguous, or a column of a LayoutRight matrix (stride 2).
  Kokkos::View<T**, Kokkos::LayoutRight, Mem> storage("R", c, 2);
  Kokkos::View<T*, Kokkos::LayoutStride, Mem> r = Kokkos::subview(storage, Kokkos::ALL(), 1);
  Kokkos::View<T*, Mem> contiguous("R", c);
  auto run = [&](auto&& call) {
    Kokkos::deep_copy(storage, T(-7));
    Kokkos::deep_copy(contiguous, T(-7));
    if (strided_r) {
      call(r);
      got.push_back(to_vector(r));
      // The other column of R's storage is untouched.
      const auto other = to_vector(Kokkos::subview(storage, Kokkos::ALL(), 0));
      for (T v : other) EXPECT_EQ(v, T(-7));
    } else {
      call(contiguous);
      got.push_back(to_vector(contiguous));
    }
  };
  run([&](const auto& R) { ExKokkos::mpi::exsum(Space(), R, x, MPI_COMM_WORLD, o); });
  run([&](const auto& R) { ExKokkos::mpi::exasum(R, x, MPI_COMM_WORLD, o); });
  run([&](const auto& R) { ExKokkos::mpi::exnrm2(Space(), R, x, MPI_COMM_WORLD, o); });
  run([&](const auto& R) { ExKokkos::mpi::exdot(Space(), R, x, y, MPI_COMM_WORLD, o); });
  const auto y0 = Kokkos::subview(y, Kokkos::ALL(), 0);
  run([&](const auto& R) { ExKokkos::mpi::exdot(R, x, y0, MPI_COMM_WORLD, o); });
  return got;
}

// Every multivector routine under every distribution of the rows (LayoutLeft blocks, LayoutRight
// random owners, strided round robin) against the oracle of each column and the single-process
// multivector routine on the whole matrix; returns this rank's bits as a repro line.
template <class T>
std::string check_multivector_case(const std::vector<std::vector<T>>& xs,
                                   const std::vector<std::vector<T>>& ys, const std::string& what,
                                   std::uint64_t seed) {
  const int rank = world_rank(), size = world_size();
  const std::size_t c = xs.size(), n = c ? xs[0].size() : 0;
  std::vector<std::vector<T>> expected(5, std::vector<T>(c));
  for (std::size_t j = 0; j < c; ++j) {
    const std::vector<T> e = oracle(xs[j], ys[j]);
    expected[0][j] = e[0];
    expected[1][j] = e[1];
    expected[2][j] = e[3];
    expected[3][j] = e[2];
    expected[4][j] = oracle(xs[j], ys[0])[2];
  }
  std::vector<std::size_t> all_rows(n);
  for (std::size_t i = 0; i < n; ++i) all_rows[i] = i;
  using Left = Kokkos::View<T**, Kokkos::LayoutLeft, Mem>;
  using Right = Kokkos::View<T**, Kokkos::LayoutRight, Mem>;
  {
    const auto X = to_matrix<Left>(xs, all_rows), Y = to_matrix<Left>(ys, all_rows);
    Kokkos::View<T*, Mem> R("R", c);
    std::vector<std::vector<T>> single;
    ExKokkos::exsum(Space(), R, X);
    single.push_back(to_vector(R));
    ExKokkos::exasum(Space(), R, X);
    single.push_back(to_vector(R));
    ExKokkos::exnrm2(Space(), R, X);
    single.push_back(to_vector(R));
    ExKokkos::exdot(Space(), R, X, Y);
    single.push_back(to_vector(R));
    ExKokkos::exdot(Space(), R, X, Kokkos::subview(Y, Kokkos::ALL(), 0));
    single.push_back(to_vector(R));
    for (int r = 0; r < 5; ++r)
      for (std::size_t j = 0; j < c; ++j)
        EXPECT_TRUE(same_bits(single[r][j], expected[r][j]))
            << what << " single-process " << multivector_names[r] << " column " << j << ": "
            << describe(single[r][j]) << " vs oracle " << describe(expected[r][j]);
  }
  std::string line = what + " multivector n=" + std::to_string(n) + " c=" + std::to_string(c);
  for (Distribution d : all_distributions) {
    const std::vector<std::size_t> mine = owned(d, n, rank, size, seed);
    const ExKokkos::Options o = rank_options(d, rank);
    std::vector<std::vector<T>> got;
    if (d == Distribution::round_robin)
      got = distributed_multivector<T>(to_strided_matrix(xs, mine), to_strided_matrix(ys, mine), o,
                                       true);
    else if (d == Distribution::random_owner)
      got = distributed_multivector<T>(to_matrix<Right>(xs, mine), to_matrix<Right>(ys, mine), o,
                                       false);
    else
      got = distributed_multivector<T>(to_matrix<Left>(xs, mine), to_matrix<Left>(ys, mine), o,
                                       d == Distribution::random_blocks);
    line += std::string(" ") + name(d);
    std::vector<std::uint64_t> words;
    for (int r = 0; r < 5; ++r)
      for (std::size_t j = 0; j < c; ++j) {
        words.push_back(bits(got[r][j]));
        char hex[24];
        std::snprintf(hex, sizeof hex, " %016" PRIx64, bits(got[r][j]));
        line += hex;
        EXPECT_TRUE(same_bits(got[r][j], expected[r][j]))
            << what << " " << name(d) << " rank " << rank << "/" << size << " (" << mine.size()
            << " local rows) " << multivector_names[r] << " column " << j << ": "
            << describe(got[r][j]) << " vs oracle " << describe(expected[r][j]);
      }
    EXPECT_TRUE(same_on_every_rank(words)) << what << " " << name(d) << ": the ranks differ";
  }
  return line + "\n";
}

std::string multivectors() {
  std::string lines;
  std::mt19937_64 rng(31);
  // Columns of different kinds side by side: a wide column beside a cancelling one beside one of
  // special values, so that one column's flags or headroom cannot reach another's.
  for (std::size_t n : {0, 5, 3001}) {
    std::vector<std::vector<double>> xs, ys;
    const auto products = ExKokkosTest::product_generators();
    for (const auto& g : products) {
      const auto xy = g.generate(n, rng);
      if (xy.first.size() != n) continue;  // gen_dot makes at least 6 elements
      xs.push_back(xy.first);
      ys.push_back(xy.second);
    }
    for (const char* kind : {"nan_inf_mix", "signed_zeros", "exact_cancellation"})
      for (const auto& g : ExKokkosTest::sum_generators())
        if (g.name == kind) {
          xs.push_back(g.generate(n, rng));
          ys.push_back(ExKokkosTest::full_range(n, rng));
          if (xs.back().size() != n) {  // some make at least one or two elements
            xs.pop_back();
            ys.pop_back();
          }
        }
    lines += check_multivector_case(xs, ys, "mixed_columns", rng());
    std::vector<std::vector<float>> fx, fy;
    for (std::size_t j = 0; j < 3; ++j) {
      // Normal values scaled by 2^[-60, 60): wide, and finite in float.
      const auto x = ExKokkosTest::normal(n, rng), y = ExKokkosTest::normal(n, rng);
      fx.emplace_back();
      for (double v : x) fx.back().push_back(float(std::ldexp(v, int(rng() % 120) - 60)));
      fy.emplace_back(y.begin(), y.end());
    }
    lines += check_multivector_case(fx, fy, "float_columns", rng());
  }
  // No columns: nothing to reduce, on any rank.
  lines += check_multivector_case(std::vector<std::vector<double>>(),
                                  std::vector<std::vector<double>>(), "no_columns", 3);
  return lines;
}

// --- Complex values ----------------------------------------------------------------------------

template <class T>
using C = Kokkos::complex<T>;

// Both parts' bits in one word (a mix for doubles: the repro line compares, never decodes).
std::uint64_t bits(const C<double>& v) {
  return bits(v.real()) ^ (bits(v.imag()) * 3);
}
std::uint64_t bits(const C<float>& v) {
  return bits(v.real()) | (bits(v.imag()) << 32);
}

// The complex routines' results from their definitions: exsum and exdot (conj(x) . y) each part
// its exact sum rounded once, exasum BLAS' sum of |re| + |im|, exnrm2 the root of the exact sum
// of re^2 + im^2. Every rank holds the same data, so every rank computes them.
template <class T>
struct ComplexResults {
  C<T> sum, dot;
  T asum, nrm2;
};

template <class T>
ComplexResults<T> complex_oracle(const std::vector<C<T>>& x, const std::vector<C<T>>& y) {
  const auto r = ExKokkosTest::exact_complex_reductions(x, y);
  return {r.sum, r.dot, r.asum, r.nrm2};
}

template <class T>
void expect_complex_results(const ComplexResults<T>& got, const ComplexResults<T>& want,
                            const std::string& what, std::vector<std::uint64_t>& words,
                            std::string& line) {
  EXPECT_TRUE(same_bits(got.sum, want.sum))
      << what << " exsum: " << describe(got.sum) << " vs oracle " << describe(want.sum);
  EXPECT_TRUE(same_bits(got.dot, want.dot))
      << what << " exdot: " << describe(got.dot) << " vs oracle " << describe(want.dot);
  EXPECT_TRUE(same_bits(got.asum, want.asum))
      << what << " exasum: " << describe(got.asum) << " vs oracle " << describe(want.asum);
  EXPECT_TRUE(same_bits(got.nrm2, want.nrm2))
      << what << " exnrm2: " << describe(got.nrm2) << " vs oracle " << describe(want.nrm2);
  for (const std::uint64_t b : {bits(got.sum), bits(got.dot), bits(got.asum), bits(got.nrm2)}) {
    words.push_back(b);
    char hex[24];
    std::snprintf(hex, sizeof hex, " %016" PRIx64, b);
    line += hex;
  }
}

// The four complex routines, rank-1 and multivector forms, under every distribution (options
// differing between ranks; round robin through strided views and a strided R), against the
// oracle; the multivector's columns are x and y, paired with y and x. Returns a repro line.
template <class T>
std::string check_complex_case(const std::vector<C<T>>& x, const std::vector<C<T>>& y,
                               const std::string& what, std::uint64_t seed) {
  const int rank = world_rank(), size = world_size();
  const ComplexResults<T> want = complex_oracle(x, y), want_y = complex_oracle(y, x);
  std::string line = what + " complex n=" + std::to_string(x.size());
  {
    const auto gx = to_view<Space>(x), gy = to_view<Space>(y);
    std::vector<std::uint64_t> unused;
    std::string ignored;
    expect_complex_results(
        ComplexResults<T>{ExKokkos::exsum(Space(), gx), ExKokkos::exdot(Space(), gx, gy),
                          ExKokkos::exasum(Space(), gx), ExKokkos::exnrm2(Space(), gx)},
        want, what + " single-process", unused, ignored);
  }
  for (Distribution d : all_distributions) {
    const std::vector<std::size_t> mine = owned(d, x.size(), rank, size, seed);
    const std::vector<C<T>> lx = gather(x, mine), ly = gather(y, mine);
    const ExKokkos::Options o = rank_options(d, rank);
    const std::string where =
        what + " " + name(d) + " rank " + std::to_string(rank) + "/" + std::to_string(size);
    std::vector<std::uint64_t> words;
    line += std::string(" ") + name(d);
    const auto rank1 = [&](const auto& vx, const auto& vy) {
      return ComplexResults<T>{ExKokkos::mpi::exsum(Space(), vx, MPI_COMM_WORLD, o),
                               ExKokkos::mpi::exdot(Space(), vx, vy, MPI_COMM_WORLD, o),
                               ExKokkos::mpi::exasum(vx, MPI_COMM_WORLD, o),
                               ExKokkos::mpi::exnrm2(vx, MPI_COMM_WORLD, o)};
    };
    if (d == Distribution::round_robin)
      expect_complex_results(rank1(strided_view(lx), strided_view(ly)), want, where, words, line);
    else
      expect_complex_results(rank1(to_view<Space>(lx), to_view<Space>(ly)), want, where, words,
                             line);
    // The multivector forms: columns x, y of X and y, x of Y; R strided for round robin.
    const auto X = to_matrix<Kokkos::View<C<T>**, Kokkos::LayoutLeft, Mem>>(
        std::vector<std::vector<C<T>>>{x, y}, mine);
    const auto Y = to_matrix<Kokkos::View<C<T>**, Kokkos::LayoutLeft, Mem>>(
        std::vector<std::vector<C<T>>>{y, x}, mine);
    Kokkos::View<C<T>**, Kokkos::LayoutRight, Mem> storage("R", 2, 2);
    const Kokkos::View<C<T>*, Kokkos::LayoutStride, Mem> sums =
        Kokkos::subview(storage, Kokkos::ALL(), 1);
    Kokkos::View<C<T>*, Mem> dots("dots", 2);
    Kokkos::View<T*, Mem> asums("asums", 2), norms("norms", 2);
    ExKokkos::mpi::exsum(Space(), sums, X, MPI_COMM_WORLD, o);
    ExKokkos::mpi::exdot(dots, X, Y, MPI_COMM_WORLD, o);
    ExKokkos::mpi::exasum(Space(), asums, X, MPI_COMM_WORLD, o);
    ExKokkos::mpi::exnrm2(norms, X, MPI_COMM_WORLD, o);
    const auto s = to_vector(sums), dv = to_vector(dots);
    const auto a = to_vector(asums), nv = to_vector(norms);
    for (int j = 0; j < 2; ++j)
      expect_complex_results(ComplexResults<T>{s[j], dv[j], a[j], nv[j]}, j == 0 ? want : want_y,
                             where + " multivector column " + std::to_string(j), words, line);
    EXPECT_TRUE(same_on_every_rank(words)) << where << ": the ranks got different bits";
  }
  return line + "\n";
}

template <class T>
std::string complex_data_of() {
  std::string lines;
  std::mt19937_64 rng(sizeof(T) == 4 ? 13 : 12);
  for (const auto& g : ExKokkosTest::sum_generators())
    for (std::size_t n : {0, 7, 3001}) {
      auto x = ExKokkosTest::complexes<T>(g.generate(n, rng), g.generate(n, rng));
      auto y = ExKokkosTest::complexes<T>(g.generate(n, rng), g.generate(n, rng));
      const std::size_t m = std::min(x.size(), y.size());
      x.resize(m);
      y.resize(m);
      lines += check_complex_case(x, y, g.name, rng());
    }
  // Products built to cancel, overflow or underflow in the real part of conj(x) . y.
  for (const auto& g : ExKokkosTest::product_generators()) {
    auto [a, b] = g.generate(1000, rng);
    auto [a2, b2] = g.generate(1000, rng);
    const std::size_t m = std::min({a.size(), b.size(), a2.size(), b2.size()});
    for (auto* v : {&a, &b, &a2, &b2}) v->resize(m);
    lines += check_complex_case(ExKokkosTest::complexes<T>(a, a2),
                                ExKokkosTest::complexes<T>(b, b2), g.name + "_products", rng());
  }
  return lines;
}

std::string complex_data() {
  return complex_data_of<double>() + complex_data_of<float>();
}

// A group of cases whose bits every rank count must reproduce: computed and checked by its test,
// and computed again by WriteBitsForRankCountComparison only where that test has not run in this
// process (run alone, filtered or shuffled), so that the file holds every group whatever ran
// before. The cases draw from generators of their own, so their lines do not depend on the order.
class ReproGroup {
 public:
  explicit ReproGroup(std::string (*compute)()) : compute_(compute) {}
  void run() {
    lines_ = compute_();
    done_ = true;
  }
  const std::string& lines() {
    if (!done_) run();
    return lines_;
  }

 private:
  std::string (*compute_)();
  std::string lines_;
  bool done_ = false;
};

std::string every_sum_generator() {
  std::string lines;
  std::mt19937_64 rng(2026);  // the same sequence on every rank: the same global data
  for (const auto& g : ExKokkosTest::sum_generators()) {
    for (std::size_t n : {0, 1, 7, 1000, 20011}) {
      const std::vector<double> x = g.generate(n, rng);
      const std::vector<double> y = ExKokkosTest::full_range(x.size(), rng);
      lines += check_case(x, y, g.name, rng());
    }
  }
  return lines;
}

std::string every_product_generator() {
  std::string lines;
  std::mt19937_64 rng(77);
  for (const auto& g : ExKokkosTest::product_generators()) {
    for (std::size_t n : {6, 1000, 20011}) {
      const auto xy = g.generate(n, rng);
      lines += check_case(xy.first, xy.second, g.name, rng());
    }
  }
  return lines;
}

std::string float_data() {
  std::string lines;
  std::mt19937_64 rng(5);
  for (const auto& g : ExKokkosTest::sum_generators()) {
    const std::vector<double> x = g.generate(3000, rng);
    const std::vector<double> y = ExKokkosTest::normal(x.size(), rng);
    lines += check_case(std::vector<float>(x.begin(), x.end()),
                        std::vector<float>(y.begin(), y.end()), g.name + "_float", rng());
  }
  return lines;
}

// Special values on different ranks: with even blocks over two or more ranks, the first and the
// last element lie on different ranks, so the flags must cross ranks to give the oracle's value.
std::string special_values() {
  const double inf = std::numeric_limits<double>::infinity(), nan = std::nan("");
  std::vector<double> ones(40, 1.0);
  struct Case {
    const char* what;
    std::vector<double> x, y;
  };
  auto with_ends = [&](double first, double last) {
    std::vector<double> v = ones;
    v.front() = first;
    v.back() = last;
    return v;
  };
  const std::vector<Case> cases = {
      {"inf_and_minus_inf", with_ends(inf, -inf), ones},
      {"inf_last", with_ends(1.0, inf), ones},
      {"nan_first", with_ends(nan, 1.0), ones},
      {"minus_inf_first", with_ends(-inf, 2.0), ones},
      {"inf_times_zero", with_ends(inf, 1.0), with_ends(0.0, 1.0)},
      {"product_infs_cross", with_ends(inf, inf), with_ends(1.0, -1.0)},
      {"zero_times_inf_last", with_ends(1.0, 0.0), with_ends(1.0, inf)},
      {"overflow_cancels", with_ends(0x1p1000, -0x1p1000), with_ends(0x1p1000, 0x1p1000)},
      {"all_minus_zero", std::vector<double>(40, -0.0), std::vector<double>(40, 1.0)},
      {"signed_zero_ends", with_ends(-0.0, 0.0), std::vector<double>(40, -1.0)},
  };
  std::string lines;
  for (const Case& c : cases) lines += check_case(c.x, c.y, c.what, 11);
  return lines;
}

ReproGroup sum_group(every_sum_generator), product_group(every_product_generator),
    float_group(float_data), special_group(special_values), multivector_group(multivectors),
    complex_group(complex_data);

TEST(MpiReductions, EverySumGeneratorAndDistributionGivesTheOracleBits) {
  sum_group.run();
}

TEST(MpiReductions, EveryProductGeneratorAndDistributionGivesTheOracleBits) {
  product_group.run();
}

TEST(MpiReductions, FloatData) {
  float_group.run();
}

TEST(MpiReductions, SpecialValuesCrossRanks) {
  special_group.run();
}

TEST(MpiReductions, MultivectorsGiveEachColumnsOracleBits) {
  multivector_group.run();
}

TEST(MpiReductions, ComplexValuesGiveTheOracleBits) {
  complex_group.run();
}

TEST(MpiReductions, SubCommunicators) {
  // MPI_COMM_SELF: the distributed routines are the single-process ones.
  std::mt19937_64 rng(100 + world_rank());
  const std::vector<double> x = ExKokkosTest::full_range(777, rng);
  const auto v = to_view<Space>(x);
  EXPECT_TRUE(same_bits(ExKokkos::mpi::exsum(v, MPI_COMM_SELF), ExKokkos::exsum(v)));
  EXPECT_TRUE(same_bits(ExKokkos::mpi::exnrm2(v, MPI_COMM_SELF), ExKokkos::exnrm2(v)));

  // Even and odd ranks, each group summing its own members' data: each group's oracle.
  MPI_Comm group;
  MPI_Comm_split(MPI_COMM_WORLD, world_rank() % 2, world_rank(), &group);
  std::vector<double> all;  // every rank's data, in rank order
  std::vector<std::vector<double>> data(world_size());
  for (int r = 0; r < world_size(); ++r) {
    std::mt19937_64 g(100 + r);
    data[r] = ExKokkosTest::full_range(777, g);
  }
  ExKokkosTest::ExactSum mine;
  for (int r = world_rank() % 2; r < world_size(); r += 2)
    for (double t : data[r]) mine.add(t);
  const double got = ExKokkos::mpi::exsum(v, group);
  EXPECT_TRUE(same_bits(got, mine.round_double()))
      << "group " << world_rank() % 2 << ": " << describe(got) << " vs "
      << describe(mine.round_double());
  MPI_Comm_free(&group);
}

TEST(MpiReductions, InvalidArgumentsOnOneRankThrowOnEveryRank) {
  const int rank = world_rank(), size = world_size();
  // Mismatched extents on the last rank only.
  Kokkos::View<double*, Mem> x("x", 4), y("y", rank == size - 1 ? 3 : 4);
  Kokkos::deep_copy(x, 1.0);
  Kokkos::deep_copy(y, 1.0);
  bool thrown = false;
  try {
    ExKokkos::mpi::exdot(Space(), x, y, MPI_COMM_WORLD);
  } catch (const std::invalid_argument& e) {
    thrown = true;
    const std::string msg = e.what();
    EXPECT_NE(msg.find("ExKokkos::mpi::exdot"), std::string::npos) << msg;
    if (rank == size - 1) {
      EXPECT_NE(msg.find("x.extent(0) = 4"), std::string::npos) << msg;
      EXPECT_NE(msg.find("y.extent(0) = 3"), std::string::npos) << msg;
    } else {
      EXPECT_NE(msg.find("another rank"), std::string::npos) << msg;
    }
  }
  EXPECT_TRUE(thrown) << "rank " << rank;

  // A bad option on rank 0 only.
  ExKokkos::Options bad;
  if (rank == 0) bad.expansion_size = 5;
  thrown = false;
  try {
    ExKokkos::mpi::exsum(Space(), x, MPI_COMM_WORLD, bad);
  } catch (const std::invalid_argument& e) {
    thrown = true;
    EXPECT_NE(std::string(e.what()).find("ExKokkos::mpi::exsum"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(thrown) << "rank " << rank;

  // Multivectors: R of the wrong length on the last rank, then a different number of columns on
  // rank 0, then a bad option on the last rank. Every rank throws, and no rank's R is written.
  Kokkos::View<double**, Kokkos::LayoutLeft, Mem> X("X", 4, 3), X2("X2", 4, rank == 0 ? 2 : 3);
  Kokkos::deep_copy(X, 1.0);
  Kokkos::deep_copy(X2, 1.0);
  Kokkos::View<double*, Mem> R("R", rank == size - 1 ? 2 : 3), R3("R3", 3), R2("R2", X2.extent(1));
  const auto refused = [&](const char* what, const char* expected_text, const auto& call) {
    Kokkos::deep_copy(R, -7.0);
    Kokkos::deep_copy(R3, -7.0);
    Kokkos::deep_copy(R2, -7.0);
    bool threw = false;
    try {
      call();
    } catch (const std::invalid_argument& e) {
      threw = true;
      EXPECT_NE(std::string(e.what()).find(expected_text), std::string::npos)
          << what << ", rank " << rank << ": " << e.what();
    }
    EXPECT_TRUE(threw) << what << ", rank " << rank;
    for (double v : to_vector(R)) EXPECT_EQ(v, -7.0) << what << ", rank " << rank;
    for (double v : to_vector(R3)) EXPECT_EQ(v, -7.0) << what << ", rank " << rank;
    for (double v : to_vector(R2)) EXPECT_EQ(v, -7.0) << what << ", rank " << rank;
  };
  refused("R too short", rank == size - 1 ? "R.extent(0) = 2" : "another rank",
          [&] { ExKokkos::mpi::exdot(Space(), R, X, X, MPI_COMM_WORLD); });
  if (size > 1)
    refused("columns differ", "the same number of columns",
            [&] { ExKokkos::mpi::exsum(Space(), R2, X2, MPI_COMM_WORLD); });
  ExKokkos::Options bad_last;
  if (rank == size - 1) bad_last.league_size = -1;
  refused("bad option", "ExKokkos::mpi::exnrm2",
          [&] { ExKokkos::mpi::exnrm2(Space(), R3, X, MPI_COMM_WORLD, bad_last); });

  // The communicator is still usable, and valid calls succeed: 4 ones per rank.
  EXPECT_EQ(ExKokkos::mpi::exdot(Space(), x, x, MPI_COMM_WORLD), 4.0 * size);
  ExKokkos::mpi::exasum(Space(), R3, X, MPI_COMM_WORLD);
  for (double v : to_vector(R3)) EXPECT_EQ(v, 4.0 * size);
}

// Writes the bits for the cross-rank-count comparison (rank 0, when $EXKOKKOS_REPRO_OUT is set):
// every group, in a fixed order, whichever tests ran before and in whatever order.
TEST(MpiReductions, WriteBitsForRankCountComparison) {
  std::string all;
  for (ReproGroup* g : {&sum_group, &product_group, &float_group, &special_group,
                        &multivector_group, &complex_group})
    all += g->lines();
  EXPECT_FALSE(all.empty());
  if (world_rank() != 0) return;
  const char* path = std::getenv("EXKOKKOS_REPRO_OUT");
  if (!path) return;
  std::FILE* out = std::fopen(path, "w");
  ASSERT_NE(out, nullptr) << path;
  std::fputs(all.c_str(), out);
  std::fclose(out);
}

}  // namespace
