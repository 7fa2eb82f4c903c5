variable "region" {
  type    = string
  default = "eu-west-1"
}

variable "tags" {
  type = map(string)
}

output "instance_ip" {
  value = aws_instance.web.public_ip
}

locals {
  name = "web-${var.region}"
}
