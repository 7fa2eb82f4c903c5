class counter start = object (self)
  val mutable n = start
  method incr = n <- n + 1
  method get = n
  method private reset = n <- 0
end

class virtual shape = object
  method virtual area : float
end
