# Wireworld (benchpress wireworld): a cellular automaton of electron heads (1),
# tails (2) and conductors (8) on an integer grid, stepped with logical masks; the
# count of head neighbours is taken once from the first state, as in the original.
wireworld <- list(
  setup = function(scale) {
    size <- round(100 * sqrt(scale))
    tile <- matrix(c(
      4, 2, 8, 8, 8, 8, 8, 8, 8, 8,
      8, 0, 0, 0, 8, 0, 0, 0, 0, 0,
      0, 0, 0, 8, 8, 8, 0, 0, 0, 0,
      8, 0, 0, 0, 8, 0, 0, 0, 0, 0,
      2, 4, 8, 8, 0, 8, 8, 8, 8, 8,
      4, 2, 8, 8, 8, 8, 8, 8, 8, 8,
      8, 0, 0, 0, 8, 0, 0, 0, 0, 0,
      0, 0, 0, 8, 8, 8, 0, 0, 0, 0,
      8, 0, 0, 0, 8, 0, 0, 0, 0, 0,
      2, 4, 8, 8, 0, 8, 8, 8, 8, 8
    ), 10, 10, byrow = TRUE)
    world <- matrix(0L, size * 10 + 2, size * 10 + 2)
    inner <- 2:(size * 10 + 1)
    world[inner, inner] <- as.integer(tile[rep(1:10, size), rep(1:10, size)])
    list(world = world)
  },
  run = function(world, iterations = 20) {
    n <- nrow(world) - 2
    a <- 1:n
    b <- 2:(n + 1)
    c <- 3:(n + 2)
    sim <- world[b, b]
    heads <- 0L
    for (rows in list(a, b, c)) for (cols in list(a, b, c)) {
      if (!identical(rows, b) || !identical(cols, b)) heads <- heads + (world[rows, cols] == 2L)
    }
    for (it in seq_len(iterations)) {
      mask <- ((heads == 1L) & (sim == 8L)) | ((heads == 2L) & (sim == 8L))
      sim <- sim * !mask
      sim <- sim + mask * 1L
      mask <- sim == 8L
      sim <- sim * !mask
      sim <- sim + mask * 4L
      sim <- sim * 2L
    }
    sim
  }
)
