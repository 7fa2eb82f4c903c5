#' Add two numbers
add <- function(x, y) {
  helper <- function(z) z * 2
  helper(x) + y
}

mul = function(a, b) a * b

(function(x) x^2) -> square

counter <<- function() NULL

`%+%` <- function(a, b) paste0(a, b)

"quoted" <- function() 1

compose <- \(f, g) \(x) f(g(x))

not_a_function <- 42

obj$method <- function() "ignored"

setClass("Person", representation(name = "character", age = "numeric"))

setGeneric("greet", function(obj, ...) standardGeneric("greet"))

setMethod("greet", "Person", function(obj, ...) {
  cat("Hello,", obj@name, "\n")
})

Account <- setRefClass("Account",
  fields = list(balance = "numeric"),
  methods = list(
    deposit = function(x) {
      balance <<- balance + x
      invisible(.self)
    },
    show = function() cat("Balance:", balance, "\n")
  )
)

Queue <- R6::R6Class("Queue",
  public = list(
    items = NULL,
    initialize = function(...) {
      self$items <- list(...)
    },
    add = function(x) {
      self$items <- c(self$items, x)
      invisible(self)
    }
  ),
  private = list(
    secret = function() 42
  )
)

if (TRUE) {
  conditional <- function() "yes"
}

local({
  inner_local <- function() 1
})
