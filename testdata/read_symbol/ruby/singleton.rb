class Config
  class << self
    def load(path)
      new(File.read(path))
    end

    def default
      @default ||= new("")
    end
  end

  def self.reset!
    @default = nil
  end

  def initialize(text)
    @text = text
  end
end
