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
/// is always dynamic because the base pointer carries it.
static MemRefType memrefType(const OperandBinding &operand, Type element) {
  auto orDynamic = [](const std::optional<int64_t> &v) {
    return v.value_or(ShapedType::kDynamic);
  };
  SmallVector<int64_t> shape, strides;
  llvm::transform(operand.staticSizes, std::back_inserter(shape), orDynamic);
  llvm::transform(operand.staticStrides, std::back_inserter(strides),
                  orDynamic);
  auto layout = StridedLayoutAttr::get(element.getContext(),
                                       ShapedType::kDynamic, strides);
  return MemRefType::get(shape, element, layout);
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
    Type element = nest.isDouble ? Type(builder.getF64Type())
                                 : Type(builder.getF32Type());
    SmallVector<Type> args = {memrefType(nest.a, element),
                              memrefType(nest.b, element),
                              memrefType(nest.c, element), element, element};
    auto func = builder.create<func::FuncOp>(
        loc, nest.symbol, builder.getFunctionType(args, {}));
    if (nest.symbol != nest.name)
      func->setAttr(GemmDialect::getLauncherAttrName(),
                    builder.getStringAttr(nest.name));
    Block *body = func.addEntryBlock();
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(body);
    builder.create<MatmulOp>(loc, body->getArgument(0), body->getArgument(1),
                             body->getArgument(2), body->getArgument(3),
                             body->getArgument(4));
    builder.create<func::ReturnOp>(loc);
  }
  return module;
}
