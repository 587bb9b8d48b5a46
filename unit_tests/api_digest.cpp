// A digest of the result bits of a fixed set of calls across the whole public API, on every
// enabled host backend: one line per routine and backend ("<routine> <space> <16 hex digits>"),
// then one line per routine with the digest it has on every backend. Exits non-zero when two
// backends disagree.
//
// Used to show that a change of the library's structure leaves every result's bits as they were:
// run it before and after and compare the output (scripts/api_digest.sh). The inputs come from a
// fixed integer generator (splitmix64), so they are the same on every machine and build.
#include <ExKokkos.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace {

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
const Data all_data[] = {Data::uniform, Data::cancelling, Data::wide, Data::full_range,
                         Data::special};

double draw(Rng& g, Data d, std::size_t i) {
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
      static const double v[] = {0.0, -0.0, 1.0, -1.0, 0x1p-1074, -0x1p-1074, 0x1p-1022,
                                 0x1.fffffffffffffp+1023, -0x1.fffffffffffffp+1023, 0.5,
                                 0x1p-53, 3.0};
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

const std::size_t level1_sizes[] = {0, 1, 7, 33, 1000, 100003};

ExKokkos::Options level1_options(int variant) {
  ExKokkos::Options o;
  switch (variant) {
    case 1: o.expansion_size = 2; o.early_exit = 1; break;
    case 2: o.expansion_size = 8; o.early_exit = 0; o.league_size = 3; break;
    case 3: o.expansion_size = 4; o.team_size = 1; o.league_size = 17; break;
    default: break;
  }
  return o;
}

template <class T, class Space>
void level1(const Space& space, Results& out) {
  const std::string t = std::is_same<T, double>::value ? "double" : "float";
  for (Data d : all_data)
    for (std::size_t n : level1_sizes)
      for (int v = 0; v < 4; ++v) {
        const auto o = level1_options(v);
        const auto x = vec<T, Space>(n, d, 11 * n + 1);
        const auto y = vec<T, Space>(n, d, 13 * n + 2);
        out["exsum<" + t + ">"].add(ExKokkos::exsum(space, x, o));
        out["exasum<" + t + ">"].add(ExKokkos::exasum(space, x, o));
        out["exdot<" + t + ">"].add(ExKokkos::exdot(space, x, y, o));
        out["exnrm2<" + t + ">"].add(ExKokkos::exnrm2(space, x, o));
        const Kokkos::View<T, typename Space::memory_space> r("r");
        ExKokkos::exdot(space, r, x, y, o);
        T rv;
        Kokkos::deep_copy(rv, r);
        out["exdot_view<" + t + ">"].add(rv);
      }
  const T alphas[] = {T(0), T(1), T(-0.75), T(3.0000001)};
  for (Data d : all_data)
    for (std::size_t n : {std::size_t(0), std::size_t(5), std::size_t(1001)})
      for (T a : alphas)
        for (T b : alphas) {
          const auto x = vec<T, Space>(n, d, 17 * n + 3);
          auto y = vec<T, Space>(n, d, 19 * n + 4);
          ExKokkos::exaxpby(space, a, x, b, y);
          add_view(out["exaxpby<" + t + ">"], y);
          y = vec<T, Space>(n, d, 19 * n + 4);
          ExKokkos::exaxpy(space, a, x, y);
          add_view(out["exaxpy<" + t + ">"], y);
          ExKokkos::exscal(space, y, a, x);
          add_view(out["exscal<" + t + ">"], y);
          if (a != T(0)) {
            ExKokkos::exinvscal(space, y, a, x);
            add_view(out["exinvscal<" + t + ">"], y);
          }
        }
}

const ExKokkos::Schedule gemv_schedules[] = {
    ExKokkos::Schedule::automatic, ExKokkos::Schedule::output_lanes,
    ExKokkos::Schedule::inner_lanes, ExKokkos::Schedule::team_per_output,
    ExKokkos::Schedule::output_block};

template <class T, class Layout, class Space>
void level2(const Space& space, Results& out, const char* layout) {
  const std::string t = std::string(std::is_same<T, double>::value ? "double" : "float") + "," +
                        layout;
  const std::pair<std::size_t, std::size_t> shapes[] = {{1, 1}, {5, 7}, {64, 33}, {300, 200}};
  const T coefficients[][2] = {{T(1), T(0)}, {T(1.5), T(0.5)}, {T(0), T(2)}, {T(-1), T(1)}};
  for (Data d : all_data)
    for (auto s : shapes)
      for (const char* trans : {"N", "T"})
        for (auto ab : coefficients)
          for (auto sched : gemv_schedules) {
            const bool tr = trans[0] == 'T';
            const std::size_t m = s.first, n = s.second;
            const auto A = mat<T, Layout, Space>(m, n, d, m * 31 + n);
            const auto x = vec<T, Space>(tr ? m : n, d, m + 7 * n);
            auto y = vec<T, Space>(tr ? n : m, d, 3 * m + n);
            ExKokkos::Options o;
            o.schedule = sched;
            ExKokkos::exgemv(space, trans, ab[0], A, x, ab[1], y, o);
            add_view(out["exgemv<" + t + "," + trans + ",schedule " +
                         std::to_string(static_cast<int>(sched)) + ">"],
                     y);
          }
  // extrsv: every variant, with and without refinement and with each schedule.
  for (std::size_t n : {std::size_t(1), std::size_t(17), std::size_t(100)})
    for (const char* uplo : {"L", "U"})
      for (const char* trans : {"N", "T"})
        for (const char* diag : {"N", "U"})
          for (int steps : {0, 3})
            for (auto sched : {ExKokkos::Schedule::automatic,
                               ExKokkos::Schedule::team_per_output}) {
              const auto A = dominant<T, Layout, Space>(n, 5 * n + 1);
              auto b = vec<T, Space>(n, Data::uniform, 9 * n);
              ExKokkos::Options o;
              o.refinement_steps = steps;
              o.schedule = sched;
              const int taken = ExKokkos::extrsv(space, uplo, trans, diag, A, b, o);
              Digest& g = out["extrsv<" + t + "," + uplo + trans + diag + ",steps " +
                              std::to_string(steps) + ">"];
              add_view(g, b);
              g.add(taken);
            }
}

template <class T, class Layout, class Space>
void level3(const Space& space, Results& out, const char* layout) {
  const std::string t = std::string(std::is_same<T, double>::value ? "double" : "float") + "," +
                        layout;
  struct Shape {
    std::size_t m, n, k;
  };
  const Shape shapes[] = {{1, 1, 1}, {7, 5, 3}, {40, 33, 50}, {0, 3, 2}, {3, 4, 0}};
  const T coefficients[][2] = {{T(1), T(0)}, {T(1.5), T(0.5)}, {T(0), T(2)}};
  const ExKokkos::Schedule schedules[] = {ExKokkos::Schedule::automatic, ExKokkos::Schedule::tiles,
                                          ExKokkos::Schedule::ozaki,
                                          ExKokkos::Schedule::team_per_output,
                                          ExKokkos::Schedule::output_lanes,
                                          ExKokkos::Schedule::inner_lanes};
  for (Data d : all_data)
    for (auto s : shapes)
      for (const char* ta : {"N", "T"})
        for (const char* tb : {"N", "T"})
          for (auto ab : coefficients)
            for (auto sched : schedules) {
              const bool tra = ta[0] == 'T', trb = tb[0] == 'T';
              const auto A = tra ? mat<T, Layout, Space>(s.k, s.m, d, s.m + 3 * s.k)
                                 : mat<T, Layout, Space>(s.m, s.k, d, s.m + 3 * s.k);
              const auto B = trb ? mat<T, Layout, Space>(s.n, s.k, d, s.n + 5 * s.k)
                                 : mat<T, Layout, Space>(s.k, s.n, d, s.n + 5 * s.k);
              auto C = mat<T, Layout, Space>(s.m, s.n, d, s.m * s.n + 1);
              ExKokkos::Options o;
              o.schedule = sched;
              ExKokkos::exgemm(space, ta, tb, ab[0], A, B, ab[1], C, o);
              add_view(out["exgemm<" + t + "," + ta + tb + ",schedule " +
                           std::to_string(static_cast<int>(sched)) + ">"],
                       C);
            }
}

template <class T, class Layout, class Space>
void lapack(const Space& space, Results& out, const char* layout) {
  const std::string t = std::string(std::is_same<T, double>::value ? "double" : "float") + "," +
                        layout;
  using Mem = typename Space::memory_space;
  const std::pair<std::size_t, std::size_t> shapes[] = {{1, 1}, {5, 5}, {32, 32}, {70, 70},
                                                        {10, 7}, {7, 10}};
  for (auto s : shapes)
    for (Data d : {Data::uniform, Data::cancelling, Data::special})
      for (auto sched : {ExKokkos::Schedule::automatic, ExKokkos::Schedule::output_lanes,
                         ExKokkos::Schedule::trailing_update}) {
        if (sched == ExKokkos::Schedule::trailing_update && !std::is_same<T, double>::value)
          continue;
        auto A = mat<T, Layout, Space>(s.first, s.second, d, s.first * 100 + s.second);
        Kokkos::View<int*, Mem> ipiv("ipiv", std::min(s.first, s.second));
        ExKokkos::Options o;
        o.schedule = sched;
        const int info = ExKokkos::exgetf2(space, A, ipiv, o);
        Digest& g = out["exgetf2<" + t + ">"];
        add_view(g, A);
        add_view(g, ipiv);
        g.add(info);
      }
  {  // a singular matrix: LAPACK's info
    auto A = mat<T, Layout, Space>(6, 6, Data::uniform, 77);
    auto h = Kokkos::create_mirror_view(A);
    Kokkos::deep_copy(h, A);
    for (int i = 0; i < 6; ++i) h(i, 3) = h(i, 1);
    Kokkos::deep_copy(A, h);
    Kokkos::View<int*, Mem> ipiv("ipiv", 6);
    const int info = ExKokkos::exgetf2(space, A, ipiv);
    Digest& g = out["exgetf2_singular<" + t + ">"];
    add_view(g, A);
    add_view(g, ipiv);
    g.add(info);
  }
  // exgetrs and exgesv on one system, with one and with three right-hand sides.
  for (std::size_t n : {std::size_t(1), std::size_t(9), std::size_t(40)})
    for (const char* trans : {"N", "T"}) {
      auto A = dominant<T, Layout, Space>(n, 3 * n);
      Kokkos::View<int*, Mem> ipiv("ipiv", n);
      ExKokkos::exgetf2(space, A, ipiv);
      auto b = vec<T, Space>(n, Data::uniform, n + 1);
      ExKokkos::exgetrs(space, trans, A, ipiv, b);
      add_view(out["exgetrs<" + t + ">"], b);
      auto B = mat<T, Layout, Space>(n, 3, Data::uniform, n + 2);
      ExKokkos::exgetrs(space, trans, A, ipiv, B);
      add_view(out["exgetrs_multi<" + t + ">"], B);
    }
  for (std::size_t n : {std::size_t(1), std::size_t(9), std::size_t(40)})
    for (int steps : {0, 2}) {
      auto A = dominant<T, Layout, Space>(n, 7 * n);
      Kokkos::View<int*, Mem> ipiv("ipiv", n);
      auto B = mat<T, Layout, Space>(n, 2, Data::uniform, n + 5);
      ExKokkos::Options o;
      o.refinement_steps = steps;
      const auto r = ExKokkos::exgesv(space, A, ipiv, B, o);
      Digest& g = out["exgesv<" + t + ">"];
      add_view(g, A);
      add_view(g, B);
      g.add(r.info);
      g.add(r.refinement_steps);
    }
  // Batched forms on LayoutRight batches.
  for (std::size_t n : {std::size_t(3), std::size_t(8), std::size_t(20)})
    for (int stage : {-1, 0, 1}) {
      const std::size_t batch = 13;
      Kokkos::View<T***, Kokkos::LayoutRight, Mem> A("A", batch, n, n);
      {
        auto h = Kokkos::create_mirror_view(A);
        Rng g{n * 1000 + 1};
        for (std::size_t s = 0; s < batch; ++s)
          for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = 0; j < n; ++j)
              h(s, i, j) = static_cast<T>(g.uniform() + (i == j ? 0.5 * n : 0.0));
        if (n == 8)  // one singular matrix in the batch
          for (std::size_t i = 0; i < n; ++i) h(4, i, 2) = 0;
        Kokkos::deep_copy(A, h);
      }
      Kokkos::View<int**, Kokkos::LayoutRight, Mem> ipiv("ipiv", batch, n);
      Kokkos::View<int*, Mem> info("info", batch);
      ExKokkos::Options o;
      o.stage_in_scratch = stage;
      ExKokkos::exgetf2_batched(space, A, ipiv, info, o);
      Digest& g = out["exgetf2_batched<" + t + ">"];
      add_view(g, A);
      add_view(g, ipiv);
      add_view(g, info);
      if (n == 8) continue;  // the solves below need nonsingular factors
      Kokkos::View<T**, Kokkos::LayoutRight, Mem> B("B", batch, n);
      {
        auto h = Kokkos::create_mirror_view(B);
        Rng r{n + 99};
        for (std::size_t s = 0; s < batch; ++s)
          for (std::size_t i = 0; i < n; ++i) h(s, i) = static_cast<T>(r.uniform());
        Kokkos::deep_copy(B, h);
      }
      for (const char* trans : {"N", "T"}) {
        auto X = Kokkos::View<T**, Kokkos::LayoutRight, Mem>("X", batch, n);
        Kokkos::deep_copy(X, B);
        ExKokkos::exgetrs_batched(space, trans, A, ipiv, X);
        add_view(out["exgetrs_batched<" + t + ">"], X);
      }
    }
  for (int steps : {0, 2}) {
    const std::size_t batch = 9, n = 12;
    Kokkos::View<T***, Kokkos::LayoutRight, Mem> A("A", batch, n, n);
    Kokkos::View<T**, Kokkos::LayoutRight, Mem> B("B", batch, n);
    {
      auto h = Kokkos::create_mirror_view(A);
      auto hb = Kokkos::create_mirror_view(B);
      Rng g{4242};
      for (std::size_t s = 0; s < batch; ++s)
        for (std::size_t i = 0; i < n; ++i) {
          hb(s, i) = static_cast<T>(g.uniform());
          for (std::size_t j = 0; j < n; ++j)
            h(s, i, j) = static_cast<T>(g.uniform() + (i == j ? 4.0 : 0.0));
        }
      Kokkos::deep_copy(A, h);
      Kokkos::deep_copy(B, hb);
    }
    Kokkos::View<int**, Kokkos::LayoutRight, Mem> ipiv("ipiv", batch, n);
    Kokkos::View<int*, Mem> info("info", batch), taken("steps", batch);
    ExKokkos::Options o;
    o.refinement_steps = steps;
    ExKokkos::exgesv_batched(space, A, ipiv, B, info, taken, o);
    Digest& g = out["exgesv_batched<" + t + ">"];
    add_view(g, A);
    add_view(g, B);
    add_view(g, info);
    if (steps > 0) add_view(g, taken);
  }
}

