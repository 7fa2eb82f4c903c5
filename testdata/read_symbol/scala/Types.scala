package object util {
  type Parser[A] = String => Option[A]

  def parseInt: Parser[Int] = s => s.toIntOption
}

class Box[A](value: A) {
  type Elem = A

  def map[B](f: A => B): Box[B] = new Box(f(value))
}
