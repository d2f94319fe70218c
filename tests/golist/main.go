// golist: lists a tar as Go's archive/tar reads it (the reader Docker and containerd apply
// layers with), in the lines tests/go_tar_list.c prints for src/image/oci_tar_go.c, so that the
// two can be compared: `go run tests/golist/main.go TAR`. Not built by meson (Go is not a
// build dependency); scripts/compare-go-tar.sh runs both over a set of tars.
package main

import (
	"archive/tar"
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"
)

func esc(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= 0x7f || c == '\\' {
			fmt.Fprintf(&b, "\\x%02x", c)
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

func main() {
	f, err := os.Open(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	tr := tar.NewReader(bufio.NewReader(f))
	for {
		h, err := tr.Next()
		if err == io.EOF {
			fmt.Println("END")
			return
		}
		if err != nil {
			fmt.Println("STOPPED:", err)
			return
		}
		if h.Typeflag == tar.TypeXGlobalHeader {
			continue
		}
		fmt.Printf("%s\t%d\t%s\t%s\n", esc(string([]byte{h.Typeflag})), h.Size, esc(h.Name), esc(h.Linkname))
	}
}
