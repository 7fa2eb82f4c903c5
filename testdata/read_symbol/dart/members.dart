class A {
  A(int x) {
    print(x);
  }
  A.named() : this(1);
  external A.ext();
  factory A.make() => A(1);
  int get x => 1;
  void Function() cb = () {};
  int m() {
    int local(int y) => y;
    void inner() {}
    return local(1);
  }
  Object operator +(Object o) => this;
  static final A instance = A(1);
}
class V {
  bool operator ==(Object o) => true;
  int operator [](int i) => 0;
  void operator []=(int i, int v) {}
  V operator -() => this;
  V operator ~() => this;
  V operator <(V o) => this;
  V operator >>>(V o) => this;
  external int foo();
}
external int top();
int get g;

class Fields {
  final int y = 2;
  late final z = 3;
  static const k = 1, j = 2;
  Fields();
}

const a = 1, b = 2;
var notListed = 0;

extension ListX<T> on List<T> {
  T? get firstOrNull => isEmpty ? null : first;
}
