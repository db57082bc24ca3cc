//===- switches.cu - The GEMM_OPT_* environment variables -----------------===//
//
// Implements switches.h: the table, the checks and the messages.
//
//===----------------------------------------------------------------------===//
#include "switches.h"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

extern char **environ;

namespace gemm_rt::detail {

namespace {
enum class Kind { Flag, Words, Count, Pair, Path };

struct Entry {
  Switch which;
  const char *name;
  Kind kind;
  /// Words: the accepted values, comma-separated; else what messages say.
  const char *accepted;
};

const Entry table[] = {
    {Switch::Trace, "GEMM_OPT_TRACE", Kind::Flag, "0, 1"},
    {Switch::Disable, "GEMM_OPT_DISABLE", Kind::Flag, "0, 1"},
    {Switch::Verify, "GEMM_OPT_VERIFY", Kind::Flag, "0, 1"},
    {Switch::Tune, "GEMM_OPT_TUNE", Kind::Flag, "0, 1"},
    {Switch::Device, "GEMM_OPT_DEVICE", Kind::Words, "gpu, cpu"},
    {Switch::Profitability, "GEMM_OPT_PROFITABILITY", Kind::Words,
     "model, always-gpu, off, always-loop"},
    {Switch::DeviceMemory, "GEMM_OPT_DEVICE_MEMORY", Kind::Count,
     "a number of bytes"},
    {Switch::Choice, "GEMM_OPT_CHOICE", Kind::Pair,
     "<variant>,<splits>, such as 0,1"},
    {Switch::Stream, "GEMM_OPT_STREAM", Kind::Count, "a number of slots"},
    {Switch::TuningDb, "GEMM_OPT_TUNING_DB", Kind::Path, "a file's path"},
};

const Entry &entryOf(Switch s) {
  for (const Entry &e : table)
    if (e.which == s)
      return e;
  std::abort();
}

/// A whole decimal number of 0 or more.
bool isCount(const char *v) {
  if (!*v)
    return false;
  for (const char *c = v; *c; ++c)
    if (!std::isdigit(static_cast<unsigned char>(*c)))
      return false;
  return true;
}

bool accepts(const Entry &e, const char *v) {
  switch (e.kind) {
  case Kind::Flag:
    return !std::strcmp(v, "0") || !std::strcmp(v, "1");
  case Kind::Words: {
    const std::string list = std::string(e.accepted) + ",";
    for (size_t at = 0, comma; (comma = list.find(',', at)) != std::string::npos;
         at = comma + 2)
      if (list.compare(at, comma - at, v) == 0 && std::strlen(v) == comma - at)
        return true;
    return false;
  }
  case Kind::Count:
    return isCount(v);
  case Kind::Pair: {
    const char *comma = std::strchr(v, ',');
    return comma && comma != v &&
           isCount(std::string(v, comma).c_str()) && isCount(comma + 1);
  }
  case Kind::Path:
    return true;
  }
  return false;
}

/// "GEMM_OPT_X=v is not one of: ...", for the trace and the error.
std::string messageFor(const Entry &e, const char *v) {
  return std::string(e.name) + "=" + v + " is not " +
         (e.kind == Kind::Words || e.kind == Kind::Flag ? "one of: " : "") +
         e.accepted;
}

/// Reports a value once per switch; true if `v` is accepted.
bool checked(const Entry &e, const char *v) {
  if (accepts(e, v))
    return true;
  static std::mutex mutex;
  static bool reported[sizeof table / sizeof *table] = {};
  std::lock_guard<std::mutex> lock(mutex);
  bool &done = reported[&e - table];
  if (!done)
    std::fprintf(stderr, "gemm-opt: %s; every nest runs its original loop\n",
                 messageFor(e, v).c_str());
  done = true;
  return false;
}

/// Warns once of GEMM_OPT_* names that no table entry has.
void warnUnknownNames() {
  for (char **var = environ; var && *var; ++var) {
    const char *eq = std::strchr(*var, '=');
    const std::string name(*var, eq ? size_t(eq - *var) : std::strlen(*var));
    if (name.rfind("GEMM_OPT_", 0) != 0)
      continue;
    bool known = false;
    for (const Entry &e : table)
      known = known || name == e.name;
    if (known)
      continue;
    std::string names;
    for (const Entry &e : table)
      names += std::string(names.empty() ? "" : ", ") + e.name;
    std::fprintf(stderr,
                 "gemm-opt: warning: %s is not a gemm-opt variable and is "
                 "ignored; the runtime reads %s\n",
                 name.c_str(), names.c_str());
  }
}
} // namespace

const char *switchValue(Switch s) {
  const Entry &e = entryOf(s);
  const char *v = std::getenv(e.name);
  if (!v || !*v)
    return nullptr;
  return checked(e, v) ? v : nullptr;
}

bool flagOn(Switch s) {
  const char *v = switchValue(s);
  return v && !std::strcmp(v, "1");
}

std::optional<int64_t> integerSwitch(Switch s) {
  const char *v = switchValue(s);
  if (!v)
    return std::nullopt;
  return int64_t(std::strtoull(v, nullptr, 10));
}

std::optional<std::pair<int, int64_t>> choiceSwitch() {
  const char *v = switchValue(Switch::Choice);
  if (!v)
    return std::nullopt;
  return std::pair<int, int64_t>(std::atoi(v),
                                 std::strtoll(std::strchr(v, ',') + 1, nullptr, 10));
}

const char *rejectedSwitch() {
  static const std::string rejected = [] {
    warnUnknownNames();
    for (const Entry &e : table)
      if (const char *v = std::getenv(e.name); v && *v && !checked(e, v))
        return messageFor(e, v);
    return std::string();
  }();
  return rejected.empty() ? nullptr : rejected.c_str();
}

} // namespace gemm_rt::detail
