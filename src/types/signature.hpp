// A parsed gufunc signature: NumPy's layout grammar with an optional dtype per argument.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "abi/error.hpp"

namespace gufunc {

// One distinct core dimension name of a signature.
struct CoreDim {
  std::string name;           // "n", or the digits of a frozen dim ("3")
  intptr_t frozen_size = -1;  // size of a frozen dim, -1 otherwise
  bool flexible = false;      // written with '?'
};

// One argument: its dtype ("" when none is given; "double", "integer", "logical",
// or a type variable such as "T") and its core dims as indexes into Signature::dims.
struct ArgSpec {
  std::string dtype;
  std::vector<int> dims;
};

struct Signature {
  std::string text;
  int nin = 0;
  int nout = 0;
  std::vector<ArgSpec> args;  // inputs, then outputs
  std::vector<CoreDim> dims;  // distinct core dims in order of first appearance

  int nargs() const { return nin + nout; }
  // The dims of argument `arg` as written: names, frozen sizes as digits, flexible with '?'.
  std::vector<std::string> core_dim_labels(int arg) const;
};

// Thrown for an invalid signature; `position` is the 0-based offset in the text.
class SignatureError : public Error {
 public:
  SignatureError(const std::string& what, size_t position, const std::string& text);
  size_t position() const { return position_; }

 private:
  size_t position_;
};

// Parses `text`; throws SignatureError.
Signature parse_signature(const std::string& text);

}  // namespace gufunc
