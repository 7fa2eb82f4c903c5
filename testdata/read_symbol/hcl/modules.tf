module "vpc" {
  source  = "terraform-aws-modules/vpc/aws"
  version = "5.0.0"
}

module "db" {
  source = "./modules/db"
  vpc_id = module.vpc.vpc_id
}
