module type SHAPE = sig
  type t
  val area : t -> float
  val name : string
end

module Circle : SHAPE = struct
  type t = float
  let area r = 3.14159 *. r *. r
  let name = "circle"
end

module Make (S : SHAPE) = struct
  let describe x = S.name ^ ": " ^ string_of_float (S.area x)
end
