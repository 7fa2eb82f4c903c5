from typing import Final

MAX_SIZE = 10
TIMEOUT: Final = 30
RETRIES: Final[int] = 3
DEFAULT_ENCODING: str
_PRIVATE_LIMIT = 5
__DUNDER_CAPS__ = 1
HTTP2_ENABLED = True
RED, GREEN, BLUE = range(3)
(NORTH, SOUTH) = "n", "s"
[LEFT, RIGHT] = "l", "r"
NO = FALSE = OFF = 0
FIRST, *REST = [1, 2, 3]
(OUTER, INNER), LAST = (1, 2), 3
TABLE = {
    "a": 1,
    "b": 2,
}

lower_case = 1
MixedCase = 2
__all__ = ["MAX_SIZE"]
__version__ = "1.0"
MAX_SIZE += 1
settings.DEBUG = True
CACHE["key"] = 1
_ = 0
for INDEX in range(3):
    pass
with open(__file__) as HANDLE:
    pass


class Config:
    LEVEL = 1
    NAMES: list[str] = []


def configure():
    LOCAL_LIMIT = 1
    global GLOBAL_FLAG
    GLOBAL_FLAG = True
    return LOCAL_LIMIT
