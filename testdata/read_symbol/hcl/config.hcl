job "web" {
  datacenters = ["dc1"]

  group "app" {
    task "server" {
      driver = "docker"
    }
  }
}
