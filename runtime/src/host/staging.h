//===- staging.h - Host operands streamed through pinned memory -*- C++ -*-===//
//
// A call whose A, B or C lives in host memory runs in panels of C: along M
// (rows of C and A; B whole on the device) or along N (columns of C and B;
// A whole), each panel's operands gathered by the copy threads into a slot
// of a pinned ring, sent, multiplied and sent back on separate streams, so
// that the host's copies, both directions of the link and the kernels of
// successive panels overlap. Panels are also how a problem larger than the
// GPU's memory runs: only the whole operand (or a block of its columns) and
// a few panels are resident. Tables of rows are gathered into the ring like
// strided operands. Operands in device or managed memory are read in place.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_RUNTIME_STAGING_H
#define GEMM_RUNTIME_STAGING_H

#include "launch/choose.h"
#include "host/gather.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace gemm_rt::detail {

/// Which of A, B and C are host memory, to be staged, and the tables of
/// rows among them (a table is host memory).
struct Hosted {
  bool a, b, c;
  Table ta, tb, tc;
};

/// What the staged path's time model knows of the machine.
struct Rates {
  /// GB/s of the copy threads between pageable and pinned memory, and of
  /// the link each way between pinned and device memory.
  double hostGBs, h2dGBs, d2hGBs;
};

struct Machine {
  Rates rates;
  int sms;
  /// The device bytes that staging may hold: GEMM_OPT_DEVICE_MEMORY if set,
  /// else the free memory (plus what staging holds already) less a reserve;
  /// either less what a split call's whole operand holds.
  size_t deviceBudget;
};

/// How a call is staged. Panels run along N through the transposed
/// problem (C^T = B^T A^T), so that everything below speaks of rows. Where
/// all of B does not fit the device budget, B goes in blocks of columns,
/// and each block is multiplied by every panel of A's rows in turn.
struct StagePlan {
  bool alongN = false;
  /// Rows of a panel, of the batch's matrices laid end to end: a multiple of
  /// the matrix's rows when at least that (whole matrices), else rows of one.
  int64_t rows = 0;
  /// Columns of B's blocks: all of them where B fits.
  int64_t cols = 0;
  /// Panels in all, of every block; 0: nothing fits the device budget.
  int64_t panels = 0;
  double seconds = 0;
  /// Pinned bytes per slot of the ring, device bytes in all, and the
  /// device budget it was planned under.
  size_t pinnedSlot = 0, deviceBytes = 0, deviceBudget = 0;
};

/// The fastest staging of `p` (host pointers; only the layout is read) that
/// fits the device budget of `machine` (currentMachine, or a made-up one in
/// tests), by the time model of profit.h. It keeps each GPU's last call's
/// plan for the next (one thread per GPU at a time), and then asks for the
/// machine only where staging's device memory does not hold that plan
/// already. `held`: device bytes that the call takes besides staging's
/// (a split call's whole B where its buffer must grow), out of the budget.
StagePlan planStaging(const Problem &p, const Plan &plan, Hosted hosted,
                      Machine (*machine)(const char *nest), size_t held = 0);

/// The machine, its copy rates measured on the first call of the process
/// (about 10 ms) and its free memory on each.
Machine currentMachine(const char *nest);

/// Runs `p` as `stage` says: A, B and C are host memory where `hosted`
/// says, the bias is on the device already. Returns once C is complete;
/// the result is the last panel's choice of kernel. One thread per GPU at
/// a time: each GPU's ring and streams are shared by its calls.
Choice runStaged(const Problem &p, const Plan &plan, Hosted hosted,
                 const StagePlan &stage);

/// The host operand `bias`, read as `extents`, copied to the device through
/// the pinned ring, as the kernel reads the copy. Returns once it landed.
Operand stageBias(const Operand &bias, const Extents &extents,
                  size_t elementSize, const char *nest);

/// The host operand `whole`, read as `extents`, copied into every GPU of
/// `devices` (each one's Role::Whole buffer): each chunk is gathered once,
/// into the first GPU's ring, and sent over every GPU's link at once.
/// Returns each GPU's copy, as kernels read it, once all have landed.
std::vector<Operand> broadcastWhole(const Operand &whole,
                                    const Extents &extents,
                                    size_t elementSize,
                                    const std::vector<int> &devices,
                                    const char *nest);

} // namespace gemm_rt::detail

#endif // GEMM_RUNTIME_STAGING_H
