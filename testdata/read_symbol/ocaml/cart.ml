(* A shopping cart. *)

type item = { name : string; price : int }

type t = item list

let max_items = 100

let empty : t = []

let add item cart =
  if List.length cart >= max_items then cart else item :: cart

let rec total = function
  | [] -> 0
  | x :: rest -> x.price + total rest

let () = print_endline "loaded"
