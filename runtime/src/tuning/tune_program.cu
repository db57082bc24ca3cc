//===- tune.cu - The main() of a tuning program ---------------------------===//
//
// `gemm-opt --emit=tune` writes a program that holds each nest's plan and the
// problems to time it on, and calls tuneMain, which times each case
// (timing.h), prints its table and appends one tuning record per choice to
// the database (docs/tuning.md). The records' cuBLAS rate is 0: a tuning
// program does not link cuBLAS.
//
//===----------------------------------------------------------------------===//
#include "gemm_tuning.h"

#include "core/device.h"
#include "gemm-opt-abi/TuningFormat.h"
#include "tuning/measure.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <vector>

namespace gemm_rt {

using namespace detail;

namespace {
constexpr int kDefaultRuns = 25;

/// What the command line asks for.
struct Options {
  std::string db; ///< "" for no database.
  int runs = kDefaultRuns;
};

/// The positive count that `text` spells, or 0.
int countOf(const char *text) {
  char *end = nullptr;
  const long value = std::strtol(text, &end, 10);
  return end != text && !*end && value > 0 && value <= 1000000 ? int(value)
                                                                : 0;
}

/// Parses argv into `options`; false, having said why, on a bad argument.
bool parseArguments(int argc, char **argv, Options &options) {
  options.db = gemm_tuning::defaultPath();
  for (int i = 1; i < argc; ++i) {
    const char *arg = argv[i];
    if (std::strncmp(arg, "--db=", 5) == 0 && arg[5]) {
      // "none", as for gemm-opt's --tuning-db: time without recording.
      options.db = std::strcmp(arg + 5, "none") == 0 ? "" : arg + 5;
      continue;
    }
    if (std::strncmp(arg, "--runs=", 7) == 0 && countOf(arg + 7)) {
      options.runs = countOf(arg + 7);
      continue;
    }
    std::fprintf(stderr,
                 "tune: bad argument '%s'\nusage: %s [--db=FILE|none] "
                 "[--runs=N]\n",
                 arg, argv[0]);
    return false;
  }
  return true;
}

/// Why a nest cannot be tuned, or null.
const char *untunable(const TuneNest &nest) {
  const char *l = nest.layout;
  auto packable = [](char unit) { return unit == 'r' || unit == 'c'; };
  if (!l || std::strlen(l) != 3 || !packable(l[0]) || !packable(l[1]) ||
      !packable(l[2]))
    return "its layout class is not one of packed rows and columns ('r', "
           "'c')";
  if (nest.plan.count < 1)
    return "its plan has no variants";
  return nullptr;
}

/// The case's table; the fastest choice that passed is marked.
void printTable(const TuneNest &nest, const TuneCase &c,
                const std::vector<Timed> &rows) {
  const Timed *fastest = nullptr;
  for (const Timed &row : rows)
    if (row.passed() && (!fastest || row.seconds < fastest->seconds))
      fastest = &row;
  std::printf("\n## %s %s %s %lld x %lld x %lld x %lld\n\n", nest.nest,
              dtypeName(nest.dtype), nest.layout, (long long)c.batch,
              (long long)c.m, (long long)c.n, (long long)c.k);
  std::printf("| variant | schedule | splits | us | GFLOP/s | err/bound | "
              "check |\n|---:|---|---:|---:|---:|---:|---|\n");
  for (const Timed &row : rows) {
    const char *schedule = nest.plan.variants[row.choice.variant].schedule;
    std::printf("| %d | %s | %lld | %.1f | %.1f | %.2e | %s |\n",
                row.choice.variant, schedule ? schedule : "-",
                (long long)measuredSplits(row.choice), row.seconds * 1e6,
                gflopsOf(c, row.seconds), row.ratio,
                !row.passed()     ? "FAIL"
                : &row == fastest ? "PASS, fastest"
                                  : "PASS");
  }
}

} // namespace

int tuneMain(int argc, char **argv, const TuneNest *nests, int count) {
  // Keep the tables in order with the messages when both go to one pipe.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  Options options;
  if (!parseArguments(argc, argv, options))
    return 1;
  if (!gpuName()) {
    std::fprintf(stderr, "tune: %s\n", noGpuReason());
    return 2;
  }
  std::FILE *db = nullptr;
  if (!options.db.empty() && !(db = openDatabase(options.db)))
    return 1;
  std::printf("Device: %s (%d SMs). Each time is the median of %d runs "
              "(fewer, at least %d, for long kernels) after %d warm-ups "
              "between CUDA events; alpha = 1, beta = 0, random operands in "
              "device memory. Database: %s.\n",
              gpuName(), smCount(), options.runs, kMinRuns, kWarmups,
              db ? options.db.c_str() : "none");
  bool failed = false;
  for (const TuneNest *nest = nests; nest != nests + count; ++nest) {
    if (const char *why = untunable(*nest)) {
      std::fprintf(stderr, "tune: nest %s skipped: %s\n", nest->nest, why);
      continue;
    }
    const bool recorded = db && nest->plan.version && nest->plan.templates;
    if (db && !recorded)
      std::fprintf(stderr,
                   "tune: nest %s: its plan names no gemm-opt version or "
                   "template hash; its timings are not recorded\n",
                   nest->nest);
    for (int v = 0; recorded && v < nest->plan.count; ++v)
      if (!nest->plan.variants[v].schedule)
        std::fprintf(stderr,
                     "tune: nest %s: variant %d has no schedule; its timings "
                     "are not recorded\n",
                     nest->nest, v);
    // Times one case, prints and records its rows; false if the database
    // cannot be written.
    std::set<int> winners;
    auto run = [&](const TuneCase &c) {
      const std::vector<Timed> rows = timeCase(*nest, c, options.runs);
      printTable(*nest, c, rows);
      const Timed *best = nullptr;
      for (const Timed &row : rows) {
        failed = failed || !row.passed();
        if (row.passed() && (!best || row.seconds < best->seconds))
          best = &row;
      }
      if (best)
        winners.insert(best->choice.variant);
      if (!recorded)
        return true;
      return writeRecords(db, *nest, c, rows);
    };
    const auto empty = [](const TuneCase &c) {
      return c.batch < 1 || c.m < 1 || c.n < 1 || c.k < 1;
    };
    bool written = true;
    for (const TuneCase *c = nest->cases; c != nest->cases + nest->caseCount;
         ++c) {
      if (empty(*c))
        std::fprintf(stderr, "tune: nest %s: an empty case skipped\n",
                     nest->nest);
      else
        written = written && run(*c);
    }
    // Then each case times the kernels that won another case and that it
    // has not timed: the model ranks each problem apart, and a kernel it
    // placed first for one problem may be missing from a neighbour's.
    for (const TuneCase *c = nest->cases; c != nest->cases + nest->caseCount;
         ++c) {
      std::vector<int> more;
      for (int v : winners)
        if (std::find(c->variants, c->variants + c->count, v) ==
            c->variants + c->count)
          more.push_back(v);
      if (!empty(*c) && !more.empty())
        written = written &&
                  run({c->batch, c->m, c->n, c->k, more.data(),
                       int(more.size())});
    }
    if (!written) {
      std::fprintf(stderr, "tune: cannot write the tuning database %s\n",
                   options.db.c_str());
      std::fclose(db);
      return 1;
    }
  }
  if (db && std::fclose(db) != 0) {
    std::fprintf(stderr, "tune: cannot write the tuning database %s\n",
                 options.db.c_str());
    return 1;
  }
  return failed ? 1 : 0;
}

} // namespace gemm_rt
