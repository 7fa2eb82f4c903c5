// Attribute and export macros in every position a declaration has, as
// large projects' public headers write them (V8, cppgc, Chromium).
#include "base/export.h"

namespace engine {

class ENGINE_EXPORT Platform
    : public ENGINE_NON_EXPORTED_BASE(base::Platform) {
 public:
  ENGINE_INLINE ~Platform() { Shutdown(); }
  ENGINE_INLINE Platform& operator=(const Platform& other) { return *this; }
  ENGINE_INLINE operator bool() const { return ready_; }
  ENGINE_WARN_UNUSED_RESULT ENGINE_INLINE bool TryGet(int* out) const;
  explicit ENGINE_INLINE Platform(int threads) : threads_(threads) {}
  static ENGINE_INLINE void Barrier(const void* slot);
  virtual ENGINE_WARN_UNUSED_RESULT bool Discard(void* address);
  static void ENGINE_PRESERVE_MOST
  SlowPath(const void* slot);

  ENGINE_DEPRECATE_SOON(
      "Use TryGet(), which reports "
      "failure.")
  int Get() const;

  ENGINE_NO_SANITIZE("cfi-unrelated-cast") void* Raw() const { return raw_; }

 private:
  void Shutdown();
  bool ready_ = false;
  int threads_ = 0;
  void* raw_ = nullptr;
};

template <typename T, typename Policy, typename Checking>
class Handle final : public HandleBase<T>,
                     private Policy,
                     private Checking {
 public:
  using typename Policy::IsStrong;

  template <typename U,
            std::enable_if_t<std::is_base_of_v<T, U>>* = nullptr>
  Handle(const Handle<U, Policy, Checking>& other) : raw_(other.Get()) {}

  T* Get() const { return raw_; }

 private:
  T* raw_;
};

enum class CallbackType {
  kParameter,
  kFinalizer ENGINE_ENUM_DEPRECATED("Finalizers are deprecated "
                                    "and will go.")
};

template <>
struct Dispatch::Mode<Dispatch::kFast> {
  static int Run(int value) { return value; }
};

}  // namespace engine
