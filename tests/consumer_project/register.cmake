# Registers `probe_consumer_project` (see run.cmake): a library-only build installed,
# find_package(dtb), build, run.
# Included from the top-level CMakeLists.txt after tests/probe_c_consumer (fixture tables).
add_test(NAME probe_consumer_project
         COMMAND ${CMAKE_COMMAND}
                 -DDTB_SOURCE_DIR=${PROJECT_SOURCE_DIR}
                 -DCONSUMER_SOURCE_DIR=${CMAKE_CURRENT_LIST_DIR}
                 -DWORK_DIR=${PROJECT_BINARY_DIR}/probe_consumer_project
                 -DTABLES=${DTB_FIXTURE_TABLES}
                 -DC_COMPILER=${CMAKE_C_COMPILER}
                 -DCXX_COMPILER=${CMAKE_CXX_COMPILER}
                 -P ${CMAKE_CURRENT_LIST_DIR}/run.cmake)
set_tests_properties(probe_consumer_project PROPERTIES FIXTURES_REQUIRED dtb_probe_tables TIMEOUT 600
                                                        LABELS consumer)
