//===- switches.cu - The GEMM_OPT_* environment variables -----------------===//
//
// Implements switches.h: the table, the checks and the messages.
//
//===----------------------------------------------------------------------===//
#include "core/switches.h"

#include <atomic>
#include <cctype>
#include <charconv>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

extern char **environ;

namespace gemm_rt::detail {

namespace {
enum class Kind {
  Flag,  ///< "0" or "1".
  Words, ///< One of the words listed in `accepted`.
  Count, ///< A whole decimal number from 0 to 2^63 - 1.
  Pair,  ///< Two counts, "v,s"; the first at most INT_MAX.
  Gpus,  ///< "all", or GPU indices separated by commas.
  Path,  ///< Any text.
};

struct Entry {
  Switch which;
  const char *name;
  Kind kind;
  /// Read on every call (an experiment changes it between calls), so
  /// checked on every call too.
  bool perCall;
  /// Flag and Words: the accepted values, ", "-separated; else what the
  /// error says a value must be.
  const char *accepted;
  /// What it does (docs/switches.md says the same).
  const char *meaning;
};

const Entry table[] = {
    {Switch::Trace, "GEMM_OPT_TRACE", Kind::Flag, false, "0, 1",
     "say on stderr where each nest ran, and why not on the GPU"},
    {Switch::Disable, "GEMM_OPT_DISABLE", Kind::Flag, false, "0, 1",
     "every nest runs its original loop, as if not rewritten"},
    {Switch::Verify, "GEMM_OPT_VERIFY", Kind::Flag, false, "0, 1",
     "check each launch against a reference and print the error bound ratio"},
    {Switch::Tune, "GEMM_OPT_TUNE", Kind::Flag, false, "0, 1",
     "time every kernel of a nest on its first call of each new size and "
     "keep the fastest"},
    {Switch::Device, "GEMM_OPT_DEVICE", Kind::Words, false, "gpu, cpu",
     "cpu: run each lifted problem on the CPU reference instead of the loop"},
    {Switch::Profitability, "GEMM_OPT_PROFITABILITY", Kind::Words, false,
     "model, always-gpu, off, always-loop",
     "the rule that keeps small host-array calls in their loops"},
    {Switch::DeviceMemory, "GEMM_OPT_DEVICE_MEMORY", Kind::Count, false,
     "a number of bytes", "the device memory that staging may use"},
    {Switch::Gpus, "GEMM_OPT_GPUS", Kind::Gpus, false,
     "all, or GPU indices separated by commas (such as 0,2)",
     "the GPUs that calls whose operands are all host memory run on"},
    {Switch::Choice, "GEMM_OPT_CHOICE", Kind::Pair, true,
     "<variant>,<splits>, such as 0,1",
     "run every call with that kernel variant and K split where it can"},
    {Switch::Stream, "GEMM_OPT_STREAM", Kind::Count, true, "a number of slots",
     "run unsplit calls in their stream-K form planned for that many slots"},
    {Switch::TuningDb, "GEMM_OPT_TUNING_DB", Kind::Path, false,
     "a file's path, or none",
     "the tuning database (none: no database); gemm-opt reads it too"},
};

const Entry &entryOf(Switch s) {
  for (const Entry &e : table)
    if (e.which == s)
      return e;
  std::abort();
}

/// A whole decimal number from 0 to INT64_MAX, digits only.
std::optional<int64_t> count(std::string_view text) {
  int64_t n = 0;
  const char *end = text.data() + text.size();
  if (text.empty() || !std::isdigit(static_cast<unsigned char>(text[0])))
    return std::nullopt;
  const auto [stop, error] = std::from_chars(text.data(), end, n);
  if (error != std::errc() || stop != end)
    return std::nullopt;
  return n;
}

/// Whether `word` is one of the ", "-separated words of `list`.
bool listed(std::string_view list, std::string_view word) {
  for (;;) {
    const size_t comma = list.find(", ");
    if (list.substr(0, comma) == word)
      return true;
    if (comma == std::string_view::npos)
      return false;
    list.remove_prefix(comma + 2);
  }
}

/// GEMM_OPT_GPUS's indices, none for "all"; nullopt where `text` is
/// neither.
std::optional<std::vector<int>> gpuList(std::string_view text) {
  std::vector<int> list;
  if (text == "all")
    return list;
  for (;;) {
    const size_t comma = text.find(',');
    const std::optional<int64_t> index = count(text.substr(0, comma));
    if (!index || *index > INT_MAX)
      return std::nullopt;
    list.push_back(int(*index));
    if (comma == std::string_view::npos)
      return list;
    text.remove_prefix(comma + 1);
  }
}

/// A value as its switch reads it: a flag's 0 or 1, a count, a pair's two
/// counts; words and paths are their text alone.
struct Value {
  int64_t first = 0, second = 0;
};

/// `text` as `e` reads it, or nullopt where `e` does not accept it.
std::optional<Value> parse(const Entry &e, std::string_view text) {
  switch (e.kind) {
  case Kind::Flag:
  case Kind::Words:
    if (!listed(e.accepted, text))
      return std::nullopt;
    return Value{text == "1"};
  case Kind::Count:
    if (const std::optional<int64_t> n = count(text))
      return Value{*n};
    return std::nullopt;
  case Kind::Pair: {
    const size_t comma = text.find(',');
    if (comma == std::string_view::npos)
      return std::nullopt;
    const std::optional<int64_t> variant = count(text.substr(0, comma));
    const std::optional<int64_t> splits = count(text.substr(comma + 1));
    if (!variant || *variant > INT_MAX || !splits)
      return std::nullopt;
    return Value{*variant, *splits};
  }
  case Kind::Gpus:
    if (!gpuList(text))
      return std::nullopt;
    return Value{};
  case Kind::Path:
    return Value{};
  }
  return std::nullopt;
}

/// The values rejected so far in this process.
struct Rejections {
  std::mutex mutex;
  /// Whether each entry's error has been printed.
  bool reported[std::size(table)] = {};
  /// The first error, for the trace; `first` points into it once set.
  std::string message;
  std::atomic<const char *> first{nullptr};
};

Rejections &rejections() {
  static Rejections r;
  return r;
}

/// Prints the error for `e`'s value `text` once per switch, and keeps the
/// first one for rejectedSwitch().
void reject(const Entry &e, const char *text) {
  const bool words = e.kind == Kind::Flag || e.kind == Kind::Words;
  const std::string message = std::string(e.name) + "=" + text + " is not " +
                              (words ? "one of: " : "") + e.accepted;
  Rejections &r = rejections();
  std::lock_guard<std::mutex> lock(r.mutex);
  bool &done = r.reported[&e - table];
  if (done)
    return;
  done = true;
  std::fprintf(stderr, "gemm-opt: %s; every nest runs its original loop\n",
               message.c_str());
  if (!r.first.load()) {
    r.message = message;
    r.first.store(r.message.c_str());
  }
}

/// Warns of each GEMM_OPT_* name in the environment that no entry has.
void warnUnknownNames() {
  std::string names;
  for (const Entry &e : table)
    names += std::string(names.empty() ? "" : ", ") + e.name;
  for (char **var = environ; var && *var; ++var) {
    const std::string_view name(*var, std::strcspn(*var, "="));
    if (name.substr(0, 9) != "GEMM_OPT_")
      continue;
    bool known = false;
    for (const Entry &e : table)
      known = known || name == e.name;
    if (!known)
      std::fprintf(stderr,
                   "gemm-opt: warning: %.*s is not a gemm-opt variable and is "
                   "ignored; the variables are %s\n",
                   int(name.size()), name.data(), names.c_str());
  }
}

/// `e`'s value in the environment, if set (not empty) to one it accepts,
/// with what it reads as. Names are checked, once, before the first value.
struct Setting {
  const char *text;
  Value value;
};
std::optional<Setting> setting(const Entry &e) {
  [[maybe_unused]] static const bool named = (warnUnknownNames(), true);
  const char *text = std::getenv(e.name);
  if (!text || !*text)
    return std::nullopt;
  if (const std::optional<Value> value = parse(e, text))
    return Setting{text, *value};
  reject(e, text);
  return std::nullopt;
}

/// Every name and value is checked while the runtime loads, so that a
/// mistake shows even where no call reaches run() (gemm_rt::loopFirst).
[[maybe_unused]] const bool checkedAtLoad = [] {
  for (const Entry &e : table)
    setting(e);
  return true;
}();
} // namespace

bool flagOn(Switch s) {
  const std::optional<Setting> set = setting(entryOf(s));
  return set && set->value.first == 1;
}

const char *switchValue(Switch s) {
  const std::optional<Setting> set = setting(entryOf(s));
  return set ? set->text : nullptr;
}

std::optional<int64_t> integerSwitch(Switch s) {
  if (const std::optional<Setting> set = setting(entryOf(s)))
    return set->value.first;
  return std::nullopt;
}

std::optional<std::pair<int, int64_t>> choiceSwitch() {
  if (const std::optional<Setting> set = setting(entryOf(Switch::Choice)))
    return std::pair<int, int64_t>(int(set->value.first), set->value.second);
  return std::nullopt;
}

std::optional<std::vector<int>> gpusSwitch() {
  if (const std::optional<Setting> set = setting(entryOf(Switch::Gpus)))
    return gpuList(set->text);
  return std::nullopt;
}

const char *rejectedSwitch() {
  for (const Entry &e : table)
    if (e.perCall)
      setting(e);
  return rejections().first.load();
}

} // namespace gemm_rt::detail
