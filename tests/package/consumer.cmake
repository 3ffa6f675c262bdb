# Driver of the package tests (run by ctest with cmake -P): builds and runs the consumer project
# of tests/package/consumer against collectcall, outside collectcall's own build.
#
#   -DSTEP=install           configure the source tree as a user installing it would, and
#                            cmake --install it into WORK_DIR/prefix
#   -DSTEP=find_package      consumer: find_package(collectcall) from WORK_DIR/prefix
#   -DSTEP=pkg_config        consumer: compiled with `pkg-config --cflags --libs collectcall`
#   -DSTEP=add_subdirectory  consumer: add_subdirectory(SOURCE_DIR)
#   -DSTEP=fetchcontent      consumer: FetchContent, pointed at SOURCE_DIR
#
# Other arguments: SOURCE_DIR, WORK_DIR, CXX_COMPILER, GENERATOR, MAKE_PROGRAM, VERSION, and
# COMPONENTS (a comma-separated list; empty items are ignored).
cmake_minimum_required(VERSION 3.20)

foreach(required IN ITEMS STEP SOURCE_DIR WORK_DIR CXX_COMPILER GENERATOR VERSION)
  if(NOT DEFINED ${required})
    message(FATAL_ERROR "consumer.cmake: -D${required}=... is required")
  endif()
endforeach()
string(REPLACE "," ";" COMPONENTS "${COMPONENTS}")
list(REMOVE_ITEM COMPONENTS "")
set(prefix "${WORK_DIR}/prefix")
set(generator_args -G "${GENERATOR}")
if(MAKE_PROGRAM)
  list(APPEND generator_args "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}")
endif()

function(run)
  string(REPLACE ";" " " shown "${ARGN}")
  message(STATUS "run: ${shown}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "failed (${result}): ${shown}")
  endif()
endfunction()

function(expect_file path)
  if(NOT EXISTS "${path}")
    message(FATAL_ERROR "missing after install: ${path}")
  endif()
endfunction()

if(STEP STREQUAL "install")
  # README: install
  set(build "${WORK_DIR}/collectcall-build")
  file(REMOVE_RECURSE "${build}" "${prefix}")
  run(${CMAKE_COMMAND} -S "${SOURCE_DIR}" -B "${build}" ${generator_args}
      "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}"
      -DCOLLECTCALL_BUILD_TESTS=OFF -DCOLLECTCALL_BUILD_EXAMPLES=OFF)
  run(${CMAKE_COMMAND} --install "${build}" --prefix "${prefix}")
  expect_file("${prefix}/include/collectcall/collectcall.hpp")
  expect_file("${prefix}/include/collectcall/version.hpp")
  expect_file("${prefix}/share/cmake/collectcall/collectcallConfig.cmake")
  expect_file("${prefix}/share/cmake/collectcall/collectcallConfigVersion.cmake")
  expect_file("${prefix}/share/cmake/collectcall/collectcallTargets.cmake")
  expect_file("${prefix}/share/pkgconfig/collectcall.pc")
  foreach(component IN LISTS COMPONENTS)
    expect_file("${prefix}/share/cmake/collectcall/collectcall-${component}-targets.cmake")
  endforeach()
  # Installed headers are exactly the source tree's.
  file(GLOB_RECURSE source_headers RELATIVE "${SOURCE_DIR}/include" "${SOURCE_DIR}/include/*")
  file(GLOB_RECURSE installed_headers RELATIVE "${prefix}/include" "${prefix}/include/*")
  list(SORT source_headers)
  list(SORT installed_headers)
  if(NOT source_headers STREQUAL installed_headers)
    message(FATAL_ERROR "installed headers differ from include/:\n${installed_headers}\n"
      "vs\n${source_headers}")
  endif()

elseif(STEP STREQUAL "find_package" OR STEP STREQUAL "add_subdirectory"
       OR STEP STREQUAL "fetchcontent")
  set(build "${WORK_DIR}/consumer-${STEP}")
  file(REMOVE_RECURSE "${build}")
  set(args "-DCOLLECTCALL_CONSUMER_MODE=${STEP}")
  if(STEP STREQUAL "find_package")
    string(REPLACE ";" "," components "${COMPONENTS}")
    list(APPEND args "-DCMAKE_PREFIX_PATH=${prefix}" "-DCOLLECTCALL_CONSUMER_PREFIX=${prefix}"
         "-DCOLLECTCALL_CONSUMER_COMPONENTS=${components}")
  elseif(STEP STREQUAL "add_subdirectory")
    list(APPEND args "-DCOLLECTCALL_CONSUMER_SOURCE_DIR=${SOURCE_DIR}")
  else()
    list(APPEND args "-DFETCHCONTENT_SOURCE_DIR_COLLECTCALL=${SOURCE_DIR}")
  endif()
  run(${CMAKE_COMMAND} -S "${CMAKE_CURRENT_LIST_DIR}/consumer" -B "${build}" ${generator_args}
      "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}" ${args})
  run(${CMAKE_COMMAND} --build "${build}")
  run("${build}/consumer")
  if(STEP STREQUAL "find_package")
    foreach(component IN LISTS COMPONENTS)
      run("${build}/consumer_${component}")
    endforeach()
  endif()

elseif(STEP STREQUAL "pkg_config")
  find_program(PKG_CONFIG NAMES pkg-config pkgconf REQUIRED)
  set(ENV{PKG_CONFIG_PATH} "${prefix}/share/pkgconfig")
  execute_process(COMMAND "${PKG_CONFIG}" --modversion collectcall
    OUTPUT_VARIABLE modversion OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE result)
  if(NOT result EQUAL 0 OR NOT modversion STREQUAL VERSION)
    message(FATAL_ERROR "pkg-config --modversion collectcall gave '${modversion}', "
      "expected ${VERSION}")
  endif()
  # README: pkg-config
  execute_process(COMMAND "${PKG_CONFIG}" --cflags --libs collectcall
    OUTPUT_VARIABLE flags OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE result)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "pkg-config --cflags --libs collectcall failed")
  endif()
  if(NOT flags MATCHES "-I${prefix}/")
    message(FATAL_ERROR "pkg-config flags do not point into ${prefix}: ${flags}")
  endif()
  separate_arguments(flags UNIX_COMMAND "${flags}")
  set(build "${WORK_DIR}/consumer-pkg_config")
  file(REMOVE_RECURSE "${build}")
  file(MAKE_DIRECTORY "${build}")
  run("${CXX_COMPILER}" -std=c++20 -Wall -Wextra -Wpedantic -Werror
      "-DCOLLECTCALL_EXPECTED_VERSION=\"${VERSION}\""
      "${CMAKE_CURRENT_LIST_DIR}/consumer/main.cpp" ${flags} -o "${build}/consumer")
  run("${build}/consumer")

else()
  message(FATAL_ERROR "consumer.cmake: unknown STEP '${STEP}'")
endif()
