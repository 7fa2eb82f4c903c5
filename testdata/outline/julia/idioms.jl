module Shapes

export Shape, area

using LinearAlgebra
import Base: show

const MAX_SIZE = 100
const A, B = 1, 2

abstract type Shape end
abstract type Polygon <: Shape end

"""
    Circle(r)

A circle.
"""
struct Circle <: Shape
    r::Float64
end

mutable struct Counter{T}
    n::T
    Counter{T}(n) where {T} = new(n)
end

primitive type Word24 24 end

area(c::Circle) = pi * c.r^2

function area(p::Polygon)
    return 0.0
end

function Base.show(io::IO, c::Circle)
    print(io, "Circle(", c.r, ")")
end

Base.length(c::Counter) = c.n

function (c::Counter)(x)
    c.n += x
end

macro twice(ex)
    quote
        $(esc(ex))
        $(esc(ex))
    end
end

function outer(x)
    inner(y) = y + 1
    function helper(z)
        z * 2
    end
    return helper(inner(x))
end

module Inner
    f() = 1
end

baremodule Bare
end

f(x::T) where {T<:Real} = x
g(x)::Int = 1
h = x -> x + 1
const k = (x) -> x

struct Point{T<:Real}
    x::T
    y::T
end

Point(x::T) where {T} = Point(x, x)

@inline function fast(x)
    x
end

end # module
