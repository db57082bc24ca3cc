//===- MLIRGen.cpp - Lift recognised nests to the gemm dialect ------------===//

#include "gemm-opt/Frontend/MLIRGen.h"
#include "gemm-opt/Dialect/Gemm/GemmDialect.h"
#include "gemm-opt/Dialect/Gemm/GemmOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::gemm;

/// Static where the front end folded a value, dynamic elsewhere; the offset
/// is always dynamic because the base pointer carries it. A zero stride (a
/// broadcast batch or bias) is dynamic too: MLIR's strided layout has no
/// zero strides, and the launcher passes the 0.
static MemRefType memrefType(const OperandBinding &operand, Type element) {
  auto orDynamic = [](const std::optional<int64_t> &v) {
    return v && *v != 0 ? *v : ShapedType::kDynamic;
  };
  SmallVector<int64_t> shape, strides;
  llvm::transform(operand.staticSizes, std::back_inserter(shape), orDynamic);
  llvm::transform(operand.staticStrides, std::back_inserter(strides),
                  orDynamic);
  auto layout = StridedLayoutAttr::get(element.getContext(),
                                       ShapedType::kDynamic, strides);
  return MemRefType::get(shape, element, layout);
}

/// The #gemm.clamp or #gemm.fn of one activation step.
static Attribute stepAttr(MLIRContext &context, const StepBinding &step) {
  using Kind = StepBinding::Kind;
  ClampNaN nan = step.nanToBound ? ClampNaN::Bound : ClampNaN::Keep;
  switch (step.kind) {
  case Kind::Lower:
    return ClampAttr::get(&context, ClampSide::Lower, nan);
  case Kind::Upper:
    return ClampAttr::get(&context, ClampSide::Upper, nan);
  case Kind::Tanh:
    return FnAttr::get(&context, Function::Tanh);
  case Kind::Sigmoid:
    return FnAttr::get(&context, Function::Sigmoid);
  case Kind::GeluTanh:
    return FnAttr::get(&context, Function::GeluTanh);
  case Kind::GeluErf:
    return FnAttr::get(&context, Function::GeluErf);
  }
  llvm_unreachable("unknown activation step");
}

OwningOpRef<ModuleOp> mlir::gemm::buildModule(MLIRContext &context,
                                              const FrontendResult &result) {
  OpBuilder builder(&context);
  OwningOpRef<ModuleOp> module = ModuleOp::create(
      FileLineColLoc::get(&context, result.fileName, 1, 1));
  builder.setInsertionPointToEnd(module->getBody());
  for (const Nest &nest : result.nests) {
    Location loc =
        FileLineColLoc::get(&context, nest.file, nest.line, nest.column);
    // The matrices' element type, and the type the product is summed in
    // (alpha's): wider where a double accumulator sums float matrices.
    Type element = nest.isDouble ? Type(builder.getF64Type())
                                 : Type(builder.getF32Type());
    Type sum = nest.sumsInDouble ? Type(builder.getF64Type()) : element;
    SmallVector<Type> args = {memrefType(nest.a, element),
                              memrefType(nest.b, element),
                              memrefType(nest.c, element), sum, sum};
    if (nest.bias)
      args.push_back(memrefType(*nest.bias, element));
    const size_t params = nest.activationParams().size();
    args.append(params, sum);
    for (const ScalarReadBinding &read : nest.scalarReads)
      args.push_back(MemRefType::get({}, read.isDouble
                                             ? Type(builder.getF64Type())
                                             : Type(builder.getF32Type())));
    auto func = builder.create<func::FuncOp>(
        loc, nest.symbol, builder.getFunctionType(args, {}));
    if (nest.symbol != nest.name)
      func->setAttr(GemmDialect::getLauncherAttrName(),
                    builder.getStringAttr(nest.name));
    if (nest.openTemplate)
      func->setAttr(GemmDialect::getOpenTemplateAttrName(),
                    builder.getUnitAttr());
    if (!nest.instance.empty())
      func->setAttr(GemmDialect::getInstanceAttrName(),
                    builder.getDenseI64ArrayAttr(llvm::to_vector(
                        llvm::make_second_range(nest.instance))));
    Block *body = func.addEntryBlock();
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(body);
    ValueRange arg = body->getArguments();
    Value bias = nest.bias ? arg[5] : Value();
    SmallVector<Attribute> steps;
    for (const StepBinding &step : nest.activation)
      steps.push_back(stepAttr(context, step));
    // One #gemm.rows per operand where any is a table of rows.
    SmallVector<Attribute> rows;
    if (nest.a.rows || nest.b.rows || nest.c.rows)
      for (const OperandBinding *operand : {&nest.a, &nest.b, &nest.c})
        rows.push_back(RowsAttr::get(
            &context, !operand->rows           ? RowTable::None
                      : operand->rows->vectors ? RowTable::Vectors
                                               : RowTable::Pointers));
    auto matmul = builder.create<MatmulOp>(
        loc, arg[0], arg[1], arg[2], arg[3], arg[4], bias,
        arg.slice(nest.bias ? 6 : 5, params),
        arg.take_back(nest.scalarReads.size()),
        steps.empty() ? ArrayAttr() : builder.getArrayAttr(steps),
        rows.empty() ? ArrayAttr() : builder.getArrayAttr(rows),
        ScheduleAttr(), ArrayAttr(), ArrayAttr(), ArrayAttr());
    if (!nest.precision.empty())
      matmul->setAttr(GemmDialect::getPrecisionAttrName(),
                      builder.getStringAttr(nest.precision));
    builder.create<func::ReturnOp>(loc);
  }
  return module;
}
