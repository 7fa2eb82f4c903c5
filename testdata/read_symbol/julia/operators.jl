function Base.:(==)(a::X, b::X)
    true
end
Base.:+(a::X, b::X) = a
==(a::Y, b::Y) = true
function +(a::Y, b::Y)
    a
end
a::Z * b::Z = a
Base.show(io::IO, ::MIME"text/plain", x::X) = nothing
function allowmissing! end
const UD{S<:V} = D{U,S}
function f(x; cb = (a) -> a, n = g(1))
    foo(a = bar(b), k = y -> y)
    map(z -> z + 1, x)
    d = Dict(:a => 1)
    let q = r -> r
        q(1)
    end
    for i in 1:10
        s = i -> i
    end
end
