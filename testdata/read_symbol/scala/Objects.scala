object Cart {
  val MaxItems = 100

  def empty: Cart = new Cart(mutable.Buffer.empty)

  def apply(items: Item*): Cart = new Cart(items.toBuffer)
}

object Main extends App {
  println(Cart.empty)
}
