# ctest driver (test `probe_consumer_project`): builds the probe library alone from the source
# tree (DTB_BUILD_TOOLS=OFF, with OpenMP, CLI11, nlohmann_json, Catch2, Google Benchmark and
# pybind11 made unfindable, so that a dependency on them fails the build), installs it into a
# fresh prefix, then configures, builds and runs this folder's project against that install only.
# Arguments (-D): DTB_SOURCE_DIR, CONSUMER_SOURCE_DIR, WORK_DIR, TABLES, C_COMPILER, CXX_COMPILER.
cmake_minimum_required(VERSION 3.20)

function(run_step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}\n${err}")
  endif()
  message(STATUS "${what}: ok\n${out}")
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")
set(no_package)
foreach(package OpenMP CLI11 nlohmann_json Catch2 benchmark pybind11 Python3)
  list(APPEND no_package -DCMAKE_DISABLE_FIND_PACKAGE_${package}=ON)
endforeach()
run_step("configure the library-only build" ${CMAKE_COMMAND} -S "${DTB_SOURCE_DIR}" -B "${WORK_DIR}/dtb-build"
         -DCMAKE_BUILD_TYPE=Release -DDTB_BUILD_TOOLS=OFF -DDTB_BUILD_TESTS=OFF -DDTB_BUILD_BENCH=OFF
         -DDTB_BUILD_PYTHON=OFF -DCMAKE_UNITY_BUILD=ON ${no_package}
         "-DCMAKE_C_COMPILER=${C_COMPILER}" "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}")
run_step("build the library" ${CMAKE_COMMAND} --build "${WORK_DIR}/dtb-build" -j2)
run_step("install" ${CMAKE_COMMAND} --install "${WORK_DIR}/dtb-build" --prefix "${WORK_DIR}/prefix")
# What was installed is the library: no program, no OpenMP in the exported targets.
if(EXISTS "${WORK_DIR}/prefix/bin/dtb")
  message(FATAL_ERROR "a library-only build installed bin/dtb")
endif()
file(GLOB target_files "${WORK_DIR}/prefix/lib*/cmake/dtb/dtbTargets*.cmake")
foreach(f ${target_files})
  file(READ "${f}" text)
  if(text MATCHES "OpenMP|nlohmann|CLI11")
    message(FATAL_ERROR "${f} names a tools-only dependency")
  endif()
endforeach()
run_step("configure" ${CMAKE_COMMAND} -S "${CONSUMER_SOURCE_DIR}" -B "${WORK_DIR}/build"
         -DCMAKE_BUILD_TYPE=Release "-DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF
         "-DCMAKE_C_COMPILER=${C_COMPILER}" "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}")
run_step("build" ${CMAKE_COMMAND} --build "${WORK_DIR}/build" -j2)
run_step("run consumer" "${WORK_DIR}/build/consumer" "${TABLES}")
run_step("run consumer_c" "${WORK_DIR}/build/consumer_c" "${TABLES}")
# The same C program from a C-only CMake project, and built with pkg-config and the C compiler.
run_step("configure the C-only project" ${CMAKE_COMMAND} -S "${CONSUMER_SOURCE_DIR}/c_only" -B "${WORK_DIR}/build-c"
         -DCMAKE_BUILD_TYPE=Release "-DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF
         "-DCMAKE_C_COMPILER=${C_COMPILER}")
run_step("build the C-only project" ${CMAKE_COMMAND} --build "${WORK_DIR}/build-c")
run_step("run consumer_c_only" "${WORK_DIR}/build-c/consumer_c_only" "${TABLES}")
file(GLOB pc_dirs "${WORK_DIR}/prefix/lib*/pkgconfig" "${WORK_DIR}/prefix/lib/*/pkgconfig")
if(NOT pc_dirs)
  message(FATAL_ERROR "no dtb.pc installed under ${WORK_DIR}/prefix")
endif()
list(GET pc_dirs 0 pc_dir)
execute_process(COMMAND ${CMAKE_COMMAND} -E env "PKG_CONFIG_PATH=${pc_dir}" pkg-config --cflags --libs dtb
                RESULT_VARIABLE rc OUTPUT_VARIABLE pc_flags ERROR_VARIABLE pc_err OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "pkg-config --cflags --libs dtb failed: ${pc_err}")
endif()
separate_arguments(pc_flags UNIX_COMMAND "${pc_flags}")
run_step("build with pkg-config" "${C_COMPILER}" "${CONSUMER_SOURCE_DIR}/main.c" -o "${WORK_DIR}/consumer_pc" ${pc_flags})
run_step("run consumer_pc" "${WORK_DIR}/consumer_pc" "${TABLES}")
file(REMOVE_RECURSE "${WORK_DIR}")
