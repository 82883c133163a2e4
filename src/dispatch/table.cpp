// Lookup tables and multimethods (see table.hpp).
#include "dispatch/table.hpp"

#include <iterator>

#include "dispatch/typecheck.hpp"

namespace gufunc {

namespace {

[[noreturn]] void registration_error(const std::string& msg) {
  throw Error("gufunc_registration_error", msg);
}

// Every argument of a registered kernel set needs a dtype: a concrete R type or a
// type variable that some input binds. Returns the type codes (see type_codes()).
std::vector<int> check_typed(const Signature& sig, const std::string& fname) {
  std::vector<int> codes;
  std::vector<std::string> vars;
  if (sig.nargs() > GUFUNC_MAX_ARGS) {
    registration_error("kernel for `" + fname + "`: \"" + sig.text + "\" has more than " +
                       std::to_string(GUFUNC_MAX_ARGS) + " arguments");
  }
  for (int a = 0; a < sig.nargs(); ++a) {
    const std::string& t = sig.args[a].dtype;
    if (t.empty()) {
      registration_error("kernel for `" + fname + "`: argument " + std::to_string(a + 1) +
                         " of \"" + sig.text + "\" has no dtype");
    }
    gufunc_dtype d;
    if (dtype_from_name(t, &d)) {
      codes.push_back(d);
      continue;
    }
    size_t k = 0;
    while (k < vars.size() && vars[k] != t) ++k;
    if (k == vars.size()) vars.push_back(t);
    codes.push_back(-static_cast<int>(k) - 1);
    bool bound = false;
    for (int i = 0; i < sig.nin; ++i) bound = bound || sig.args[i].dtype == t;
    if (!bound) {
      registration_error("kernel for `" + fname + "`: type variable " + t + " of \"" + sig.text +
                         "\" is not bound by any input");
    }
  }
  return codes;
}

std::atomic<long> owned_alive{0};

}  // namespace

OwnedState::OwnedState(void* state, StateRelease release) : state_(state), release_(release) {
  ++owned_alive;
}

OwnedState::~OwnedState() {
  if (release_ != nullptr) release_(state_);
  --owned_alive;
}

long live_owned_states() { return owned_alive.load(); }

Function::Function(std::string name) : name_(std::move(name)) { refresh_view(); }

void Function::add(const gufunc_kernel_init& init) {
  if (init.signature == nullptr) registration_error("kernel for `" + name_ + "` has no signature");
  if (!init.C && !init.Fortran && !init.Xnd && !init.Strided) {
    registration_error("kernel set \"" + std::string(init.signature) + "\" for `" + name_ +
                       "` has no kernel");
  }
  Signature sig = parse_signature(init.signature);
  std::vector<int> codes = check_typed(sig, name_);
  for (const Signature& old : signatures_) {
    bool same = old.nin == sig.nin && old.nout == sig.nout;
    for (int i = 0; same && i < sig.nin; ++i) same = old.args[i].dtype == sig.args[i].dtype;
    if (same) {
      registration_error("`" + name_ + "` already has a kernel set for the inputs of \"" +
                         sig.text + "\" (\"" + old.text + "\")");
    }
  }
  texts_.push_back(init.signature);
  gufunc_kernel_set set = {texts_.back().c_str(), init.constraint, init.C, init.Fortran, init.Xnd,
                           init.Strided,          init.state};
  sets_.push_back(set);
  set_flags_.push_back(0u);
  row_kernels_.push_back(nullptr);
  signatures_.push_back(std::move(sig));
  type_codes_.push_back(std::move(codes));
  refresh_view();
}

void Function::add_owned(const gufunc_kernel_init& init, StateRelease release) {
  // Owned from here on: a failed add releases the state before the error leaves.
  std::unique_ptr<OwnedState> owned;
  try {
    owned = std::make_unique<OwnedState>(init.state, release);
  } catch (...) {
    if (release != nullptr) release(init.state);
    throw;
  }
  owned_.reserve(owned_.size() + 1);  // so that nothing can throw after add()
  add(init);
  owned_.push_back(std::move(owned));
}

void Function::set_typecheck(gufunc_typecheck_t fn) { view_.typecheck = fn; }

void Function::refresh_view() {
  view_.name = name_.c_str();
  view_.nkernels = size();
  view_.kernels = sets_.data();
}

Function* Table::find(const std::string& name) {
  auto alias = aliases_.find(name);
  const std::string& key = alias == aliases_.end() ? name : alias->second;
  auto it = functions_.find(key);
  return it == functions_.end() ? nullptr : it->second.get();
}

std::shared_ptr<Function> Table::share(const std::string& name) {
  auto alias = aliases_.find(name);
  const std::string& key = alias == aliases_.end() ? name : alias->second;
  auto it = functions_.find(key);
  return it == functions_.end() ? nullptr : it->second;
}

Function& Table::find_or_add(const std::string& name) {
  if (Function* f = find(name)) return *f;
  auto fn = std::make_shared<Function>(name);
  Function& ref = *fn;
  functions_[name] = std::move(fn);
  return ref;
}

void Table::add_kernel(const gufunc_kernel_init& init) {
  if (init.name == nullptr || init.name[0] == '\0') {
    registration_error("a kernel registered in namespace \"" + ns_ + "\" has no name");
  }
  find_or_add(init.name).add(init);
}

void Table::add_owned_kernel(const gufunc_kernel_init& init, StateRelease release) {
  if (init.name == nullptr || init.name[0] == '\0') {
    if (release != nullptr) release(init.state);
    registration_error("a kernel registered in namespace \"" + ns_ + "\" has no name");
  }
  Function* existing = find(init.name);
  Function& f = find_or_add(init.name);
  try {
    f.add_owned(init, release);
  } catch (...) {
    // A function created just for this set, now empty, does not stay behind.
    if (existing == nullptr && f.size() == 0) functions_.erase(init.name);
    throw;
  }
}

bool Table::remove_function(const std::string& name) {
  auto it = functions_.find(name);
  if (it == functions_.end()) return false;
  for (auto a = aliases_.begin(); a != aliases_.end();) {
    a = a->second == name ? aliases_.erase(a) : std::next(a);
  }
  functions_.erase(it);
  return true;
}

void Table::add_alias(const std::string& alias, const std::string& target) {
  if (functions_.count(target) == 0) {
    registration_error("alias `" + alias + "` names unknown function `" + target + "`");
  }
  aliases_[alias] = target;
}

std::vector<std::string> Table::names() const {
  std::vector<std::string> out;
  for (const auto& kv : functions_) out.push_back(kv.first);
  return out;
}

namespace {
std::map<std::string, std::unique_ptr<Table>>& tables() {
  static std::map<std::string, std::unique_ptr<Table>> all;
  return all;
}
}  // namespace

Table* find_table(const std::string& ns) {
  auto it = tables().find(ns);
  return it == tables().end() ? nullptr : it->second.get();
}

Table& existing_table(const std::string& ns) {
  Table* t = find_table(ns);
  if (t == nullptr)
    throw Error("gufunc_lookup_error", "there is no gufunc namespace \"" + ns + "\"");
  return *t;
}

Function& lookup(const std::string& ns, const std::string& name) {
  Function* f = existing_table(ns).find(name);
  if (f == nullptr) {
    throw Error("gufunc_lookup_error",
                "there is no function `" + name + "` in gufunc namespace \"" + ns + "\"");
  }
  return *f;
}

std::shared_ptr<Function> lookup_shared(const std::string& ns, const std::string& name) {
  lookup(ns, name);  // throws the lookup error
  return existing_table(ns).share(name);
}

Table& table(const std::string& ns) {
  auto& all = tables();
  auto it = all.find(ns);
  if (it != all.end()) return *it->second;
  auto t = std::make_unique<Table>(ns);
  Table& ref = *t;
  all[ns] = std::move(t);
  return ref;
}

bool remove_table(const std::string& ns) {
  if (ns == "base") registration_error("the \"base\" namespace holds gufunc's builtins");
  return tables().erase(ns) > 0;
}

std::vector<std::string> table_names() {
  std::vector<std::string> out;
  for (const auto& kv : tables()) out.push_back(kv.first);
  return out;
}

}  // namespace gufunc
