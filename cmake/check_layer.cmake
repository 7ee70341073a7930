# Why this file exists: run by the build (see layers.cmake) for one layer. It fails when a file of
# the layer includes a header of include/zermelo that the layer may not use, naming the file, the
# include and what the layer may include; on success it touches STAMP.
# Inputs: LAYER (its name), FILES (its sources and headers), ALLOWED (folders of include/zermelo,
# or top-level headers such as game.hpp).
cmake_minimum_required(VERSION 3.22)
set(errors "")
foreach(file IN LISTS FILES)
  file(STRINGS ${file} lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"zermelo/")
  foreach(line IN LISTS lines)
    string(REGEX REPLACE ".*\"zermelo/([^\"/]+).*" "\\1" part "${line}")
    if(NOT part IN_LIST ALLOWED)
      string(APPEND errors "  ${file}: ${line}\n")
    endif()
  endforeach()
endforeach()
if(errors)
  message(FATAL_ERROR "layer ${LAYER} includes headers it may not use:\n${errors}"
                      "It may include zermelo/{${ALLOWED}} only (cmake/layers.cmake).")
endif()
get_filename_component(stamp_dir ${STAMP} DIRECTORY)
file(MAKE_DIRECTORY ${stamp_dir})
file(TOUCH ${STAMP})
