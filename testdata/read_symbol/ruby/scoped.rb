class Shop::Admin::UsersController < Shop::BaseController
  def index; end
end

Shop::Admin::LIMIT = 10

Point = Struct.new(:x, :y) do
  def distance
    Math.sqrt(x * x + y * y)
  end
end
