package shop

import java.time.Instant

data class Item(val name: String, val price: Long)

open class Cart(private val items: MutableList<Item> = mutableListOf()) {
    constructor(item: Item) : this(mutableListOf(item))

    fun add(item: Item) {
        items += item
    }

    open fun total(): Long = items.sumOf { it.price }

    inner class Line(val item: Item)

    companion object {
        const val MAX_ITEMS = 100
        fun empty() = Cart()
    }
}

abstract class Base {
    abstract fun describe(): String
}
