# Install rules: the headers, the CMake package collectcall (collectcallConfig.cmake, a version
# file and one export set per target) and the pkg-config file collectcall.pc.
#
# Included at the end of the root CMakeLists.txt, once every target is defined. Optional
# component targets are installed when the build has them:
#   collectcall_compliance -> collectcall::compliance (needs date::date-tz)
#   collectcall_webhooks   -> collectcall::webhooks   (needs OpenSSL::Crypto)
# The package is architecture-independent (headers and CMake files only), so it goes under
# share/ like the pkg-config file.

include(CMakePackageConfigHelpers)
include(GNUInstallDirs)

set(COLLECTCALL_INSTALL_CMAKEDIR "${CMAKE_INSTALL_DATADIR}/cmake/collectcall"
  CACHE STRING "Where collectcallConfig.cmake is installed, relative to the prefix")
set(COLLECTCALL_INSTALL_PKGCONFIGDIR "${CMAKE_INSTALL_DATADIR}/pkgconfig"
  CACHE STRING "Where collectcall.pc is installed, relative to the prefix")
mark_as_advanced(COLLECTCALL_INSTALL_CMAKEDIR COLLECTCALL_INSTALL_PKGCONFIGDIR)

# `include`, not CMAKE_INSTALL_INCLUDEDIR: it must match $<INSTALL_INTERFACE:include> of the
# collectcall target and includedir of collectcall.pc.
install(DIRECTORY "${PROJECT_SOURCE_DIR}/include/collectcall" DESTINATION include
  COMPONENT collectcall_development)

install(TARGETS collectcall EXPORT collectcallTargets COMPONENT collectcall_development)
install(EXPORT collectcallTargets NAMESPACE collectcall:: FILE collectcallTargets.cmake
  DESTINATION "${COLLECTCALL_INSTALL_CMAKEDIR}" COMPONENT collectcall_development)

# Each component has an export set of its own, loaded only when the component is asked for, so
# that a consumer of the core needs neither date nor OpenSSL.
set(COLLECTCALL_PACKAGE_COMPONENTS)
foreach(component IN ITEMS compliance webhooks)
  if(TARGET collectcall_${component})
    list(APPEND COLLECTCALL_PACKAGE_COMPONENTS ${component})
    set_target_properties(collectcall_${component} PROPERTIES EXPORT_NAME ${component})
    install(TARGETS collectcall_${component} EXPORT collectcall-${component}-targets
      COMPONENT collectcall_development)
    install(EXPORT collectcall-${component}-targets NAMESPACE collectcall::
      FILE collectcall-${component}-targets.cmake
      DESTINATION "${COLLECTCALL_INSTALL_CMAKEDIR}" COMPONENT collectcall_development)
  endif()
endforeach()

configure_package_config_file("${CMAKE_CURRENT_LIST_DIR}/collectcallConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/package/collectcallConfig.cmake"
  INSTALL_DESTINATION "${COLLECTCALL_INSTALL_CMAKEDIR}")
# Before 1.0 a minor version may break the API, so only the same minor version is compatible.
if(PROJECT_VERSION_MAJOR EQUAL 0)
  set(collectcall_compatibility SameMinorVersion)
else()
  set(collectcall_compatibility SameMajorVersion)
endif()
write_basic_package_version_file("${PROJECT_BINARY_DIR}/package/collectcallConfigVersion.cmake"
  VERSION ${PROJECT_VERSION} COMPATIBILITY ${collectcall_compatibility} ARCH_INDEPENDENT)
install(FILES "${PROJECT_BINARY_DIR}/package/collectcallConfig.cmake"
  "${PROJECT_BINARY_DIR}/package/collectcallConfigVersion.cmake"
  DESTINATION "${COLLECTCALL_INSTALL_CMAKEDIR}" COMPONENT collectcall_development)

# pkg-config: the prefix is found from the .pc file's own place, so the installed tree can be
# moved (or staged with DESTDIR) without editing it. simdjson has a .pc file of its own; Boost
# does not, so its include directory is spelled out unless the compiler searches it anyway.
file(RELATIVE_PATH COLLECTCALL_PC_PREFIX "/prefix/${COLLECTCALL_INSTALL_PKGCONFIGDIR}" "/prefix")
string(REGEX REPLACE "/$" "" COLLECTCALL_PC_PREFIX "${COLLECTCALL_PC_PREFIX}")
if(IS_ABSOLUTE "${COLLECTCALL_INSTALL_PKGCONFIGDIR}")
  set(COLLECTCALL_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
else()
  set(COLLECTCALL_PC_PREFIX "\${pcfiledir}/${COLLECTCALL_PC_PREFIX}")
endif()
set(COLLECTCALL_PC_CFLAGS "-I\${includedir}")
foreach(dir IN LISTS Boost_INCLUDE_DIRS)
  if(NOT dir IN_LIST CMAKE_CXX_IMPLICIT_INCLUDE_DIRECTORIES)
    string(APPEND COLLECTCALL_PC_CFLAGS " -I${dir}")
  endif()
endforeach()
configure_file("${CMAKE_CURRENT_LIST_DIR}/collectcall.pc.in"
  "${PROJECT_BINARY_DIR}/package/collectcall.pc" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/package/collectcall.pc"
  DESTINATION "${COLLECTCALL_INSTALL_PKGCONFIGDIR}" COMPONENT collectcall_development)
