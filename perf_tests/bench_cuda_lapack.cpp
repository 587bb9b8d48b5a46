// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// CUDA benchmarks, LAPACK (bench_cuda_lapack), 2^26 entries a batch:
//   exgetf2_batched, n = 8 .. 128: cublasDgetrfBatched
//   exgetrs_batched ("N", one b), n = 8 .. 128: cublasDgetrsBatched (each on its own factors)
//   exgesv_batched, n = 8 .. 128: cublasDgetrfBatched + cublasDgetrsBatched
//   exgetrf, one matrix, n = 1024, 2048: cusolverDnDgetrf (which also runs alone at 4096, 8192)
// exgetrf on a device is exgetf2's one team per matrix (lapack/ExKokkos_Getrf.hpp): at 4096 it
// would take minutes a run.
#include <ExKokkos_Getf2.hpp>
#include <ExKokkos_Getrf.hpp>
#include <ExKokkos_Getrs.hpp>

#include "ExKokkosPerf_Cuda.hpp"

#include <Kokkos_Random.hpp>
#include <cusolverDn.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace {

using namespace ExKokkosPerf;

using Pointers = Kokkos::View<std::uintptr_t*, Mem>;           // cuBLAS' arrays of matrix pointers
using Rhs = Kokkos::View<double**, Kokkos::LayoutRight, Mem>;  // batch x n, system after system

struct LuInputs {
  Batch A0, A;
  Kokkos::View<int**, Mem> ipiv;
  Kokkos::View<int*, Mem> info;
  Pointers pointers;  // the matrices of A
  // The solves: each library's own factors of A0 (ExKokkos' of A, cuBLAS' of its transpose, the
  // same cost), b0 and the right-hand sides B overwritten by the solutions.
  Batch lu_ex, lu_cublas;
  Kokkos::View<int**, Mem> ipiv_ex, ipiv_cublas;
  Rhs b0, B;
  Pointers lu_pointers, b_pointers;
};

// cuSOLVER's status: an overload of ExKokkosPerf::check (cuBLAS'), which the using declaration
// keeps visible beside it.
using ExKokkosPerf::check;
inline void check(cusolverStatus_t s, const char* what) {
  if (s != CUSOLVER_STATUS_SUCCESS) {
    std::fprintf(stderr, "%s failed with cuSOLVER status %d\n", what, static_cast<int>(s));
    std::abort();
  }
}

// One cuSOLVER handle on the Kokkos stream, made on first use.
cusolverDnHandle_t& solver() {
  static cusolverDnHandle_t h = nullptr;
  if (h == nullptr) {
    check(cusolverDnCreate(&h), "cusolverDnCreate");
    check(cusolverDnSetStream(h, Space().cuda_stream()), "cusolverDnSetStream");
  }
  return h;
}

// cuBLAS' batched LU of the n x n matrices that `matrices` points to.
void cublas_getrf(const Pointers& matrices, const Kokkos::View<int**, Mem>& ipiv,
                  const Kokkos::View<int*, Mem>& info, int n, int batch) {
  check(cublasDgetrfBatched(handle(), n, reinterpret_cast<double* const*>(matrices.data()), n,
                            ipiv.data(), info.data(), batch),
        "dgetrfBatched");
}

// cuBLAS' batched solve ("N") with its factors, one right-hand side a system.
void cublas_getrs(const Pointers& factors, const Kokkos::View<int**, Mem>& ipiv,
                  const Pointers& rhs, int n, int batch) {
  int info = 0;
  check(cublasDgetrsBatched(handle(), CUBLAS_OP_N, n, 1,
                            reinterpret_cast<const double* const*>(factors.data()), n, ipiv.data(),
                            reinterpret_cast<double* const*>(rhs.data()), n, &info, batch),
        "dgetrsBatched");
}

