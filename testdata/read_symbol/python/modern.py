type Vector = list[float]
type Pair[T] = tuple[T, T]


class Box[T]:
    def get(self) -> T: ...


def first[T](items: list[T]) -> T:
    return items[0]


class Multiline(
    Base,
    metaclass=Meta,
):
    def method(
        self,
        a,
    ):
        pass


async def \
        continued():
    pass
