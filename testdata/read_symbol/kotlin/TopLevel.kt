@file:JvmName("Strings")

package text

const val SEPARATOR = ","
val DEFAULT_LOCALE = "en"
var counter = 0

typealias Parser<T> = (String) -> T

fun String.shout(): String = uppercase()

fun String?.orEmpty(): String = this ?: ""

fun <T> List<T>.second(): T = this[1]

fun main(args: Array<String>) {
    fun helper(x: Int) = x * 2
    val lambda = { x: Int -> x + 1 }
    println(helper(lambda(1)))
}
