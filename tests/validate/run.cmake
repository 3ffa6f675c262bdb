# Runs collectcall-validate once and checks its exit status and, when given, its exact stdout.
#   -DPROGRAM=...  -DEXPECTED_EXIT=N  [-DARGS=a,b,...]  [-DSTDIN=file]  [-DEXPECTED_OUTPUT=file]
cmake_minimum_required(VERSION 3.20)
string(REPLACE "," ";" args "${ARGS}")
set(stdin_args)
if(DEFINED STDIN)
  set(stdin_args INPUT_FILE "${STDIN}")
endif()
execute_process(COMMAND "${PROGRAM}" ${args} ${stdin_args}
  RESULT_VARIABLE exit_code OUTPUT_VARIABLE output ERROR_VARIABLE errors)
if(NOT exit_code STREQUAL EXPECTED_EXIT)
  message(FATAL_ERROR "exit status ${exit_code}, expected ${EXPECTED_EXIT}\n"
    "stdout:\n${output}\nstderr:\n${errors}")
endif()
if(DEFINED EXPECTED_OUTPUT)
  file(READ "${EXPECTED_OUTPUT}" expected)
  if(NOT output STREQUAL expected)
    message(FATAL_ERROR "stdout differs from ${EXPECTED_OUTPUT}\n"
      "--- got:\n${output}--- expected:\n${expected}--- stderr:\n${errors}")
  endif()
endif()
message(STATUS "stderr: ${errors}")
