//===- switches.h - The GEMM_OPT_* environment variables --------*- C++ -*-===//
//
// Every GEMM_OPT_* variable the runtime knows is in one table
// (switches.cu) with its kind, the values it accepts and what it does
// (docs/switches.md lists them). A value outside them is an error, printed
// once, after which every nest runs its original loop: a switch that was
// meant to do something and silently did nothing would hide a wrong
// configuration. A GEMM_OPT_* name that is not in the table (a typo) is a
// warning. Both are reported while the runtime loads, whether or not a
// launcher is ever called. An unset or empty variable takes its default.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_RUNTIME_SWITCHES_H
#define GEMM_RUNTIME_SWITCHES_H

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace gemm_rt::detail {

enum class Switch {
  Trace,         ///< GEMM_OPT_TRACE: flag.
  Disable,       ///< GEMM_OPT_DISABLE: flag.
  Verify,        ///< GEMM_OPT_VERIFY: flag.
  Tune,          ///< GEMM_OPT_TUNE: flag.
  Device,        ///< GEMM_OPT_DEVICE: gpu or cpu.
  Profitability, ///< GEMM_OPT_PROFITABILITY: model, always-gpu, off, always-loop.
  DeviceMemory,  ///< GEMM_OPT_DEVICE_MEMORY: bytes.
  Gpus,          ///< GEMM_OPT_GPUS: "all" or GPU indices.
  Choice,        ///< GEMM_OPT_CHOICE: "variant,splits", read per call.
  Stream,        ///< GEMM_OPT_STREAM: slots, read per call.
  TuningDb,      ///< GEMM_OPT_TUNING_DB: a path (gemm-opt reads it too).
};

// Each accessor reads the environment when called; callers that read a
// switch once keep the answer in a static. A rejected value reads as unset.

/// Whether the flag `s` is on ("1"; unset, empty and "0" are off).
bool flagOn(Switch s);

/// The value of the word or path switch `s` if it is set to an accepted
/// one, else null.
const char *switchValue(Switch s);

/// The value of the count switch `s` (DeviceMemory, Stream), if set.
std::optional<int64_t> integerSwitch(Switch s);

/// GEMM_OPT_CHOICE's variant and splits, if set.
std::optional<std::pair<int, int64_t>> choiceSwitch();

/// GEMM_OPT_GPUS's indices (none for "all"), if set.
std::optional<std::vector<int>> gpusSwitch();

/// "GEMM_OPT_X=v is not one of: ..." for the first value rejected in this
/// process, or null: the values set when the runtime loaded, and on every
/// call those of the switches read per call. Once a value is rejected, every
/// nest runs its original loop.
const char *rejectedSwitch();

} // namespace gemm_rt::detail

#endif // GEMM_RUNTIME_SWITCHES_H
