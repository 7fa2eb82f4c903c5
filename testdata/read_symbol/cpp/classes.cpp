#include <string>

class Widget : public Base {
 public:
  Widget();
  explicit Widget(int size) : size_(size) {}
  ~Widget() override;

  virtual void draw() const = 0;
  int size() const { return size_; }
  static Widget *create();
  const std::string &name() const;

  bool operator==(const Widget &other) const;
  Widget &operator=(Widget &&other) noexcept = default;

  struct Options {
    int depth;
  };
  enum class Mode : int { kFast, kSafe };

 private:
  int size_;
};

struct Point final {
  double x, y;
  double length() const;
};

union Bits {
  int i;
  float f;
};

class Handle {
 public:
  explicit operator bool() const { return ptr_ != nullptr; }
  operator int() const;

 private:
  void *ptr_;
};

Handle::operator int() const { return 0; }
