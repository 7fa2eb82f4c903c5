//go:build openbsd

package sys

func ioctl(fd int, req uint) (err error) {
	return ENOSYS
}
