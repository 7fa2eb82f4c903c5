class Greeter:
    def greet(self):
        pass
