# gemm_opt_target_sources(<target> [PRIVATE] <files>... [OPTIONS <options>...])
#
# Rewrites each C or C++ file with gemm-opt at build time into
# <current binary dir>/gemm-opt/<target>/<path>.gemm.cu, compiles that as
# CUDA in <target> instead of the file, and links <target> to
# GemmOpt::runtime. A C file (.c) becomes <path>.gemm.c, compiled as C, and
# <path>.kernels.cu, its kernels, compiled as CUDA (gemm-opt --kernels); it
# needs C enabled. <path> is the file's path below the current source
# directory, so one file can be rewritten for several targets, each with its
# own flags.
#
# gemm-opt parses each file as the target's compiler would: with its include
# directories, compile definitions, compile options (those for every
# language; warning flags are left out), language standard and OpenMP. The
# rewritten file is compiled with the same standard (for nvcc, C++17 or
# C++20) and OpenMP (-Xcompiler=-fopenmp). OPTIONS go to gemm-opt before
# `--`. A file already among the target's sources is replaced by its rewrite.
# gemm-opt runs again when the file or a header it includes changes (its -MD
# depfile).
#
# The kernels are compiled apart from the rewritten files, once per target:
# gemm-opt writes each into files named after its text in
# <top binary dir>/gemm-opt-kernels (--kernel-dir), shared by every target,
# and the target compiles those its files list in 8 shards
# (<current binary dir>/gemm-opt/<target>/kernels-<n>.cu). A file edited
# without changing its kernels compiles without them; a new kernel
# recompiles one shard. Call it in the directory that creates <target>, in a project that
# enables CUDA. At the end of that directory the target's links (OpenMP),
# sources and CUDA architectures are final, and are read then.

if(CMAKE_VERSION VERSION_LESS 3.20)
  message(FATAL_ERROR "GemmOpt's CMake package needs CMake 3.20 or later")
