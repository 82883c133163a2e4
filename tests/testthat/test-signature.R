# The signature grammar: NumPy's gufunc layout grammar plus dtypes. Layout cases
# follow NumPy's own signature tests (test_ufunc.py, test_function_base.py).

expect_signature <- function(sig, nin, nout, core_dims, dtypes = NULL) {
  if (is.null(dtypes)) dtypes <- rep(NA_character_, nin + nout)
  s <- parse_signature(sig)
  expect_s3_class(s, "gufunc_signature")
  expect_identical(names(s), c("text", "nin", "nout", "core_dims", "dtypes"))
  expect_identical(s$text, sig)
  expect_identical(s$nin, as.integer(nin))
  expect_identical(s$nout, as.integer(nout))
  expect_identical(s$core_dims, core_dims)
  expect_identical(s$dtypes, dtypes)
  invisible(s)
}

# Checks the class, the stated position and that the caret sits under it.
expect_signature_error <- function(sig, position) {
  err <- expect_error(parse_signature(sig), class = "gufunc_signature_error")
  expect_s3_class(err, c("gufunc_signature_error", "gufunc_error", "error", "condition"))
  msg <- conditionMessage(err)
  expect_match(msg, sprintf(" at position %d\n", position), fixed = TRUE)
  lines <- strsplit(msg, "\n", fixed = TRUE)[[1]]
  expect_length(lines, 3L)
  if (!grepl("\t", sig, fixed = TRUE)) {
    expect_identical(lines[[3]], paste0(strrep(" ", 4L + position), "^"))
  }
  invisible(err)
}

none <- character()
parsed_fields <- c("nin", "nout", "core_dims", "dtypes")

test_that("NumPy's valid layouts parse to the expected core dims", {
  expect_signature("(i),(i)->()", 2, 1, list("i", "i", none))
  expect_signature("(),()->()", 2, 1, list(none, none, none))
  expect_signature("(i1,i2),(J_1)->(_kAB)", 2, 1, list(c("i1", "i2"), "J_1", "_kAB"))
  expect_signature(
    "(i1, i12),   (J_1)->(i12, i2)", 2, 1,
    list(c("i1", "i12"), "J_1", c("i12", "i2"))
  )
  expect_signature("(n,k),(k,m)->(n,m)", 2, 1, list(c("n", "k"), c("k", "m"), c("n", "m")))
  expect_signature("(m,n),(n,p)->(m,p)", 2, 1, list(c("m", "n"), c("n", "p"), c("m", "p")))
  expect_signature("(n),(n)->(n)", 2, 1, list("n", "n", "n"))
  expect_signature("(n,n)->()", 1, 1, list(c("n", "n"), none))
  expect_signature("(i)->(i),(j)", 1, 2, list("i", "i", "j"))
  expect_signature("(double)->(logical)", 1, 1, list("double", "logical"))
})

test_that("flexible dims keep their '?'", {
  expect_signature("(n?,k),(k,m?)->(n?,m?)", 2, 1, list(c("n?", "k"), c("k", "m?"), c("n?", "m?")))
  expect_signature("(3?),(3?,3?),(n)->(9)", 3, 1, list("3?", c("3?", "3?"), "n", "9"))
  expect_signature("( 3? ) , (3? ,  3?) ,(n )-> ( 9)", 3, 1, list("3?", c("3?", "3?"), "n", "9"))
})

test_that("frozen dims are their sizes as strings", {
  expect_signature("(3)->()", 1, 1, list("3", none))
  expect_signature("(3),(3)->(3)", 2, 1, list("3", "3", "3"))
  # 03 and 3 are the same frozen dim, written without the leading zero
  expect_signature("(3),(03,3),(n)->(9)", 3, 1, list("3", c("3", "3"), "n", "9"))
  expect_signature("(007,n)->(n,10)", 1, 1, list(c("7", "n"), c("n", "10")))
})

test_that("the largest frozen size is one below the pointer range", {
  skip_if(.Machine$sizeof.pointer != 8L)
  expect_signature("(9223372036854775806)->()", 1, 1, list("9223372036854775806", none))
  expect_signature_error("(9223372036854775807)->()", 1)
})

