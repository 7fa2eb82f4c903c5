#include "widget.h"

Widget::Widget() : size_(0) {}

Widget::~Widget() {}

void Widget::draw() const {}

bool Widget::operator==(const Widget &other) const {
  return size_ == other.size_;
}

Widget *Widget::create() { return new Widget(); }

const std::string &Widget::name() const { return name_; }

namespace app {
void io::files::Reader::open(const char *path) {
  auto cb = [](int x) { return x; };
  (void)cb;
}
}  // namespace app

static int local_helper() { return 1; }
