# Running generated programs on plain and on lazy() inputs, for the randomized
# differential tests (test-differential-value-semantics.R,
# test-differential-direct-writes.R). A program is a list of `prelude`, `steps` and
# `final` expressions; it runs as one body that ends with a snapshot of its frame.

# A value made plain: lazy values materialized, lists element by element,
# environments as the snapshot of their variables, attributes other than names,
# dim, dimnames and class made plain too.
program_plain <- function(v) {
  if (is.environment(v)) return(list(environment = program_snapshot(v)))
  if (inherits(v, "gufunc_lazy")) return(materialize(v))
  if (is.list(v) && length(v)) v[] <- lapply(v, program_plain)
  for (a in setdiff(names(attributes(v)), c("names", "dim", "dimnames", "class"))) {
    attr(v, a) <- program_plain(attr(v, a))
  }
  v
}

# Every variable of `env` but functions, by name, made plain.
program_snapshot <- function(env) {
  out <- list()
  for (nm in sort(ls(env, all.names = TRUE))) {
    v <- get(nm, envir = env, inherits = FALSE)
    if (!is.function(v)) out[[nm]] <- program_plain(v)
  }
  out
}

# The body of a program: its prelude, steps and final steps, then the snapshot of
# the frame it runs in.
program_body <- function(prog) {
  as.call(c(as.name("{"), prog$prelude, prog$steps, prog$final,
            list(quote(program_snapshot(environment())))))
}

# list(value, warnings) of program `prog` run in environment `host` on `args` (a
# named list). `mode`: "function" (the body of a closure called with the args; R's
# JIT decides), "interpreted" (the same with the JIT off), "compiled"
# (byte-compiled) or "local" (the top level of local(), the args in `host`). An
# error gives its message, of class "program_error".
program_run <- function(prog, args, host, mode) {
  if (mode == "interpreted") {
    old_jit <- compiler::enableJIT(0)
    on.exit(compiler::enableJIT(old_jit))
  }
  warnings <- character()
  value <- tryCatch(withCallingHandlers({
    if (mode == "local") {
      for (nm in names(args)) assign(nm, args[[nm]], envir = host)
      eval(call("local", program_body(prog)), host)
    } else {
      formals <- rep(list(quote(expr = )), length(args))
      names(formals) <- names(args)
      f <- eval(call("function", as.pairlist(formals), program_body(prog)), host)
      if (mode == "compiled") f <- compiler::cmpfun(f)
      do.call(f, args)
    }
  }, warning = function(w) {
    warnings <<- c(warnings, conditionMessage(w))
    invokeRestart("muffleWarning")
  }), error = function(e) structure(conditionMessage(e), class = "program_error"))
  list(value = value, warnings = sort(unique(warnings)))
}

# One element of x, at random; one name of the positive weights w, by weight.
pick_one <- function(x) x[[sample.int(length(x), 1L)]]
pick_weighted <- function(w) {
  w <- w[w > 0]
  names(w)[sample.int(length(w), 1L, prob = w)]
}

# What differs between base R's run and the lazy run (program_run() results) of one
# program: its inputs changed (`kept`: a copy made before), warnings, an error on
# one side only or another error, the variables left, and each variable, bit for
# bit (-0 is not 0, NA and NaN payloads count). Nothing when they agree.
program_differences <- function(base, got, inputs, kept) {
  bad <- character()
  if (!identical(inputs, kept)) bad <- c(bad, "an input changed")
  if (!identical(got$warnings, base$warnings)) {
    bad <- c(bad, sprintf("warnings: base {%s} lazy {%s}", toString(base$warnings),
                          toString(got$warnings)))
  }
  b <- base$value
  g <- got$value
  failed <- function(v) inherits(v, "program_error")
  if (failed(b) || failed(g)) {
    if (!identical(b, g)) {
      bad <- c(bad, sprintf("outcome: base %s | lazy %s",
                            if (failed(b)) paste("error:", b) else "value",
                            if (failed(g)) paste("error:", g) else "value"))
    }
    return(bad)
  }
  if (!identical(names(b), names(g))) {
    bad <- c(bad, sprintf("variables: base {%s} lazy {%s}", toString(names(b)),
                          toString(names(g))))
  }
  for (nm in intersect(names(b), names(g))) {
    if (!identical(b[[nm]], g[[nm]], num.eq = FALSE, single.NA = FALSE)) {
      bad <- c(bad, paste("variable", nm, "differs"))
    }
  }
  bad
}

# `prog` with steps (and helpers) left out, one at a time, while mismatches(trial)
# stays TRUE (at most `budget` trials).
program_shrink <- function(prog, mismatches, budget = Inf) {
  repeat {
    shrunk <- FALSE
    for (part in c("final", "steps", "prelude")) {
      for (k in rev(seq_along(prog[[part]]))) {
        if (budget <= 0) return(prog)
        budget <- budget - 1
        trial <- prog
        trial[[part]] <- prog[[part]][-k]
        if (mismatches(trial)) {
          prog <- trial
          shrunk <- TRUE
        }
      }
    }
    if (!shrunk) return(prog)
  }
}

# Gaussian elimination without pivoting: the benchmark's program
# (inst/benchmarks/programs/gauss.R). Each step subtracts the outer product of the
# pivot's column (divided by the pivot) and its row from the block below and right
# of it.
eliminate <- function(a) {
  program <- new.env()
  sys.source(system.file("benchmarks", "programs", "gauss.R", package = "gufunc", mustWork = TRUE),
             program)
  program$gauss$run(a)
}
