# ctest script: install this build of ExKokkos into a private prefix, then configure, build and
# run examples/downstream, a separate project that only does find_package(ExKokkos), and every
# program it builds.
#   cmake -DBUILD_DIR=... -DSOURCE_DIR=... -DGENERATOR=... -P ExKokkosDownstreamTest.cmake
set(prefix "${BUILD_DIR}/downstream-test/prefix")
set(build "${BUILD_DIR}/downstream-test/build")
file(REMOVE_RECURSE "${BUILD_DIR}/downstream-test")

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}")
  endif()
endfunction()

run(${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${prefix}")
run(${CMAKE_COMMAND} -S "${SOURCE_DIR}/examples/downstream" -B "${build}" -G "${GENERATOR}"
    -DCMAKE_BUILD_TYPE=Release "-DCMAKE_PREFIX_PATH=${prefix}")
run(${CMAKE_COMMAND} --build "${build}")
# The project lists its programs; each checks its results and exits non-zero on a failure.
file(READ "${build}/programs.txt" programs)
foreach(program IN LISTS programs)
  message(STATUS "running ${program}")
  run("${build}/${program}")
endforeach()
