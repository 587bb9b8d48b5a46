// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Which GEMM multiplies the Ozaki schedule's slices (ExKokkos_GemmOzaki_impl.hpp describes the
// method): cuBLAS on CUDA, Kokkos Kernels elsewhere, where ExKokkos was configured with them, else
// the plain kernels (ExKokkos_OzakiSliceGemm_impl.hpp, ExKokkos_OzakiInt8Slices_impl.hpp). Every
// choice gives the same exact products.
#ifndef EXKOKKOS_OZAKIVENDORGEMM_IMPL_HPP
#define EXKOKKOS_OZAKIVENDORGEMM_IMPL_HPP

#include <ExKokkos_config.hpp>

#include "ExKokkos_CublasSliceGemm_impl.hpp"
#include "ExKokkos_OzakiInt8Slices_impl.hpp"
#include "ExKokkos_OzakiSliceGemm_impl.hpp"
#include <impl/ExKokkos_DeviceTraits_impl.hpp>

#if EXKOKKOS_HAVE_KOKKOSKERNELS
#include <KokkosBlas3_gemm.hpp>
#endif

#include <Kokkos_Core.hpp>

#include <type_traits>

namespace ExKokkos {
namespace Impl {

// Which GEMM multiplies the slices: vendor is cuBLAS for Kokkos::Cuda where ExKokkos was configured
// with it, else Kokkos Kernels' (a vendor BLAS behind it where configured); internal is the plain
// Kokkos kernel (ExKokkos_OzakiSliceGemm_impl.hpp; every backend; the only one without either
// library).
enum class SliceGemm : int { automatic, vendor, internal };

// P = A B for the slices: cuBLAS on CUDA where configured, else Kokkos Kernels where configured
// (on the views' default instance), else the plain kernel.
template <class ExecSpace, class AV, class BV, class PV>
void slice_gemm(const ExecSpace& space, const AV& A, const BV& B, const PV& P, SliceGemm which) {
#if EXKOKKOS_HAVE_CUBLAS && defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same<ExecSpace, Kokkos::Cuda>::value) {
    if (which != SliceGemm::internal) {
      slice_gemm_cublas(space, A, B, P);
      return;
    }
  }
#endif
#if EXKOKKOS_HAVE_KOKKOSKERNELS
  if (which != SliceGemm::internal) {
    // Kokkos Kernels 3.4 has no execution-space-first gemm: it runs on the views' default
    // execution-space instance, so fence around it.
    space.fence();
    KokkosBlas::gemm("N", "N", 1.0, A, B, 0.0, P);
    Kokkos::fence();
    return;
  }
#else
  (void)which;
#endif
  slice_gemm_internal(space, A, B, P);
}

// One diagonal of the int8 slices' product: cuBLAS on CUDA where configured, else the plain kernel
// (no other library multiplies int8 into int32).
template <class ExecSpace, class Int8View, class Int32View>
void slice_gemm_int8(const ExecSpace& space, const Int8View& A8, const Int8View& B8,
                     const Int32View& P, const Int8DiagonalGemm& g, SliceGemm which) {
#if EXKOKKOS_HAVE_CUBLAS && defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same<ExecSpace, Kokkos::Cuda>::value) {
    if (which != SliceGemm::internal) {
      int8_diagonal_gemm_cublas(space, A8, B8, P, g);
      return;
    }
  }
#endif
  (void)which;
  int8_diagonal_gemm_internal(space, A8, B8, P, g);
}

// Whether ExecSpace has a vendor slice GEMM (and so the automatic schedule considers the Ozaki
// path): host spaces with Kokkos Kernels, Kokkos::Cuda with cuBLAS.
template <class ExecSpace>
constexpr bool has_vendor_slice_gemm() {
#if EXKOKKOS_HAVE_CUBLAS && defined(KOKKOS_ENABLE_CUDA)
  if (std::is_same<ExecSpace, Kokkos::Cuda>::value) return true;
#endif
  return is_host_space<ExecSpace>() && EXKOKKOS_HAVE_KOKKOSKERNELS;
}

// Whether ExecSpace has an int8 vendor GEMM for the int8 slices: Kokkos::Cuda with cuBLAS.
template <class ExecSpace>
constexpr bool has_vendor_int8_slice_gemm() {
#if EXKOKKOS_HAVE_CUBLAS && defined(KOKKOS_ENABLE_CUDA)
  return std::is_same<ExecSpace, Kokkos::Cuda>::value;
#else
  return false;
#endif
}

}  // namespace Impl
}  // namespace ExKokkos

#endif  // EXKOKKOS_OZAKIVENDORGEMM_IMPL_HPP
