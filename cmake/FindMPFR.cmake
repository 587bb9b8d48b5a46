# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# FindMPFR: the MPFR library and the GMP library it needs.
# Defines MPFR_FOUND, MPFR_VERSION, and the imported target MPFR::MPFR (which links GMP).
find_package(PkgConfig QUIET)
if(PkgConfig_FOUND)
  pkg_check_modules(PC_MPFR QUIET mpfr)
endif()

find_path(MPFR_INCLUDE_DIR mpfr.h HINTS ${PC_MPFR_INCLUDE_DIRS})
find_library(MPFR_LIBRARY NAMES mpfr HINTS ${PC_MPFR_LIBRARY_DIRS})
find_path(GMP_INCLUDE_DIR gmp.h)
find_library(GMP_LIBRARY NAMES gmp)

if(MPFR_INCLUDE_DIR AND EXISTS "${MPFR_INCLUDE_DIR}/mpfr.h")
  file(STRINGS "${MPFR_INCLUDE_DIR}/mpfr.h" _mpfr_version_line REGEX "^#define MPFR_VERSION_STRING")
  string(REGEX REPLACE ".*\"([^\"]+)\".*" "\\1" MPFR_VERSION "${_mpfr_version_line}")
endif()

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(MPFR
  REQUIRED_VARS MPFR_LIBRARY MPFR_INCLUDE_DIR GMP_LIBRARY GMP_INCLUDE_DIR
  VERSION_VAR MPFR_VERSION)

if(MPFR_FOUND AND NOT TARGET MPFR::MPFR)
  add_library(MPFR::GMP UNKNOWN IMPORTED)
  set_target_properties(MPFR::GMP PROPERTIES IMPORTED_LOCATION "${GMP_LIBRARY}"
                        INTERFACE_INCLUDE_DIRECTORIES "${GMP_INCLUDE_DIR}")
  add_library(MPFR::MPFR UNKNOWN IMPORTED)
  set_target_properties(MPFR::MPFR PROPERTIES IMPORTED_LOCATION "${MPFR_LIBRARY}"
                        INTERFACE_INCLUDE_DIRECTORIES "${MPFR_INCLUDE_DIR}"
                        INTERFACE_LINK_LIBRARIES MPFR::GMP)
endif()
mark_as_advanced(MPFR_INCLUDE_DIR MPFR_LIBRARY GMP_INCLUDE_DIR GMP_LIBRARY)