template <class Space>
void accumulators(const Space& space, Results& out) {
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

template <class Space>
Results run(const Space& space) {
  Results out;
  level1<double>(space, out);
  level1<float>(space, out);
  level2<double, Kokkos::LayoutLeft>(space, out, "Left");
  level2<double, Kokkos::LayoutRight>(space, out, "Right");
  level2<float, Kokkos::LayoutLeft>(space, out, "Left");
  level3<double, Kokkos::LayoutLeft>(space, out, "Left");
  level3<double, Kokkos::LayoutRight>(space, out, "Right");
  level3<float, Kokkos::LayoutLeft>(space, out, "Left");
  lapack<double, Kokkos::LayoutLeft>(space, out, "Left");
  lapack<double, Kokkos::LayoutRight>(space, out, "Right");
  lapack<float, Kokkos::LayoutLeft>(space, out, "Left");
  accumulators(space, out);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::initialize(argc, argv);
  int status = 0;
  {
    std::vector<std::pair<std::string, Results>> all;
#ifdef KOKKOS_ENABLE_SERIAL
    all.emplace_back("Serial", run(Kokkos::Serial()));
#endif
#ifdef KOKKOS_ENABLE_OPENMP
    all.emplace_back("OpenMP", run(Kokkos::OpenMP()));
#endif
    for (const auto& [space, results] : all)
      for (const auto& [name, d] : results)
        std::printf("%-44s %-7s %016llx\n", name.c_str(), space.c_str(),
                    static_cast<unsigned long long>(d.h));
    // The digest every backend agrees on, or a mismatch.
    for (const auto& [name, d] : all.front().second) {
      bool same = true;
      for (const auto& other : all) same = same && other.second.at(name).h == d.h;
      if (same) {
        std::printf("%-44s all     %016llx\n", name.c_str(), static_cast<unsigned long long>(d.h));
      } else {
        std::printf("%-44s MISMATCH between backends\n", name.c_str());
        status = 1;
      }
    }
  }
  Kokkos::finalize();
  return status;
}
