# The installable library, for programs that probe solved games (issue 24):
#   libzermelo.so: the same objects as the CLI, linked whole, so that every game (each registers
#                  itself from a static initialiser) is in it;
#   the probe API's headers (zermelo/probe.hpp, zermelo/probe.h) and no other: the engine's
#                  headers are not a stable interface;
#   a pkg-config file (zermelo.pc) and a CMake package: find_package(zermelo) gives
#                  zermelo::zermelo.
# The pkg-config file finds its prefix from where it lies, so the tree installs to any --prefix.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

add_library(zermelo_shared SHARED)
zermelo_link_layers(zermelo_shared EXCEPT zermelo_serve)
target_include_directories(zermelo_shared INTERFACE
  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include> $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
target_compile_features(zermelo_shared INTERFACE cxx_std_20)
set_target_properties(zermelo_shared PROPERTIES OUTPUT_NAME zermelo EXPORT_NAME zermelo
                      VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR})

set(ZERMELO_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/zermelo)
install(TARGETS zermelo_shared EXPORT zermeloTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS zermelo RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES include/zermelo/probe.hpp include/zermelo/probe.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/zermelo)
install(EXPORT zermeloTargets NAMESPACE zermelo:: DESTINATION ${ZERMELO_CMAKE_DIR})

configure_package_config_file(cmake/zermeloConfig.cmake.in
  ${PROJECT_BINARY_DIR}/zermeloConfig.cmake INSTALL_DESTINATION ${ZERMELO_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/zermeloConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/zermeloConfig.cmake
        ${PROJECT_BINARY_DIR}/zermeloConfigVersion.cmake DESTINATION ${ZERMELO_CMAKE_DIR})

set(ZERMELO_PC_DIR ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
file(RELATIVE_PATH ZERMELO_PC_TO_PREFIX /prefix/${ZERMELO_PC_DIR} /prefix)
configure_file(cmake/zermelo.pc.in ${PROJECT_BINARY_DIR}/zermelo.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/zermelo.pc DESTINATION ${ZERMELO_PC_DIR})
