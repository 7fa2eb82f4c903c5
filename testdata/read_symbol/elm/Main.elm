module Main exposing (Model, Msg(..), main)

import Browser
import Html exposing (Html, button, text)


type alias Model =
    { count : Int }


type Msg
    = Increment
    | Decrement


init : Model
init =
    { count = 0 }


update : Msg -> Model -> Model
update msg model =
    case msg of
        Increment ->
            { model | count = model.count + 1 }

        Decrement ->
            { model | count = model.count - 1 }


main =
    Browser.sandbox { init = init, update = update, view = view }
