//===- GemmOps.cpp - gemm dialect operations ------------------------------===//
//
// The generated operation definitions and the verifier of gemm.matmul.
//
//===----------------------------------------------------------------------===//

#include "gemm-opt/Dialect/Gemm/GemmOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::gemm;

#define GET_OP_CLASSES
#include "gemm-opt/Dialect/Gemm/GemmOps.cpp.inc"

//===----------------------------------------------------------------------===//
// MatmulOp
//===----------------------------------------------------------------------===//

/// Checks that two extents of the same dimension `name` agree. Dynamic extents
/// are checked at run time, not here.
static LogicalResult verifyExtent(MatmulOp op, StringRef lhsWhat, int64_t lhs,
                                  StringRef rhsWhat, int64_t rhs,
                                  StringRef name) {
  if (ShapedType::isDynamic(lhs) || ShapedType::isDynamic(rhs) || lhs == rhs)
    return success();
  return op.emitOpError() << lhsWhat << " (" << name << " = " << lhs
                          << ") must equal " << rhsWhat << " (" << name
                          << " = " << rhs << ")";
}

/// The bias is laid out like C and has its extents; the activation's steps
/// take its params in order, each of alpha's type. The runtime's
/// Epilogue holds two clamps and a function.
static LogicalResult verifyEpilogue(MatmulOp op) {
  MemRefType cType = op.getCType();
  if (Value bias = op.getBias()) {
    auto biasType = cast<MemRefType>(bias.getType());
    if (biasType.getRank() != cType.getRank() ||
        biasType.getElementType() != cType.getElementType())
      return op.emitOpError("the bias must have C's rank and element type, "
                            "got ")
             << biasType << " for C " << cType;
    static const char *const names[] = {"batch", "M", "N"};
    unsigned first = 3 - cType.getRank();
    for (int64_t i = 0, e = cType.getRank(); i < e; ++i)
      if (failed(verifyExtent(op, "the bias's extent", biasType.getDimSize(i),
                              "C's", cType.getDimSize(i), names[first + i])))
        return failure();
  }
  unsigned clamps = 0, functions = 0, params = 0;
  for (Attribute step : op.getActivationSteps()) {
    auto fn = dyn_cast<FnAttr>(step);
    ++(fn ? functions : clamps);
    params += fn ? fn.getParamCount() : 1;
  }
  if (params != op.getParams().size())
    return op.emitOpError("the activation's steps take ")
           << params << " params but " << op.getParams().size()
           << " are given";
  if (clamps > 2)
    return op.emitOpError("at most 2 clamps are supported, got ") << clamps;
  if (functions > 1)
    return op.emitOpError("at most 1 function is supported, got ")
           << functions;
  for (Value param : op.getParams())
    if (param.getType() != op.getElementType())
      return op.emitOpError("activation params must have alpha's type ")
             << op.getElementType() << ", got " << param.getType();
  // The runtime's ScalarReads holds four.
  if (op.getReads().size() > 4)
    return op.emitOpError("at most 4 scalar reads are checked, got ")
           << op.getReads().size();
  return success();
}

/// One `#gemm.rows` per operand; a table of rows is gathered into a copy
/// that is contiguous along a row and strided along the table, in an
/// unbatched problem.
static LogicalResult verifyRows(MatmulOp op) {
  ArrayAttr rows = op.getRowsAttr();
  if (!rows)
    return success();
  if (rows.size() != 3)
    return op.emitOpError("rows must give one #gemm.rows for each of A, B "
                          "and C, got ")
           << rows.size();
  static const char *const names[] = {"A", "B", "C"};
  MemRefType types[] = {op.getAType(), op.getBType(), op.getCType()};
  for (unsigned i = 0; i < 3; ++i) {
    if (op.getRowTable(i) == RowTable::None)
      continue;
    if (op.isBatched())
      return op.emitOpError("a table of rows (") << names[i]
             << ") needs an unbatched problem";
    SmallVector<int64_t> strides;
    int64_t offset;
    if (failed(getStridesAndOffset(types[i], strides, offset)) ||
        (strides[0] == 1) == (strides[1] == 1))
      return op.emitOpError("the gathered copy of ")
             << names[i] << "'s rows must have exactly one static unit "
             << "stride, got " << types[i];
  }
  return success();
}

