enum class Color(val rgb: Int) {
    RED(0xFF0000),
    GREEN(0x00FF00);

    fun hex(): String = "#%06x".format(rgb)

    companion object Parser {
        fun parse(s: String): Color = valueOf(s)
    }
}
