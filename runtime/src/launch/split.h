//===- split.h - Split-K: K cut into chunks, then summed --------*- C++ -*-===//
//
// A problem with few tiles of C and a long K leaves most SMs idle. Split-K
// runs it as a batch of `splits` products over consecutive K chunks, each
// written to a workspace, and sums the chunks into C with alpha, beta and
// the epilogue.
// The batch form needs nothing of the kernel that a batched nest does not.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_RUNTIME_SPLIT_H
#define GEMM_RUNTIME_SPLIT_H

#include "gemm_runtime.h"

#include <cstddef>

namespace gemm_rt::detail {

/// Whether `p` can be split `splits` ways: one product, K a multiple of
/// `splits` whose chunks start 16 bytes apart, and a C whose unit stride (if
/// any) is unambiguous, so that the workspace can keep it; a kernel may
/// assume that stride at compile time.
bool canSplit(const Problem &p, int64_t splits);

/// The workspace bytes that splitting `p` `splits` ways needs.
size_t splitWorkspaceBytes(const Problem &p, int64_t splits);

/// The batch of K chunks that splitting `p` `splits` ways launches, each
/// written to its slice of `workspace`.
Problem splitParts(const Problem &p, int64_t splits, void *workspace);

/// Runs the device problem `p` split `splits` ways (canSplit must hold)
/// with `launch`, through `workspace` of splitWorkspaceBytes(p, splits).
cudaError_t launchSplit(const Problem &p, LaunchFn launch, int64_t splits,
                        void *workspace, cudaStream_t stream);

} // namespace gemm_rt::detail

#endif // GEMM_RUNTIME_SPLIT_H
