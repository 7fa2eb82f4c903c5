enum Color(val rgb: Int):
  case Red extends Color(0xFF0000)
  case Green extends Color(0x00FF00)

  def hex: String = f"#$rgb%06x"

type Id = Long

def topLevel(x: Int): Int =
  def helper(y: Int) = y * 2
  helper(x)

extension (s: String)
  def shout: String = s.toUpperCase
