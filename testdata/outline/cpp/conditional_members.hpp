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

namespace detail {

// An access specifier a macro chooses (nlohmann's iter_impl).
template <typename BasicJsonType>
class iter_impl {
 public:
  iter_impl() = default;

 JSON_PRIVATE_UNLESS_TESTED:
  void set_begin() noexcept {
#if JSON_DIAGNOSTICS
    check();
#endif
  }

 public:
  reference operator*() const;
};

}  // namespace detail

// Exceptions a macro switches on or off (nlohmann's basic_json::at).
class basic_json {
 public:
  reference at(size_type idx) {
    JSON_TRY
    {
      return m_value.array->at(idx);
    }
    JSON_CATCH (std::out_of_range&)
    {
      JSON_THROW(out_of_range::create(401, "array index out of range"));
    }
  }

  const_reference at(size_type idx) const;

 protected:
  JSON_HEDLEY_NON_NULL(3)
  basic_json(int id_, const char* what_arg) : id(id_) {}
};
