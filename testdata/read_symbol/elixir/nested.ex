defmodule Outer do
  defmodule Inner do
    @opaque id :: integer()
    @typep state :: map()

    def run(state), do: state
  end

  defimpl String.Chars do
    def to_string(_), do: "outer"
  end
end
