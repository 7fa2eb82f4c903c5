module Operators exposing (compose, pipeline)

-- Custom infix operators are reserved to core packages since Elm 0.19.


compose : (b -> c) -> (a -> b) -> a -> c
compose f g x =
    f (g x)


pipeline : Int -> Int
pipeline n =
    n |> (+) 1 |> (*) 2