LogicalResult MatmulOp::verify() {
  // The operand constraint already requires rank 2 or 3 and strided layouts.
  MemRefType aType = getAType(), bType = getBType(), cType = getCType();
  int64_t rank = aType.getRank();
  if (bType.getRank() != rank || cType.getRank() != rank ||
      (rank != 2 && rank != 3))
    return emitOpError("operands must all be rank 2 (or rank 3 with a leading "
                       "batch dimension), got A rank ")
           << aType.getRank() << ", B rank " << bType.getRank() << ", C rank "
           << cType.getRank();

  Type elementType = aType.getElementType();
  if (bType.getElementType() != elementType ||
      cType.getElementType() != elementType)
    return emitOpError("operands must have the same element type, got A ")
           << elementType << ", B " << bType.getElementType() << ", C "
           << cType.getElementType();
  if (!elementType.isF32() && !elementType.isF64())
    return emitOpError("element type must be f32 or f64, got ") << elementType;
  // AllTypesMatch has already made beta's type equal to alpha's: the type
  // the product is summed in, the element type or f64 for f32 matrices.
  Type sum = getAlpha().getType();
  if (sum != elementType && !(elementType.isF32() && sum.isF64()))
    return emitOpError("alpha and beta must have the element type, or f64 "
                       "for f32 operands, got ")
           << sum << " for " << elementType;

  if (failed(verifyEpilogue(*this)) || failed(verifyRows(*this)))
    return failure();

  if (getAlternativesAttr() && !getScheduleAttr())
    return emitOpError("alternatives need a schedule");
  for (ScheduleAttr schedule : getSchedules())
    if (schedule.getCompute() == Compute::Dmma && !sum.isF64())
      return emitOpError("compute = dmma multiplies f64 only, got ") << sum;
  // A kernel plans its schedule: one each, in order.
  if (ArrayAttr kernels = getKernelsAttr()) {
    SmallVector<ScheduleAttr> schedules = getSchedules();
    if (kernels.size() != schedules.size() ||
        !llvm::all_of(llvm::zip(getKernelPlans(), schedules), [](auto pair) {
          return std::get<0>(pair).getSchedule() == std::get<1>(pair);
        }))
      return emitOpError("kernels must plan the schedule and the "
                         "alternatives, one each and in that order");
  }
  if (ArrayAttr rates = getRatesAttr();
      rates && (!getKernelsAttr() || rates.size() != getKernelsAttr().size()))
    return emitOpError("rates must rate the kernels, one each");

  // Matrix dimensions follow the optional batch dimension.
  unsigned first = isBatched() ? 1 : 0;
  auto dim = [&](MemRefType type, unsigned i) {
    return type.getDimSize(first + i);
  };
  if (failed(verifyExtent(*this, "A's column count", dim(aType, 1),
                          "B's row count", dim(bType, 0), "K")) ||
      failed(verifyExtent(*this, "C's row count", dim(cType, 0),
                          "A's row count", dim(aType, 0), "M")) ||
      failed(verifyExtent(*this, "C's column count", dim(cType, 1),
                          "B's column count", dim(bType, 1), "N")))
    return failure();
  if (!isBatched())
    return success();
  int64_t aBatch = aType.getDimSize(0), bBatch = bType.getDimSize(0),
          cBatch = cType.getDimSize(0);
  if (failed(verifyExtent(*this, "A's batch extent", aBatch,
                          "B's batch extent", bBatch, "batch")) ||
      failed(verifyExtent(*this, "C's batch extent", cBatch,
                          "A's batch extent", aBatch, "batch")) ||
      failed(verifyExtent(*this, "C's batch extent", cBatch,
                          "B's batch extent", bBatch, "batch")))
    return failure();
  return success();
}

bool mlir::gemm::hasUnitStride(MemRefType type, unsigned dim) {
  SmallVector<int64_t> strides;
  int64_t offset;
  return succeeded(getStridesAndOffset(type, strides, offset)) &&
         strides[dim] == 1;
}

// A is [M][K] and B is [K][N], past a leading batch dimension.
TileStrides MatmulOp::getTileStridesA() {
  unsigned row = isBatched() ? 1 : 0;
  return {hasUnitStride(getAType(), row), hasUnitStride(getAType(), row + 1)};
}

TileStrides MatmulOp::getTileStridesB() {
  unsigned row = isBatched() ? 1 : 0;
  return {hasUnitStride(getBType(), row + 1), hasUnitStride(getBType(), row)};
}

SmallVector<Attribute> MatmulOp::getActivationSteps() {
  SmallVector<Attribute> steps;
  if (ArrayAttr activation = getActivationAttr())
    llvm::append_range(steps, activation);
  return steps;
}

RowTable MatmulOp::getRowTable(unsigned operand) {
  ArrayAttr rows = getRowsAttr();
  return rows ? cast<RowsAttr>(rows[operand]).getTable() : RowTable::None;
}

SmallVector<ScheduleAttr> MatmulOp::getSchedules() {
  SmallVector<ScheduleAttr> schedules;
  if (ScheduleAttr schedule = getScheduleAttr())
    schedules.push_back(schedule);
  if (ArrayAttr alternatives = getAlternativesAttr())
    for (Attribute alternative : alternatives)
      schedules.push_back(cast<ScheduleAttr>(alternative));
  return schedules;
}

SmallVector<RatesAttr> MatmulOp::getKernelRates() {
  SmallVector<RatesAttr> rates;
  if (ArrayAttr attrs = getRatesAttr())
    for (Attribute r : attrs)
      rates.push_back(cast<RatesAttr>(r));
  return rates;
}

SmallVector<KernelAttr> MatmulOp::getKernelPlans() {
  SmallVector<KernelAttr> kernels;
  if (ArrayAttr attrs = getKernelsAttr())
    for (Attribute kernel : attrs)
      kernels.push_back(cast<KernelAttr>(kernel));
  return kernels;
}
