# Install-time step (cmake/package_config.cmake registers it): writes
# <prefix>/<libdir>/pkgconfig/omptarget.pc from omptarget.pc.in with the
# prefix being installed to (cmake --install --prefix P gives P, not the
# configured CMAKE_INSTALL_PREFIX).
# In: OMPTARGET_PC_TEMPLATE, OMPTARGET_PC_STAGING_DIR, OMPTARGET_PC_VERSION,
#     OMPTARGET_PC_LIBDIR, OMPTARGET_PC_INCLUDEDIR (relative to the prefix
#     or absolute), OMPTARGET_PC_HAVE_DEVICERTL.
set(OMPTARGET_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")

# ${prefix}/dir for a directory under the prefix, the directory itself otherwise.
function(omptarget_pc_dir Dir Out)
  if(IS_ABSOLUTE "${Dir}")
    set(${Out} "${Dir}" PARENT_SCOPE)
  else()
    set(${Out} "\${prefix}/${Dir}" PARENT_SCOPE)
  endif()
endfunction()
omptarget_pc_dir("${OMPTARGET_PC_LIBDIR}" OMPTARGET_PC_LIBDIR_FULL)
omptarget_pc_dir("${OMPTARGET_PC_INCLUDEDIR}" OMPTARGET_PC_INCLUDEDIR_FULL)

# pkg-config --variable=devicertl_bc omptarget: the nvptx device runtime.
set(OMPTARGET_PC_DEVICERTL_LINE "")
if(OMPTARGET_PC_HAVE_DEVICERTL)
  set(OMPTARGET_PC_DEVICERTL_LINE "devicertl_bc=\${libdir}/libomptarget-devicertl-nvptx.bc\n")
endif()

configure_file("${OMPTARGET_PC_TEMPLATE}" "${OMPTARGET_PC_STAGING_DIR}/omptarget.pc" @ONLY)
# file(INSTALL) honours DESTDIR and records the file in install_manifest.txt.
if(IS_ABSOLUTE "${OMPTARGET_PC_LIBDIR}")
  set(_pc_dest "${OMPTARGET_PC_LIBDIR}/pkgconfig")
else()
  set(_pc_dest "${CMAKE_INSTALL_PREFIX}/${OMPTARGET_PC_LIBDIR}/pkgconfig")
endif()
file(INSTALL "${OMPTARGET_PC_STAGING_DIR}/omptarget.pc" DESTINATION "${_pc_dest}")
