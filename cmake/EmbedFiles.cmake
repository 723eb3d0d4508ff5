# roofline_embed_files(TARGET_SOURCE_VAR OUT_CPP FUNCTION NAME FILES ...)
# Generates a C++ source that defines
#   std::vector<roofline::EmbeddedFile> NAME();
# holding each file's name and text, so the binary needs no data files at run time.
function(roofline_embed_files out_var out_cpp func_name)
  set(files ${ARGN})
  set(script ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/embed_files.cmake)
  add_custom_command(
    OUTPUT ${out_cpp}
    COMMAND ${CMAKE_COMMAND} -DOUT=${out_cpp} -DFUNC=${func_name} "-DFILES=${files}" -P ${script}
    DEPENDS ${files} ${script}
    COMMENT "Embedding ${func_name}"
    VERBATIM)
  set(${out_var} ${out_cpp} PARENT_SCOPE)
endfunction()
