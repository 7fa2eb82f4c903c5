#pragma once

namespace app {
namespace detail {
int helper(int x);
}  // namespace detail

namespace io::files {
class Reader {
 public:
  void open(const char *path);
};
}  // namespace io::files

inline namespace v2 {
void run();
}

namespace {
void hidden() {}
}  // namespace
}  // namespace app
