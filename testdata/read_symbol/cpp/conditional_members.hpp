namespace util {

template <typename T, typename Alloc = std::allocator<T>>
class BasicBuffer final : public BufferBase, private Alloc {
 public:
  BasicBuffer() : data_(nullptr),
#if defined(UTIL_DEBUG)
                  debug_(true),
#endif
                  size_(0) {}

  BasicBuffer &operator=(const BasicBuffer &other) {
#ifdef UTIL_THREADS
    std::lock_guard<std::mutex> lock(mu_);
    if (this == &other) {
#else
    if (this == &other) {
#endif
      return *this;
    }
    return *this;
  }

#if __cplusplus >= 201703L
  T *operator->() { return data_; }
#endif

  bool operator==(const BasicBuffer &o) const { return data_ == o.data_; }

 private:
  T *data_;
  size_t size_;
};

}  // namespace util
