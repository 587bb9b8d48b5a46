# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# ctest script: the bits written by reproducibility runs that differ only in their parallelism must
# exist, be non-empty and be identical. The files are DIR/<PREFIX>_<variant>.txt, PREFIX defaulting
# to repro and VARIANTS (comma-separated, the first one the reference) to 1t,2t,3t,4t (OpenMP
# thread counts); the MPI suite passes its rank counts, 1p,2p,...
if(NOT PREFIX)
  set(PREFIX repro)
endif()
if(NOT VARIANTS)
  set(VARIANTS "1t,2t,3t,4t")
endif()
string(REPLACE "," ";" variants "${VARIANTS}")
list(GET variants 0 first)
list(REMOVE_AT variants 0)
file(READ "${DIR}/${PREFIX}_${first}.txt" reference)
if(reference STREQUAL "")
  message(FATAL_ERROR "${PREFIX}_${first}.txt is empty")
endif()
foreach(variant IN LISTS variants)
  file(READ "${DIR}/${PREFIX}_${variant}.txt" other)
  if(NOT other STREQUAL reference)
    message(FATAL_ERROR "results of ${variant} differ from ${first}:\n${other}\nvs\n${reference}")
  endif()
endforeach()
message(STATUS "identical bits for ${VARIANTS}:\n${reference}")
