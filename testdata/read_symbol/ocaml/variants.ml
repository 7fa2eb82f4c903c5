type color = Red | Green | Blue

type 'a tree =
  | Leaf
  | Node of 'a tree * 'a * 'a tree

exception Empty_tree

exception Invalid of string

let rec size = function
  | Leaf -> 0
  | Node (l, _, r) -> size l + 1 + size r
