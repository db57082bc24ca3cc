//===- OpenTemplates.cpp - Instantiations that the file lacks -------------===//

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
    // Only where a nest can be rewritten: the main file and the files it
    // includes itself (IncludedText.h); a library's deeper headers are
    // left as they are, uninstantiated.
    FileID file = sm.getFileID(sm.getExpansionLoc(pattern->getLocation()));
    if (file != sm.getMainFileID() &&
        sm.getFileID(sm.getExpansionLoc(sm.getIncludeLoc(file))) !=
            sm.getMainFileID())
      return true;
    if (sm.isInSystemHeader(pattern->getLocation()) ||
        !function->doesThisDeclarationHaveABody() ||
        pattern->getDeclContext()->isDependentContext() ||
        !hasLoop(function->getBody()))
      return true;
    // One type parameter: the launchers' element types then tell every
    // other instantiation's calls from theirs (Action.cpp).
    const TemplateParameterList *params = pattern->getTemplateParameters();
    if (params->size() != 1 || !isa<TemplateTypeParmDecl>(params->getParam(0)) ||
        params->getParam(0)->isParameterPack())
      return true;
    // Instantiated for other types only (int): no GEMM to lift.
    bool any = false, real = false;
    for (const FunctionDecl *instance : pattern->specializations()) {
      if (!instance->hasBody())
        continue;
      any = true;
      QualType type =
          instance->getTemplateSpecializationArgs()->get(0).getAsType();
      real |= type->isSpecificBuiltinType(BuiltinType::Float) ||
              type->isSpecificBuiltinType(BuiltinType::Double);
    }
    if (!any || real)
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
  SourceLocation end = sm.getLocForEndOfFile(sm.getMainFileID());
  for (FunctionTemplateDecl *pattern : finder.found) {
    for (QualType type : {ctx.FloatTy, ctx.DoubleTy}) {
      TemplateArgument arg(type);
      void *at = nullptr;
      if (FunctionDecl *own = pattern->findSpecialization(arg, at);
          own && own->hasBody())
        continue;
      DiagnosticErrorTrap errors(diags);
      FunctionDecl *instance = sema.InstantiateFunctionDeclaration(
          pattern, TemplateArgumentList::CreateCopy(ctx, arg), end);
      if (!instance)
        continue;
      if (!errors.hasErrorOccurred())
        sema.InstantiateFunctionDefinition(end, instance, /*Recursive=*/true,
                                           /*DefinitionRequired=*/false,
                                           /*AtEndOfTU=*/true);
      made[instance] = !errors.hasErrorOccurred() && instance->hasBody() &&
                       !instance->isInvalidDecl();
    }
  }
  diags.setSuppressAllDiagnostics(quiet);
  return made;
}
