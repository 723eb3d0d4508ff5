# Script mode: compiles one kernel source for every arch in ARCHS (comma-separated, e.g.
# "80,89,90,120") with ptxas's resource report and keeps its entry-function and register
# lines in OUT. Arguments: NVCC, SOURCE, OUT, ARCHS, INCLUDE (the project root).
string(REPLACE "," ";" arch_list "${ARCHS}")
set(gencode)
foreach(arch IN LISTS arch_list)
  list(APPEND gencode -gencode arch=compute_${arch},code=sm_${arch})
endforeach()
execute_process(
  COMMAND ${NVCC} -O3 -std=c++20 --resource-usage --fatbin ${gencode} -I${INCLUDE} ${SOURCE} -o ${OUT}.fatbin
  RESULT_VARIABLE rc
  OUTPUT_VARIABLE out
  ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "nvcc --resource-usage failed for ${SOURCE}:\n${out}\n${err}")
endif()
file(REMOVE ${OUT}.fatbin)
get_filename_component(name ${SOURCE} NAME)
set(text "# source: ${name}\n")
string(REPLACE "\n" ";" lines "${out}\n${err}")
foreach(line IN LISTS lines)
  if(line MATCHES "Compiling entry function '[^']+' for 'sm_[0-9a-z]+'" OR line MATCHES "Used [0-9]+ registers")
    string(APPEND text "${line}\n")
  endif()
endforeach()
# Written (not copied if different) so the output is newer than its inputs and make is done.
file(WRITE ${OUT} "${text}")
