# Views of one deferred expression read together (src/engine/shared_views.cpp): a
# batch reading several views of a deferred element-wise value computes that value
# once and reads the views from it; later batches reuse those values. Values,
# attributes and warnings stay base R's, on any thread count and block size.

set.seed(23)
sw_rows <- 37
sw_cols <- 41
sw_h <- matrix(runif(sw_rows * sw_cols, 1, 2), sw_rows)
sw_u <- matrix(runif(sw_rows * sw_cols, -1, 1), sw_rows)
sw_i <- matrix(sample.int(50L, sw_rows * sw_cols, replace = TRUE), sw_rows)

test_that("differences of views of a deferred expression are base R's", {
  stencil <- function(h, u) {
    r <- nrow(h)
    k <- ncol(h)
    ux <- (u[2:r, ] + u[1:(r - 1), ]) / 2 - 0.01 * (u[2:r, ]^2 / h[2:r, ] - u[1:(r - 1), ]^2)
    a <- 2:(r - 1)
    b <- 1:(r - 2)
    list(
      ux[a, ] - ux[b, ],
      ux[a, 2:k] * ux[b, 1:(k - 1)] + ux[a, 2:k] / ux[b, 2:k],
      (ux[a, ] - ux[b, ])[3:10, 4:9]
    )
  }
  want <- stencil(sw_h, sw_u)
  for_engine_settings({
    got <- stencil(lazy(sw_h), lazy(sw_u))
    for (k in seq_along(want)) {
      expect_true(is_lazy(got[[k]]))
      expect_identical(materialize(got[[k]]), want[[k]])
    }
  })
  for (block in c(7, 64, 1000)) {
    for_threads(with_options(list(gufunc.block_size = block, gufunc.lazy_min_length = 0), {
      expect_identical(lapply(stencil(lazy(sw_h), lazy(sw_u)), materialize), want)
    }))
  }
})

test_that("several updates reading views of the same deferred values are base R's", {
  # A shallow-water-like step: each half step is read through views by all three
  # updates, which are computed one after another (the later ones reuse its values).
  step <- function(h, u) {
    r <- nrow(h)
    k <- ncol(h)
    j <- 2:(k - 1)
    hx <- (h[2:r, j] + h[1:(r - 1), j]) / 2 - 0.01 * (u[2:r, j] - u[1:(r - 1), j])
    ux <- (u[2:r, j] + u[1:(r - 1), j]) / 2 - 0.01 * (u[2:r, j]^2 / h[2:r, j])
    a <- 2:(r - 1)
    b <- 1:(r - 2)
    h[a, j] <- h[a, j] - 0.5 * (ux[a, ] - ux[b, ])
    u[a, j] <- u[a, j] - 0.5 * (ux[a, ]^2 / hx[a, ] - ux[b, ]^2 / hx[b, ])
    list(h = h, u = u)
  }
  want <- step(sw_h, sw_u)
  want2 <- step(want$h, want$u)
  for_engine_settings({
    got <- step(lazy(sw_h), lazy(sw_u))
    expect_identical(lapply(got, materialize), want)
    got2 <- step(got$h, got$u)
    expect_identical(lapply(got2, materialize), want2)
  })
})

test_that("views of views, shifted views and sparse views of one value are base R's", {
  for_engine_settings({
    m <- lazy(sw_h)
    y <- m * 3 - sqrt(m)
    base_y <- sw_h * 3 - sqrt(sw_h)
    z <- y[2:sw_rows, ]
    base_z <- base_y[2:sw_rows, ]
    expect_identical(materialize(z[1:10, ] + z[2:11, ] + y[5:14, ]),
                     base_z[1:10, ] + base_z[2:11, ] + base_y[5:14, ])
    shifted <- y[c(sw_rows, 1:(sw_rows - 1)), ] - y
    expect_identical(materialize(shifted), base_y[c(sw_rows, 1:(sw_rows - 1)), ] - base_y)
    v <- as.vector(sw_u)
    w <- lazy(v) * 2 + 1
    base_w <- v * 2 + 1
    expect_identical(materialize(w[seq(1, 1500, by = 3)] + w[seq(2, 1501, by = 3)]),
                     base_w[seq(1, 1500, by = 3)] + base_w[seq(2, 1501, by = 3)])
    expect_identical(materialize(w[-1] * w[-length(v)]), base_w[-1] * base_w[-length(v)])
    # One element, and a reduction, of views read together.
    expect_identical((w[-1] - w[-length(v)])[[17]], (base_w[-1] - base_w[-length(v)])[[17]])
    expect_identical(sum(w[-1] * w[-length(v)]), sum(base_w[-1] * base_w[-length(v)]))
    # Integer and logical values.
    iy <- lazy(sw_i) %/% 3L + 1L
    base_iy <- sw_i %/% 3L + 1L
    expect_identical(materialize(iy[2:sw_rows, ] - iy[1:(sw_rows - 1), ]),
                     base_iy[2:sw_rows, ] - base_iy[1:(sw_rows - 1), ])
    ly <- lazy(sw_i) > 25L
    base_ly <- sw_i > 25L
    expect_identical(materialize(ly[2:sw_rows, ] & ly[1:(sw_rows - 1), ]),
                     base_ly[2:sw_rows, ] & base_ly[1:(sw_rows - 1), ])
  })
})

