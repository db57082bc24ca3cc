# gemm_opt_target_sources(<target> PRIVATE <files>...)
#
# Rewrites each C or C++ file with gemm-opt at build time into
# <current binary dir>/<name>.gemm.cu, compiles that as CUDA in <target>
# instead of the file, and links <target> to GemmOpt::runtime. A C file
# (.c) becomes <name>.gemm.c, compiled as C, and <name>.kernels.cu, its
# kernels, compiled as CUDA (gemm-opt --kernels); it needs C enabled. gemm-opt
# parses the file with the target's include directories and compile
# definitions, and runs again when the file or a header it includes changes
# (its -MD depfile). Call it in the directory that creates <target>, in a
# project that enables CUDA.

# DEPFILE paths as the depfile writes them (absolute), without a warning in
# projects that require an older CMake.
cmake_policy(SET CMP0116 NEW)

function(gemm_opt_target_sources target scope)
  if(NOT scope STREQUAL "PRIVATE")
    message(FATAL_ERROR "gemm_opt_target_sources(${target} ${scope} ...): "
      "only PRIVATE is supported: the rewritten sources belong to ${target}")
  endif()
  get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  if(NOT "CUDA" IN_LIST languages)
    message(FATAL_ERROR "gemm_opt_target_sources: gemm-opt writes CUDA; "
      "enable it, e.g. project(<name> LANGUAGES CXX CUDA)")
  endif()
  # The runtime's kernels exist for sm_${GemmOpt_CUDA_ARCH} and later only:
  # on an older GPU the program would fail at run time.
  get_target_property(archs ${target} CUDA_ARCHITECTURES)
  foreach(arch IN LISTS archs)
    if(arch MATCHES "^([0-9]+)" AND CMAKE_MATCH_1 LESS GemmOpt_CUDA_ARCH)
      message(WARNING "gemm_opt_target_sources: ${target} is built for "
        "sm_${CMAKE_MATCH_1}, GemmOpt's runtime for sm_${GemmOpt_CUDA_ARCH} "
        "and later; rebuild gemm-opt with -DGEMM_OPT_CUDA_ARCH=${CMAKE_MATCH_1}")
    endif()
  endforeach()

  set(includes "$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>")
  set(defines "$<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>")
  foreach(source IN LISTS ARGN)
    get_filename_component(input "${source}" ABSOLUTE)
    get_filename_component(input_dir "${input}" DIRECTORY)
    get_filename_component(name "${source}" NAME)
    get_filename_component(extension "${source}" LAST_EXT)
    # A C source stays C, for the project's C compiler and flags: gemm-opt
    # writes its kernels apart, for nvcc (--kernels).
    if(extension STREQUAL ".c")
      if(NOT "C" IN_LIST languages)
        message(FATAL_ERROR "gemm_opt_target_sources: ${source} is C; "
          "enable C, e.g. project(<name> LANGUAGES C CXX CUDA)")
      endif()
      set(output "${CMAKE_CURRENT_BINARY_DIR}/${name}.gemm.c")
      set(kernels "${CMAKE_CURRENT_BINARY_DIR}/${name}.kernels.cu")
      set(split "--kernels=${kernels}")
      set(language C)
    else()
      set(output "${CMAKE_CURRENT_BINARY_DIR}/${name}.gemm.cu")
      set(kernels "")
      set(split "")
      set(language CUDA)
    endif()
    add_custom_command(
      OUTPUT "${output}" ${kernels}
      COMMAND GemmOpt::gemm-opt "${input}" -o "${output}" ${split} -MD --
        "$<$<BOOL:${includes}>:-I$<JOIN:${includes},;-I>>"
        "$<$<BOOL:${defines}>:-D$<JOIN:${defines},;-D>>"
      DEPENDS "${input}" GemmOpt::gemm-opt
      DEPFILE "${output}.d"
      COMMENT "gemm-opt ${source}"
      COMMAND_EXPAND_LISTS
      VERBATIM)
    # The output's quoted #includes name files beside the input. Its loops
    # start aligned (GemmOpt_HOST_LOOP_FLAG), where the C compiler takes the
    # flag.
    set(host_flag "")
    if(language STREQUAL "CUDA")
      set(host_flag "-Xcompiler=${GemmOpt_HOST_LOOP_FLAG}")
    elseif(CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
      set(host_flag "${GemmOpt_HOST_LOOP_FLAG}")
    endif()
    set_source_files_properties("${output}" PROPERTIES
      LANGUAGE ${language}
      INCLUDE_DIRECTORIES "${input_dir}"
      COMPILE_OPTIONS "${host_flag}")
    if(kernels)
      set_source_files_properties("${kernels}" PROPERTIES LANGUAGE CUDA)
    endif()
    target_sources(${target} PRIVATE "${output}" ${kernels})
  endforeach()
  target_link_libraries(${target} PRIVATE GemmOpt::runtime)
endfunction()
