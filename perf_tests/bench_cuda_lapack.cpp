// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// CUDA benchmarks, LAPACK (bench_cuda_lapack):
//   exgetf2_batched                 n = 8 .. 128       cublasDgetrfBatched (2^26 entries a batch)
#include <ExKokkos_Getf2.hpp>

#include "ExKokkosPerf_Cuda.hpp"

#include <Kokkos_Random.hpp>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace {

using namespace ExKokkosPerf;

struct LuInputs {
  Batch A0, A;
  Kokkos::View<int**, Mem> ipiv;
  Kokkos::View<int*, Mem> info;
  Kokkos::View<std::uintptr_t*, Mem> pointers;  // cuBLAS' array of matrix pointers
};

// Diagonally dominant random matrices: every pivot is well away from zero.
struct MakeDominant {
  Batch A;
  KOKKOS_INLINE_FUNCTION void operator()(const int b) const {
    const int n = static_cast<int>(A.extent(1));
    for (int i = 0; i < n; ++i) A(b, i, i) += 2.0 * n;
  }
};

std::vector<std::pair<std::string, ExKokkos::Options>> lu_variants() {
  std::vector<std::pair<std::string, ExKokkos::Options>> v;
  for (int team : {8, 16, 64}) {
    ExKokkos::Options o;
    o.team_size = team;
    v.push_back({"team" + std::to_string(team), o});
  }
  for (int staged : {0, 1}) {
    ExKokkos::Options o;
    o.stage_in_scratch = staged;
    v.push_back({staged ? "in_scratch" : "in_place", o});
  }
  return v;
}

void register_lu(int n) {
  const int batch = static_cast<int>((std::size_t(1) << 26) / (std::size_t(n) * n));
  LuInputs in;
  in.A0 = Batch(Kokkos::view_alloc(Kokkos::WithoutInitializing, "A0"), batch, n, n);
  in.A = Batch(Kokkos::view_alloc(Kokkos::WithoutInitializing, "A"), batch, n, n);
  in.ipiv = Kokkos::View<int**, Mem>("ipiv", batch, n);
  in.info = Kokkos::View<int*, Mem>("info", batch);
  Kokkos::Random_XorShift64_Pool<Space> pool(7);
  Kokkos::fill_random(in.A0, pool, -1.0, 1.0);
  Kokkos::parallel_for("make_dominant", Kokkos::RangePolicy<Space>(0, batch), MakeDominant{in.A0});
  // cublasDgetrfBatched takes a device array of pointers to the matrices (each column-major with
  // lda = n: the transposes of ours, which costs the same to factor).
  in.pointers = Kokkos::View<std::uintptr_t*, Mem>("pointers", batch);
  {
    const Batch A = in.A;
    const Kokkos::View<std::uintptr_t*, Mem> p = in.pointers;
    Kokkos::parallel_for(
        "pointers", Kokkos::RangePolicy<Space>(0, batch),
        KOKKOS_LAMBDA(const int b) { p(b) = reinterpret_cast<std::uintptr_t>(&A(b, 0, 0)); });
  }
  kept_inputs<LuInputs>().push_back(in);
  const std::string suffix = "/uniform/" + std::to_string(n) + "x" + std::to_string(batch);
  const double bytes = 2.0 * 8.0 * n * n * batch;
  const auto restore = [in] { Kokkos::deep_copy(Space(), in.A, in.A0); };
  register_timed(
      "exgetf2_batched" + suffix, restore,
      [in] { ExKokkos::exgetf2_batched(Space(), in.A, in.ipiv, in.info); }, bytes);
  // The defaults (a warp per matrix, the matrix in scratch memory up to 78 x 78) beside other
  // team sizes and the other staging.
  for (const auto& variant : lu_variants()) {
    const ExKokkos::Options o = variant.second;
    register_timed(
        "exgetf2_batched_" + variant.first + suffix, restore,
        [in, o] { ExKokkos::exgetf2_batched(Space(), in.A, in.ipiv, in.info, o); }, bytes);
  }
  register_timed(
      "cublasDgetrfBatched" + suffix, restore,
      [in, n, batch] {
        check(cublasDgetrfBatched(handle(), n, reinterpret_cast<double* const*>(in.pointers.data()),
                                  n, in.ipiv.data(), in.info.data(), batch),
              "dgetrfBatched");
      },
      bytes);
}

}  // namespace

int main(int argc, char** argv) {
  return run_cuda_benchmarks(
      argc, argv,
      [] {
        for (int n : {8, 16, 32, 64, 128}) register_lu(n);
        Pairs pairs{{"exgetf2_batched", "cublasDgetrfBatched"}};
        for (const auto& variant : lu_variants())
          pairs.push_back({"exgetf2_batched_" + variant.first, "cublasDgetrfBatched"});
        return pairs;
      },
      [] { kept_inputs<LuInputs>().clear(); });
}
