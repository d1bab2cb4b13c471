# ctest fixture: a fresh default set (both variants, 4 pieces) for the tests that read tables.
# Usage: cmake -DDTB=<dtb executable> -DOUT=<folder> -P generate_test_tables.cmake
file(REMOVE_RECURSE ${OUT})
foreach(variant international turkish)
  execute_process(COMMAND ${DTB} gen --variant ${variant} --pieces 4 --out ${OUT}/${variant}
                  RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "dtb gen --variant ${variant} failed: ${rc}")
  endif()
endforeach()
