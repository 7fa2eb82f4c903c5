function run() {}
