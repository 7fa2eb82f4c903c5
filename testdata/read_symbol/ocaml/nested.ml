let compute x =
  let helper y = y * 2 in
  let limit = 10 in
  min limit (helper x)

let apply = fun f x -> f x

let compose f g x = f (g x)
