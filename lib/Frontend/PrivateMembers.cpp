//===- PrivateMembers.cpp - Private members that the launcher reads -------===//

#include "PrivateMembers.h"

#include "clang/AST/DeclCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/xxhash.h"

using namespace clang;
using namespace mlir::gemm;

const Decl *mlir::gemm::outermostDecl(const FunctionDecl *function) {
  // Lexically: an out-of-line member's definition is at namespace scope.
  const Decl *decl = function;
  while (!isa<TranslationUnitDecl, NamespaceDecl>(
      decl->getLexicalDeclContext()))
    decl = cast<Decl>(decl->getLexicalDeclContext());
  return decl;
}

namespace {
/// Names as written at namespace scope, whatever namespace that is.
PrintingPolicy qualified(ASTContext &ctx) {
  PrintingPolicy policy(ctx.getLangOpts());
  policy.FullyQualifiedName = true;
  policy.PrintCanonicalTypes = true;
  policy.SuppressUnwrittenScope = true;
  return policy;
}

std::string owner(ASTContext &ctx, const FieldDecl *field) {
  return "::" + ctx.getRecordType(field->getParent())
                    .getAsString(qualified(ctx));
}

/// Unique per member in the translation unit, the same in every run.
std::string tag(ASTContext &ctx, const FieldDecl *field) {
  std::string member = owner(ctx, field) + "::" + field->getNameAsString();
  return "gemm_opt_member_" +
         llvm::utohexstr(llvm::xxh3_64bits(member) & 0xffffffffu, true, 8);
}
} // namespace

std::optional<std::string>
mlir::gemm::privateReachObstacle(ASTContext &ctx, const FunctionDecl *function,
                                 const Stmt *outer, const FieldDecl *field) {
  const SourceManager &sm = ctx.getSourceManager();
  std::string name = "'" + field->getNameAsString() + "'";
  if (field->isBitField() || field->getType()->isReferenceType())
    return name + " is a bit-field or a reference, which no member pointer "
                  "reaches";
  // A template's guard serves every instantiation: one tag cannot.
  if (function->isTemplated() || function->isTemplateInstantiation())
    return name + " is private, and the nest is in a template";
  // The class is named at namespace scope before the function.
  const Decl *top = outermostDecl(function);
  for (const DeclContext *dc = field->getParent(); !dc->isFileContext();
       dc = dc->getParent()) {
    const auto *record = dyn_cast<CXXRecordDecl>(dc);
    if (!record || !record->getIdentifier() ||
        (record->getAccess() != AS_public && record->getAccess() != AS_none))
      return name + " is private to a class that is local, unnamed or "
                    "private itself";
  }
  SourceLocation at = sm.getExpansionLoc(top->getBeginLoc());
  if (!sm.isBeforeInTranslationUnit(field->getParent()->getEndLoc(), at))
    return name + " is private to a class that is completed after the "
                  "function begins";
  if (outer->getBeginLoc().isMacroID() ||
      sm.getFileID(at) != sm.getFileID(outer->getBeginLoc()))
    return name + " is private, and the nest is not in the function's file "
                  "text";
  return std::nullopt;
}

std::string mlir::gemm::privateMemberRead(ASTContext &ctx,
                                          const FieldDecl *field,
                                          const std::string &object,
                                          bool arrow) {
  return "(" + object + (arrow ? "->*" : ".*") + "gemm_opt_member(" +
         tag(ctx, field) + "()))";
}

std::string mlir::gemm::privateMemberDeclarations(ASTContext &ctx,
                                                  const FieldDecl *field) {
  std::string name = tag(ctx, field);
  std::string type;
  llvm::raw_string_ostream os(type);
  ctx.getMemberPointerType(field->getType(),
                           ctx.getRecordType(field->getParent()).getTypePtr())
      .print(os, qualified(ctx), "type");
  // The friend is declared in the tag, so that the call finds it by its
  // argument, and defined by the instantiation, the one place where
  // `&Class::member` is not checked for access.
  return "namespace { struct " + name + " { typedef " + type +
         "; friend type gemm_opt_member(" + name + "); }; template <" + name +
         "::type M> struct " + name + "_of { friend " + name +
         "::type gemm_opt_member(" + name + ") { return M; } }; template struct " +
         name + "_of<&" + owner(ctx, field) + "::" +
         field->getNameAsString() + ">; }\n";
}
