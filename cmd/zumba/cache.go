package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/zumba-dev/zumba/internal/diskcache"
)

const cacheUsage = "usage: zumba cache [--clean]"

func runCache(args []string) int {
	return cacheCommand(os.Stdout, args)
}

// cacheCommand prints the disk cache's size and how many projects it
// holds, or with --clean empties it.
func cacheCommand(w io.Writer, args []string) int {
	fs := newFlagSet("cache")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return usageError("cache: " + err.Error() + "; " + cacheUsage)
	}
	if len(pos) > 0 {
		return usageError("cache takes no arguments; " + cacheUsage)
	}
	base, err := diskcache.BaseDir()
	if err != nil {
		return failure(err)
	}
	if on(fs, "clean") {
		if err := diskcache.Clean(base); err != nil {
			return failure(err)
		}
		fmt.Fprintf(w, "emptied %s\n", base)
		return 0
	}
	size, roots, err := diskcache.Usage(base)
	if err != nil {
		return failure(err)
	}
	limit, err := cacheLimit()
	if err != nil {
		return usageError(err.Error())
	}
	if limit == 0 {
		limit = diskcache.DefaultStoreLimit
	}
	fmt.Fprintf(w, "%s: %.1f MiB, %d projects (store limit %.1f GiB)\n", base, float64(size)/(1<<20), roots, float64(limit)/(1<<30))
	return 0
}

// cacheLimit is the store's size limit that ZUMBA_CACHE_LIMIT sets (bytes,
// or with a K, M or G suffix, powers of 1024); 0 when unset.
func cacheLimit() (int64, error) {
	v := strings.TrimSpace(os.Getenv("ZUMBA_CACHE_LIMIT"))
	if v == "" {
		return 0, nil
	}
	mult := int64(1)
	switch strings.ToUpper(v[len(v)-1:]) {
	case "K":
		mult = 1 << 10
	case "M":
		mult = 1 << 20
	case "G":
		mult = 1 << 30
	}
	if mult > 1 {
		v = v[:len(v)-1]
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n <= 0 || n > 1<<50/mult {
		return 0, fmt.Errorf("ZUMBA_CACHE_LIMIT=%q: want a size in bytes, or with a K, M or G suffix", os.Getenv("ZUMBA_CACHE_LIMIT"))
	}
	return n * mult, nil
}
