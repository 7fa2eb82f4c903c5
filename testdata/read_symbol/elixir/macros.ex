defmodule Guards do
  defguard is_even(n) when is_integer(n) and rem(n, 2) == 0

  defmacro unless(condition, do: block) do
    quote do
      if !unquote(condition), do: unquote(block)
    end
  end

  defmacrop log(msg), do: quote(do: IO.puts(unquote(msg)))

  defdelegate size(data), to: Size
end
