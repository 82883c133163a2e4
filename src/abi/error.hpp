// Errors in the core are exceptions that carry the R condition class they become.
#pragma once

#include <stdexcept>
#include <string>

namespace gufunc {

class Error : public std::runtime_error {
 public:
  Error(std::string condition_class, const std::string& message)
      : std::runtime_error(message), class_(std::move(condition_class)) {}
  // e.g. "gufunc_signature_error"; the bridge adds "gufunc_error", "error", "condition".
  const std::string& condition_class() const { return class_; }

 private:
  std::string class_;
};

}  // namespace gufunc
