# The C++ source gufunc_cpp() compiles: a strided kernel (gufunc_strided_kernel_t)
# around the user's body, its state holding the bound params, and two .Call entries:
# one registering the kernel set with gufunc_add_owned_kernel(), one reporting how
# many states were created and released.

# C/C++ words a param may not be called, besides the generated names.
cpp_reserved_words <- c(
  "alignas", "alignof", "and", "asm", "auto", "bool", "break", "case", "catch", "char",
  "class", "const", "constexpr", "continue", "decltype", "default", "delete", "do",
  "double", "else", "enum", "explicit", "extern", "false", "float", "for", "friend", "goto",
  "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not",
  "nullptr", "operator", "or", "private", "protected", "public", "register", "return",
  "short", "signed", "sizeof", "static", "struct", "switch", "template", "this", "throw",
  "true", "try", "typedef", "typename", "union", "unsigned", "using", "virtual", "void",
  "volatile", "while", "fail", "R_xlen_t", "NA_REAL", "NA_INTEGER", "NA_LOGICAL"
)

cpp_types <- c(double = "double", integer = "int", logical = "int")

# The names the body sees: each named core dim, x0.. for inputs, out0.. for outputs.
cpp_dim_names <- function(sig) {
  dims <- unique(unlist(sig$core_dims))
  dims <- sub("?", "", dims, fixed = TRUE)
  unique(dims[grepl("^[A-Za-z_][A-Za-z0-9_]*$", dims)])
}

cpp_arg_names <- function(sig) {
  # sprintf, not paste0: no inputs give no names (paste0("x", integer()) is "x").
  c(sprintf("x%d", seq_len(sig$nin) - 1L), sprintf("out%d", seq_len(sig$nout) - 1L))
}

# gufunc_cpp() needs concrete types, at most GUFUNC_MAX_ARGS arguments (checked
# before compiling: registration would refuse more) and params that are valid,
# unused C++ names.
check_cpp_signature <- function(sig, call) {
  max_args <- .Call(C_user_max_args)
  if (sig$nin + sig$nout > max_args) {
    abort_argument("signature", sprintf(
      "has %d arguments (inputs and outputs); a gufunc takes at most %d",
      sig$nin + sig$nout, max_args), call = call)
  }
  check_typed_signature(sig, call = call)
  bad <- which(!sig$dtypes %in% names(cpp_types))
  if (length(bad)) {
    stop(errorCondition(
      sprintf("argument %d of \"%s\" has type variable %s; %s", bad[[1L]], sig$text,
              sig$dtypes[[bad[[1L]]]], "gufunc_cpp() needs double, integer or logical"),
      class = c("gufunc_registration_error", "gufunc_error"), call = call))
  }
  clash <- intersect(cpp_dim_names(sig), c(cpp_arg_names(sig), cpp_reserved_words))
  if (length(clash)) {
    abort_argument("signature", sprintf(
      "names a core dimension `%s`, which is taken in the kernel body", clash[[1L]]), call = call)
  }
}

check_cpp_params <- function(params, sig, call) {
  if (is.null(params)) return(numeric())
  nm <- names(params)
  if (!is.numeric(params) || is.object(params) || is.null(nm)) {
    abort_argument("params", sprintf("must be a named numeric vector or NULL, not %s",
                                     describe(params)), call = call)
  }
  taken <- c(cpp_dim_names(sig), cpp_arg_names(sig), cpp_reserved_words)
  for (p in nm) {
    problem <- if (is.na(p) || !grepl("^[A-Za-z_][A-Za-z0-9_]*$", p)) {
      "is not a C++ identifier"
    } else if (p %in% taken || startsWith(p, "gufunc_")) {
      "is taken in the kernel body"
    }
    if (!is.null(problem)) {
      abort_argument("params", sprintf("has a name `%s` that %s", p, problem), call = call)
    }
  }
  if (anyDuplicated(nm)) {
    abort_argument("params", sprintf("has the name `%s` twice", nm[anyDuplicated(nm)]),
                   call = call)
  }
  stats::setNames(as.double(params), nm)
}

# "Rmath.h" -> "#include <Rmath.h>"; lines already written with <> or "" stay.
cpp_include_lines <- function(includes) {
  inc <- trimws(includes)
  inc <- ifelse(grepl("^#", inc), inc,
                ifelse(grepl("^[<\"]", inc), paste("#include", inc), sprintf("#include <%s>", inc)))
  as.character(inc)
}

cpp_string_literal <- function(x) {
  x <- gsub("\\", "\\\\", x, fixed = TRUE)
  paste0("\"", gsub("\"", "\\\"", x, fixed = TRUE), "\"")
}

