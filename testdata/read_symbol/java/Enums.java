public enum Planet {
  MERCURY(3.303e+23, 2.4397e6),
  EARTH(5.976e+24, 6.37814e6);

  private final double mass;

  Planet(double mass, double radius) {
    this.mass = mass;
  }

  double surfaceGravity() {
    return mass;
  }

  enum Kind { ROCKY, GAS }
}
