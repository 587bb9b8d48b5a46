# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Initial cache (`cmake -C`) of the sanitizer builds (scripts/sanitize.sh, and the Kokkos 4.6 stage
# of scripts/test.sh): AddressSanitizer and UndefinedBehaviorSanitizer, g++ or clang++.
#
# For the build type Sanitize (the scripts pass -DCMAKE_BUILD_TYPE=Sanitize), so that no flag of
# Release's comes in. -O1 keeps the build near Release's time while the sanitizers still see every
# access; -fno-sanitize-recover makes any UBSan report fail the test that triggered it, as ASan's
# do. Kokkos itself stays uninstrumented: the flags live in this build's cache, not in CXXFLAGS,
# which a first build of the cached Kokkos would pick up.
#
# With EXKOKKOS_SANITIZE_CI=1 in the environment (the Kokkos 4.6 stage of CI), UBSan leaves out the
# checks that instrument every load and store of the library's view-heavy code and nearly double
# its compile time: null, alignment, object-size and pointer-overflow (AddressSanitizer catches
# the accesses they would), vptr (the library has no polymorphic types) and bool/enum loads. The
# checks of the arithmetic stay (shifts, signed overflow, integer division, array bounds,
# unreachable code, missing returns): these are what the accumulators' bit manipulation could
# break. scripts/sanitize.sh runs every check.
set(exkokkos_sanitize "-O1 -g1 -fno-omit-frame-pointer -fsanitize=address,undefined")
if("$ENV{EXKOKKOS_SANITIZE_CI}" STREQUAL "1")
  string(APPEND exkokkos_sanitize
         " -fno-sanitize=null,alignment,object-size,pointer-overflow,vptr,bool,enum")
endif()
set(CMAKE_CXX_FLAGS_SANITIZE "${exkokkos_sanitize} -fno-sanitize-recover=all"
    CACHE STRING "Flags of the sanitizer build" FORCE)
set(CMAKE_EXE_LINKER_FLAGS_SANITIZE "-fsanitize=address,undefined"
    CACHE STRING "Linker flags of the sanitizer build" FORCE)
set(CMAKE_SHARED_LINKER_FLAGS_SANITIZE "-fsanitize=address,undefined"
    CACHE STRING "Linker flags of the sanitizer build" FORCE)
