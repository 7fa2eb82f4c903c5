trait Shape {
  def area: Double
  def describe: String = s"area $area"
}

sealed trait Expr
final case class Num(n: Int) extends Expr
final case class Add(l: Expr, r: Expr) extends Expr

trait Ordered[A] extends Comparable[A] {
  def <(that: A): Boolean = compare(that) < 0
}