// p(b) = the address of row (or matrix) b of v.
template <class View>
Pointers pointers_to(const View& v, const char* label) {
  const Pointers p(std::string(label), v.extent(0));
  Kokkos::parallel_for(
      label, Kokkos::RangePolicy<Space>(0, v.extent(0)), KOKKOS_LAMBDA(const int b) {
        p(b) = reinterpret_cast<std::uintptr_t>(v.data() + b * v.stride(0));
      });
  return p;
}

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
  in.pointers = pointers_to(in.A, "pointers");
  // The factors the solves start from, each library's own, and the right-hand sides.
  in.lu_ex = Batch(Kokkos::view_alloc(Kokkos::WithoutInitializing, "lu_ex"), batch, n, n);
  in.lu_cublas = Batch(Kokkos::view_alloc(Kokkos::WithoutInitializing, "lu_cublas"), batch, n, n);
  in.ipiv_ex = Kokkos::View<int**, Mem>("ipiv_ex", batch, n);
  in.ipiv_cublas = Kokkos::View<int**, Mem>("ipiv_cublas", batch, n);
  in.b0 = Rhs(Kokkos::view_alloc(Kokkos::WithoutInitializing, "b0"), batch, n);
  in.B = Rhs(Kokkos::view_alloc(Kokkos::WithoutInitializing, "B"), batch, n);
  Kokkos::fill_random(in.b0, pool, -1.0, 1.0);
  Kokkos::deep_copy(in.lu_ex, in.A0);
  ExKokkos::exgetf2_batched(Space(), in.lu_ex, in.ipiv_ex, in.info);
  Kokkos::deep_copy(in.lu_cublas, in.A0);
  in.lu_pointers = pointers_to(in.lu_cublas, "lu_pointers");
  in.b_pointers = pointers_to(in.B, "b_pointers");
  cublas_getrf(in.lu_pointers, in.ipiv_cublas, in.info, n, batch);
  Kokkos::fence();
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
      [in, n, batch] { cublas_getrf(in.pointers, in.ipiv, in.info, n, batch); }, bytes);

  // The solves: LU and b read, x written.
  const double solve_bytes = 8.0 * (double(n) * n + 2.0 * n) * batch;
  const auto restore_b = [in] { Kokkos::deep_copy(Space(), in.B, in.b0); };
  register_timed(
      "exgetrs_batched" + suffix, restore_b,
      [in] { ExKokkos::exgetrs_batched(Space(), "N", in.lu_ex, in.ipiv_ex, in.B); }, solve_bytes);
  register_timed(
      "cublasDgetrsBatched" + suffix, restore_b,
      [in, n, batch] { cublas_getrs(in.lu_pointers, in.ipiv_cublas, in.b_pointers, n, batch); },
      solve_bytes);
  // Factor and solve.
  const auto restore_both = [in] {
    Kokkos::deep_copy(Space(), in.A, in.A0);
    Kokkos::deep_copy(Space(), in.B, in.b0);
  };
  register_timed(
      "exgesv_batched" + suffix, restore_both,
      [in] {
        ExKokkos::exgesv_batched(Space(), in.A, in.ipiv, in.B, in.info, Kokkos::View<int*, Mem>());
      },
      bytes);
  register_timed(
      "cublasDgetrfBatched+DgetrsBatched" + suffix, restore_both,
      [in, n, batch] {
        cublas_getrf(in.pointers, in.ipiv, in.info, n, batch);
        cublas_getrs(in.pointers, in.ipiv, in.b_pointers, n, batch);
      },
      bytes);
}

struct SingleInputs {
  Matrix A0, A;
  Kokkos::View<int*, Mem> ipiv, info;
  Kokkos::View<double*, Mem> work;  // cuSOLVER's workspace
};

// One n x n matrix, uniform in [-1, 1) (partial pivoting at work), column-major: exgetrf beside
// cusolverDnDgetrf. The counter counts 2 n^3 / 3 flops.
void register_single(int n) {
  SingleInputs in;
  in.A0 = Matrix(Kokkos::view_alloc(Kokkos::WithoutInitializing, "A0"), n, n);
  in.A = Matrix(Kokkos::view_alloc(Kokkos::WithoutInitializing, "A"), n, n);
  in.ipiv = Kokkos::View<int*, Mem>("ipiv", n);
  in.info = Kokkos::View<int*, Mem>("info", 1);
  Kokkos::Random_XorShift64_Pool<Space> pool(11);
  Kokkos::fill_random(in.A0, pool, -1.0, 1.0);
  int lwork = 0;
  check(cusolverDnDgetrf_bufferSize(solver(), n, n, in.A0.data(), n, &lwork), "dgetrf_bufferSize");
  in.work = Kokkos::View<double*, Mem>("work", lwork);
  kept_inputs<SingleInputs>().push_back(in);
  const std::string suffix = "/uniform/" + std::to_string(n) + "x" + std::to_string(n);
  const double flops = 2.0 / 3.0 * double(n) * n * n;
  const auto restore = [in] { Kokkos::deep_copy(Space(), in.A, in.A0); };
  if (n <= 2048)
    register_timed(
        "exgetrf" + suffix, restore, [in] { ExKokkos::exgetrf(Space(), in.A, in.ipiv); }, flops,
        "GFLOP/s");
  register_timed(
      "cusolverDnDgetrf" + suffix, restore,
      [in, n] {
        check(cusolverDnDgetrf(solver(), n, n, in.A.data(), n, in.work.data(), in.ipiv.data(),
                               in.info.data()),
              "dgetrf");
      },
      flops, "GFLOP/s");
}

}  // namespace

int main(int argc, char** argv) {
  return run_cuda_benchmarks(
      argc, argv,
      [] {
        for (int n : {8, 16, 32, 64, 128}) register_lu(n);
        for (int n : {1024, 2048, 4096, 8192}) register_single(n);
        Pairs pairs{{"exgetf2_batched", "cublasDgetrfBatched"},
                    {"exgetrs_batched", "cublasDgetrsBatched"},
                    {"exgesv_batched", "cublasDgetrfBatched+DgetrsBatched"},
                    {"exgetrf", "cusolverDnDgetrf"}};
        for (const auto& variant : lu_variants())
          pairs.push_back({"exgetf2_batched_" + variant.first, "cublasDgetrfBatched"});
        return pairs;
      },
      [] {
        kept_inputs<LuInputs>().clear();
        kept_inputs<SingleInputs>().clear();
        cusolverDnDestroy(solver());
      });
}
