// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The Ozaki schedule's slice GEMM on CUDA: cublasDgemm on the execution space's stream.
//
// Why a vendor GEMM may be used at all: the slices are integers of at most beta bits with
// 2 beta + ceil(log2 k) <= 53 (ExKokkos_GemmOzaki_impl.hpp), so every partial sum that any GEMM
// forms is an integer below 2^53, and every FP64 addition and fused multiply-add in it is exact:
// cuBLAS' blocking, its split-K reductions and the FP64 tensor cores (DMMA: IEEE FP64 fused
// multiply-adds) give the exact product, the same bits on every launch. What would break it is a
// GEMM that does not compute in FP64: cuBLAS' emulated-FP64 math mode
// (CUBLAS_FP64_EMULATED_FIXEDPOINT_MATH) or a Strassen-like algorithm. The handle below is
// ExKokkos' own, set to CUBLAS_DEFAULT_MATH, so a user's math mode on their handles does not
// reach it. The MPFR-oracle tests of the Ozaki path (unit_tests/test_level3_gemm_ozaki) run
// through this function on CUDA builds.
//
// The int8 slices' diagonal GEMMs (ExKokkos_OzakiInt8Slices_impl.hpp): cublasGemmEx with int8
// operands, int32 results and CUBLAS_COMPUTE_32I (integer sums, exact while no partial sum
// overflows int32, which the plan guarantees), "T" "N" (the layout cuBLAS runs at the int8
// tensor cores' rate; "N" "N" is far slower), operands 16-byte aligned.
//
// Only when ExKokkos was configured with cuBLAS (EXKOKKOS_HAVE_CUBLAS: Kokkos with CUDA and the
// toolkit's cuBLAS found, ExKokkos_ENABLE_CUBLAS on).
#ifndef EXKOKKOS_CUBLASSLICEGEMM_IMPL_HPP
#define EXKOKKOS_CUBLASSLICEGEMM_IMPL_HPP

#include <ExKokkos_config.hpp>
#include <Kokkos_Core.hpp>

#include "ExKokkos_OzakiInt8Slices_impl.hpp"

#if EXKOKKOS_HAVE_CUBLAS && defined(KOKKOS_ENABLE_CUDA)
#include <cublas_v2.h>

#include <map>
#include <mutex>
#include <stdexcept>
#include <string>

namespace ExKokkos {
namespace Impl {

// One cuBLAS handle per CUDA device, created on first use and destroyed by Kokkos::finalize (a
// handle destroyed after the CUDA context is gone would fail). The mutex also keeps the
// set-stream / enqueue pair of one call from interleaving with another thread's.
struct CublasHandles {
  std::mutex mutex;
  std::map<int, cublasHandle_t> handles;

  static CublasHandles& instance() {
    static CublasHandles h;
    return h;
  }

  static void check(cublasStatus_t s, const char* what) {
    if (s != CUBLAS_STATUS_SUCCESS)
      throw std::runtime_error(std::string("ExKokkos::exgemm: ") + what +
                               " failed with cuBLAS status " + std::to_string(int(s)));
  }

  // Called with the mutex held.
  cublasHandle_t get(int device) {
    const auto it = handles.find(device);
    if (it != handles.end()) return it->second;
    cublasHandle_t h = nullptr;
    check(cublasCreate(&h), "cublasCreate");
    check(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
    if (handles.empty()) Kokkos::push_finalize_hook([] { instance().release(); });
    handles.emplace(device, h);
    return h;
  }

  void release() {
    const std::lock_guard<std::mutex> lock(mutex);
    for (auto& entry : handles) cublasDestroy(entry.second);
    handles.clear();
  }
};

// P = A B, all LayoutLeft (column-major, as cuBLAS), queued on space's stream.
template <class AV, class BV, class PV>
void slice_gemm_cublas(const Kokkos::Cuda& space, const AV& A, const BV& B, const PV& P) {
  static_assert(std::is_same<typename AV::array_layout, Kokkos::LayoutLeft>::value &&
                    std::is_same<typename BV::array_layout, Kokkos::LayoutLeft>::value &&
                    std::is_same<typename PV::array_layout, Kokkos::LayoutLeft>::value,
                "the slice matrices are column-major");
  const int rows = static_cast<int>(P.extent(0)), cols = static_cast<int>(P.extent(1));
  const int depth = static_cast<int>(A.extent(1));
  if (rows == 0 || cols == 0) return;
  // Leading dimensions: a LayoutLeft view's stride(1) (padding included), at least one.
  auto lead = [](const auto& v) {
    const std::size_t s = v.extent(1) > 1 ? v.stride(1) : v.extent(0);
    return static_cast<int>(s > 0 ? s : 1);
  };
  const double one = 1.0, zero = 0.0;
  CublasHandles& handles = CublasHandles::instance();
  const std::lock_guard<std::mutex> lock(handles.mutex);
  const cublasHandle_t h = handles.get(space.cuda_device());
  CublasHandles::check(cublasSetStream(h, space.cuda_stream()), "cublasSetStream");
  CublasHandles::check(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST), "cublasSetPointerMode");
  CublasHandles::check(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, rows, cols, depth, &one, A.data(),
                                   lead(A), B.data(), lead(B), &zero, P.data(), lead(P)),
                       "cublasDgemm");
}

// One diagonal of the int8 slices' product, queued on space's stream (A8, B8 and P LayoutLeft).
template <class Int8View, class Int32View>
void int8_diagonal_gemm_cublas(const Kokkos::Cuda& space, const Int8View& A8, const Int8View& B8,
                               const Int32View& P, const Int8DiagonalGemm& g) {
  if (g.rows == 0 || g.cols == 0) return;
  const std::int64_t lda = A8.stride(1), ldb = B8.stride(1), ldp = P.stride(1);
  const std::int32_t one = 1, zero = 0;
  CublasHandles& handles = CublasHandles::instance();
  const std::lock_guard<std::mutex> lock(handles.mutex);
  const cublasHandle_t h = handles.get(space.cuda_device());
  CublasHandles::check(cublasSetStream(h, space.cuda_stream()), "cublasSetStream");
  CublasHandles::check(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST), "cublasSetPointerMode");
  CublasHandles::check(
      cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, static_cast<int>(g.rows), static_cast<int>(g.cols),
                   static_cast<int>(g.depth), &one, A8.data() + g.a0, CUDA_R_8I,
                   static_cast<int>(lda), B8.data() + g.b0 + g.j0 * ldb, CUDA_R_8I,
                   static_cast<int>(ldb), &zero, P.data() + g.p0 * ldp, CUDA_R_32I,
                   static_cast<int>(ldp), CUBLAS_COMPUTE_32I, CUBLAS_GEMM_DEFAULT),
      "cublasGemmEx (int8)");
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_HAVE_CUBLAS && KOKKOS_ENABLE_CUDA
#endif  // EXKOKKOS_CUBLASSLICEGEMM_IMPL_HPP
