# cphVB's blockability rule over access descriptors: c(space, buffer, offset, extent,
# step) with space 0 memory, 1 scratch, 2 reduction result, 3 constant.
form <- function(...) .Call(gufunc:::C_test_form_kernels, list(...))
ins <- function(inputs, outputs) list(inputs, outputs)
mem <- function(buffer, offset, extent, step = 8) c(0, buffer, offset, extent, step)
scratch <- function(id) c(1, id, 0, 0, 8)
reduced <- function(id) c(2, id, 0, 8, 0)

test_that("independent and identical views stay in one kernel", {
  # t = a * b; out = t + c: scratch in between, distinct buffers.
  k <- form(ins(list(mem(1, 0, 800), mem(2, 0, 800)), list(scratch(1))),
            ins(list(scratch(1), mem(3, 0, 800)), list(mem(9, 0, 800))))
  expect_identical(k[[1]], 1L)
  # Reading exactly the data an earlier instruction wrote is fine (property 1).
  k <- form(ins(list(mem(1, 0, 800)), list(mem(2, 0, 800))),
            ins(list(mem(2, 0, 800)), list(mem(3, 0, 800))))
  expect_identical(k[[1]], 1L)
})

test_that("property 1: an input overlapping an earlier output starts a kernel", {
  # b[1:100] = f(a); c = g(b[2:101]) reads a shifted view of what was written.
  k <- form(ins(list(mem(1, 0, 800)), list(mem(2, 0, 800))),
            ins(list(mem(2, 8, 800)), list(mem(3, 0, 800))))
  expect_identical(k[[1]], c(1L, 2L))
  expect_match(k[[2]], "property 1")
  # Same buffer, same offset, but a different stride is not the same data either.
  k <- form(ins(list(mem(1, 0, 800)), list(mem(2, 0, 800, 8))),
            ins(list(mem(2, 0, 800, 16)), list(mem(3, 0, 800))))
  expect_identical(k[[1]], c(1L, 2L))
})

test_that("property 2: an output overlapping earlier inputs or outputs starts a kernel", {
  # x = f(a[1:100]); a[51:150] = g(y): writes over part of what was read.
  k <- form(ins(list(mem(1, 0, 800)), list(mem(2, 0, 800))),
            ins(list(mem(4, 0, 800)), list(mem(1, 400, 800))))
  expect_identical(k[[1]], c(1L, 2L))
  expect_match(k[[2]], "property 2")
  k <- form(ins(list(mem(1, 0, 800)), list(mem(2, 0, 800))),
            ins(list(mem(4, 0, 800)), list(mem(2, 8, 800))))
  expect_identical(k[[1]], c(1L, 2L))
  # Disjoint halves of one buffer do not conflict.
  k <- form(ins(list(mem(1, 0, 400)), list(mem(2, 0, 400))),
            ins(list(mem(1, 400, 400)), list(mem(2, 400, 400))))
  expect_identical(k[[1]], 1L)
})

test_that("reading a reduction result starts a kernel; constants never conflict", {
  k <- form(ins(list(mem(1, 0, 800)), list(reduced(1))),
            ins(list(mem(1, 0, 800), reduced(1)), list(mem(2, 0, 800))))
  expect_identical(k[[1]], c(1L, 2L))
  expect_match(k[[2]], "reduction")
  k <- form(ins(list(mem(1, 0, 800), c(3, 0, 0, 8, 0)), list(scratch(1))),
            ins(list(scratch(1), c(3, 0, 0, 8, 0)), list(mem(2, 0, 800))))
  expect_identical(k[[1]], 1L)
  # Three kernels: the rule is checked against every instruction of the kernel.
  k <- form(ins(list(mem(1, 0, 800)), list(mem(2, 0, 800))),
            ins(list(mem(2, 8, 792)), list(mem(3, 0, 792))),
            ins(list(mem(3, 8, 784)), list(mem(4, 0, 784))))
  expect_identical(k[[1]], 1:3)
})

# Gufunc instructions: a block is a range of loop ITERATIONS, and steps are bytes per
# iteration. An operand produced in the kernel block by block (its core length per
# iteration) is exactly the data the gufunc reads; a broadcast operand (no fixed step
# per iteration) or a consumer reading the gufunc's output differently is not.
test_that("a gufunc joins the kernel of producers written with its core step", {
  # t = a * b (5 doubles per iteration, 40 bytes); out = inner(t, c).
  k <- form(ins(list(mem(1, 0, 1600, 40), mem(2, 0, 1600, 40)), list(c(1, 1, 0, 0, 40))),
            ins(list(c(1, 1, 0, 0, 40), mem(3, 0, 1600, 40)), list(mem(9, 0, 320, 8))))
  expect_identical(k[[1]], 1L)
})

test_that("a gufunc operand written with another step starts a kernel (property 1)", {
  # t = f(x) written per element, read by the gufunc per 5-element core: different data.
  k <- form(ins(list(mem(1, 0, 1600, 8)), list(mem(2, 0, 1600, 8))),
            ins(list(mem(2, 0, 1600, 40), mem(3, 0, 1600, 40)), list(mem(9, 0, 320, 8))))
  expect_identical(k[[1]], c(1L, 2L))
  expect_match(k[[2]], "property 1")
  # A broadcast operand has no step per iteration (0): computed in a kernel before.
  k <- form(ins(list(mem(1, 0, 40, 8)), list(c(1, 1, 0, 0, 8))),
            ins(list(c(1, 1, 0, 0, 0), mem(3, 0, 1600, 40)), list(mem(9, 0, 320, 8))))
  expect_identical(k[[1]], c(1L, 2L))
})

test_that("reading a gufunc's output with another step starts a kernel", {
  # out1 = cumsum(x) (5 per iteration); y = sqrt(out1) element by element.
  k <- form(ins(list(mem(1, 0, 1600, 40)), list(mem(2, 0, 1600, 40))),
            ins(list(mem(2, 0, 1600, 8)), list(mem(3, 0, 1600, 8))))
  expect_identical(k[[1]], c(1L, 2L))
  # Writing over a gufunc's operand (property 2) as well.
  k <- form(ins(list(mem(1, 0, 1600, 40)), list(mem(2, 0, 320, 8))),
            ins(list(mem(4, 0, 320, 8)), list(mem(1, 0, 1600, 8))))
  expect_identical(k[[1]], c(1L, 2L))
  expect_match(k[[2]], "property 2")
})
