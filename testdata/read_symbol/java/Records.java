public record Point(int x, int y) {
  public Point {
    if (x < 0) throw new IllegalArgumentException();
  }

  public static Point origin() {
    return new Point(0, 0);
  }

  public record Pair<A, B>(A first, B second) {}
}

sealed interface Shape permits Circle, Square {}
