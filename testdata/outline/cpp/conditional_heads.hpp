// Conditionals inside a declaration's head: between a class keyword and
// its name, and between a member's qualifiers and its body, or its bodies.
namespace num {

class
#if defined(HAVE_INT128)
    alignas(unsigned __int128)
#endif
        wide {
 public:
  wide() = default;
  explicit operator bool() const { return hi_ || lo_; }

 private:
  unsigned long hi_ = 0;
  unsigned long lo_ = 0;
};

template <class It>
class reverse {
 public:
  auto operator->() const
#if __cplusplus > 201703L
    requires is_pointer_v<It>
#endif
  {
    return it_;
  }

  reverse& operator++() { return *this; }

  It operator*() const
#if __cplusplus > 201703L
  { return move(*it_); }
#else
  { return *it_; }
#endif

  bool done() const { return false; }

 private:
  It it_;
};

}  // namespace num
