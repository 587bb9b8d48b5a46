// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// How a CPU thread walks a contiguous range of terms: W at a time through ExpansionLanes
// (vectorized, latency hidden), blocks the lanes refuse and the tail through a scalar Expansion;
// and how a GPU thread walks a strided range (accumulate_strided). Shared by the exact reductions
// (exsum, exdot, ...) and the dot-like rows of exgemv.
//
// Terms say what element i adds. A sum-like Terms has `static constexpr bool is_product = false`
// and `double operator()(i)`; a product-like one has is_product = true and
// `void operator()(i, double& a, double& b)` for the exact product a * b.
#ifndef EXKOKKOS_LANEWALK_IMPL_HPP
#define EXKOKKOS_LANEWALK_IMPL_HPP

#include <ExKokkos_BinnedSink.hpp>
#include <ExKokkos_CompensatedLanes.hpp>
#include <ExKokkos_Expansion.hpp>
#include <ExKokkos_ExpansionLanes.hpp>

#include <cstdint>
#include <type_traits>
#include <utility>

namespace ExKokkos {
namespace Impl {

// Adds element i through a scalar expansion.
template <class Terms, class Exp, class Sink>
KOKKOS_INLINE_FUNCTION void add_term(const Terms& terms, std::int64_t i, Exp& e, Sink& sink) {
  if constexpr (Terms::is_product) {
    double a, b;
    terms(i, a, b);
    e.add_product(a, b, sink);
  } else {
    e.add(terms(i), sink);
  }
}

// Adds elements [i, i + W) to the lanes; false if the block was refused (see ExpansionLanes).
template <class Terms, class Lanes, class Sink>
KOKKOS_INLINE_FUNCTION bool add_block(const Terms& terms, std::int64_t i, Lanes& lanes,
                                      Sink& sink) {
  if constexpr (Terms::is_product) {
    double a[Lanes::lanes], b[Lanes::lanes];
    for (int j = 0; j < Lanes::lanes; ++j) terms(i + j, a[j], b[j]);
    return lanes.add_products(a, b, sink);
  } else {
    double v[Lanes::lanes];
    for (int j = 0; j < Lanes::lanes; ++j) v[j] = terms(i + j);
    return lanes.add(v, sink);
  }
}

// Element i + s * W + j of a contiguous range as term (s, j) of a window of ExpansionLanes.
template <class Terms, int W>
struct WindowOfRange {
  static constexpr bool is_product = Terms::is_product;
  const Terms& terms;
  std::int64_t i;
  KOKKOS_INLINE_FUNCTION double operator()(int s, int j) const { return terms(i + s * W + j); }
  KOKKOS_INLINE_FUNCTION void operator()(int s, int j, double& a, double& b) const {
    terms(i + s * W + j, a, b);
  }
};

// Adds elements [i, i + W): to the lanes, or, if they refuse the block, term by term.
template <class Terms, class Lanes, class Exp, class Sink>
KOKKOS_INLINE_FUNCTION void add_block_or_terms(const Terms& terms, std::int64_t i, Lanes& lanes,
                                               Exp& scalar, Sink& sink) {
  if (!add_block(terms, i, lanes, sink))
    for (int j = 0; j < Lanes::lanes; ++j) add_term(terms, i + j, scalar, sink);
}

// Lanes per CPU thread: four AVX-512 registers per slot, enough independent TwoSum
// chains to hide their latency; 64 lanes gain little more (figures: docs/performance.md).
constexpr int host_lanes = 32;

// Adds terms [first, last) to lanes, or, for the tail and blocks the lanes refuse, to scalar;
// what neither can hold goes to sink.
template <class Terms, class Lanes, class Exp, class Sink>
KOKKOS_INLINE_FUNCTION void walk_with_lanes(const Terms& terms, std::int64_t first,
                                            std::int64_t last, Lanes& lanes, Exp& scalar,
                                            Sink& sink) {
  constexpr int W = Lanes::lanes;
  std::int64_t i = first;
  // Whole windows, then the blocks after the last window one by one.
  constexpr std::int64_t span = std::int64_t(Lanes::window) * W;
  for (; i + span <= last; i += span) lanes.add_window(WindowOfRange<Terms, W>{terms, i}, sink);
  for (; i + W <= last; i += W) add_block_or_terms(terms, i, lanes, scalar, sink);
  for (; i < last; ++i) add_term(terms, i, scalar, sink);
}

// Adds terms [first, last) exactly into sink (every slot flushed at the end).
template <int N, class Terms, class Sink>
KOKKOS_INLINE_FUNCTION void accumulate_with_lanes(const Terms& terms, std::int64_t first,
                                                  std::int64_t last, Sink& sink) {
  ExpansionLanes<N, host_lanes> lanes;
  Expansion<N, false> scalar;
  walk_with_lanes(terms, first, last, lanes, scalar, sink);
  lanes.flush(sink);
  scalar.flush(sink);
}

// Adds elements [first, last) straight to exponent bins, with no expansion (a product as the
// integer product of the significands: one path for every pair of normal factors, with no branch on
// their range), a chunk at a time (BinnedSink's many-term forms).
template <class Terms, class Bins>
KOKKOS_INLINE_FUNCTION void add_terms_to_bins(const Terms& terms, std::int64_t first,
                                              std::int64_t last, Bins& bins) {
  while (first < last) {
    const std::int64_t count = last - first < Bins::capacity ? last - first : Bins::capacity;
    bins.reserve(static_cast<std::uint32_t>(count));
    if constexpr (Terms::is_product)
      bins.add_products_reserved(terms, first, count);
    else
      bins.add_terms_reserved(terms, first, count);
    first += count;
  }
}

// accumulate_with_lanes for data of any width. Lanes hold data whose sums fit their expansions at
// the speed of memory; wider data leaves a leftover at nearly every step, and each leftover would
// cost the lanes' drain more than adding the term to exponent bins directly
// (ExKokkos_BinnedSink.hpp). So after a window that sent anything to the sink, the next windows'
// worth of terms go straight to the bins, twice as many after each window that spills again (up
// to max_bin_windows), one after a window that did not. Both ways are exact: only the speed
// depends on the data, never the sum.
//
// Bins cost a fixed price when first reached (clearing them) and at the end (a deposit per
// non-zero bin, up to a few thousand for wide data), which only a long enough range repays:
// shorter ranges than min_terms_for_bins take accumulate_with_lanes. On the widest data a term
// costs the lanes' drain several times what it costs the bins, so the bins repay their fixed
// price from a few thousand terms; data that spills only now and then reaches the bins, and pays
// their price, only when it does (figures: docs/performance.md, "Wide data on the CPU").
//
// max_bin_windows bounds both costs of the probe. On wide data a probe window costs the drain
// about ten times what the same terms cost the bins, so probing every 64 windows would spend over
// a tenth of the time in probes, every 1024 about a hundredth; data that narrows again stays in
// the bins, at a few times the lanes' price, for at most 1024 windows (262,144 terms) before the
// next probe finds out (figures: docs/performance.md).
constexpr int max_bin_windows = 1024;
constexpr std::int64_t min_terms_for_bins = std::int64_t(1) << 12;

template <int N, class Terms, class Sink>
KOKKOS_INLINE_FUNCTION void accumulate_with_lanes_or_bins(const Terms& terms, std::int64_t first,
                                                          std::int64_t last, Sink& sink) {
  if (last - first < min_terms_for_bins) {
    accumulate_with_lanes<N>(terms, first, last, sink);
    return;
  }
  ExpansionLanes<N, host_lanes> lanes;
  Expansion<N, false> scalar;
  BinnedSink<Sink> bins(sink);
  constexpr int W = host_lanes;
  constexpr std::int64_t span = std::int64_t(ExpansionLanes<N, W>::window) * W;
  std::int64_t i = first;
  int bin_windows = 1;
  while (i + span <= last) {
    const bool spilled = lanes.add_window(WindowOfRange<Terms, W>{terms, i}, bins);
    i += span;
    if (!spilled) {
      bin_windows = 1;
      continue;
    }
    const std::int64_t stop = last - i > bin_windows * span ? i + bin_windows * span : last;
    add_terms_to_bins(terms, i, stop, bins);
    i = stop;
    if (bin_windows < max_bin_windows) bin_windows *= 2;
  }
  // The tail and the final slots go to the sink itself: bins that nothing reached are never
  // cleared nor scanned, which a short sum would feel.
  bins.flush();
  for (; i + W <= last; i += W) add_block_or_terms(terms, i, lanes, scalar, sink);
  for (; i < last; ++i) add_term(terms, i, scalar, sink);
  lanes.flush(sink);
  scalar.flush(sink);
}

// The same sum, but kept: afterwards the exact sum of terms [first, last) is what went to sink
// plus the N slots (the lanes folded into one expansion). The scalar expansion (the tail, refused
// blocks) goes to sink unless it is still empty: a head of -0 and nothing else adds nothing, not
// even to a zero's sign.
template <int N, class Terms, class Sink>
KOKKOS_INLINE_FUNCTION void accumulate_with_lanes_to_slots(const Terms& terms, std::int64_t first,
                                                           std::int64_t last, Sink& sink,
                                                           double (&slots)[N]) {
  ExpansionLanes<N, host_lanes> lanes;
  Expansion<N, false> scalar;
  walk_with_lanes(terms, first, last, lanes, scalar, sink);
  if (!scalar.empty()) scalar.flush(sink);
  lanes.fold(sink);
  for (int q = 0; q < N; ++q) slots[q] = lanes.slot(q, 0);
}

// Terms first + k W + j, k < steps, as step k of lane j of CompensatedLanes<W>; past `last`, zero
// factors (or zero terms). Full: every term of the steps exists, no test.
template <class Terms, int W, bool Full>
struct CompensatedBlocks {
  const Terms& terms;
  std::int64_t first, last;
  KOKKOS_INLINE_FUNCTION void operator()(int k, int j, double& a, double& b) const {
    const std::int64_t t = first + std::int64_t(k) * W + j;
    if (Full || t < last) {
      terms(t, a, b);
    } else {
      a = 0.0;
      b = 0.0;
    }
  }
  KOKKOS_INLINE_FUNCTION double operator()(int k, int j) const {
    const std::int64_t t = first + std::int64_t(k) * W + j;
    return Full || t < last ? terms(t) : 0.0;
  }
};

// The compensated sum of terms [0, count) on one CPU thread: host_lanes lanes of CompensatedLanes
// (one vector operation per block of terms), folded into one CompensatedSum (see
// CompensatedLanes::fold for the certificate's count of error terms). Past the last term the
// lanes take exact zeros: they change neither the sum nor the errors and only add to the count of
// error terms, which makes the margin larger, never wrong.
template <class Terms>
KOKKOS_INLINE_FUNCTION CompensatedSum compensated_with_lanes(const Terms& terms,
                                                             std::int64_t count) {
  constexpr int W = host_lanes;
  CompensatedLanes<W> lanes;
  const std::int64_t full = count / W;
  if constexpr (Terms::is_product) {
    if (full > 0)
      lanes.add_products(CompensatedBlocks<Terms, W, true>{terms, 0, count},
                         static_cast<int>(full));
    if (full * W < count)
      lanes.add_products(CompensatedBlocks<Terms, W, false>{terms, full * W, count}, 1);
  } else {
    const auto add_block = [&](const auto& block) {
      double v[W];
      for (int j = 0; j < W; ++j) v[j] = block(0, j);
      lanes.add(v);
    };
    for (std::int64_t b = 0; b < full; ++b)
      add_block(CompensatedBlocks<Terms, W, true>{terms, b * W, count});
    if (full * W < count) add_block(CompensatedBlocks<Terms, W, false>{terms, full * W, count});
  }
  return lanes.fold();
}

// How a GPU thread walks its share of a team's range: elements first + k * stride (neighbouring
// threads read neighbouring elements: coalesced), one scalar expansion. The loads of `ahead`
// elements are issued before any of them is added, so that each thread keeps several loads in
// flight while its expansion's dependent TwoSum chain runs: otherwise a thread waits for every
// load in turn, and the walk runs at a fraction of the memory's rate.
//
// The blocks index their arrays with constants only (fold expressions), which keeps them in
// registers: nvcc left a loop over the arrays rolled and put them on the stack.
template <class Terms, class Exp, class Sink, int... J>
KOKKOS_INLINE_FUNCTION void add_strided_block(const Terms& terms, std::int64_t i,
                                              std::int64_t stride, Exp& e, Sink& sink,
                                              std::integer_sequence<int, J...>) {
  if constexpr (Terms::is_product) {
    double a[sizeof...(J)], b[sizeof...(J)];
    (terms(i + J * stride, a[J], b[J]), ...);
    (e.add_product(a[J], b[J], sink), ...);
  } else {
    const double v[] = {terms(i + J * stride)...};
    (e.add(v[J], sink), ...);
  }
}

template <int Ahead, class Terms, class Exp, class Sink>
KOKKOS_INLINE_FUNCTION void accumulate_strided(const Terms& terms, std::int64_t first,
                                               std::int64_t last, std::int64_t stride, Exp& e,
                                               Sink& sink) {
  std::int64_t i = first;
  for (; i + (Ahead - 1) * stride < last; i += Ahead * stride)
    add_strided_block(terms, i, stride, e, sink, std::make_integer_sequence<int, Ahead>());
  for (; i < last; i += stride) add_term(terms, i, e, sink);
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_LANEWALK_IMPL_HPP
