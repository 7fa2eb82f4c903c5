import functools
from dataclasses import dataclass


@dataclass(
    frozen=True,
    slots=True,
)
class Point:
    x: int
    y: int

    @property
    def norm(self):
        return (self.x**2 + self.y**2) ** 0.5

    @norm.setter
    def norm(self, value):
        raise AttributeError

    @norm.deleter
    def norm(self):
        pass

    @staticmethod
    def origin():
        return Point(0, 0)

    @classmethod
    @functools.cache
    def unit(cls):
        return cls(1, 0)


def logged(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)

    return wrapper


@logged
# a comment between the decorator and the def
async def handler(request):
    pass


@functools.lru_cache(maxsize=None)
def cached():
    pass
