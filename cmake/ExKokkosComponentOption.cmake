# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# exkokkos_component_option(<option> <help text> NEEDS <package>...)
#
# The switch of a part of ExKokkos that the library itself does not need (tests, benchmarks,
# examples). A value the user sets is kept as it is: ON with a package missing fails at that part's
# find_package(... REQUIRED), which names the package. Otherwise the default is
#   - OFF where ExKokkos is built inside a parent project (add_subdirectory, FetchContent): the
#     parent builds ExKokkos' library, not its test suite;
#   - ON at the top level when every package in NEEDS is found, and OFF, with a message naming the
#     missing ones, when one is not: a machine with Kokkos alone configures, builds and installs
#     the library with the plain commands.
# Not installed: it configures ExKokkos' own build only.
function(exkokkos_component_option name help)
  cmake_parse_arguments(C "" "" "NEEDS" ${ARGN})
  if(NOT DEFINED ${name})
    set(default OFF)
    if(EXKOKKOS_TOP_LEVEL)
      set(missing "")
      foreach(package IN LISTS C_NEEDS)
        find_package(${package} QUIET)
        if(NOT ${package}_FOUND)
          list(APPEND missing ${package})
        endif()
      endforeach()
      if(missing)
        list(JOIN missing ", " missing)
        message(STATUS "ExKokkos: ${name} defaults to OFF (not found: ${missing})")
      else()
        set(default ON)
      endif()
    endif()
  endif()
  option(${name} "${help}" ${default})
endfunction()
