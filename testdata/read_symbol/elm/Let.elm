module Let exposing (area)


area : Float -> Float
area r =
    let
        square x =
            x * x

        pi_ =
            3.14159
    in
    pi_ * square r
