# Why this file exists: the build enforces Zermelo's layers. Each folder of the library is its own
# target, and a target sees only the headers of the targets it names as dependencies:
#
#   util <- io <- sort <- engine (pipeline/, the Game interface) <- games (one target each)
#   util <- io <- dfa  <- games with a set form (Breakthrough, Nim)
#   engine <- probe <- serve (which also draws the games' boards) <- the CLI
#
# Two mechanisms, because the public headers share one root (include/zermelo/...):
#   - games keep their headers in their own folder (src/games/G/include), visible only to targets
#     that link the game, so a pipeline file that includes a game header does not compile;
#   - zermelo_layer(... MAY_INCLUDE ...) names the folders of include/zermelo a layer's sources
#     may use, checked at build time (cmake/check_layer.cmake), so io including the engine, say,
#     fails the build with the file and the line.
#
# Every layer is an OBJECT library: games and CLI commands register themselves from static
# initialisers, and object files are never dropped by the linker. Object libraries link no
# objects transitively, so a program links every layer it needs directly: zermelo_link_layers().

set(ZERMELO_WARNINGS -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion)
option(ZERMELO_WERROR "Treat compiler warnings as errors (CI sets it)" OFF)
# GCC 12 at -O2 warns inside its own headers of a memcpy overlap in std::string's
# operator+(const char*, string&&) (GCC bug 105651) and of a memcmp over-read when two
# vector<unsigned char> are compared: false positives of that release, off for GCC 12 only.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  list(APPEND ZERMELO_WARNINGS -Wno-restrict -Wno-stringop-overread)
endif()
if(ZERMELO_WERROR)
  list(APPEND ZERMELO_WARNINGS -Werror)
endif()

# Compile options shared by every target of ours: warnings, and -march=native when asked.
function(zermelo_compile_options target)
  target_compile_options(${target} PRIVATE ${ZERMELO_WARNINGS})
  if(ZERMELO_NATIVE)
    target_compile_options(${target} PRIVATE -march=native)
  endif()
endfunction()

# zermelo_layer(NAME SOURCES s... [DEPENDS t...] [PRIVATE_DEPENDS t...] [MAY_INCLUDE d...])
#   DEPENDS: targets whose headers this layer's headers include (PUBLIC);
#   PRIVATE_DEPENDS: targets only its sources use;
#   MAY_INCLUDE: the folders under include/zermelo (or top-level headers such as game.hpp) that
#                its sources and headers may include, its own among them.
function(zermelo_layer name)
  cmake_parse_arguments(L "" "" "SOURCES;HEADERS;DEPENDS;PRIVATE_DEPENDS;MAY_INCLUDE" ${ARGN})
  add_library(${name} OBJECT ${L_SOURCES})
  set_target_properties(${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  target_include_directories(${name} PUBLIC ${PROJECT_SOURCE_DIR}/include)
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR})
  target_link_libraries(${name} PUBLIC ${L_DEPENDS} PRIVATE ${L_PRIVATE_DEPENDS})
  zermelo_compile_options(${name})
  # A layer of several files is compiled as unity files of up to 8 sources each: its files share
  # most of their headers (the engine's, the standard library's), which then cost CPU once a
  # batch rather than once a file. A file that cannot join one says so where its layer is made.
  list(LENGTH L_SOURCES sources)
  if(sources GREATER 1)
    set_target_properties(${name} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 8)
  endif()
  set_property(GLOBAL APPEND PROPERTY ZERMELO_LAYERS ${name})
  if(DEFINED L_MAY_INCLUDE)
    set(files "")
    foreach(f ${L_SOURCES} ${L_HEADERS})
      get_filename_component(f ${f} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
      list(APPEND files ${f})
    endforeach()
    zermelo_check_layer(${name} "${files}" "${L_MAY_INCLUDE}")
  endif()
endfunction()

# A build step that fails when a file of the layer includes a zermelo/ header outside MAY_INCLUDE.
function(zermelo_check_layer name files allowed)
  set(stamp ${PROJECT_BINARY_DIR}/layer-checks/${name}.ok)
  add_custom_command(
    OUTPUT ${stamp}
    COMMAND ${CMAKE_COMMAND} "-DLAYER=${name}" "-DFILES=${files}" "-DALLOWED=${allowed}"
            -DSTAMP=${stamp} -P ${PROJECT_SOURCE_DIR}/cmake/check_layer.cmake
    DEPENDS ${files} ${PROJECT_SOURCE_DIR}/cmake/check_layer.cmake
    COMMENT "Checking the includes of layer ${name}" VERBATIM)
  add_custom_target(${name}_layer_check DEPENDS ${stamp})
  add_dependencies(${name} ${name}_layer_check)
endfunction()

# zermelo_add_game(NAME [DEPENDS t...]): the game in this folder, as target zermelo_game_NAME.
# Its sources are the folder's *.cpp; its headers, under include/zermelo/games/NAME, are seen only
# by targets that link it.
function(zermelo_add_game name)
  cmake_parse_arguments(G "" "" "DEPENDS" ${ARGN})
  file(GLOB sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cpp)
  set(target zermelo_game_${name})
  file(GLOB_RECURSE headers CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.hpp)
  zermelo_layer(${target} SOURCES ${sources} HEADERS ${headers}
    DEPENDS zermelo_engine ${G_DEPENDS} MAY_INCLUDE games game.hpp engine dfa sort io util)
  target_include_directories(${target} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/include)
  set_property(GLOBAL APPEND PROPERTY ZERMELO_GAMES ${target})
endfunction()

# zermelo_link_layers(TARGET [EXCEPT layer...]): links every layer into a program or shared
# library (object libraries must be linked directly), all but those named.
function(zermelo_link_layers target)
  cmake_parse_arguments(K "" "" "EXCEPT" ${ARGN})
  get_property(layers GLOBAL PROPERTY ZERMELO_LAYERS)
  if(K_EXCEPT)
    list(REMOVE_ITEM layers ${K_EXCEPT})
  endif()
  target_link_libraries(${target} PRIVATE ${layers})
endfunction()