test_that("a signature may have no inputs but needs '->' and an output", {
  expect_signature("->(n)", 0, 1, list("n"))
  expect_signature("  ->  double", 0, 1, list(none), "double")
  expect_signature_error("", 0)
  expect_signature_error("   ", 3)
  expect_signature_error("(i)", 3)
  expect_signature_error("(i)->", 5)
  expect_signature_error("(x),(y)->", 9)
  expect_signature_error("->", 2)
})

test_that("spaces and tabs may stand between tokens", {
  compact <- parse_signature("(m,n?),(n?,3)->(m,3)")
  spaced <- c(
    " ( m , n? ) , ( n? , 3 ) -> ( m , 3 ) ",
    "\t(\tm\t,\tn?\t)\t,\t(\tn?\t,\t3\t)\t->\t(\tm\t,\t3\t)\t",
    "(m,n?)   ,(n?,3)->   (m,3)"
  )
  for (sig in spaced) {
    s <- parse_signature(sig)
    expect_identical(s[parsed_fields], compact[parsed_fields])
  }
  typed <- parse_signature("double(n),T(n)->T")
  s <- parse_signature("  double ( n ) ,\tT\t(n)  ->  T  ")
  expect_identical(s[parsed_fields], typed[parsed_fields])
})

test_that("whitespace is not allowed inside tokens, and only spaces and tabs count", {
  expect_signature_error("(i)- >()", 3)
  expect_signature_error("(n ?)->()", 3)
  expect_signature_error("(i)\n->()", 3)
  expect_signature_error("(i)->()\n", 7)
  expect_signature_error("(i)\r->()", 3)
})

test_that("a dtype may stand before an argument", {
  expect_signature(
    "double(m,n), double(n,p) -> double(m,p)", 2, 1,
    list(c("m", "n"), c("n", "p"), c("m", "p")), c("double", "double", "double")
  )
  expect_signature("integer(n) -> logical(n)", 1, 1, list("n", "n"), c("integer", "logical"))
  expect_signature(
    "double (n), (n) -> double", 2, 1,
    list("n", "n", none), c("double", NA, "double")
  )
  expect_signature("double()->double", 1, 1, list(none, none), c("double", "double"))
  expect_signature("logical(3?)->logical", 1, 1, list("3?", none), c("logical", "logical"))
})

test_that("a bare dtype is a scalar core", {
  expect_signature(
    "double, double -> double", 2, 1,
    list(none, none, none), c("double", "double", "double")
  )
  expect_signature("integer,logical->double,integer", 2, 2, list(none, none, none, none),
                   c("integer", "logical", "double", "integer"))
})

test_that("type variables start with an upper-case letter", {
  expect_signature("T(n), T(n) -> T()", 2, 1, list("n", "n", none), c("T", "T", "T"))
  expect_signature("T(n), U -> T(n), U", 2, 2, list("n", none, "n", none), c("T", "U", "T", "U"))
  expect_signature("Elem_2(k) -> Elem_2", 1, 1, list("k", none), c("Elem_2", "Elem_2"))
  expect_signature("Double(n) -> Double", 1, 1, list("n", none), c("Double", "Double"))
})

test_that("anything else as a dtype is an error at the dtype", {
  expect_signature_error("numeric(n)->()", 0)
  expect_signature_error("double(n)->float", 11)
  expect_signature_error("t(n)->()", 0)
  expect_signature_error("_T(n)->()", 0)
  expect_signature_error("(n), character -> ()", 5)
  expect_signature_error("double[n]->()", 6)
  expect_signature_error("double double -> double", 7)
  expect_signature_error("double.x -> double", 6)
})

test_that("NumPy's rejected layouts are rejected at the offending position", {
  expect_signature_error("(m,n),(n,p->(m,p)", 10)
  expect_signature_error("((i)),(i)->()", 1)
  expect_signature_error("(i),)i(->()", 4)
  expect_signature_error("(i),->()", 4)
  expect_signature_error("(x)(y)->()", 3)
  expect_signature_error("(i)->(i)->(i)", 8)
  expect_signature_error("(n|1),(n|1)->()", 2)
})

