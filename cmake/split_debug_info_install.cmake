# Install-time step (cmake/split_debug_info.cmake registers it, last): moves
# the debug info of every ELF file installed so far into a separate file.
# For each file of CMAKE_INSTALL_MANIFEST_FILES that is an ELF file with a
# .debug_info section:
#   objcopy --only-keep-debug F <dir>/.debug/<name>.debug
#   objcopy --strip-debug --add-gnu-debuglink=<dir>/.debug/<name>.debug F
# The debug file joins the install manifest. A file without debug info (a
# Release build, or one already stripped by an earlier install) is left
# alone. The manifest names files without DESTDIR; they lie under it.
# In: OMPTARGET_OBJCOPY, OMPTARGET_READELF.
foreach(Installed IN LISTS CMAKE_INSTALL_MANIFEST_FILES)
  set(File "$ENV{DESTDIR}${Installed}")
  if(IS_SYMLINK "${File}" OR IS_DIRECTORY "${File}" OR NOT EXISTS "${File}")
    continue()
  endif()
  get_filename_component(Dir "${File}" DIRECTORY)
  get_filename_component(Name "${File}" NAME)
  if(Dir MATCHES "/\\.debug$")
    continue()
  endif()
  file(READ "${File}" Magic LIMIT 4 HEX)
  if(NOT Magic STREQUAL "7f454c46")
    continue()
  endif()
  execute_process(COMMAND "${OMPTARGET_READELF}" -S -W "${File}"
                  OUTPUT_VARIABLE Sections COMMAND_ERROR_IS_FATAL ANY)
  if(NOT Sections MATCHES "[ \t]\\.debug_info[ \t]")
    continue()
  endif()
  set(DebugFile "${Dir}/.debug/${Name}.debug")
  file(MAKE_DIRECTORY "${Dir}/.debug")
  execute_process(COMMAND "${OMPTARGET_OBJCOPY}" --only-keep-debug "${File}" "${DebugFile}"
                  COMMAND_ERROR_IS_FATAL ANY)
  file(CHMOD "${DebugFile}" PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
  execute_process(COMMAND "${OMPTARGET_OBJCOPY}" --strip-debug "--add-gnu-debuglink=${DebugFile}" "${File}"
                  COMMAND_ERROR_IS_FATAL ANY)
  message(STATUS "Split debug info: ${File} -> ${DebugFile}")
  get_filename_component(InstalledDir "${Installed}" DIRECTORY)
  list(APPEND CMAKE_INSTALL_MANIFEST_FILES "${InstalledDir}/.debug/${Name}.debug")
endforeach()
