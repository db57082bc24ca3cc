//===- SymExpr.cpp - Loop-invariant integer expressions -------------------===//

#include "SymExpr.h"

#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <cctype>

using namespace mlir::gemm;

SymExpr SymExpr::constant(int64_t value) {
  SymExpr e;
  e.add({}, value);
  return e;
}

SymExpr SymExpr::symbol(const std::string &text) {
  SymExpr e;
  e.add({text}, 1);
  return e;
}

void SymExpr::add(const std::vector<std::string> &monomial,
                  int64_t coefficient) {
  int64_t &slot = terms[monomial];
  slot += coefficient;
  if (slot == 0)
    terms.erase(monomial);
}

SymExpr SymExpr::operator+(const SymExpr &other) const {
  SymExpr sum = *this;
  for (const auto &[monomial, coefficient] : other.terms)
    sum.add(monomial, coefficient);
  return sum;
}

SymExpr SymExpr::operator-(const SymExpr &other) const {
  return *this + other * constant(-1);
}

SymExpr SymExpr::operator*(const SymExpr &other) const {
  SymExpr product;
  for (const auto &[lhs, lc] : terms) {
    for (const auto &[rhs, rc] : other.terms) {
      std::vector<std::string> monomial = lhs;
      monomial.insert(monomial.end(), rhs.begin(), rhs.end());
      std::sort(monomial.begin(), monomial.end());
      product.add(monomial, lc * rc);
    }
  }
  return product;
}

std::optional<int64_t> SymExpr::getConstant() const {
  if (terms.empty())
    return 0;
  if (terms.size() == 1 && terms.begin()->first.empty())
    return terms.begin()->second;
  return std::nullopt;
}

/// True if `text` is one parenthesised group, like `(n - 1)`.
static bool isWrapped(const std::string &text) {
  if (text.size() < 2 || text.front() != '(')
    return false;
  int depth = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    depth += text[i] == '(' ? 1 : text[i] == ')' ? -1 : 0;
    if (depth == 0)
      return i + 1 == text.size();
  }
  return false;
}

std::string mlir::gemm::parenthesize(const std::string &text) {
  if (isWrapped(text))
    return text;
  // A widened symbol binds as tightly as its operand.
  llvm::StringRef widened(text);
  if (widened.consume_front("(long long)") &&
      parenthesize(widened.str()) == widened)
    return text;
  std::string probe = text;
  for (size_t pos; (pos = probe.find("->")) != std::string::npos;)
    probe.replace(pos, 2, ".");
  bool simple = std::all_of(probe.begin(), probe.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' ||
           c == '.' || c == ':' || c == '(' || c == ')';
  });
  return simple ? text : "(" + text + ")";
}

std::string SymExpr::str() const {
  if (terms.empty())
    return "0";
  std::string out;
  for (const auto &[monomial, coefficient] : terms) {
    int64_t magnitude = coefficient < 0 ? -coefficient : coefficient;
    if (out.empty())
      out = coefficient < 0 ? "-" : "";
    else
      out += coefficient < 0 ? " - " : " + ";
    std::string term;
    if (magnitude != 1 || monomial.empty())
      term = std::to_string(magnitude);
    // A narrow unsigned symbol is widened where the term negates, scales or
    // multiplies it.
    const bool widen =
        coefficient < 0 || magnitude != 1 || monomial.size() > 1;
    for (const std::string &symbol : monomial) {
      llvm::StringRef text(symbol);
      std::string bare = parenthesize(
          text.consume_front(kNarrowUnsigned) ? text.str() : symbol);
      if (widen && text.size() != symbol.size())
        bare = "(long long)" + bare;
      term += (term.empty() ? "" : " * ") + bare;
    }
    out += term;
  }
  return out;
}

AffineForm AffineForm::operator+(const AffineForm &other) const {
  AffineForm sum = *this;
  for (size_t i = 0; i < ivCoeffs.size(); ++i)
    sum.ivCoeffs[i] = ivCoeffs[i] + other.ivCoeffs[i];
  sum.constant = constant + other.constant;
  return sum;
}

AffineForm AffineForm::scaled(const SymExpr &factor) const {
  AffineForm product = *this;
  for (SymExpr &c : product.ivCoeffs)
    c = c * factor;
  product.constant = constant * factor;
  return product;
}

bool AffineForm::isInvariant() const {
  return std::all_of(ivCoeffs.begin(), ivCoeffs.end(),
                     [](const SymExpr &c) { return c.isZero(); });
}
