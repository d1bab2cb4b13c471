# Install rules and the CMake package: after `cmake --install`, a project does
#   find_package(dtb 0.1 REQUIRED)
#   target_link_libraries(app PRIVATE dtb::dtb)
# and includes <dtb/dtb.h> (C) or <dtb/probe/probe.hpp> (C++). dtb::dtb is the probe library
# (static), with dtb::rules and dtb::index (header-only) behind it. Layout under the prefix:
#   bin/dtb                      the command-line tool
#   include/dtb/dtb.h            the C interface
#   include/dtb/{rules,index,format,probe,adjudicate,solve}/*.hpp
#   lib/libdtb_{format,probe,adjudicate,solve,c_api}.a
#   lib/cmake/dtb/               dtbConfig.cmake, dtbConfigVersion.cmake, dtbTargets*.cmake
#   lib/pkgconfig/dtb.pc         the same library for pkg-config (C and C++ consumers)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(DTB_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/dtb)

# Exported names: dtb::dtb (the whole probe library: dtb_library), and its parts dtb::c_api,
# dtb::adjudicate, dtb::solve, dtb::probe, dtb::format, dtb::rules, dtb::index. Inside the tree, dtb::dtb is
# an alias.
set_target_properties(dtb_library PROPERTIES EXPORT_NAME dtb)
set_target_properties(dtb_c_api PROPERTIES EXPORT_NAME c_api)
set_target_properties(dtb_adjudicate PROPERTIES EXPORT_NAME adjudicate)
set_target_properties(dtb_solve PROPERTIES EXPORT_NAME solve)
set_target_properties(dtb_probe PROPERTIES EXPORT_NAME probe)
set_target_properties(dtb_rules PROPERTIES EXPORT_NAME rules)
set_target_properties(dtb_index PROPERTIES EXPORT_NAME index)
set_target_properties(dtb_format PROPERTIES EXPORT_NAME format)
add_library(dtb::dtb ALIAS dtb_library)
# The headers include each other as "dtb/rules/x.hpp", "dtb/probe/y.hpp": only include/ is on a
# consumer's include path.

install(DIRECTORY ${PROJECT_SOURCE_DIR}/rules ${PROJECT_SOURCE_DIR}/index
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/dtb FILES_MATCHING PATTERN "*.hpp")
# The public headers only (format/layout.hpp and probe/probe_engine.hpp are internal).
install(FILES ${PROJECT_SOURCE_DIR}/format/format.hpp ${PROJECT_SOURCE_DIR}/format/bit_packing.hpp
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/dtb/format)
install(FILES ${PROJECT_SOURCE_DIR}/probe/probe.hpp ${PROJECT_SOURCE_DIR}/probe/cache.hpp
              ${PROJECT_SOURCE_DIR}/probe/value.hpp ${PROJECT_SOURCE_DIR}/probe/counting_rules.hpp
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/dtb/probe)
install(FILES ${PROJECT_SOURCE_DIR}/adjudicate/adjudicator.hpp ${PROJECT_SOURCE_DIR}/adjudicate/game_check.hpp
              ${PROJECT_SOURCE_DIR}/adjudicate/game_report.hpp
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/dtb/adjudicate)
# The solver's public headers (dfpn.hpp, proof_extract.hpp and the table's are internal).
install(FILES ${PROJECT_SOURCE_DIR}/solve/prover.hpp ${PROJECT_SOURCE_DIR}/solve/solve_types.hpp
              ${PROJECT_SOURCE_DIR}/solve/proof.hpp ${PROJECT_SOURCE_DIR}/solve/leaf.hpp
              ${PROJECT_SOURCE_DIR}/solve/proof_pdn.hpp ${PROJECT_SOURCE_DIR}/solve/proof_check.hpp
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/dtb/solve)
install(FILES ${PROJECT_SOURCE_DIR}/include/dtb/dtb.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/dtb)

install(TARGETS dtb_rules dtb_index dtb_format dtb_probe dtb_adjudicate dtb_solve dtb_c_api dtb_library EXPORT dtbTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
if(TARGET dtb)
  install(TARGETS dtb RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
install(EXPORT dtbTargets NAMESPACE dtb:: DESTINATION ${DTB_INSTALL_CMAKEDIR})
# The build tree is a package too (CMAKE_PREFIX_PATH=<build>): its dtbConfig.cmake reads this.
export(EXPORT dtbTargets NAMESPACE dtb:: FILE ${PROJECT_BINARY_DIR}/dtbTargets.cmake)

# pkg-config (lib/pkgconfig/dtb.pc): cc app.c $(pkg-config --cflags --libs dtb).
# Relocatable: the prefix is found from the file's own place, as `cmake --install --prefix` puts it.
file(RELATIVE_PATH DTB_PC_TO_PREFIX ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig ${CMAKE_INSTALL_PREFIX})
string(REGEX REPLACE "/$" "" DTB_PC_TO_PREFIX "${DTB_PC_TO_PREFIX}")
configure_file(${CMAKE_CURRENT_LIST_DIR}/dtb.pc.in ${PROJECT_BINARY_DIR}/dtb.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/dtb.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/dtbConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/dtbConfig.cmake
                              INSTALL_DESTINATION ${DTB_INSTALL_CMAKEDIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/dtbConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/dtbConfig.cmake ${PROJECT_BINARY_DIR}/dtbConfigVersion.cmake
        DESTINATION ${DTB_INSTALL_CMAKEDIR})
