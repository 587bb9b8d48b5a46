// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The accumulator calls of api_digest: LongAccumulator and the ExactSum reducer.
#include "ApiDigest.hpp"

namespace ApiDigest {
namespace {

template <class Space>
void accumulators_of(const Space& space, Results& out) {
  for (Data d : all_data) {
    Rng g{static_cast<std::uint64_t>(d) + 5};
    ExKokkos::LongAccumulator acc, other;
    for (int i = 0; i < 1000; ++i) {
      acc.add(draw(g, d, i));
      other.add_product(draw(g, d, i), draw(g, d, i + 1));
    }
    acc.merge(other);
    out["LongAccumulator"].add(acc.round());
    out["LongAccumulator<float>"].add(acc.round<float>());
    // The reducer in a user's parallel_reduce.
    const auto x = vec<double, Space>(5000, d, 321 + static_cast<int>(d));
    ExKokkos::LongAccumulator sum;
    Kokkos::parallel_reduce(
        "api_digest::reducer", Kokkos::RangePolicy<Space>(space, 0, x.extent(0)),
        KOKKOS_LAMBDA(const int i, ExKokkos::LongAccumulator& a) { a.add(x(i)); },
        ExKokkos::ExactSum<Kokkos::HostSpace>(sum));
    out["ExactSum"].add(sum.round());
  }
}

}  // namespace

template <class Space>
void accumulators(const Space& space, Results& out) {
  accumulators_of(space, out);
}

#ifdef KOKKOS_ENABLE_SERIAL
template void accumulators(const Kokkos::Serial&, Results&);
#endif
#ifdef KOKKOS_ENABLE_OPENMP
template void accumulators(const Kokkos::OpenMP&, Results&);
#endif
#ifdef KOKKOS_ENABLE_CUDA
template void accumulators(const Kokkos::Cuda&, Results&);
#endif

}  // namespace ApiDigest
