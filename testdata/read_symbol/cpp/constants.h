// A .h file is C++ when its head has a construct C lacks: here, a namespace.
#ifndef CONSTANTS_H
#define CONSTANTS_H

#include <cstdint>

namespace limits {

constexpr int kMaxDepth = 32;
inline constexpr std::size_t kPageSize = 4096;
const int kNotConstexpr = 1;

using Id = std::uint64_t;
typedef unsigned char byte;

class V8_EXPORT Isolate {
 public:
  static constexpr int kSlots = 4;
  void Dispose();
};

int compute() {
  constexpr int local = 3;
  return local;
}

}  // namespace limits

#endif
