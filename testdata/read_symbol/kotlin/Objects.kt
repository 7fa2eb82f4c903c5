object Registry {
    private val entries = mutableMapOf<String, Any>()

    fun register(name: String, value: Any) {
        entries[name] = value
    }
}

class Service {
    private val listener = object : Listener {
        override fun onEvent() {}
    }
}