# The per-argument code. Argument a's core dims index the signature's distinct dims;
# the kernel receives their sizes in dimensions[1 + d] and their byte strides in
# steps[nargs + k], k counting core dims over all arguments in order. Cores laid out
# as R lays out an array are read in place; others go through a buffer (`gather`
# before the body, `scatter` after it, for outputs). When every core is in place the
# kernel runs a loop that only advances pointers (`fast_*`).
cpp_arg_blocks <- function(sig) {
  all_dims <- unique(unlist(sig$core_dims))
  nargs <- sig$nin + sig$nout
  names <- cpp_arg_names(sig)
  out <- list(setup = character(), params = character(), contig = character(),
              fast_setup = character(), fast_advance = character(), fast_args = character(),
              gather = character(), args = character(), scatter = character())
  k <- 0L
  for (a in seq_len(nargs)) {
    i <- a - 1L
    dims <- sig$core_dims[[a]]
    type <- cpp_types[[sig$dtypes[[a]]]]
    input <- a <= sig$nin
    const <- if (input) "const " else ""
    nd <- length(dims)
    sizes <- if (nd) paste0("gufunc_dims_[", match(dims, all_dims), "]") else "1"
    strides <- if (nd) paste0("gufunc_steps_[", nargs + k + seq_len(nd) - 1L, "]") else "0"
    k <- k + nd
    v <- function(stem) sprintf("gufunc_%s%d_", stem, i)
    out$setup <- c(out$setup,
      sprintf("  const intptr_t %s[] = {%s};", v("size"), paste(sizes, collapse = ", ")),
      sprintf("  const intptr_t %s[] = {%s};", v("stride"), paste(strides, collapse = ", ")),
      sprintf("  const bool %s = gufunc_cpp_contiguous(%d, %s, %s, sizeof(%s));",
              v("contig"), nd, v("size"), v("stride"), type),
      sprintf("  std::vector<%s> %s(%s ? 0 : gufunc_cpp_count(%d, %s));",
              type, v("buf"), v("contig"), nd, v("size")))
    out$params <- c(out$params, sprintf("%s%s* %s", const, type, names[[a]]))
    out$contig <- c(out$contig, v("contig"))
    out$fast_setup <- c(out$fast_setup,
      sprintf("      %schar* %s = gufunc_args_[%d];", const, v("p"), i),
      sprintf("      const intptr_t %s = gufunc_steps_[%d];", v("s"), i))
    out$fast_advance <- c(out$fast_advance, sprintf("%s += %s", v("p"), v("s")))
    out$fast_args <- c(out$fast_args, sprintf("reinterpret_cast<%s%s*>(%s)", const, type, v("p")))
    at <- sprintf("gufunc_args_[%d] + gufunc_i_ * gufunc_steps_[%d]", i, i)
    out$gather <- c(out$gather,
      sprintf("        char* %s = %s;", v("at"), at),
      if (input) sprintf("        if (!%s) gufunc_cpp_copy(%s, %d, %s, %s, %s.data(), true);",
                         v("contig"), v("at"), nd, v("size"), v("stride"), v("buf")))
    out$args <- c(out$args, sprintf("%s ? reinterpret_cast<%s%s*>(%s) : %s.data()",
                                    v("contig"), const, type, v("at"), v("buf")))
    if (!input) {
      out$scatter <- c(out$scatter,
        sprintf("        if (!%s) gufunc_cpp_copy(%s, %d, %s, %s, %s.data(), false);",
                v("contig"), v("at"), nd, v("size"), v("stride"), v("buf")))
    }
  }
  out
}

