package com.example;

public interface Repository<T, ID> {
  int PAGE_SIZE = 50;

  T findById(ID id);

  default List<T> findAll() {
    return List.of();
  }

  static <T> Repository<T, Long> empty() {
    return null;
  }
}

@Retention(RetentionPolicy.RUNTIME)
@interface Audited {
  String value() default "";
  int level() default 1;
}
