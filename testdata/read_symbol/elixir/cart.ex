defmodule Shop.Cart do
  @moduledoc """
  A shopping cart.
  """

  @max_items 100
  @type t :: %__MODULE__{items: [Shop.Item.t()]}

  defstruct items: []

  @doc "An empty cart."
  @spec new() :: t()
  def new, do: %__MODULE__{}

  def add(%__MODULE__{items: items} = cart, item) when length(items) < @max_items do
    %{cart | items: [item | items]}
  end

  def total(cart), do: Enum.sum(Enum.map(cart.items, & &1.price))

  defp validate(item), do: item
end
