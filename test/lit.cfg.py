# -*- Python -*-
import os
import shutil

import lit.formats
from lit.llvm import llvm_config

config.name = "GEMM-OPT"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".c", ".cpp", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.gemm_opt_obj_root, "test")

llvm_config.with_system_environment(["HOME", "TMPDIR", "PATH"])
# A user's tuning database would change the schedules the tests expect.
config.environment["GEMM_OPT_TUNING_DB"] = "none"
llvm_config.use_default_substitutions()

tool_dirs = [config.gemm_opt_tools_dir, config.llvm_tools_dir]
llvm_config.add_tool_substitutions(
    ["gemm-opt", "FileCheck", "not", "llvm-remarkutil"], tool_dirs)
# The optimisation record's readers (llvm-19-tools).
config.substitutions.append(
    ("%opt_viewer", os.path.join(os.path.dirname(config.llvm_tools_dir), "share", "opt-viewer")))
runtime_include = os.path.join(os.path.dirname(config.test_source_root), "runtime", "include")
runtime_lib = os.path.join(config.gemm_opt_obj_root, "runtime", "libgemm_runtime.a")
# Longer names first: lit substitutes in order, and %nvcc prefixes %nvcc_flags.
config.substitutions.append(
    ("%nvcc_flags", "-std=c++17 -arch=sm_%s -I%s %s" % (config.cuda_arch, runtime_include, runtime_lib)))
config.substitutions.append(("%nvcc", config.cuda_compiler))
config.substitutions.append(("%host_cxx", config.host_cxx))
# C inputs' host files are built with the system's C compiler, as a user would.
config.substitutions.append(("%host_cc", shutil.which("gcc") or shutil.which("cc") or "cc"))
config.substitutions.append(("%python", "python3"))
# What a tuning database row must name to hold for this build (TuningDb.h).
config.substitutions.append(("%gemm_opt_version", config.gemm_opt_version))
config.substitutions.append(("%gemm_opt_templates", config.gemm_opt_templates))
config.substitutions.append(("%gemm_runtime_lib", runtime_lib))
config.substitutions.append(("%gemm_runtime_include", runtime_include))
# The runtime's architecture, the default of gemm-opt --cflags.
config.substitutions.append(("%cuda_arch", config.cuda_arch))
# test/install builds the tree's install prefix into programs.
config.substitutions.append(("%cmake", config.cmake))
config.substitutions.append(("%gemm_opt_build_dir", config.gemm_opt_obj_root))
# The tuning databases that ship (docs/tuning.md).
config.substitutions.append(
    ("%tuning_dir", os.path.join(os.path.dirname(config.test_source_root), "tuning")))
config.substitutions.append(
    ("%examples", os.path.join(os.path.dirname(config.test_source_root), "examples")))
for tool in ["make", "ninja", "pkg-config"]:
    if shutil.which(tool):
        config.available_features.add(tool)
