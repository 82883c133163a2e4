// The signature parser. The layout part accepts and rejects the same strings as NumPy's
// gufunc signature parser (_parse_signature in ufunc_object.c): only ' ' and '\t' count as
// whitespace, names are ASCII identifiers, frozen sizes are positive decimal integers below
// INTPTR_MAX, '?' marks a flexible dim and must be used for a dim everywhere or nowhere.
// NumPy is told nin and nout; here they are counted: arguments before "->" are inputs.
// Our extension: a dtype may precede an argument's '(' and a bare dtype is a scalar core.
#include "types/signature.hpp"

#include <cstdint>
#include <string>

namespace gufunc {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
bool is_name_start(char c) { return is_upper(c) || (c >= 'a' && c <= 'z') || c == '_'; }
bool is_name_char(char c) { return is_name_start(c) || is_digit(c); }

bool is_known_dtype(const std::string& name) {
  return name == "double" || name == "integer" || name == "logical" || is_upper(name[0]);
}

// The text as shown under an error. Control characters (never valid, so never before the
// error position) are escaped to keep the message on two lines.
std::string printable(const std::string& text) {
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  for (char c : text) {
    unsigned char u = static_cast<unsigned char>(c);
    if (c == '\t' || (u >= 0x20 && u != 0x7f)) {
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else {
      out += "\\x";
      out += kHex[u >> 4];
      out += kHex[u & 0xf];
    }
  }
  return out;
}

// Tabs before the caret are repeated so the caret lines up under any tab width.
std::string caret_line(const std::string& text, size_t position) {
  std::string line;
  for (size_t i = 0; i < position; ++i) line += (i < text.size() && text[i] == '\t') ? '\t' : ' ';
  return line + '^';
}

std::string error_message(const std::string& what, size_t position, const std::string& text) {
  return "invalid signature: " + what + " at position " + std::to_string(position) + "\n    " +
         printable(text) + "\n    " + caret_line(text, position);
}

class Parser {
 public:
  explicit Parser(const std::string& text) : text_(text) { sig_.text = text; }

  Signature run() {
    skip_space();
    if (!at_arrow()) parse_inputs();
    pos_ += 2;  // "->"
    skip_space();
    parse_outputs();
    return sig_;
  }

 private:
  bool at_end() const { return pos_ >= text_.size(); }
  char peek(size_t ahead = 0) const {
    return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0';
  }
  bool at_arrow() const { return peek() == '-' && peek(1) == '>'; }
  void skip_space() {
    while (!at_end() && is_space(text_[pos_])) ++pos_;
  }
  [[noreturn]] void fail(const std::string& what, size_t at) const {
    throw SignatureError(what, at, text_);
  }

  void parse_inputs() {
    for (;;) {
      parse_argument();
      ++sig_.nin;
      skip_space();
      if (at_arrow()) return;
      if (at_end()) fail("missing '->' (expected ',' or '->')", pos_);
      if (peek() != ',') fail("expected ',' or '->'", pos_);
      ++pos_;
      skip_space();
    }
  }

  void parse_outputs() {
    for (;;) {
      parse_argument();
      ++sig_.nout;
      skip_space();
      if (at_end()) return;
      if (peek() != ',') fail("expected ',' or the end of the signature", pos_);
      ++pos_;
      skip_space();
    }
  }

  // [dtype] '(' dims ')'  or a bare dtype (scalar core).
  void parse_argument() {
    ArgSpec arg;
    if (is_name_start(peek())) {
      arg.dtype = parse_dtype();
      skip_space();
      if (peek() == '(') parse_core(&arg);
    } else if (peek() == '(') {
      parse_core(&arg);
    } else if (at_end()) {
      fail("unexpected end of signature, expected an argument", pos_);
    } else {
      fail("expected an argument: '(' or a dtype", pos_);
    }
    sig_.args.push_back(std::move(arg));
  }

  std::string parse_dtype() {
    size_t start = pos_;
    while (is_name_char(peek())) ++pos_;
    std::string name = text_.substr(start, pos_ - start);
    if (!is_known_dtype(name)) {
      fail("unknown dtype '" + name +
               "' (use double, integer, logical or a type variable such as T)",
           start);
    }
    return name;
  }

  void parse_core(ArgSpec* arg) {
    ++pos_;  // '('
    skip_space();
    if (peek() == ')') {
      ++pos_;
      return;
    }
    for (;;) {
      arg->dims.push_back(parse_dim());
      skip_space();
      if (peek() == ')') {
        ++pos_;
        return;
      }
      if (peek() != ',') fail("expected ',' or ')'", pos_);
      ++pos_;
      skip_space();
      if (peek() == ')') fail("expected a dimension after ',', not ')'", pos_);
    }
  }

  // A name or a frozen size, optionally followed by '?'; returns its index in sig_.dims.
  int parse_dim() {
    size_t start = pos_;
    CoreDim dim;
    if (is_name_start(peek())) {
      while (is_name_char(peek())) ++pos_;
      dim.name = text_.substr(start, pos_ - start);
    } else if (is_digit(peek())) {
      dim.frozen_size = parse_frozen_size();
      dim.name = std::to_string(dim.frozen_size);
    } else if (at_end()) {
      fail("unexpected end of signature, expected a dimension", pos_);
    } else {
      fail("expected a dimension name or a positive frozen size", pos_);
    }
    if (peek() == '?') {
      dim.flexible = true;
      ++pos_;
    }
    return find_or_add_dim(dim, start);
  }

  intptr_t parse_frozen_size() {
    const uintmax_t largest = static_cast<uintmax_t>(INTPTR_MAX) - 1;  // NumPy's limit
    size_t start = pos_;
    uintmax_t size = 0;
    bool too_large = false;
    while (is_digit(peek())) {
      uintmax_t digit = static_cast<uintmax_t>(peek() - '0');
      if (size > (largest - digit) / 10) too_large = true;
      if (!too_large) size = size * 10 + digit;
      ++pos_;
    }
    if (is_name_start(peek())) fail("a dimension name cannot start with a digit", start);
    if (size == 0) fail("a frozen dimension must be a positive integer", start);
    if (too_large) fail("frozen dimension too large", start);
    return static_cast<intptr_t>(size);
  }

  // Frozen dims are the same dim when their sizes are equal, named dims when their names are.
  int find_or_add_dim(const CoreDim& dim, size_t start) {
    for (size_t ix = 0; ix < sig_.dims.size(); ++ix) {
      const CoreDim& seen = sig_.dims[ix];
      bool same = dim.frozen_size > 0 ? seen.frozen_size == dim.frozen_size
                                      : seen.frozen_size < 0 && seen.name == dim.name;
      if (!same) continue;
      if (dim.flexible && !seen.flexible) {
        fail("dimension '" + dim.name + "' is not flexible elsewhere, so it cannot have '?'",
             start);
      }
      if (!dim.flexible && seen.flexible) {
        fail("dimension '" + dim.name + "' is flexible elsewhere, so it needs '?'", start);
      }
      return static_cast<int>(ix);
    }
    sig_.dims.push_back(dim);
    return static_cast<int>(sig_.dims.size() - 1);
  }

  const std::string& text_;
  size_t pos_ = 0;
  Signature sig_;
};

}  // namespace

SignatureError::SignatureError(const std::string& what, size_t position, const std::string& text)
    : Error("gufunc_signature_error", error_message(what, position, text)), position_(position) {}

std::vector<std::string> Signature::core_dim_labels(int arg) const {
  std::vector<std::string> labels;
  for (int ix : args.at(static_cast<size_t>(arg)).dims) {
    const CoreDim& dim = dims[static_cast<size_t>(ix)];
    labels.push_back(dim.flexible ? dim.name + "?" : dim.name);
  }
  return labels;
}

Signature parse_signature(const std::string& text) { return Parser(text).run(); }

}  // namespace gufunc
