package source

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"testing"
)

// The reason keeps each fact once: no sentinel restating the message, no
// URL repeated by the transport's error.
func TestWhy(t *testing.T) {
	dns := &net.DNSError{Err: "no such host", Name: "github.com", Server: "10.0.0.1:53", IsNotFound: true}
	transport := &url.Error{Op: "Get", URL: "https://github.com/o/r.git/info/refs?service=git-upload-pack", Err: &net.OpError{Op: "dial", Net: "tcp", Err: dns}}
	cases := []struct {
		err  error
		o    CheckoutOptions
		want string
	}{
		{fmt.Errorf("repository https://github.com/o/r.git: not in cache /c (no /c/github.com__o__r): %w", ErrNotCached),
			CheckoutOptions{Cache: "/c", NoClone: true}, "not in the cache /c, and --no-clone forbids cloning"},
		{fmt.Errorf(`instance "o__r-1": repository https://github.com/o/r.git: no commit (prediction and gold give none): %w`, ErrUnresolved),
			CheckoutOptions{Cache: "/c"}, "repository https://github.com/o/r.git: no commit (prediction and gold give none)"},
		{fmt.Errorf("clone https://github.com/o/r.git into /c/github.com__o__r: %w", transport),
			CheckoutOptions{Cache: "/c"}, "cannot clone https://github.com/o/r.git: lookup github.com on 10.0.0.1:53: no such host"},
		{errors.New("clone https://github.com/o/r.git: destination /c/x already exists"),
			CheckoutOptions{Cache: "/c"}, "cannot clone https://github.com/o/r.git: destination /c/x already exists"},
		{errors.New("repository /r: commit dddd: commit not found"), CheckoutOptions{Repo: "/r"}, "repository /r: commit dddd: commit not found"},
	}
	for _, c := range cases {
		if got := c.o.Why(c.err); got != c.want {
			t.Errorf("Why(%q) = %q, want %q", c.err, got, c.want)
		}
	}
}
