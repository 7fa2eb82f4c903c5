import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterator

    STUB_ONLY = 1

    class Protocolish:
        def method(self): ...

if sys.version_info >= (3, 11):
    import tomllib

    PARSER = "tomllib"

    def load(fp):
        return tomllib.load(fp)
elif sys.platform == "win32":
    PARSER = "win"
else:
    PARSER = None

    def load(fp):
        raise RuntimeError

try:
    import ujson as json

    FAST_JSON = True
except ImportError:
    import json

    FAST_JSON = False

    def dumps(obj):
        return json.dumps(obj)
else:
    HAVE_EXTRA = True
finally:
    CLEANED = True

with open(__file__) as fh:
    FILE_HEAD = fh.readline()

    class FromWith:
        pass

for _name in ("a", "b"):
    LOOP_CONST = _name

while False:
    NEVER = 1

match sys.platform:
    case "linux":
        PLATFORM_NAME = "Linux"
    case _:
        PLATFORM_NAME = "other"

if sys.platform == "darwin":
    try:
        import objc
    except ImportError:
        if sys.version_info < (3, 8):
            DEEP_FALLBACK = True


def main():
    if True:
        NOT_MODULE_LEVEL = 1
        def nested_in_if():
            pass
    return NOT_MODULE_LEVEL


if __name__ == "__main__":
    EXIT_CODE = main()