test_that("a value computed for several views keeps base R's attributes and warnings", {
  with_options(list(gufunc.lazy_min_length = 0), {
    m <- matrix(c(-1, rep(4, 1199)), 40, dimnames = list(paste0("r", 1:40), NULL))
    s <- sqrt(lazy(m))
    got <- s[2:40, ] + s[1:39, ]
    expect_warning(out <- materialize(got), "NaNs produced")
    expect_identical(out, suppressWarnings(sqrt(m)[2:40, ] + sqrt(m)[1:39, ]))
    # Views that do not read the NaN do not warn, as before.
    s2 <- sqrt(lazy(m))
    expect_silent(out2 <- materialize(s2[3:40, ] * s2[2:39, ]))
    expect_identical(out2, sqrt(m[3:40, ]) * sqrt(m[2:39, ]))
  })
})

test_that("subassignments larger than a chunk of scratch read views of one value", {
  # 600 x 600 interior: the value is computed in more than one piece.
  n <- 602
  g <- matrix(runif(n * n), n)
  run <- function(g) {
    y <- g * 0.5 + 1
    a <- 2:(n - 1)
    g[a, a] <- y[a + 1, a] - y[a - 1, a] + y[a, a + 1] * y[a, a - 1]
    g
  }
  want <- run(g)
  for_threads(expect_identical(materialize(run(lazy(g))), want))
})

test_that("lazy_plan() says when several views of a value read it computed once", {
  with_options(list(gufunc.lazy_min_length = 0), {
    y <- lazy(sw_h) * 2 + 1
    p <- lazy_plan(y[2:sw_rows, ] - y[1:(sw_rows - 1), ])
    expect_match(paste(format(p), collapse = "\n"), "views of this expression read its values")
    # Its base R code computes the value, then the views of it.
    z <- y[2:sw_rows, ] - y[1:(sw_rows - 1), ] + y[2:sw_rows, ] * 3
    pz <- lazy_plan(z)
    expect_true(any(grepl("of t[0-9]+$", trimws(format(pz)))))
    code <- format(pz, "r")
    expect_match(code[1], "inputs: sw_h$")
    expect_identical(eval(parse(text = code), list(sw_h = sw_h)), materialize(z))
    # One view of a value not computed before: pushed down.
    y2 <- lazy(sw_h) * 2 + 1
    p1 <- lazy_plan(y2[2:sw_rows, ] - 1)
    expect_no_match(paste(format(p1), collapse = "\n"), "views of this expression")
    # One operation costs about what writing and reading its values would: pushed down.
    y1 <- lazy(sw_h) * 2
    p2 <- lazy_plan(y1[2:sw_rows, ] - y1[1:(sw_rows - 1), ])
    expect_no_match(paste(format(p2), collapse = "\n"), "views of this expression")
    expect_length(p2$kernels, 1L)
  })
})

test_that("blocks of one column (block views with columns of 256 or more) give base R's values", {
  r <- 300
  g <- matrix(runif(r * 40), r)
  gi <- matrix(sample.int(1000L, r * 40, replace = TRUE), r)
  for_threads({
    lg <- lazy(g)
    d <- lg[2:r, 2:40] - lg[1:(r - 1), 1:39] * 0.5
    base_d <- g[2:r, 2:40] - g[1:(r - 1), 1:39] * 0.5
    expect_identical(materialize(d), base_d)
    expect_identical(sum(d), sum(base_d))
    expect_identical(mean(d), mean(base_d))
    expect_identical(materialize(cumsum(d)), cumsum(base_d))
    expect_identical(materialize(d[5:200, ]), base_d[5:200, ])
    # Views with columns of different lengths: blocks as before.
    expect_identical(materialize(lg[2:r, 2:40] + lg[1:(r - 1), 1:39]), g[2:r, 2:40] + g[1:(r - 1), 1:39])
    expect_identical(sum(lazy(gi)[2:r, ] - lazy(gi)[1:(r - 1), ]), sum(gi[2:r, ] - gi[1:(r - 1), ]))
  })
})

test_that("reductions, scans, gufuncs and subassignments of shared views are base R's", {
  m <- matrix(runif(300 * 40), 300)
  by <- m * 2 + sqrt(m)
  bz <- by[2:300, ] - by[1:299, ]
  for (block in list(NULL, 7, 1000)) {
    for_threads(with_options(list(gufunc.block_size = block, gufunc.lazy_min_length = 0), {
      a <- lazy(m)
      y <- a * 2 + sqrt(a)
      z <- y[2:300, ] - y[1:299, ]
      expect_identical(materialize(cumsum(z)), cumsum(bz))
      expect_identical(rowSums(z), rowSums(bz))
      expect_identical(colMeans(z), colMeans(bz))
      expect_identical(sum(z), sum(bz))
      expect_identical(max(z), max(bz))
      expect_identical(materialize(matmul(t(z[1:40, ]), z[2:41, ])), t(bz[1:40, ]) %*% bz[2:41, ])
      expect_identical(materialize(rev(y[2:300, 1]) + y[1:299, 1]), rev(by[2:300, 1]) + by[1:299, 1])
      w <- z
      w[5:10, 3] <- 0
      bw <- bz
      bw[5:10, 3] <- 0
      expect_identical(materialize(w), bw)
      expect_identical(materialize(ifelse(z > 0, z, y[1:299, ])), ifelse(bz > 0, bz, by[1:299, ]))
    }))
  }
})
