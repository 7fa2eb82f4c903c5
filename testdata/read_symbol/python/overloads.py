from typing import overload


@overload
def parse(value: int) -> int: ...
@overload
def parse(value: str) -> str: ...
def parse(value):
    return value


class Reader:
    @overload
    def read(self, n: int) -> bytes: ...

    @overload
    def read(self) -> bytes: ...

    def read(self, n=-1):
        return b""
