# ctest driver (test `probe_consumer_project`): installs the dtb build tree into a fresh prefix,
# then configures, builds and runs this folder's project against that install only.
# Arguments (-D): DTB_BUILD_DIR, CONSUMER_SOURCE_DIR, WORK_DIR, TABLES, C_COMPILER, CXX_COMPILER.
cmake_minimum_required(VERSION 3.20)

function(run_step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}\n${err}")
  endif()
  message(STATUS "${what}: ok\n${out}")
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")
run_step("install" ${CMAKE_COMMAND} --install "${DTB_BUILD_DIR}" --prefix "${WORK_DIR}/prefix")
run_step("configure" ${CMAKE_COMMAND} -S "${CONSUMER_SOURCE_DIR}" -B "${WORK_DIR}/build"
         -DCMAKE_BUILD_TYPE=Release "-DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF
         "-DCMAKE_C_COMPILER=${C_COMPILER}" "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}")
run_step("build" ${CMAKE_COMMAND} --build "${WORK_DIR}/build" -j2)
run_step("run consumer" "${WORK_DIR}/build/consumer" "${TABLES}")
run_step("run consumer_c" "${WORK_DIR}/build/consumer_c" "${TABLES}")
file(REMOVE_RECURSE "${WORK_DIR}")
