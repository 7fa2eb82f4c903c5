region = "us-east-1"
tags = {
  team = "platform"
}
