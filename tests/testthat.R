library(testthat)
library(gufunc)

test_check("gufunc")
