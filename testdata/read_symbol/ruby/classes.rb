# frozen_string_literal: true

require "json"

class Cart < ApplicationRecord
  MAX_ITEMS = 100

  attr_reader :items

  def initialize(items = [])
    @items = items
  end

  def total
    items.sum(&:price)
  end

  def <=>(other)
    total <=> other.total
  end

  def empty? = items.empty?

  private

  def recalculate!
    @total = nil
  end
end
