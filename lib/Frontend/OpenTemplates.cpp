//===- OpenTemplates.cpp - Templates the file never instantiates ----------===//

#include "OpenTemplates.h"
#include "NestScope.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Sema/Sema.h"

using namespace clang;
using namespace mlir::gemm;

namespace {

/// The templates to instantiate, found before any is instantiated (an
/// instantiation adds declarations to what is traversed).
class OpenTemplateFinder : public RecursiveASTVisitor<OpenTemplateFinder> {
public:
  explicit OpenTemplateFinder(const SourceManager &sm) : sm(sm) {}

  bool VisitFunctionTemplateDecl(FunctionTemplateDecl *pattern) {
    const FunctionDecl *function = pattern->getTemplatedDecl();
    if (sm.isInSystemHeader(pattern->getLocation()) ||
        !function->doesThisDeclarationHaveABody() ||
        pattern->getDeclContext()->isDependentContext() ||
        !hasLoop(function->getBody()))
      return true;
    for (const NamedDecl *param : *pattern->getTemplateParameters())
      if (!isa<TemplateTypeParmDecl>(param) || param->isParameterPack())
        return true;
    for (const FunctionDecl *instance : pattern->specializations())
      if (instance->hasBody())
        return true;
    found.push_back(pattern);
    return true;
  }

  std::vector<FunctionTemplateDecl *> found;

private:
  static bool hasLoop(const Stmt *s) {
    if (!s)
      return false;
    if (isLoop(s))
      return true;
    return llvm::any_of(s->children(), hasLoop);
  }

  const SourceManager &sm;
};

} // namespace

OpenInstances mlir::gemm::instantiateOpenTemplates(Sema &sema) {
  ASTContext &ctx = sema.getASTContext();
  const SourceManager &sm = ctx.getSourceManager();
  OpenTemplateFinder finder(sm);
  finder.TraverseDecl(ctx.getTranslationUnitDecl());
  OpenInstances made;
  DiagnosticsEngine &diags = sema.getDiagnostics();
  bool quiet = diags.getSuppressAllDiagnostics();
  diags.setSuppressAllDiagnostics(true);
  // Instantiated where the file ends, as a use after the template would.
  SourceLocation at = sm.getLocForEndOfFile(sm.getMainFileID());
  for (FunctionTemplateDecl *pattern : finder.found) {
    for (QualType type : {ctx.FloatTy, ctx.DoubleTy}) {
      DiagnosticErrorTrap errors(diags);
      SmallVector<TemplateArgument> args(pattern->getTemplateParameters()->size(),
                                         TemplateArgument(type));
      FunctionDecl *instance = sema.InstantiateFunctionDeclaration(
          pattern, TemplateArgumentList::CreateCopy(ctx, args), at);
      if (!instance)
        continue;
      if (!errors.hasErrorOccurred())
        sema.InstantiateFunctionDefinition(at, instance, /*Recursive=*/true,
                                           /*DefinitionRequired=*/false,
                                           /*AtEndOfTU=*/true);
      made[instance] = !errors.hasErrorOccurred() && instance->hasBody() &&
                       !instance->isInvalidDecl();
    }
  }
  diags.setSuppressAllDiagnostics(quiet);
  return made;
}