test_that("commas need something on both sides", {
  expect_signature_error("(i,)->()", 3)
  expect_signature_error("(i, )->()", 4)
  expect_signature_error("(,i)->()", 1)
  expect_signature_error("(i,,j)->()", 3)
  expect_signature_error("(i)->(),", 8)
  expect_signature_error("(i)->(), ", 9)
  expect_signature_error(",(i)->()", 0)
})

test_that("unclosed parentheses are errors at the end or at the stray token", {
  expect_signature_error("(", 1)
  expect_signature_error("(i", 2)
  expect_signature_error("(i,", 3)
  expect_signature_error("(i) -> double(", 14)
  expect_signature_error("(i)->(j", 7)
})

test_that("frozen sizes are positive decimal integers", {
  expect_signature_error("(0)->()", 1)
  expect_signature_error("(00)->()", 1)
  expect_signature_error("(-3)->()", 1)
  expect_signature_error("(+3)->()", 1)
  expect_signature_error("(3.5)->()", 2)
  expect_signature_error("(3a)->()", 1)
  expect_signature_error("(1_0)->()", 1)
  expect_signature_error("(0x10)->()", 1)
  expect_signature_error("(99999999999999999999)->()", 1)
  expect_signature_error("(n, 3e2)->()", 4)
})

test_that("dimension names are ASCII identifiers with at most one '?'", {
  expect_signature_error("(n??)->()", 3)
  expect_signature_error("(?n)->()", 1)
  expect_signature_error("(n-1)->()", 2)
  expect_signature_error("(n.m)->()", 2)
  expect_signature_error("(\u00f1)->()", 1)
})

test_that("a dim flexible in one place must be flexible everywhere", {
  expect_signature_error("(n?),(n)->()", 6)
  expect_signature_error("(n),(n?)->()", 5)
  expect_signature_error("(n?,k)->(n)", 9)
  expect_signature_error("(3),(3?)->()", 5)
  expect_signature_error("(3?)->(03)", 7)
  expect_signature_error("double(n?), double(n) -> double", 19)
  # a frozen dim and a name never clash, whatever their flags
  expect_signature("(n?),(3)->(n?,3)", 2, 1, list("n?", "3", c("n?", "3")))
})

test_that("the message states the problem and shows a caret under it", {
  err <- expect_error(parse_signature("(m,n),(n,p->(m,p)"), class = "gufunc_signature_error")
  expect_identical(
    conditionMessage(err),
    "invalid signature: expected ',' or ')' at position 10\n    (m,n),(n,p->(m,p)\n              ^"
  )
  err <- expect_error(parse_signature("(n?),(n)->()"), class = "gufunc_signature_error")
  expect_match(conditionMessage(err), "dimension 'n' is flexible elsewhere", fixed = TRUE)
  err <- expect_error(parse_signature("numeric(n)->()"), class = "gufunc_signature_error")
  expect_match(conditionMessage(err), "unknown dtype 'numeric'", fixed = TRUE)
  # tabs before the caret are repeated so the caret lines up
  err <- expect_error(parse_signature("\t(i)\tx"), class = "gufunc_signature_error")
  expect_identical(
    conditionMessage(err),
    "invalid signature: expected ',' or '->' at position 5\n    \t(i)\tx\n    \t   \t^"
  )
  # a newline in the text is shown escaped so the caret stays on the next line
  err <- expect_error(parse_signature("(i)\n->()"), class = "gufunc_signature_error")
  expect_identical(
    conditionMessage(err),
    "invalid signature: expected ',' or '->' at position 3\n    (i)\\n->()\n       ^"
  )
})

test_that("the error is attributed to the user's call", {
  err <- expect_error(parse_signature("(i"), class = "gufunc_signature_error")
  expect_identical(conditionCall(err)[[1]], quote(parse_signature))
})

