# The files that let other projects use an installed omptarget:
#  - lib/cmake/omptarget/omptargetConfig.cmake (+ ConfigVersion): for
#    find_package(omptarget CONFIG), the imported target omptarget::omptarget
#    (omptargetConfig.cmake.in says what it gives);
#  - lib/pkgconfig/omptarget.pc: for pkg-config, written at install time
#    with the prefix installed to (write_pkgconfig.cmake).
# Included by the top-level CMakeLists.txt after every installed target.
include(CMakePackageConfigHelpers)

set(OMPTARGET_CMAKE_CONFIG_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/omptarget)
# The device runtime is built only where clang 14 is (src/devicertl).
if(TARGET omptarget-devicertl)
  set(OMPTARGET_HAVE_DEVICERTL TRUE)
else()
  set(OMPTARGET_HAVE_DEVICERTL FALSE)
endif()

configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/omptargetConfig.cmake.in
  ${CMAKE_BINARY_DIR}/package/omptargetConfig.cmake
  INSTALL_DESTINATION ${OMPTARGET_CMAKE_CONFIG_DIR}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_LIBDIR CMAKE_INSTALL_BINDIR)
# 0.x: only the same minor version is compatible.
write_basic_package_version_file(
  ${CMAKE_BINARY_DIR}/package/omptargetConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/package/omptargetConfig.cmake
              ${CMAKE_BINARY_DIR}/package/omptargetConfigVersion.cmake
  DESTINATION ${OMPTARGET_CMAKE_CONFIG_DIR})

install(CODE "
  set(OMPTARGET_PC_TEMPLATE \"${CMAKE_CURRENT_LIST_DIR}/omptarget.pc.in\")
  set(OMPTARGET_PC_STAGING_DIR \"${CMAKE_BINARY_DIR}/package\")
  set(OMPTARGET_PC_VERSION \"${PROJECT_VERSION}\")
  set(OMPTARGET_PC_LIBDIR \"${CMAKE_INSTALL_LIBDIR}\")
  set(OMPTARGET_PC_INCLUDEDIR \"${CMAKE_INSTALL_INCLUDEDIR}\")
  set(OMPTARGET_PC_HAVE_DEVICERTL ${OMPTARGET_HAVE_DEVICERTL})
  include(\"${CMAKE_CURRENT_LIST_DIR}/write_pkgconfig.cmake\")")
