# `cmake --install` makes a prefix that needs nothing from the build tree:
#   bin/gemm-opt
#   include/                  the runtime's headers
#   lib/libgemm_runtime.a
#   lib/cmake/GemmOpt/        the CMake package (find_package(GemmOpt))
#   lib/pkgconfig/gemm-opt.pc
# gemm-opt finds the headers and the library relative to its own path, and
# the package files name everything relative to theirs, so the prefix can be
# moved.
include(CMakePackageConfigHelpers)

set(GEMM_OPT_PACKAGE_DIR lib/cmake/GemmOpt)
install(TARGETS gemm-opt gemm_runtime EXPORT GemmOptTargets
  RUNTIME DESTINATION bin
  ARCHIVE DESTINATION lib)
install(DIRECTORY runtime/include/ DESTINATION include)
# The measured kernels that ship, one database per target (docs/tuning.md).
install(DIRECTORY tuning/ DESTINATION share/gemm-opt/tuning
  FILES_MATCHING PATTERN "*.csv")
install(EXPORT GemmOptTargets NAMESPACE GemmOpt::
  DESTINATION ${GEMM_OPT_PACKAGE_DIR})

configure_file(cmake/GemmOptConfig.cmake.in GemmOptConfig.cmake @ONLY)
# Before 1.0 a minor version may change the function or the runtime's ABI.
write_basic_package_version_file(GemmOptConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/GemmOptConfig.cmake
  ${PROJECT_BINARY_DIR}/GemmOptConfigVersion.cmake
  cmake/GemmOptTargetSources.cmake
  cmake/GemmOptKernelShards.cmake
  DESTINATION ${GEMM_OPT_PACKAGE_DIR})

configure_file(cmake/gemm-opt.pc.in gemm-opt.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/gemm-opt.pc DESTINATION lib/pkgconfig)
