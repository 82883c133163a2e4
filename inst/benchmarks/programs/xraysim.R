# X-ray simulation (benchpress xraysim): rays from a point source to each pixel
# of a detector cross a scene of voxels; the distance each ray travels in each
# voxel comes from the slab method (entry and exit parameters per axis, pmin and
# pmax over them), the attenuation of a ray is the sum over voxels of the
# material's coefficient times that distance, and a pixel's intensity falls with
# the square of its distance and with that attenuation. The scene (a ball of
# tissue with a rod of bone through it, in air) and the detector are made in
# setup; each of the sources is simulated in turn, as in the original.
xraysim <- list(
  setup = function(scale) {
    res <- round(24 * scale^(1 / 3))
    edges <- seq(-1, 1, length.out = res + 1)
    centre <- (edges[-1] + edges[-(res + 1)]) / 2
    voxel <- function(v, axis) {
      each <- res^(axis - 1)
      rep(rep(v, each = each), times = res^3 / (res * each))
    }
    x <- voxel(centre, 1)
    y <- voxel(centre, 2)
    z <- voxel(centre, 3)
    material <- ifelse(x^2 + y^2 + z^2 < 0.64, 1, 0)
    material[abs(x) < 0.15 & abs(y) < 0.15 & z^2 < 0.64] <- 2
    pixels <- 16
    side <- seq(-1.5, 1.5, length.out = pixels)
    list(
      low_x = voxel(edges[-(res + 1)], 1), high_x = voxel(edges[-1], 1),
      low_y = voxel(edges[-(res + 1)], 2), high_y = voxel(edges[-1], 2),
      low_z = voxel(edges[-(res + 1)], 3), high_z = voxel(edges[-1], 3),
      material = material,
      detector = cbind(rep(side, pixels), rep(side, each = pixels), 3)
    )
  },
  run = function(low_x, high_x, low_y, high_y, low_z, high_z, material, detector) {
    mu <- c(air = 0.02, tissue = 0.9, bone = 2.4)  # attenuation per unit of length
    sources <- rbind(c(0, 0, -4, 1), c(0.3, -0.2, -4.5, 0.7))  # position, power
    pixel_area <- (3 / 15)^2
    images <- vector("list", nrow(sources))
    for (s in seq_len(nrow(sources))) {
      origin <- sources[s, 1:3]
      attenuation <- 0
      for (m in seq_along(mu)) attenuation <- attenuation + (material == m - 1) * mu[[m]]
      rays <- sweep(detector, 2, origin)
      lengths <- sqrt(rowSums(rays * rays))
      direction <- rays / lengths
      inverse <- 1 / direction
      tx0 <- outer(low_x - origin[1], inverse[, 1])
      tx1 <- outer(high_x - origin[1], inverse[, 1])
      ty0 <- outer(low_y - origin[2], inverse[, 2])
      ty1 <- outer(high_y - origin[2], inverse[, 2])
      tz0 <- outer(low_z - origin[3], inverse[, 3])
      tz1 <- outer(high_z - origin[3], inverse[, 3])
      t_in <- pmax(pmin(tx0, tx1), pmin(ty0, ty1), pmin(tz0, tz1))
      t_out <- pmin(pmax(tx0, tx1), pmax(ty0, ty1), pmax(tz0, tz1))
      distance <- (t_out - t_in) * (t_out >= t_in)
      absorbed <- colSums(attenuation * distance)
      intensity <- sources[s, 4] / (4 * pi) / lengths
      area <- abs(direction[, 3]) * pixel_area
      images[[s]] <- matrix(intensity * area * exp(-absorbed), sqrt(nrow(detector)))
    }
    images
  }
)
