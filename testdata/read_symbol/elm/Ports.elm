port module Ports exposing (receive, send)


port send : String -> Cmd msg


port receive : (String -> msg) -> Sub msg
