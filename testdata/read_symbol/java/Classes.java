package com.example.shop;

import java.util.List;

/** A cart of items. */
@Entity
public class Cart extends BaseEntity implements Iterable<Item> {
  public static final int MAX_ITEMS = 100;
  static final String DEFAULT_CURRENCY = "EUR";
  private final List<Item> items;

  public Cart(List<Item> items) {
    this.items = items;
  }

  @Override
  public Iterator<Item> iterator() {
    return items.iterator();
  }

  public <T extends Item> T first(Class<T> type) {
    return null;
  }

  static class Builder {
    Cart build() { return new Cart(List.of()); }
  }
}
