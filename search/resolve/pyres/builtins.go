package pyres

import "strings"

// builtins are the names of Python's builtins module (3.11): a name
// that no module-level binding declares and that is one of these is
// decided, and is no project definition.
var builtins = func() map[string]bool {
	m := map[string]bool{"__file__": true, "__name__": true, "__doc__": true, "__spec__": true, "__path__": true, "__all__": true, "reveal_type": true}
	for _, n := range strings.Fields(builtinNames) {
		m[n] = true
	}
	return m
}()

const builtinNames = `ArithmeticError AssertionError AttributeError BaseException BaseExceptionGroup BlockingIOError 
BrokenPipeError BufferError BytesWarning ChildProcessError ConnectionAbortedError 
ConnectionError ConnectionRefusedError ConnectionResetError DeprecationWarning EOFError 
Ellipsis EncodingWarning EnvironmentError Exception ExceptionGroup False FileExistsError 
FileNotFoundError FloatingPointError FutureWarning GeneratorExit IOError ImportError 
ImportWarning IndentationError IndexError InterruptedError IsADirectoryError KeyError 
KeyboardInterrupt LookupError MemoryError ModuleNotFoundError NameError None NotADirectoryError 
NotImplemented NotImplementedError OSError OverflowError PendingDeprecationWarning 
PermissionError ProcessLookupError RecursionError ReferenceError ResourceWarning RuntimeError 
RuntimeWarning StopAsyncIteration StopIteration SyntaxError SyntaxWarning SystemError 
SystemExit TabError TimeoutError True TypeError UnboundLocalError UnicodeDecodeError 
UnicodeEncodeError UnicodeError UnicodeTranslateError UnicodeWarning UserWarning ValueError 
Warning ZeroDivisionError __build_class__ __debug__ __doc__ __import__ __loader__ __name__ 
__package__ __spec__ abs aiter all anext any ascii bin bool breakpoint bytearray bytes callable 
chr classmethod compile complex copyright credits delattr dict dir divmod enumerate eval exec 
exit filter float format frozenset getattr globals hasattr hash help hex id input int 
isinstance issubclass iter len license list locals map max memoryview min next object oct open 
ord pow print property quit range repr reversed round set setattr slice sorted staticmethod str 
sum super tuple type vars zip`
