// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The shared parts of unit_tests/api_digest: the fixed input generator, the digest, and the
// entry points of the files that call each part of the API (one file each, so that they compile
// side by side and each in bounded memory).
#ifndef EXKOKKOS_API_DIGEST_HPP
#define EXKOKKOS_API_DIGEST_HPP
#include <ExKokkos.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace ApiDigest {

// splitmix64: a fixed sequence on every platform.
struct Rng {
  std::uint64_t s;
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  // A double in [-1, 1) with 53 random bits.
  double uniform() { return std::ldexp(double(next() >> 11), -52) - 1.0; }
};

// The input families: the kinds of data the schedules treat differently.
enum class Data { uniform, cancelling, wide, full_range, special };
inline const Data all_data[] = {Data::uniform, Data::cancelling, Data::wide, Data::full_range,
                                Data::special};

inline double draw(Rng& g, Data d, std::size_t i) {
  switch (d) {
    case Data::uniform:
      return g.uniform();
    case Data::cancelling: {  // big terms that cancel, and small ones that survive
      const double big = std::ldexp(g.uniform(), 60);
      return (i % 3 == 0) ? g.uniform() * 1e-10 : ((i % 2) ? big : -big);
    }
    case Data::wide:  // exponents spread over about 2^-300 .. 2^300
      return std::ldexp(g.uniform(), int(g.next() % 601) - 300);
    case Data::full_range:  // every exponent, subnormals included, no overflow in products
      return std::ldexp(g.uniform(), int(g.next() % 2000) - 1050);
    case Data::special: {
      static const double v[] = {0.0,
                                 -0.0,
                                 1.0,
                                 -1.0,
                                 0x1p-1074,
                                 -0x1p-1074,
                                 0x1p-1022,
                                 0x1.fffffffffffffp+1023,
                                 -0x1.fffffffffffffp+1023,
                                 0.5,
                                 0x1p-53,
                                 3.0};
      return (g.next() % 4 == 0) ? v[g.next() % 12] : g.uniform();
    }
  }
  return 0;
}

// FNV-1a over bit patterns, so that -0 and +0 and NaN payloads differ.
struct Digest {
  std::uint64_t h = 1469598103934665603ull;
  void bytes(const void* p, std::size_t n) {
    const unsigned char* c = static_cast<const unsigned char*>(p);
    for (std::size_t i = 0; i < n; ++i) {
      h ^= c[i];
      h *= 1099511628211ull;
    }
  }
  template <class T>
  void add(const T& v) {
    bytes(&v, sizeof v);
  }
};

using Results = std::map<std::string, Digest>;

template <class T, class Space>
using V1 = Kokkos::View<T*, typename Space::memory_space>;
template <class T, class Layout, class Space>
using V2 = Kokkos::View<T**, Layout, typename Space::memory_space>;

template <class T, class Space>
V1<T, Space> vec(std::size_t n, Data d, std::uint64_t seed) {
  V1<T, Space> v("v", n);
  auto h = Kokkos::create_mirror_view(v);
  Rng g{seed};
  for (std::size_t i = 0; i < n; ++i) h(i) = static_cast<T>(draw(g, d, i));
  Kokkos::deep_copy(v, h);
  return v;
}

template <class T, class Layout, class Space>
V2<T, Layout, Space> mat(std::size_t m, std::size_t n, Data d, std::uint64_t seed) {
  V2<T, Layout, Space> a("a", m, n);
  auto h = Kokkos::create_mirror_view(a);
  Rng g{seed};
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j) h(i, j) = static_cast<T>(draw(g, d, i * n + j));
  Kokkos::deep_copy(a, h);
  return a;
}

// A well-conditioned square matrix for the solvers: random entries, a dominant diagonal.
template <class T, class Layout, class Space>
V2<T, Layout, Space> dominant(std::size_t n, std::uint64_t seed) {
  auto a = mat<T, Layout, Space>(n, n, Data::uniform, seed);
  auto h = Kokkos::create_mirror_view(a);
  Kokkos::deep_copy(h, a);
  for (std::size_t i = 0; i < n; ++i) h(i, i) = static_cast<T>(h(i, i) + (i % 2 ? 1.0 : -1.0) * n);
  Kokkos::deep_copy(a, h);
  return a;
}

// The schedule a call on Space runs for s. The host schedules (output_lanes, inner_lanes) are
// refused on a device space, where automatic stands in for them: every schedule gives the same
// bits, so the line of the schedule still compares with the host backends'.
template <class Space>
ExKokkos::Schedule runnable(ExKokkos::Schedule s) {
  constexpr bool host =
      Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Space::memory_space>::accessible;
  if (!host && (s == ExKokkos::Schedule::output_lanes || s == ExKokkos::Schedule::inner_lanes))
    return ExKokkos::Schedule::automatic;
  return s;
}

template <class V>
void add_view(Digest& d, const V& v) {
  auto h = Kokkos::create_mirror_view(v);
  Kokkos::deep_copy(h, v);
  if constexpr (static_cast<int>(V::rank) == 1) {
    for (std::size_t i = 0; i < h.extent(0); ++i) d.add(h(i));
  } else if constexpr (static_cast<int>(V::rank) == 2) {
    for (std::size_t i = 0; i < h.extent(0); ++i)
      for (std::size_t j = 0; j < h.extent(1); ++j) d.add(h(i, j));
  } else {
    for (std::size_t i = 0; i < h.extent(0); ++i)
      for (std::size_t j = 0; j < h.extent(1); ++j)
        for (std::size_t k = 0; k < h.extent(2); ++k) d.add(h(i, j, k));
  }
}

template <class Space>
void level1(const Space& space, Results& out);
template <class Space>
void level2(const Space& space, Results& out);
template <class Space>
void level3(const Space& space, Results& out);
template <class Space>
void lapack(const Space& space, Results& out);
template <class Space>
void accumulators(const Space& space, Results& out);

}  // namespace ApiDigest

#endif  // EXKOKKOS_API_DIGEST_HPP
