# r-outline.R FILE...: the functions R's own parser finds bound by an
# assignment in each file (name <- function, name = function, name <<-
# function, function -> name, and the \(x) lambda), one per line:
# FILE<TAB>LINE<TAB>function<TAB>NAME<TAB>PARENT, PARENT being the nearest
# such function around it ("" at top level). Names are symbols or strings
# ("`%+%`" as %+%). Read by outline/r_diff_test.go (scripts/r-diff).
args <- commandArgs(trailingOnly = TRUE)
for (f in args) {
  exprs <- tryCatch(parse(f, keep.source = TRUE, encoding = "UTF-8"),
                    error = function(e) { message(f, ": ", conditionMessage(e)); NULL })
  if (is.null(exprs)) next
  pd <- getParseData(exprs, includeText = TRUE)
  if (is.null(pd) || nrow(pd) == 0) next
  pd <- pd[order(pd$line1, pd$col1, -pd$line2, -pd$col2), ]
  kids <- split(pd$id, pd$parent)
  row <- setNames(seq_len(nrow(pd)), pd$id)
  tok <- function(id) pd$token[row[[as.character(id)]]]
  children <- function(id) {
    k <- kids[[as.character(id)]]
    if (is.null(k)) integer(0) else k
  }
  # A name: an expr holding only a SYMBOL or STR_CONST.
  nameOf <- function(id) {
    k <- children(id)
    if (length(k) != 1) return(NULL)
    t <- tok(k)
    if (!(t %in% c("SYMBOL", "STR_CONST"))) return(NULL)
    r <- row[[as.character(k)]]
    txt <- pd$text[r]
    txt <- sub('^[`"\'](.*)[`"\']$', "\\1", txt)
    list(name = txt, line = pd$line1[r])
  }
  # A function, or one in parentheses: (function(x) x) -> f.
  isFunction <- function(id) {
    k <- children(id)
    if (length(k) == 3 && tok(k[1]) == "'('") return(isFunction(k[2]))
    length(k) > 0 && tok(k[1]) %in% c("FUNCTION", "'\\\\'")
  }
  defs <- list()
  fnName <- list() # id of a function expr -> its name
  for (id in pd$id[pd$token %in% c("expr", "equal_assign", "expr_or_assign_or_help")]) {
    k <- children(id)
    if (length(k) != 3) next
    op <- tok(k[2])
    if (op %in% c("LEFT_ASSIGN", "EQ_ASSIGN")) {
      lhs <- k[1]; rhs <- k[3]
    } else if (op == "RIGHT_ASSIGN") {
      lhs <- k[3]; rhs <- k[1]
    } else next
    if (!isFunction(rhs)) next
    n <- nameOf(lhs)
    if (is.null(n)) next
    fnName[[as.character(rhs)]] <- n$name
    defs[[length(defs) + 1]] <- list(id = id, name = n$name, line = n$line)
  }
  parentOf <- setNames(pd$parent, pd$id)
  for (d in defs) {
    p <- parentOf[[as.character(d$id)]]
    parent <- ""
    while (!is.null(p) && p != 0) {
      nm <- fnName[[as.character(p)]]
      if (!is.null(nm)) { parent <- nm; break }
      p <- parentOf[as.character(p)]
      if (is.na(p)) break
      p <- p[[1]]
    }
    cat(f, "\t", d$line, "\tfunction\t", d$name, "\t", parent, "\n", sep = "")
  }
}
