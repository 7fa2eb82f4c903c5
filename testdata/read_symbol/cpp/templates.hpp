template <typename T>
class Box {
 public:
  explicit Box(T v) : value_(v) {}
  T get() const;
  template <typename U>
  Box<U> map(U (*f)(T)) const;

 private:
  T value_;
};

template <>
class Box<void> {};

template <typename T>
T Box<T>::get() const {
  return value_;
}

template <typename T>
T max_of(T a, T b) {
  return a > b ? a : b;
}

template <typename T>
using BoxPtr = Box<T> *;

template <>
int max_of<int>(int a, int b) {
  return a;
}
