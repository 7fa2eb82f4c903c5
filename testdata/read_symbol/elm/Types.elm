module Shape.Types exposing (..)


type Shape
    = Circle Float
    | Rect Float Float


type alias Point =
    { x : Float
    , y : Float
    }


type Tree a
    = Leaf
    | Node (Tree a) a (Tree a)


origin : Point
origin =
    { x = 0, y = 0 }
