//go:build netbsd

package sys

// ioctl calls the system.
func ioctl(fd int, req uint) (err error) {
	_, _, e1 := RawSyscall(SYS_IOCTL, uintptr(fd), uintptr(req))
	if e1 != 0 {
		err = e1
	}
	return
}
