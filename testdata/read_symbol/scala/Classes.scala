package shop

import scala.collection.mutable

case class Item(name: String, price: BigDecimal)

class Cart(private val items: mutable.Buffer[Item]) {
  def add(item: Item): Unit = items += item

  def total: BigDecimal = items.map(_.price).sum

  private class Line(item: Item) {
    def show: String = item.name
  }
}

abstract class Base {
  def describe: String
}
