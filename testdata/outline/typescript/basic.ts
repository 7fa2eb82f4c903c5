function run(): void {}
