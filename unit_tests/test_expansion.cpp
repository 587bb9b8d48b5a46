// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Expansion<N, EarlyExit> and ExpansionLanes<N, W> in front of a LongAccumulator, for every
// N = 2..8: whatever the data (huge values that force head flushes, products outside TwoProd's
// exact range, signed zeros, NaN/Inf), expansion + sink must hold exactly the sum of the terms,
// compared bit for bit with the MPFR oracle after rounding.
#include <ExKokkos_Expansion.hpp>
#include <ExKokkos_ExpansionLanes.hpp>
#include <ExKokkos_ExpansionRounding.hpp>
#include <ExKokkos_LongAccumulator.hpp>

#include <ExKokkosTest_Generators.hpp>
#include <ExKokkosTest_Oracle.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

namespace {

using ExKokkosTest::describe;
using ExKokkosTest::same_bits;

// A sink that counts how often the expansion spilled, to check the tests reach that path. Its
// members are host-device because ExpansionLanes calls its sink from KOKKOS_INLINE_FUNCTIONs:
// nvcc (--Werror=cross-execution-space-call) refuses a host-only sink there.
struct CountingSink {
  ExKokkos::LongAccumulator acc;
  long deposits = 0;
  KOKKOS_INLINE_FUNCTION void add(double x) {
    ++deposits;
    acc.add(x);
  }
  KOKKOS_INLINE_FUNCTION void add_product(double a, double b) {
    ++deposits;
    acc.add_product(a, b);
  }
};

template <int N, bool EarlyExit>
void check_expansion(std::mt19937_64& rng, long& spills) {
  const auto sums = ExKokkosTest::sum_generators();
  const auto products = ExKokkosTest::product_generators();
  for (int c = 0; c < 3000; ++c) {
    const std::size_t n = 1 + rng() % 200;
    const auto& g = sums[rng() % sums.size()];
    const auto& pg = products[rng() % products.size()];
    const std::vector<double> v = g.generate(n, rng);
    const auto xy = pg.generate(n, rng);
    ExKokkosTest::ExactSum oracle;
    ExKokkos::Impl::Expansion<N, EarlyExit> e;
    CountingSink sink;
    for (std::size_t i = 0; i < v.size(); ++i) {
      e.add(v[i], sink);
      oracle.add(v[i]);
      if (i < xy.first.size()) {
        e.add_product(xy.first[i], xy.second[i], sink);
        oracle.add_product(xy.first[i], xy.second[i]);
      }
    }
    e.flush(sink);
    spills += sink.deposits;
    ASSERT_TRUE(same_bits(sink.acc.round(), oracle.round_double()))
        << "N=" << N << " early_exit=" << EarlyExit << " " << g.name << "/" << pg.name << ": "
        << describe(sink.acc.round()) << " vs " << describe(oracle.round_double());
  }
}

template <int N, int W>
void check_lanes(std::mt19937_64& rng) {
  const auto sums = ExKokkosTest::sum_generators();
  for (int c = 0; c < 1000; ++c) {
    const auto& g = sums[rng() % sums.size()];
    // A generator returns about the size asked for: whole blocks of W, the last one padded with
    // zeros (terms the oracle gets too), and a factor for every term.
    std::vector<double> v = g.generate(W * (1 + rng() % 20), rng);
    v.resize((v.size() + W - 1) / W * W, 0.0);
    std::vector<double> w = g.generate(v.size(), rng);
    w.resize(v.size(), 0.0);
    ExKokkosTest::ExactSum oracle;
    ExKokkos::Impl::ExpansionLanes<N, W> lanes;
    ExKokkos::Impl::Expansion<N> scalar;  // takes the blocks the lanes refuse, as the kernels do
    CountingSink sink;
    for (std::size_t i = 0; i < v.size(); i += W) {
      double a[W], b[W];
      for (int j = 0; j < W; ++j) {
        a[j] = v[i + j];
        b[j] = w[i + j];
        oracle.add(a[j]);
        oracle.add_product(a[j], b[j]);
      }
      if (!lanes.add(a, sink))
        for (int j = 0; j < W; ++j) scalar.add(a[j], sink);
      if (!lanes.add_products(a, b, sink))
        for (int j = 0; j < W; ++j) scalar.add_product(a[j], b[j], sink);
    }
    lanes.flush(sink);
    scalar.flush(sink);
    ASSERT_TRUE(same_bits(sink.acc.round(), oracle.round_double()))
        << "N=" << N << " W=" << W << " " << g.name;
  }
}

// Term (s, j) of a window: element s * W + j of v (sums), or of x and y (products), as
// ExpansionLanes::add_window takes it (Products: the second form).
template <int W, bool Products = false>
struct WindowTerms {
  static constexpr bool is_product = Products;
  const double* v;
  const double* x;
  const double* y;
  KOKKOS_INLINE_FUNCTION double operator()(int s, int j) const { return v[s * W + j]; }
  KOKKOS_INLINE_FUNCTION void operator()(int s, int j, double& a, double& b) const {
    a = x[s * W + j];
    b = y[s * W + j];
  }
};

// The window forms of ExpansionLanes, which test once per window and send the terms the lanes
// cannot take (huge, NaN/inf, products outside TwoProd's exact range, zero products) to the sinks
// afterwards: every generator's data, sums and products mixed in one set of lanes, whole windows
// only, lanes with a sink each (as exgemv uses them) or one shared sink (then folded into lane 0,
// as exgemv's inner_lanes does, before the flush).
template <int N, int W, bool PerLane>
void check_windows(std::mt19937_64& rng, long& late_terms) {
  using Lanes = ExKokkos::Impl::ExpansionLanes<N, W>;
  constexpr int span = Lanes::window * W;
  const auto sums = ExKokkosTest::sum_generators();
  const auto products = ExKokkosTest::product_generators();
  for (int c = 0; c < 400; ++c) {
    const auto& g = sums[rng() % sums.size()];
    const auto& pg = products[rng() % products.size()];
    const std::size_t windows = 1 + rng() % 6;
    const std::vector<double> v = g.generate(windows * span, rng);
    const auto xy = pg.generate(windows * span, rng);
    if (xy.first.size() < windows * span) continue;  // generators that fix their own length
    Lanes lanes;
    CountingSink sinks[W];
    ExKokkosTest::ExactSum oracle[W];
    for (std::size_t w = 0; w < windows; ++w) {
      const WindowTerms<W> terms{v.data() + w * span, xy.first.data() + w * span,
                                 xy.second.data() + w * span};
      for (int s = 0; s < Lanes::window; ++s)
        for (int j = 0; j < W; ++j) {
          double a, b;
          terms(s, j, a, b);
          oracle[PerLane ? j : 0].add(terms(s, j));
          oracle[PerLane ? j : 0].add_product(a, b);
        }
      const WindowTerms<W, true> factors{terms.v, terms.x, terms.y};
      if (PerLane) {
        ExKokkos::Impl::PerLaneSinks<CountingSink> per_lane{sinks};
        lanes.add_window(terms, per_lane);
        lanes.add_window(factors, per_lane);
      } else {
        lanes.add_window(terms, sinks[0]);
        lanes.add_window(factors, sinks[0]);
      }
    }
    if (!PerLane) lanes.fold(sinks[0]);  // lane 0 takes the others: the sum must not change
    for (int j = 0; j < W; ++j) {
      if (PerLane) {
        ExKokkos::Impl::PerLaneSinks<CountingSink> per_lane{sinks};
        lanes.flush_lane(j, per_lane);
      } else {
        lanes.flush_lane(j, sinks[0]);
      }
    }
    for (int j = 0; j < (PerLane ? W : 1); ++j) {
      late_terms += sinks[j].deposits;
      ASSERT_TRUE(same_bits(sinks[j].acc.round(), oracle[j].round_double()))
          << "N=" << N << " W=" << W << " lane " << j << " " << g.name << "/" << pg.name << ": "
          << describe(sinks[j].acc.round()) << " vs " << describe(oracle[j].round_double());
    }
  }
}

TEST(ExpansionLanes, WindowsEveryGenerator) {
  std::mt19937_64 rng(13);
  long late_terms = 0;
  check_windows<2, 8, true>(rng, late_terms);
  check_windows<3, 32, true>(rng, late_terms);
  check_windows<3, 32, false>(rng, late_terms);
  check_windows<4, 16, false>(rng, late_terms);
  check_windows<8, 4, true>(rng, late_terms);
  EXPECT_GT(late_terms, 0);
}

TEST(Expansion, EverySizeWithAndWithoutEarlyExit) {
  std::mt19937_64 rng(11);
  long spills = 0;
  check_expansion<2, false>(rng, spills);
  check_expansion<3, false>(rng, spills);
  check_expansion<4, false>(rng, spills);
  check_expansion<5, false>(rng, spills);
  check_expansion<6, false>(rng, spills);
  check_expansion<7, false>(rng, spills);
  check_expansion<8, false>(rng, spills);
  check_expansion<2, true>(rng, spills);
  check_expansion<4, true>(rng, spills);
  check_expansion<8, true>(rng, spills);
  EXPECT_GT(spills, 0);
}

// Heads that reach 2^1000 are flushed before a TwoSum could overflow.
TEST(Expansion, HeadFlushPreventsOverflow) {
  ExKokkos::Impl::Expansion<3> e;
  CountingSink sink;
  ExKokkosTest::ExactSum oracle;
  for (int i = 0; i < 5000; ++i) {
    const double x = (i % 3 == 2 ? -0x1.8p999 : 0x1.fp999) * (1 + (i % 7) * 0x1p-40);
    e.add(x, sink);
    oracle.add(x);
    EXPECT_LT(std::fabs(e[0]), 0x1p1000);
  }
  e.flush(sink);
  EXPECT_TRUE(same_bits(sink.acc.round(), oracle.round_double()));
}

TEST(Expansion, SignOfZero) {
  ExKokkos::Impl::Expansion<4> e;
  ExKokkos::LongAccumulator acc;
  e.add(-0.0, acc);
  e.add_product(-0.0, 2.0, acc);
  e.flush(acc);
  EXPECT_TRUE(same_bits(acc.round(), -0.0));
  ExKokkos::Impl::Expansion<4> f;
  ExKokkos::LongAccumulator acc2;
  f.add(-0.0, acc2);
  f.add(0.0, acc2);
  f.flush(acc2);
  EXPECT_TRUE(same_bits(acc2.round(), 0.0));
}

TEST(ExpansionLanes, EverySizeAndWidth) {
  std::mt19937_64 rng(12);
  check_lanes<2, 8>(rng);
  check_lanes<3, 16>(rng);
  check_lanes<4, 32>(rng);
  check_lanes<8, 4>(rng);
  check_lanes<2, 1>(rng);
}

// round_expansion_fast either declines or returns exactly the oracle's rounding of the slots'
// sum: random products, sums built to land on ties and next to powers of two, cancellation.
template <int N>
void check_fast_rounding(std::mt19937_64& rng, int& certified, int& total) {
  std::uniform_real_distribution<double> u(-1, 1);
  std::uniform_int_distribution<int> kind(0, 4), e(-60, 60);
  for (int trial = 0; trial < 20000; ++trial) {
    ExKokkos::Impl::Expansion<N> ex;
    ExKokkos::LongAccumulator spill;  // must stay unused for the fast path to apply
    ExKokkosTest::ExactSum exact;
    const int k = kind(rng);
    const double base = k == 1 ? std::ldexp(1.0, e(rng)) : std::ldexp(u(rng), e(rng));
    ex.add(base, spill);
    exact.add(base);
    for (int t = 0; t < 6; ++t) {
      double a = u(rng), b = u(rng);
      if (k == 0) b = std::ldexp(b, e(rng));
      if (k == 1 || k == 2) {  // terms near half an ulp of base: ties and near-ties
        a = std::ldexp(1.0, e(rng) % 3 - 53) * (t % 2 ? 1 : -1);
        b = std::fabs(base) * (t == 0 ? 1.0 : std::ldexp(1.0, -(t * 7)));
      }
      if (k == 4) {  // an exact tie: half an ulp of base, sometimes with a sticky term
        const double ulp = std::nextafter(std::fabs(base), 1e300) - std::fabs(base);
        a = t == 0 ? ulp : (t == 1 && trial % 2 ? std::ldexp(ulp, -30) : 0.0);
        b = t == 0 ? (trial % 4 < 2 ? 0.5 : -0.5) : (trial % 3 ? 1.0 : -1.0);
        if (a == 0.0) continue;
      }
      if (k == 3 && t == 5) {  // cancel the base almost entirely
        a = -base;
        b = 1.0 + std::ldexp(u(rng), -40);
      }
      ex.add_product(a, b, spill);
      exact.add_product(a, b);
    }
    double r;
    ++total;
    if (spill.sign() != 0 || !ExKokkos::Impl::round_expansion_fast(ex, r)) continue;
    ++certified;
    const double want = exact.round_double();
    ASSERT_TRUE(same_bits(r, want))
        << "N " << N << " kind " << k << ": " << describe(r) << " vs " << describe(want);
  }
}

TEST(ExpansionRounding, CertifiedResultsAreCorrectlyRounded) {
  std::mt19937_64 rng(99);
  int certified = 0, total = 0;
  check_fast_rounding<2>(rng, certified, total);
  check_fast_rounding<3>(rng, certified, total);
  check_fast_rounding<4>(rng, certified, total);
  check_fast_rounding<8>(rng, certified, total);
  std::printf("fast rounding certified %d of %d sums\n", certified, total);
  EXPECT_GT(certified, total / 4);  // the fast path must actually be exercised
}

}  // namespace
