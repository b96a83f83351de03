# Release installs without debug info in the binaries: after everything is
# installed, each installed ELF file (the core, the plugins, omptarget-info)
# that has debug info gets it moved into <its dir>/.debug/<name>.debug
# (objcopy --only-keep-debug), is stripped of it (objcopy --strip-debug) and
# names that file in its .gnu_debuglink section, where gdb finds it without
# being told. split_debug_info_install.cmake does the work at install time.
# Included last by the top-level CMakeLists.txt, so that its step runs after
# every other install rule; OMPTARGET_SPLIT_DEBUG_INFO (on for the release
# build types) turns it on.
if(NOT OMPTARGET_SPLIT_DEBUG_INFO)
  return()
endif()
if(NOT CMAKE_OBJCOPY OR NOT CMAKE_READELF)
  message(WARNING "objcopy or readelf not found (CMAKE_OBJCOPY, CMAKE_READELF): "
                  "the installed binaries keep their debug info")
  return()
endif()

install(CODE "
  set(OMPTARGET_OBJCOPY \"${CMAKE_OBJCOPY}\")
  set(OMPTARGET_READELF \"${CMAKE_READELF}\")
  include(\"${CMAKE_CURRENT_LIST_DIR}/split_debug_info_install.cmake\")")