endif()
# Writes a target's kernel shards at build time.
set(_GEMM_OPT_KERNEL_SHARDS_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/GemmOptKernelShards.cmake")

# DEPFILE paths as the depfile writes them (absolute), without a warning in
# projects that require an older CMake.
cmake_policy(SET CMP0116 NEW)

# The standards that CMake names for <language>, oldest first.
set(_GEMM_OPT_STANDARDS_CXX 98 11 14 17 20 23 26)
set(_GEMM_OPT_STANDARDS_C 90 99 11 17 23)
set(_GEMM_OPT_STANDARDS_CUDA 03 11 14 17 20 23 26)
set(_GEMM_OPT_FEATURE_CXX cxx_std_)
set(_GEMM_OPT_FEATURE_C c_std_)
set(_GEMM_OPT_FEATURE_CUDA cuda_std_)

# A generator expression that is 1 where <target> asks for <standard> of
# <language>, through its <language>_STANDARD or a compile feature (its own
# or one that a library it links brings).
function(_gemm_opt_asks_for out target language standard)
  set(${out} "$<OR:$<STREQUAL:$<TARGET_PROPERTY:${target},${language}_STANDARD>,${standard}>,$<IN_LIST:${_GEMM_OPT_FEATURE_${language}}${standard},$<TARGET_PROPERTY:${target},COMPILE_FEATURES>>>" PARENT_SCOPE)
endfunction()

# A generator expression for the newest <language> standard that <target>
# asks for (as CMake takes the newest), empty where it asks for none.
function(_gemm_opt_standard out target language)
  set(standard "")
  foreach(level IN LISTS _GEMM_OPT_STANDARDS_${language})
    _gemm_opt_asks_for(asks ${target} ${language} ${level})
    set(standard "$<IF:${asks},${level},${standard}>")
  endforeach()
  set(${out} "${standard}" PARENT_SCOPE)
endfunction()

# A generator expression that is 1 where <target> asks for <language>'s
# <standard> or a later one.
function(_gemm_opt_asks_for_at_least out target language standard)
  set(any "")
  set(later FALSE)
  foreach(level IN LISTS _GEMM_OPT_STANDARDS_${language})
    if(level STREQUAL standard)
      set(later TRUE)
    endif()
    if(later)
      _gemm_opt_asks_for(asks ${target} ${language} ${level})
      string(APPEND any ",${asks}")
    endif()
  endforeach()
  set(${out} "$<OR:0${any}>" PARENT_SCOPE)
endfunction()

# gemm-opt's -std for <language> (CXX or C) in <target>: the standard that
# the target's compiler gets, with GNU extensions unless
# <language>_EXTENSIONS is off (CMake's default is on); nothing where the
# target asks for none, as the compiler then uses its default.
function(_gemm_opt_clang_standard_flag out target language)
  _gemm_opt_standard(standard ${target} ${language})
  set(extensions "$<TARGET_PROPERTY:${target},${language}_EXTENSIONS>")
  if(language STREQUAL "CXX")
    set(dialect "$<IF:$<OR:$<STREQUAL:${extensions},>,$<BOOL:${extensions}>>,gnu++,c++>")
  else()
    set(dialect "$<IF:$<OR:$<STREQUAL:${extensions},>,$<BOOL:${extensions}>>,gnu,c>")
  endif()
  set(${out} "$<$<BOOL:${standard}>:-std=${dialect}${standard}>" PARENT_SCOPE)
endfunction()

# nvcc's -std for the rewritten files of <target>: C++20 where the target
# asks for C++20 or later (its C++ or CUDA standard; nvcc 13 takes none
# later); else none, and nvcc compiles C++17 (its default, and the runtime's
# cuda_std_17). CMake 3.25 has no C++20 flag for nvcc.
function(_gemm_opt_nvcc_standard_flag out target)
  _gemm_opt_asks_for_at_least(cxx20 ${target} CXX 20)
  _gemm_opt_asks_for_at_least(cuda20 ${target} CUDA 20)
  set(${out} "$<$<OR:${cxx20},${cuda20}>:-std=c++20>" PARENT_SCOPE)
endfunction()

# TRUE in <out> where <target> compiles <language> with OpenMP: it links
# OpenMP::OpenMP_<language> (directly or through a library), or a -fopenmp
# (-qopenmp, /openmp) for that language is among its compile options or a
# linked library's.
function(_gemm_opt_uses_openmp out target language)
  set(queue "${target}")
  set(seen "")
  while(queue)
    list(POP_FRONT queue item)
    if(item IN_LIST seen)
      continue()
    endif()
    list(APPEND seen "${item}")
    if(item STREQUAL target)
      get_target_property(options ${item} COMPILE_OPTIONS)
      get_target_property(links ${item} LINK_LIBRARIES)
    else()
      get_target_property(options ${item} INTERFACE_COMPILE_OPTIONS)
      get_target_property(links ${item} INTERFACE_LINK_LIBRARIES)
    endif()
    foreach(option IN LISTS options)
      if(option MATCHES "(^|[:>])(-fopenmp|-qopenmp|/openmp)(=[^>]*)?($|>)")
        # $<$<COMPILE_LANGUAGE:CXX>:-fopenmp> is OpenMP::OpenMP_CXX's.
        if(NOT option MATCHES "COMPILE_LANGUAGE:([A-Za-z_,]+)>")
          set(${out} TRUE PARENT_SCOPE)
          return()
        endif()
        string(REPLACE "," ";" languages "${CMAKE_MATCH_1}")
        if(language IN_LIST languages)
          set(${out} TRUE PARENT_SCOPE)
          return()
        endif()
      endif()
    endforeach()
    foreach(link IN LISTS links)
      if(link MATCHES "^\\$<LINK_ONLY:(.+)>$")
        set(link "${CMAKE_MATCH_1}")
      endif()
      if(link STREQUAL "OpenMP::OpenMP_${language}")
        set(${out} TRUE PARENT_SCOPE)
        return()
      endif()
      if(TARGET "${link}")
        list(APPEND queue "${link}")
      endif()
    endforeach()
  endwhile()
  set(${out} FALSE PARENT_SCOPE)
endfunction()

# CMAKE_CUDA_ARCHITECTURES in <out> where CMake chose it itself (the CUDA
# compiler's default) and the project has not set it since; else empty.
# CMake writes its choice into the cache with the help string "CUDA
# architectures" on the first configuration; a -D on the command line gets
# another one. The value is remembered then, so that a later edit of the
# cache (ccmake) counts as the user's.
function(_gemm_opt_default_cuda_architectures out)
  get_property(help CACHE CMAKE_CUDA_ARCHITECTURES PROPERTY HELPSTRING)
  if(NOT DEFINED CACHE{GEMM_OPT_CMAKE_CUDA_ARCHITECTURES})
    set(chosen "")
    # CUDAARCHS also fills the cache with that help string, by the user's
    # choice.
    if(help STREQUAL "CUDA architectures" AND "$ENV{CUDAARCHS}" STREQUAL "")
      set(chosen "$CACHE{CMAKE_CUDA_ARCHITECTURES}")
    endif()
    set(GEMM_OPT_CMAKE_CUDA_ARCHITECTURES "${chosen}" CACHE INTERNAL
      "CMAKE_CUDA_ARCHITECTURES as CMake chose it, empty where the user did")
  endif()
  set(chosen "$CACHE{GEMM_OPT_CMAKE_CUDA_ARCHITECTURES}")
  if(NOT chosen STREQUAL "" AND help STREQUAL "CUDA architectures"
      AND "$CACHE{CMAKE_CUDA_ARCHITECTURES}" STREQUAL chosen
      AND "${CMAKE_CUDA_ARCHITECTURES}" STREQUAL chosen)
    set(${out} "${chosen}" PARENT_SCOPE)
  else()
    set(${out} "" PARENT_SCOPE)
  endif()
endfunction()

# Run at the end of the directory that calls gemm_opt_target_sources for
# <target>, when its links, sources and architectures are final.
function(_gemm_opt_finish_target target runtime_arch shards_script)
  # The kernels that the target's rewritten files list, in 8 shards: a
  # parallel build compiles them side by side.
  get_target_property(outputs ${target} GEMM_OPT_OUTPUTS)
  set(prefix "${CMAKE_CURRENT_BINARY_DIR}/gemm-opt/${target}/kernels-")
  set(count 8)
  set(shards "")
  math(EXPR top "${count} - 1")
  foreach(shard RANGE ${top})
    list(APPEND shards "${prefix}${shard}.cu")
  endforeach()
  add_custom_command(
    OUTPUT ${shards}
    COMMAND "${CMAKE_COMMAND}" "-DPREFIX=${prefix}"
      "-DCOUNT=${count}" -P "${shards_script}" -- ${outputs}
    DEPENDS ${outputs} "${shards_script}"
    COMMENT "gemm-opt kernels of ${target}"
    VERBATIM)
  target_sources(${target} PRIVATE ${shards})

  # OpenMP, for gemm-opt's parse and the rewritten files' host compiler.
  foreach(language IN ITEMS CXX C)
    _gemm_opt_uses_openmp(openmp ${target} ${language})
    set_property(TARGET ${target} PROPERTY GEMM_OPT_OPENMP_${language} ${openmp})
  endforeach()

  # Where CUDA_STANDARD is unset, CMake compiles CUDA in the CXX_STANDARD;
  # the rewritten files need C++17 at least (the runtime's headers), and an
  # older CXX_STANDARD would win over the runtime's cuda_std_17.
  get_target_property(cuda_standard ${target} CUDA_STANDARD)
  get_target_property(cxx_standard ${target} CXX_STANDARD)
  if(NOT cuda_standard AND cxx_standard MATCHES "^(98|11|14)$")
    set_property(TARGET ${target} PROPERTY CUDA_STANDARD 17)
  endif()

  # A file that the target also lists is compiled as its rewrite only.
  get_target_property(rewritten ${target} GEMM_OPT_SOURCES)
  get_target_property(sources ${target} SOURCES)
  get_target_property(source_dir ${target} SOURCE_DIR)
  set(kept "")
  foreach(source IN LISTS sources)
    if(NOT source MATCHES "\\$<")
      get_filename_component(path "${source}" ABSOLUTE BASE_DIR "${source_dir}")
      if(path IN_LIST rewritten)
        continue()
      endif()
    endif()
    list(APPEND kept "${source}")
  endforeach()
  set_property(TARGET ${target} PROPERTY SOURCES "${kept}")

  # The runtime's kernels exist for sm_${runtime_arch} and later only. Where
  # the project left the architectures to CMake (the CUDA compiler's
  # default, older), the target is built for the runtime's; OFF leaves the
  # flags to the project.
  get_target_property(archs ${target} CUDA_ARCHITECTURES)
  _gemm_opt_default_cuda_architectures(default)
  if(archs MATCHES "NOTFOUND$" OR "${archs}" STREQUAL ""
      OR (NOT default STREQUAL "" AND "${archs}" STREQUAL default))
    if(default STREQUAL "")
      set(default "none")
    endif()
    set_property(TARGET ${target} PROPERTY CUDA_ARCHITECTURES ${runtime_arch})
    message(STATUS "gemm_opt_target_sources: building ${target} for "
      "sm_${runtime_arch}, the oldest GPU that GemmOpt's runtime runs on, "
      "instead of CMake's default CUDA architectures (${default}); set "
      "CMAKE_CUDA_ARCHITECTURES or ${target}'s CUDA_ARCHITECTURES to choose")
    return()
  elseif(NOT archs)
    return()
  endif()
  set(older "")
  foreach(arch IN LISTS archs)
    if(arch MATCHES "^([0-9]+)" AND CMAKE_MATCH_1 LESS runtime_arch)
      list(APPEND older "${arch}")
    endif()
  endforeach()
  if(older)
    list(JOIN archs " " archs)
    message(WARNING "gemm_opt_target_sources: ${target} is built for "
      "CUDA architectures ${archs}, but GemmOpt's runtime is built for "
      "sm_${runtime_arch} and runs on that GPU and later ones only. Configure "
      "with -DCMAKE_CUDA_ARCHITECTURES=${runtime_arch} (or a later one), or "
      "set_target_properties(${target} PROPERTIES CUDA_ARCHITECTURES "
      "${runtime_arch}) after creating ${target}")
  endif()
endfunction()

function(gemm_opt_target_sources target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "PRIVATE" "" "OPTIONS")
  set(sources ${arg_UNPARSED_ARGUMENTS})
  foreach(scope IN ITEMS PUBLIC INTERFACE)
    if(scope IN_LIST sources)
      message(FATAL_ERROR "gemm_opt_target_sources(${target} ${scope} ...): "
        "only PRIVATE is supported: the rewritten sources belong to ${target}")
    endif()
  endforeach()
  if(NOT sources)
    message(FATAL_ERROR "gemm_opt_target_sources(${target}): no files to rewrite")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "gemm_opt_target_sources: no target ${target}; "
      "create it first, e.g. add_executable(${target})")
  endif()
  get_target_property(aliased ${target} ALIASED_TARGET)
  if(aliased)
    set(target ${aliased})
  endif()
  get_target_property(target_dir ${target} SOURCE_DIR)
  if(NOT target_dir STREQUAL CMAKE_CURRENT_SOURCE_DIR)
    message(FATAL_ERROR "gemm_opt_target_sources: call it in the directory "
      "that creates ${target} (${target_dir}): the rewritten files are made "
      "there")
  endif()
  foreach(option IN LISTS arg_OPTIONS)
    if(option STREQUAL "--")
      message(FATAL_ERROR "gemm_opt_target_sources(${target} ... OPTIONS): "
        "OPTIONS are gemm-opt's; pass a flag for its parse as "
        "--extra-arg=<flag>, or add it to ${target}")
    elseif(option MATCHES "^(-o|-MD|-MF|--?kernels|--?kernel-dir|--?foptimization-record-file)($|=)")
      message(FATAL_ERROR "gemm_opt_target_sources(${target} ... OPTIONS): "
        "${option} is the function's: it names the outputs itself")
    endif()
  endforeach()
  get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  if(NOT "CUDA" IN_LIST languages)
    message(FATAL_ERROR "gemm_opt_target_sources: gemm-opt writes CUDA; "
      "enable it, e.g. project(<name> LANGUAGES CXX CUDA)")
  endif()

  get_property(known TARGET ${target} PROPERTY GEMM_OPT_SOURCES SET)
  if(NOT known)
    set_property(TARGET ${target} PROPERTY GEMM_OPT_SOURCES "")
    target_link_libraries(${target} PRIVATE GemmOpt::runtime)
    # The target's links, sources and architectures as they are at the end
    # of this directory; the arguments are expanded now.
    cmake_language(EVAL CODE "cmake_language(DEFER CALL _gemm_opt_finish_target [[${target}]] [[${GemmOpt_CUDA_ARCH}]] [[${_GEMM_OPT_KERNEL_SHARDS_SCRIPT}]])")
  endif()

  # The flags that the target's compilers get, as generator expressions.
  # Compile options for one language only ($<COMPILE_LANGUAGE:...>) are left
  # out: a custom command has no language. Those for all are the host
  # compiler's and nvcc's; warning flags would only repeat (or, as errors,
  # stop on) what the compilers say.
  set(includes "$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>")
  set(defines "$<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>")
  set(options "$<FILTER:$<TARGET_PROPERTY:${target},COMPILE_OPTIONS>,EXCLUDE,^(SHELL:|-W|-pedantic)>")
  _gemm_opt_nvcc_standard_flag(nvcc_standard ${target})
  set(nvcc_openmp "$<$<BOOL:$<TARGET_PROPERTY:${target},GEMM_OPT_OPENMP_CXX>>:-Xcompiler=-fopenmp>")

  set(output_dir "${CMAKE_CURRENT_BINARY_DIR}/gemm-opt/${target}")
  foreach(source IN LISTS sources)
    get_filename_component(input "${source}" ABSOLUTE)
    get_filename_component(input_dir "${input}" DIRECTORY)
    get_filename_component(extension "${source}" LAST_EXT)
    if(NOT extension MATCHES "^\\.(c|cc|cpp|cxx|C|c\\+\\+)$")
      message(FATAL_ERROR "gemm_opt_target_sources: ${source} is not a C or "
        "C++ source (.c, .cc, .cpp, .cxx, .C, .c++)")
    endif()
    get_target_property(rewritten ${target} GEMM_OPT_SOURCES)
    if(input IN_LIST rewritten)
      message(FATAL_ERROR "gemm_opt_target_sources: ${source} is rewritten "
        "for ${target} already")
    endif()
    set_property(TARGET ${target} APPEND PROPERTY GEMM_OPT_SOURCES "${input}")
    # The output's path below output_dir is the input's below this
    # directory, a "../" spelled "__/".
    file(RELATIVE_PATH path "${CMAKE_CURRENT_SOURCE_DIR}" "${input}")
    string(REPLACE "../" "__/" path "${path}")
    set(stem "${output_dir}/${path}")
    get_filename_component(stem_dir "${stem}" DIRECTORY)
    file(MAKE_DIRECTORY "${stem_dir}")

    # A C source stays C, for the project's C compiler and flags: gemm-opt
    # writes its kernels apart, for nvcc (--kernels).
    if(extension STREQUAL ".c")
      if(NOT "C" IN_LIST languages)
        message(FATAL_ERROR "gemm_opt_target_sources: ${source} is C; "
          "enable C, e.g. project(<name> LANGUAGES C CXX CUDA)")
      endif()
      set(language C)
      set(output "${stem}.gemm.c")
      set(kernels "${stem}.kernels.cu")
      set(split "--kernels=${kernels}")
    else()
      set(language CXX)
      set(output "${stem}.gemm.cu")
      set(kernels "")
      set(split "")
    endif()
    _gemm_opt_clang_standard_flag(standard ${target} ${language})
    set(openmp "$<$<BOOL:$<TARGET_PROPERTY:${target},GEMM_OPT_OPENMP_${language}>>:-fopenmp>")
    add_custom_command(
      OUTPUT "${output}" ${kernels}
      COMMAND GemmOpt::gemm-opt "${input}" -o "${output}" ${split} -MD
        "--kernel-dir=${CMAKE_BINARY_DIR}/gemm-opt-kernels" ${arg_OPTIONS} --
        "$<$<BOOL:${includes}>:-I$<JOIN:${includes},;-I>>"
        "$<$<BOOL:${defines}>:-D$<JOIN:${defines},;-D>>"
        "${options}" "${standard}" "${openmp}"
      DEPENDS "${input}" GemmOpt::gemm-opt
      DEPFILE "${output}.d"
      COMMENT "gemm-opt ${source} (${target})"
      COMMAND_EXPAND_LISTS
      VERBATIM)

    # The output's quoted #includes name files beside the input. Its loops
    # start aligned (GemmOpt_HOST_LOOP_FLAG), where the C compiler takes the
    # flag. A C output gets the C flags (OpenMP too) as the C source did.
    if(language STREQUAL "CXX")
      set(compile_options
        "-Xcompiler=${GemmOpt_HOST_LOOP_FLAG}" "${nvcc_standard}" "${nvcc_openmp}")
      set_source_files_properties("${output}" PROPERTIES LANGUAGE CUDA)
    else()
      set(compile_options "")
      if(CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
        set(compile_options "${GemmOpt_HOST_LOOP_FLAG}")
      endif()
      set_source_files_properties("${output}" PROPERTIES LANGUAGE C)
      set_source_files_properties("${kernels}" PROPERTIES
        LANGUAGE CUDA
        COMPILE_OPTIONS "${nvcc_standard}")
    endif()
    set_source_files_properties("${output}" PROPERTIES
      INCLUDE_DIRECTORIES "${input_dir}"
      COMPILE_OPTIONS "${compile_options}")
    target_sources(${target} PRIVATE "${output}" ${kernels})
    # The file that lists its kernels.
    if(kernels)
      set_property(TARGET ${target} APPEND PROPERTY GEMM_OPT_OUTPUTS "${kernels}")
    else()
      set_property(TARGET ${target} APPEND PROPERTY GEMM_OPT_OUTPUTS "${output}")
    endif()
  endforeach()
endfunction()
