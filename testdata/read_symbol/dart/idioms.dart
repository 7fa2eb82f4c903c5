library;

import 'dart:math';

const int maxItems = 10;
final String greeting = 'hi';
var counter = 0;
late final int lazy;

typedef Compare<T> = int Function(T a, T b);
typedef void Callback(int x);

int add(int a, int b) => a + b;

Future<void> main() async {}

int get answer => 42;
set answer(int v) {}

abstract class Shape {
  static const double pi = 3.14;
  final String name;
  Shape(this.name);
  Shape.named({required this.name});
  factory Shape.circle(double r) = Circle;
  factory Shape.fromJson(Map<String, dynamic> j) {
    return Circle(1);
  }
  const Shape.constant() : name = 'c';
  double area();
  String get label => name;
  set label(String v) {}
  @override
  String toString() => name;
  bool operator ==(Object other) => false;
  static Shape create() => Circle(2);
}

class Circle extends Shape with Printable implements Comparable<Circle> {
  Circle(double r) : super('circle');
  @override
  double area() => 0;
  int compareTo(Circle o) => 0;
}

mixin Printable on Object {
  void printIt() {}
}

sealed class Result {}
final class Ok extends Result {}
base mixin class Both {}
interface class Api {}

extension StringX on String {
  bool get isBlank => trim().isEmpty;
  String twice() => this + this;
}

extension on int {
  int get doubled => this * 2;
}

extension type UserId(int id) implements int {
  UserId.parse(String s) : id = int.parse(s);
  bool get isValid => id > 0;
}

enum Color {
  red,
  green;

  const Color();
  bool get isRed => this == Color.red;
}

enum Planet with Printable {
  earth(1.0);

  final double mass;
  const Planet(this.mass);
}

typedef IntList = List<int>;
typedef int Cmp<T>(T a, T b);
