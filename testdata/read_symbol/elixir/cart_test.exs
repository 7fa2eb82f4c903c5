defmodule Shop.CartTest do
  use ExUnit.Case, async: true

  @moduletag :unit

  describe "add/2" do
    test "adds an item" do
      assert Shop.Cart.new() |> Shop.Cart.add(:apple)
    end
  end

  defp item(name), do: %{name: name, price: 1}
end
