# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# exkokkos_device_call_checks(<target>)
#
# For ExKokkos' own tests and benchmarks in CUDA builds: a call from device code to a host-only
# function is an error, not nvcc's warning. Such a call compiles to nothing useful on the device
# (a kernel with one may return at once: a batched exgetf2 would leave every matrix unfactored,
# with only that warning to show for it). Not installed: a downstream project gets
# exkokkos_exact_flags only (ExKokkosCompilerFlags.cmake), and keeps its own warning policy.
function(exkokkos_device_call_checks target)
  if(Kokkos_DEVICES MATCHES "CUDA" AND Kokkos_CXX_COMPILER_ID STREQUAL "NVIDIA")
    target_compile_options(${target} PRIVATE
      $<$<COMPILE_LANGUAGE:CXX>:--Werror=cross-execution-space-call>)
  endif()
endfunction()
