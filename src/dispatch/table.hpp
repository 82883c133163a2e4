// Lookup tables: one per namespace, each mapping function names (and aliases) to
// multimethods, each multimethod holding kernel sets with parsed signatures.
#pragma once

#include <atomic>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "dispatch/builtin_traits.hpp"
#include "dispatch/row_kernel.hpp"
#include "gufunc/kernel_set.h"
#include "types/signature.hpp"

namespace gufunc {

// Frees the state of a kernel set that gufunc owns (gufunc_add_owned_kernel).
using StateRelease = void (*)(void* state);

// A kernel set's state owned by gufunc: released exactly once, when the kernel set
// goes: its function or namespace is removed (and no shared holder keeps the function,
// see Table::share), or the process ends.
class OwnedState {
 public:
  OwnedState(void* state, StateRelease release);
  OwnedState(const OwnedState&) = delete;
  OwnedState& operator=(const OwnedState&) = delete;
  ~OwnedState();

 private:
  void* state_;
  StateRelease release_;
};

// Owned states registered and not yet released, across the process (a test hook).
long live_owned_states();

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
  // The same, with init.state owned by gufunc from now on: released with the kernel
  // set, or at once if adding throws.
  void add_owned(const gufunc_kernel_init& init, StateRelease release);

  void set_typecheck(gufunc_typecheck_t fn);

  // Builtins only: the traits declared at registration (family None otherwise)
  // and the KernelSetFlag bits of kernel set i.
  const BuiltinTraits& traits() const { return traits_; }
  void set_traits(const BuiltinTraits& traits) { traits_ = traits; }
  unsigned set_flags(int i) const { return set_flags_[i]; }
  void add_set_flags(int i, unsigned flags) { set_flags_[i] |= flags; }
  // The row kernel of kernel set i (double operands and result), or nullptr.
  RowKernel row_kernel(int i) const { return row_kernels_[i]; }
  void set_row_kernel(int i, RowKernel k) { row_kernels_[i] = k; }
  // The ABI view of this multimethod (valid until the next add()).
  const gufunc_func* view() const { return &view_; }

 private:
  void refresh_view();

  std::string name_;
  std::deque<std::string> texts_;  // stable storage for set.signature
  std::vector<gufunc_kernel_set> sets_;
  std::vector<Signature> signatures_;
  std::vector<std::vector<int>> type_codes_;
  std::vector<std::unique_ptr<OwnedState>> owned_;  // states gufunc releases
  std::vector<unsigned> set_flags_;
  std::vector<RowKernel> row_kernels_;
  BuiltinTraits traits_;
  gufunc_func view_ = {nullptr, nullptr, 0, nullptr};
};

// The lookup table of one namespace.
class Table {
 public:
  explicit Table(std::string ns) : ns_(std::move(ns)) {}
  const std::string& ns() const { return ns_; }

  // The function registered under `name` or an alias of it; nullptr if none.
  Function* find(const std::string& name);
  // The same, shared: holders that outlive a call (deferred graphs) keep the
  // function, and so its owned states, alive after it is removed or replaced.
  std::shared_ptr<Function> share(const std::string& name);
  Function& find_or_add(const std::string& name);
  void add_kernel(const gufunc_kernel_init& init);
  void add_owned_kernel(const gufunc_kernel_init& init, StateRelease release);
  // Drops function `name` (not an alias) with its kernel sets, and the aliases
  // naming it; false if there was none.
  bool remove_function(const std::string& name);
  void add_alias(const std::string& alias, const std::string& target);
  // Name -> target of every alias.
  const std::map<std::string, std::string>& aliases() const { return aliases_; }
  // Sorted names of the functions (aliases not included).
  std::vector<std::string> names() const;

 private:
  std::string ns_;
  std::map<std::string, std::shared_ptr<Function>> functions_;
  std::map<std::string, std::string> aliases_;
};

// The process-wide tables. Registration happens on the main thread only.
Table* find_table(const std::string& ns);
// The table of `ns` / the function `name` in it; throw gufunc_lookup_error if missing.
Table& existing_table(const std::string& ns);
Function& lookup(const std::string& ns, const std::string& name);
// The same, for holders that outlive the call (lazy graphs): the function stays alive
// while they hold it, even if it is replaced or its namespace is removed.
std::shared_ptr<Function> lookup_shared(const std::string& ns, const std::string& name);
Table& table(const std::string& ns);  // created on first use
// Drops the table of `ns` (a package unloading its kernels); false if there was none.
// Throws gufunc_registration_error for "base", whose kernels are gufunc's own.
bool remove_table(const std::string& ns);
std::vector<std::string> table_names();

}  // namespace gufunc
