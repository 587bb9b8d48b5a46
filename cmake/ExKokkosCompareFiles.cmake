# ctest script: the bits written by the reproducibility runs with 1, 2, 3 and 4 OpenMP threads
# (DIR/repro_<n>t.txt) must exist, be non-empty and be identical.
file(READ "${DIR}/repro_1t.txt" reference)
if(reference STREQUAL "")
  message(FATAL_ERROR "repro_1t.txt is empty")
endif()
foreach(threads 2 3 4)
  file(READ "${DIR}/repro_${threads}t.txt" other)
  if(NOT other STREQUAL reference)
    message(FATAL_ERROR "results with ${threads} threads differ from 1 thread:\n${other}\nvs\n${reference}")
  endif()
endforeach()
message(STATUS "identical bits for 1, 2, 3 and 4 OpenMP threads:\n${reference}")
