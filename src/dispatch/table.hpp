// Lookup tables: one per namespace, each mapping function names (and aliases) to
// multimethods, each multimethod holding kernel sets with parsed signatures.
#pragma once

#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "gufunc/kernel_set.h"
#include "types/signature.hpp"

namespace gufunc {

// A multimethod: a function name and its kernel sets in registration order.
class Function {
 public:
  explicit Function(std::string name);
  Function(const Function&) = delete;
  Function& operator=(const Function&) = delete;

  const std::string& name() const { return name_; }
  int size() const { return static_cast<int>(sets_.size()); }
  const gufunc_kernel_set& set(int i) const { return sets_[i]; }
  const Signature& signature(int i) const { return signatures_[i]; }
  // Per argument of kernel set i: its gufunc_dtype (>= 0), or -(k + 1) for the
  // k-th type variable. Computed at registration so type checks parse nothing.
  const std::vector<int>& type_codes(int i) const { return type_codes_[i]; }

  // Adds a kernel set; throws gufunc_signature_error or gufunc_registration_error
  // (no kernel slot, a duplicate typed signature, untyped arguments).
  void add(const gufunc_kernel_init& init);

  void set_typecheck(gufunc_typecheck_t fn);
  // The ABI view of this multimethod (valid until the next add()).
  const gufunc_func* view() const { return &view_; }

 private:
  void refresh_view();

  std::string name_;
  std::deque<std::string> texts_;  // stable storage for set.signature
  std::vector<gufunc_kernel_set> sets_;
  std::vector<Signature> signatures_;
  std::vector<std::vector<int>> type_codes_;
  gufunc_func view_ = {nullptr, nullptr, 0, nullptr};
};

// The lookup table of one namespace.
class Table {
 public:
  explicit Table(std::string ns) : ns_(std::move(ns)) {}
  const std::string& ns() const { return ns_; }

  // The function registered under `name` or an alias of it; nullptr if none.
  Function* find(const std::string& name);
  Function& find_or_add(const std::string& name);
  void add_kernel(const gufunc_kernel_init& init);
  void add_alias(const std::string& alias, const std::string& target);
  // Sorted names of the functions (aliases not included).
  std::vector<std::string> names() const;

 private:
  std::string ns_;
  std::map<std::string, std::unique_ptr<Function>> functions_;
  std::map<std::string, std::string> aliases_;
};

// The process-wide tables. Registration happens on the main thread only.
Table* find_table(const std::string& ns);
// The table of `ns` / the function `name` in it; throw gufunc_lookup_error if missing.
Table& existing_table(const std::string& ns);
Function& lookup(const std::string& ns, const std::string& name);
Table& table(const std::string& ns);  // created on first use
// Drops the table of `ns` (a package unloading its kernels); false if there was none.
// Throws gufunc_registration_error for "base", whose kernels are gufunc's own.
bool remove_table(const std::string& ns);
std::vector<std::string> table_names();

}  // namespace gufunc
