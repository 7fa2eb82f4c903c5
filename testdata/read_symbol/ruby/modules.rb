module Shop
  VERSION = "2.1.0"

  module Pricing
    TAX = 0.2

    def self.with_tax(amount)
      amount * (1 + TAX)
    end

    def round(amount)
      amount.round(2)
    end

    module_function :round
  end

  class Error < StandardError; end
end
