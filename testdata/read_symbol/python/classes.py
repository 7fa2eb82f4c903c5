"""Classes, methods, nested definitions and async ones."""

import asyncio


class Shape:
    """A docstring is not an entry."""

    sides = 0
    MAX_SIDES = 12  # class attribute, not a module constant

    def __init__(self, name):
        self.name = name

    def area(self):
        raise NotImplementedError

    async def render(self, canvas):
        await asyncio.sleep(0)

    class Meta:
        ordering = ["name"]

        def describe(cls):
            return "meta"


class Square(Shape, metaclass=type):
    def area(self):
        def side_squared(side):
            return side * side

        class Local:
            def helper(self):
                pass

        return side_squared(self.side)


def top_level():
    def inner():
        def innermost():
            pass

        return innermost

    return inner


async def fetch(url):
    async def attempt():
        pass

    return await attempt()


def  spaced  ( a ,
        b ):
    pass
