# The kernel templates' hash that a tuning row names: the SHA-256 (first 16
# hex digits) of the headers that the printed kernels compile from (the
# launcher interface, the kernel templates and their field lists; not the
# tuning and test headers beside them), read without comments and blank
# lines, so that a comment does not retire a database.
#
# include()d by abi/CMakeLists.txt; or, to hash a copy of the headers,
#   cmake -DRUNTIME_INCLUDE=<dir> -DABI_INCLUDE=<dir> -P TemplatesHash.cmake
# prints the hash.

# The headers under RUNTIME_INCLUDE and ABI_INCLUDE that the hash covers.
function(gemm_opt_template_headers out runtimeInclude abiInclude)
  # A configure step runs again when one is added or removed.
  set(depends "")
  if(NOT CMAKE_SCRIPT_MODE_FILE)
    set(depends CONFIGURE_DEPENDS)
  endif()
  file(GLOB headers ${depends}
    ${runtimeInclude}/gemm_runtime.h
    ${runtimeInclude}/gemm_kernels/*.cuh
    ${runtimeInclude}/gemm_kernels/*.def
    ${abiInclude}/gemm-opt-abi/RunTimeTerms.h)
  list(SORT headers)
  set(${out} ${headers} PARENT_SCOPE)
endfunction()

function(gemm_opt_templates_hash out headers)
  set(kernelText "")
  foreach(header IN LISTS headers)
    file(READ ${header} text)
    string(REGEX REPLACE "//[^\n]*" "" text "${text}")
    string(REGEX REPLACE "[ \t]*\n[ \t\n]*" "\n" text "${text}")
    string(APPEND kernelText "${text}")
  endforeach()
  string(SHA256 hash "${kernelText}")
  string(SUBSTRING ${hash} 0 16 hash)
  set(${out} ${hash} PARENT_SCOPE)
endfunction()

if(CMAKE_SCRIPT_MODE_FILE STREQUAL CMAKE_CURRENT_LIST_FILE)
  gemm_opt_template_headers(headers "${RUNTIME_INCLUDE}" "${ABI_INCLUDE}")
  gemm_opt_templates_hash(hash "${headers}")
  message("${hash}")
endif()
