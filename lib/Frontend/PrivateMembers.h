//===- PrivateMembers.h - Private members that the launcher reads -*- C++ -*-===//
//
// A matrix class's accessor often reads a private pointer and a private
// leading dimension (`return data_[i * cols_ + j];`). Inlined into the
// nest, they become operands that the launcher call, in a function that is
// no member or friend of the class, cannot name. C++ checks no access in an
// explicit instantiation, so a class template instantiated there with
// `&Class::member` can hand out the member pointer through a friend
// function: the rewrite declares that before the function and reads the
// member as `(object.*gemm_opt_member(tag()))`.
//
//===----------------------------------------------------------------------===//
#ifndef GEMM_OPT_LIB_FRONTEND_PRIVATEMEMBERS_H
#define GEMM_OPT_LIB_FRONTEND_PRIVATEMEMBERS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

#include <optional>
#include <string>

namespace mlir::gemm {

/// The declaration at namespace scope that holds `function` (the function
/// itself, or the class or `extern "C"` block around it): the rewrite's
/// declarations go before it.
const clang::Decl *outermostDecl(const clang::FunctionDecl *function);

/// Why the launcher call in `function`, at the nest `outer`, cannot read
/// `field` through a member pointer; nullopt if it can: a non-static, not
/// bit-field member of a named class that is complete before the function,
/// a function that is no template or instantiation of one, and a nest
/// whose text is in the same file as the function.
std::optional<std::string> privateReachObstacle(clang::ASTContext &ctx,
                                                const clang::FunctionDecl *function,
                                                const clang::Stmt *outer,
                                                const clang::FieldDecl *field);

/// `field` of the object `object` (`.` or, where `arrow`, `->`) as the
/// launcher call reads it.
std::string privateMemberRead(clang::ASTContext &ctx,
                              const clang::FieldDecl *field,
                              const std::string &object, bool arrow);

/// The declarations that privateMemberRead needs, one line.
std::string privateMemberDeclarations(clang::ASTContext &ctx,
                                      const clang::FieldDecl *field);

} // namespace mlir::gemm

#endif // GEMM_OPT_LIB_FRONTEND_PRIVATEMEMBERS_H