# The whole translation unit; `key` names its entry points.
cpp_kernel_source <- function(sig, body, includes, param_names, key) {
  all_dims <- unique(unlist(sig$core_dims))
  dim_vars <- vapply(cpp_dim_names(sig), function(d) {
    at <- match(d, sub("?", "", all_dims, fixed = TRUE))
    sprintf("  const R_xlen_t %s = static_cast<R_xlen_t>(gufunc_dims_[%d]);\n  (void)%s;", d, at, d)
  }, "")
  param_vars <- sprintf("  const double %s = gufunc_state_->params[%d];\n  (void)%s;",
                        param_names, seq_along(param_names) - 1L, param_names)
  blocks <- cpp_arg_blocks(sig)
  lines <- c(
    "// Generated by gufunc::gufunc_cpp(); edits are lost when the cache is rebuilt.",
    paste("// signature:", format(sig)),
    "#include <R.h>",
    "#include <Rinternals.h>",
    "#include <math.h>",
    "#include <atomic>",
    "#include <cmath>",
    "#include <cstdint>",
    "#include <exception>",
    "#include <new>",
    "#include <vector>",
    "#include <gufunc/callables.h>",
    cpp_include_lines(includes),
    "",
    "namespace {",
    "",
    sprintf("const int gufunc_nparams_ = %d;", length(param_names)),
    "// The kernel's closure-like state: the params bound at construction.",
    "struct gufunc_cpp_state {",
    "  double params[gufunc_nparams_ > 0 ? gufunc_nparams_ : 1];",
    "};",
    "std::atomic<long> gufunc_created_{0}, gufunc_released_{0};",
    "",
    "// Called by gufunc exactly once, when the kernel set is removed.",
    "void gufunc_cpp_release(void* state) {",
    "  delete static_cast<gufunc_cpp_state*>(state);",
    "  ++gufunc_released_;",
    "}",
    "",
    "intptr_t gufunc_cpp_count(int ndim, const intptr_t* size) {",
    "  intptr_t n = 1;",
    "  for (int d = 0; d < ndim; ++d) n *= size[d];",
    "  return n;",
    "}",
    "",
    "// Column-major without gaps (size-1 dims do not count), as R lays out a core.",
    "bool gufunc_cpp_contiguous(int ndim, const intptr_t* size, const intptr_t* stride,",
    "                           intptr_t itemsize) {",
    "  intptr_t expect = itemsize;",
    "  for (int d = 0; d < ndim; ++d) {",
    "    if (size[d] == 0) return true;",
    "    if (size[d] != 1 && stride[d] != expect) return false;",
    "    expect *= size[d];",
    "  }",
    "  return true;",
    "}",
    "",
    "// Copies a strided core slice into a contiguous buffer (or back).",
    "template <class T>",
    "void gufunc_cpp_copy(char* base, int ndim, const intptr_t* size, const intptr_t* stride,",
    "                     T* buf, bool to_buf) {",
    "  intptr_t idx[64] = {0}, off = 0;",
    "  const intptr_t total = gufunc_cpp_count(ndim, size);",
    "  for (intptr_t k = 0; k < total; ++k) {",
    "    T* p = reinterpret_cast<T*>(base + off);",
    "    if (to_buf) buf[k] = *p; else *p = buf[k];",
    "    for (int d = 0; d < ndim; ++d) {",
    "      off += stride[d];",
    "      if (++idx[d] < size[d]) break;",
    "      off -= stride[d] * size[d];",
    "      idx[d] = 0;",
    "    }",
    "  }",
    "}",
    "",
    "int gufunc_cpp_kernel(char** gufunc_args_, const intptr_t* gufunc_dims_,",
    "                      const intptr_t* gufunc_steps_, void* gufunc_data_) {",
    "  gufunc_loop_data* gufunc_loop_ = static_cast<gufunc_loop_data*>(gufunc_data_);",
    "  const gufunc_cpp_state* gufunc_state_ =",
    "      static_cast<const gufunc_cpp_state*>(gufunc_loop_->state);",
    "  (void)gufunc_state_;",
    "  const intptr_t gufunc_n_ = gufunc_dims_[0];",
    unname(dim_vars),
    param_vars,
    "  try {",
    blocks$setup,
    "  // One loop iteration; `fail()` reports the iteration as the failing slice.",
    sprintf("  auto gufunc_body_ = [&](%s, intptr_t gufunc_i_) -> int {",
            paste(blocks$params, collapse = ", ")),
    sprintf("    (void)%s;", c(cpp_arg_names(sig), "gufunc_i_")),
    "#define fail(...) return gufunc_error_at(gufunc_loop_->ctx, gufunc_i_, __VA_ARGS__)",
    "#define check_interrupt() \\",
    "  do { \\",
    "    gufunc_context* gufunc_c_ = gufunc_loop_->ctx; \\",
    "    if (gufunc_should_stop(gufunc_c_)) return gufunc_stopped(gufunc_c_); \\",
    "  } while (0)",
    "#line 1 \"gufunc_cpp body\"",
    strsplit(body, "\n", fixed = TRUE)[[1L]],
    "#line @NEXT@ @FILE@",
    "#undef check_interrupt",
    "#undef fail",
    "    return 0;",
    "  };",
    "  intptr_t gufunc_i_ = 0;",
    "  int gufunc_status_ = 0;",
    "  try {",
    sprintf("    if (%s) {", paste(blocks$contig, collapse = " && ")),
    blocks$fast_setup,
    sprintf("      for (; gufunc_i_ < gufunc_n_; ++gufunc_i_, %s) {",
            paste(blocks$fast_advance, collapse = ", ")),
    sprintf("        gufunc_status_ = gufunc_body_(%s, gufunc_i_);",
            paste(blocks$fast_args, collapse = ", ")),
    "        if (gufunc_status_ != 0) break;",
    "      }",
    "    } else {",
    "      for (; gufunc_i_ < gufunc_n_; ++gufunc_i_) {",
    blocks$gather,
    sprintf("        gufunc_status_ = gufunc_body_(%s, gufunc_i_);",
            paste(blocks$args, collapse = ", ")),
    "        if (gufunc_status_ != 0) break;",
    blocks$scatter,
    "      }",
    "    }",
    "  } catch (const std::exception& e) {",
    "    return gufunc_error_at(gufunc_loop_->ctx, gufunc_i_, \"%s\", e.what());",
    "  } catch (...) {",
    "    return gufunc_error_at(gufunc_loop_->ctx, gufunc_i_, \"unknown C++ exception\");",
    "  }",
    "  if (gufunc_status_ != 0) {",
    "    if (gufunc_loop_->ctx->status == 0) {",
    "      gufunc_error_at(gufunc_loop_->ctx, gufunc_i_, \"the kernel body returned %d\",",
    "                      gufunc_status_);",
    "    }",
    "    return -1;",
    "  }",
    "  } catch (const std::bad_alloc&) {",
    "    return gufunc_error(gufunc_loop_->ctx, \"cannot allocate the kernel's buffers\");",
    "  }",
    "  return 0;",
    "}",
    "",
    "}  // namespace",
    "",
    "// Binds `params` into a new state and registers the kernel set as function `name`",
    "// of namespace `ns`, replacing any function of that name (whose states gufunc",
    "// releases). gufunc owns the new state from gufunc_add_owned_kernel() on.",
    sprintf("extern \"C\" SEXP gufunc_cpp_register_%s(SEXP ns, SEXP name, SEXP params) {", key),
    "  gufunc_context ctx;",
    "  gufunc_context_init(&ctx);",
    "  if (gufunc_abi_version() != GUFUNC_ABI_VERSION) {",
    "    Rf_error(\"this kernel was compiled for gufunc ABI %d, but gufunc speaks ABI %d\",",
    "             GUFUNC_ABI_VERSION, gufunc_abi_version());",
    "  }",
    "  if (Rf_length(params) != gufunc_nparams_) Rf_error(\"expected %d params\", gufunc_nparams_);",
    "  gufunc_table* table = gufunc_table_get(CHAR(STRING_ELT(ns, 0)));",
    "  if (table == NULL) Rf_error(\"no lookup table for this namespace\");",
    "  if (gufunc_remove_function(table, CHAR(STRING_ELT(name, 0)), &ctx) != 0) {",
    "    Rf_error(\"%s\", ctx.msg);",
    "  }",
    "  gufunc_cpp_state* state = new (std::nothrow) gufunc_cpp_state();",
    "  if (state == NULL) Rf_error(\"cannot allocate the kernel state\");",
    "  for (int k = 0; k < gufunc_nparams_; ++k) state->params[k] = REAL(params)[k];",
    "  ++gufunc_created_;",
    sprintf("  const gufunc_kernel_init init = {CHAR(STRING_ELT(name, 0)), %s,",
            cpp_string_literal(format(sig))),
    "                                     NULL, NULL, NULL,",
    "                                     NULL, &gufunc_cpp_kernel, state};",
    "  if (gufunc_add_owned_kernel(table, &init, &gufunc_cpp_release, &ctx) != 0) {",
    "    Rf_error(\"%s\", ctx.msg);",
    "  }",
    "  return R_NilValue;",
    "}",
    "",
    "// c(created, released): kernel states of this library.",
    sprintf("extern \"C\" SEXP gufunc_cpp_states_%s(void) {", key),
    "  SEXP out = PROTECT(Rf_allocVector(REALSXP, 2));",
    "  REAL(out)[0] = static_cast<double>(gufunc_created_.load());",
    "  REAL(out)[1] = static_cast<double>(gufunc_released_.load());",
    "  UNPROTECT(1);",
    "  return out;",
    "}"
  )
  next_line <- which(lines == "#line @NEXT@ @FILE@")
  lines[[next_line]] <- sprintf("#line %d \"gufunc_%s.cpp\"", next_line + 1L, key)
  paste0(paste(lines, collapse = "\n"), "\n")
}
