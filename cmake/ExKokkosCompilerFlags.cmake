# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# exkokkos_exact_flags(<target>)
#
# The error-free transformations in ExKokkos are exact only with IEEE round-to-nearest arithmetic
# and no reassociation. ExKokkos' own code contains no a*b+c pattern that contraction could fuse
# (its only fma is explicit), but its own targets are built the strict way anyway, so that a test
# failure can never be blamed on the flags: no contraction on the host, --fmad=false for nvcc
# device code, and never fast-math (the headers #error on it).
function(exkokkos_exact_flags target)
  if(Kokkos_DEVICES MATCHES "CUDA" AND Kokkos_CXX_COMPILER_ID STREQUAL "NVIDIA")
    # nvcc through Kokkos' nvcc_wrapper (Kokkos' CUDA builds use it as the C++ compiler):
    # --fmad=false for device code; the wrapper hands every option it does not know, such as
    # -ffp-contract=off, to the host compiler (it rejects nvcc's own -Xcompiler=... spelling).
    target_compile_options(${target} PRIVATE
      $<$<COMPILE_LANGUAGE:CXX>:--fmad=false -ffp-contract=off>)
  elseif(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang|IntelLLVM")
    # clang applies -ffp-contract to CUDA/HIP device code as well. This branch covers hipcc, which
    # CMake identifies as Clang: HIP device code contracts by default (ROCm 5.2's hipcc turns
    # x * y + z into v_fma_f64), and -ffp-contract=off reaches the device compile
    # (scripts/hip_compile_check.sh checks the AMDGPU assembly of a probe; docs/hip.md).
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-ffp-contract=off>)
  endif()
endfunction()
