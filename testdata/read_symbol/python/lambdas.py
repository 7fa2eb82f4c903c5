square = lambda x: x * x
IDENTITY = lambda x: x
handlers = [lambda: 1, lambda: 2]
sorted([], key=lambda item: item)

if True:
    fallback = lambda: None


class Table:
    key = lambda self, row: row[0]
    columns = []

    if True:
        compat = lambda self: None

    def rows(self):
        local = lambda r: r
        return map(local, [])


def outer():
    inner = lambda: 0
    return inner
