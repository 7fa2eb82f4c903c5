func run() {}
