interface Shape {
    val name: String
    fun area(): Double
    fun describe(): String = "$name: ${area()}"
}

interface Predicate<in T> {
    fun test(value: T): Boolean
}

sealed interface Result {
    data class Ok(val value: Int) : Result
    object Failure : Result
}
