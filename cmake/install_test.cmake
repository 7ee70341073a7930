# The installed package as another program sees it (tests/probe/installed_example_test.sh): the
# examples built against an installed copy and, when the Python module is built, the installed
# module imported with PYTHONPATH at the prefix. Included after python/, which sets
# ZERMELO_INSTALLED_PYTHON (the interpreter, the module's folder) when it installs the module.
#
# Under the sanitizers the installed library needs the ASan runtime loaded first, which a plain
# example program does not do: the example is tested in the Release configuration only.
if(ZERMELO_SANITIZE)
  return()
endif()
add_test(NAME installed_probe_example
         COMMAND bash ${PROJECT_SOURCE_DIR}/tests/probe/installed_example_test.sh
                 ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR} ${ZERMELO_INSTALLED_PYTHON})
set_tests_properties(installed_probe_example PROPERTIES TIMEOUT 300)
