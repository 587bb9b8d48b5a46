# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# ctest script: ExKokkos as a user's project consumes it.
#   cmake -DMODE=... -DBUILD_DIR=... -DSOURCE_DIR=... -DGENERATOR=... [-DCXX=...] [-DKokkos_DIR=...]
#         -P ExKokkosDownstreamTest.cmake
# MODE find_package: install this build of ExKokkos (BUILD_DIR) into a private prefix, then
#   configure, build and run examples/downstream, a separate project that only does
#   find_package(ExKokkos), and every program it builds.
# MODE kokkos_alone: the same against a fresh build of ExKokkos configured, built and installed the
#   way the README tells a user with Kokkos installed to do it, on a machine that has Kokkos and
#   nothing else: GoogleTest, MPFR and Google Benchmark (which only the tests, benchmarks and
#   examples need), Kokkos Kernels and MPI (optional for the library) are hidden from CMake (not
#   the CUDA toolkit: a CUDA Kokkos needs it itself). That configure must succeed on its defaults,
#   and its build compiles nothing (the library is header-only and the parts that need the hidden
#   packages are off). Of the downstream project it builds and runs the two programs that consume
#   the package each way (the target, and the TriBITS-style variables), from its cheapest source:
#   the gemv and LU programs check the numerics through the same headers, which MODE find_package
#   runs, and take most of its compile time.
# MODE add_subdirectory: configure (not build) unit_tests/add_subdirectory, a parent project that
#   builds ExKokkos as a part of itself and checks what ExKokkos leaves it.
set(work "${BUILD_DIR}/downstream_${MODE}")
set(prefix "${work}/prefix")
set(build "${work}/build")
file(REMOVE_RECURSE "${work}")

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}")
  endif()
endfunction()

set(compiler "")
if(CXX)
  set(compiler "-DCMAKE_CXX_COMPILER=${CXX}")
endif()

if(MODE STREQUAL "add_subdirectory")
  # No build type: the parent's empty one must stay empty.
  run(${CMAKE_COMMAND} -S "${SOURCE_DIR}/unit_tests/add_subdirectory" -B "${build}"
      -G "${GENERATOR}" ${compiler} "-DEXKOKKOS_SOURCE_DIR=${SOURCE_DIR}"
      "-DKokkos_DIR=${Kokkos_DIR}")
  return()
endif()

set(hidden "")
set(targets "")  # all
if(MODE STREQUAL "kokkos_alone")
  set(targets downstream_dot downstream_tribits_style)
  # (--no-warn-unused-cli: a project that never asks for a hidden package need not be told.)
  set(hidden --no-warn-unused-cli)
  foreach(package GTest MPFR benchmark KokkosKernels MPI)
    list(APPEND hidden "-DCMAKE_DISABLE_FIND_PACKAGE_${package}=ON")
  endforeach()
  # No build type and no ExKokkos_ENABLE_* option: the defaults are what is tested.
  run(${CMAKE_COMMAND} -S "${SOURCE_DIR}" -B "${work}/exkokkos" -G "${GENERATOR}" ${compiler}
      "-DKokkos_DIR=${Kokkos_DIR}" "-DCMAKE_INSTALL_PREFIX=${prefix}" ${hidden})
  run(${CMAKE_COMMAND} --build "${work}/exkokkos")
  run(${CMAKE_COMMAND} --install "${work}/exkokkos")
elseif(MODE STREQUAL "find_package")
  run(${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${prefix}")
else()
  message(FATAL_ERROR "MODE must be find_package, kokkos_alone or add_subdirectory, not '${MODE}'")
endif()
# The downstream project does not find the hidden packages either.
run(${CMAKE_COMMAND} -S "${SOURCE_DIR}/examples/downstream" -B "${build}" -G "${GENERATOR}"
    ${compiler} -DCMAKE_BUILD_TYPE=Release "-DCMAKE_PREFIX_PATH=${prefix}" ${hidden})
if(targets)
  run(${CMAKE_COMMAND} --build "${build}" --target ${targets})
else()
  run(${CMAKE_COMMAND} --build "${build}")
endif()
# The project lists its programs; each checks its results and exits non-zero on a failure.
file(READ "${build}/programs.txt" programs)
if(targets)
  set(programs ${targets})
endif()
foreach(program IN LISTS programs)
  message(STATUS "running ${program}")
  run("${build}/${program}")
endforeach()