test_that("random well-formed signatures parse to what they were built from", {
  set.seed(20240521)
  names <- c("m", "n", "k_1", "Q", "3", "12")
  dtypes <- c(NA, "double", "integer", "logical", "T", "U2")
  space <- function() sample(c("", "", " ", "\t", "  "), 1L)
  for (iteration in 1:300) {
    flexible <- stats::setNames(sample(c(TRUE, FALSE), length(names), replace = TRUE), names)
    nin <- sample(0:3, 1L)
    nout <- sample(1:3, 1L)
    written <- character(nin + nout)
    expected_dims <- vector("list", nin + nout)
    expected_dtypes <- sample(dtypes, nin + nout, replace = TRUE)
    for (a in seq_len(nin + nout)) {
      dims <- sample(names, sample(0:3, 1L), replace = TRUE)
      labels <- paste0(dims, ifelse(flexible[dims], "?", ""))
      # frozen sizes may be written with leading zeros
      padded <- grepl("^[0-9]", labels) & runif(length(labels)) < 0.3
      spelled <- ifelse(padded, paste0("0", labels), labels)
      expected_dims[[a]] <- labels
      core <- if (length(dims) == 0L) {
        paste0("(", space(), ")")
      } else {
        paste0("(", space(), paste(paste0(spelled, space()), collapse = paste0(",", space())), ")")
      }
      dtype <- expected_dtypes[[a]]
      written[[a]] <- if (is.na(dtype)) {
        core
      } else if (length(dims) == 0L && runif(1L) < 0.5) {
        dtype
      } else {
        paste0(dtype, space(), core)
      }
    }
    sep <- function() paste0(space(), ",", space())
    sig <- paste0(
      space(), paste(written[seq_len(nin)], collapse = sep()), space(), "->", space(),
      paste(written[nin + seq_len(nout)], collapse = sep()), space()
    )
    s <- parse_signature(sig)
    expect_identical(s$nin, nin)
    expect_identical(s$nout, nout)
    expect_identical(s$core_dims, lapply(expected_dims, as.character))
    expect_identical(s$dtypes, as.character(expected_dtypes))
  }
})

test_that("format() spells a signature canonically and parses back to the same", {
  expect_identical(format(parse_signature("double(m,n),double(n,p)->double(m,p)")),
                   "double(m,n), double(n,p) -> double(m,p)")
  expect_identical(format(parse_signature("double,double->double")), "double, double -> double")
  expect_identical(format(parse_signature("( 03 ),(n?)->()")), "(3), (n?) -> ()")
  expect_identical(format(parse_signature("->T")), "-> T")
  expect_identical(format(parse_signature("T()->(n)")), "T -> (n)")
  for (sig in c("(n?,k),(k,m?)->(n?,m?)", "T(n), U -> T(n), U", "(3),(03,3),(n)->(9)", "->(n)")) {
    s <- parse_signature(sig)
    again <- parse_signature(format(s))
    expect_identical(again[parsed_fields], s[parsed_fields])
  }
})

test_that("print() shows the counts and the canonical spelling", {
  s <- parse_signature("double(m,n), double(n,p) -> double(m,p)")
  expect_output(
    expect_invisible(print(s)),
    "<gufunc_signature: 2 inputs, 1 output>\ndouble(m,n), double(n,p) -> double(m,p)",
    fixed = TRUE
  )
  expect_output(
    print(parse_signature("(i)->(i),(j)")),
    "<gufunc_signature: 1 input, 2 outputs>",
    fixed = TRUE
  )
})

test_that("sig must be a single non-NA string", {
  bad <- list(
    1, NULL, NA_character_, NA, c("(i)->()", "(i)->()"), character(),
    list("(i)->()"), factor("(i)->()")
  )
  for (x in bad) {
    err <- expect_error(parse_signature(x), class = "gufunc_argument_error")
    expect_s3_class(err, "gufunc_error")
    expect_match(conditionMessage(err), "`sig`", fixed = TRUE)
    expect_identical(conditionCall(err)[[1]], quote(parse_signature))
  }
  err <- expect_error(parse_signature(NA_character_), class = "gufunc_argument_error")
  expect_match(conditionMessage(err), "not NA", fixed = TRUE)
  err <- expect_error(parse_signature(2:3), class = "gufunc_argument_error")
  expect_match(conditionMessage(err), "type 'integer' and length 2", fixed = TRUE)
})

test_that("strings in other encodings are parsed as UTF-8", {
  latin1 <- iconv("(n)->()", to = "latin1")
  expect_identical(parse_signature(latin1)$core_dims, list("n", none))
})
