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
    // Type parameters only: the launchers' element types then tell every
    // other instantiation's calls from theirs (Action.cpp).
    if (llvm::any_of(*pattern->getTemplateParameters(),
                     [](const NamedDecl *param) {
                       return !isa<TemplateTypeParmDecl>(param) ||
                              param->isParameterPack();
                     }))
      return true;
    // Instantiated for other types only (int): no GEMM to lift.
    bool any = false, real = false;
    for (const FunctionDecl *instance : pattern->specializations()) {
      if (!instance->hasBody())
        continue;
      any = true;
      const Type *type = typeArgument(instance).value_or(nullptr);
      real |= type && (type->isSpecificBuiltinType(BuiltinType::Float) ||
                       type->isSpecificBuiltinType(BuiltinType::Double));
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

std::optional<const Type *>
mlir::gemm::typeArgument(const FunctionDecl *instance) {
  const TemplateArgumentList *args = instance->getTemplateSpecializationArgs();
  if (!args || !args->size() ||
      llvm::any_of(args->asArray(), [](const TemplateArgument &arg) {
        return arg.getKind() != TemplateArgument::Type;
      }))
    return std::nullopt;
  auto canonical = [](const TemplateArgument &arg) {
    return arg.getAsType().getCanonicalType().getTypePtr();
  };
  const Type *type = canonical(args->get(0));
  return llvm::all_of(args->asArray(),
                      [&](const TemplateArgument &arg) {
                        return canonical(arg) == type;
                      })
             ? type
             : nullptr;
}

static bool floating(ArrayRef<TemplateArgument> args) {
  return llvm::any_of(args, [](const TemplateArgument &arg) {
    if (arg.getKind() != TemplateArgument::Type)
      return false;
    const Type *type = arg.getAsType().getCanonicalType().getTypePtr();
    if (type->isSpecificBuiltinType(BuiltinType::Float) ||
        type->isSpecificBuiltinType(BuiltinType::Double))
      return true;
    const auto *spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
        type->getAsCXXRecordDecl());
    return spec && floating(spec->getTemplateArgs().asArray());
  });
}

bool mlir::gemm::floatingArgument(const FunctionDecl *instance) {
  const TemplateArgumentList *args = instance->getTemplateSpecializationArgs();
  return args && floating(args->asArray());
}

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
    // Every parameter float, or every one double.
    for (QualType type : {ctx.FloatTy, ctx.DoubleTy}) {
      std::vector<TemplateArgument> args(
          pattern->getTemplateParameters()->size(), TemplateArgument(type));
      void *at = nullptr;
      if (FunctionDecl *own = pattern->findSpecialization(args, at);
          own && own->hasBody())
        continue;
      DiagnosticErrorTrap errors(diags);
      FunctionDecl *instance = sema.InstantiateFunctionDeclaration(
          pattern, TemplateArgumentList::CreateCopy(ctx, args), end);
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
