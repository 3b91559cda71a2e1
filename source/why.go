package source

import (
	"errors"
	"fmt"
	"strings"
)

// Why says in one line why a repository could not be opened, given the
// error Key or Open returned. Source
// errors wrap a sentinel that restates what the message already says, and a
// failed clone's error repeats the URL inside the transport's: the reason
// keeps each fact once.
func (o CheckoutOptions) Why(err error) string {
	switch {
	case errors.Is(err, ErrNotCached):
		if o.NoClone {
			return fmt.Sprintf("not in the cache %s, and --no-clone forbids cloning", o.Cache)
		}
		return fmt.Sprintf("not in the cache %s", o.Cache)
	case errors.Is(err, ErrUnresolved):
		msg := strings.TrimSuffix(err.Error(), ": "+ErrUnresolved.Error())
		if _, rest, ok := strings.Cut(msg, `": `); ok && strings.HasPrefix(msg, "instance ") {
			msg = rest // the instance is on screen already
		}
		return msg
	}
	root := err
	for {
		next := errors.Unwrap(root)
		if next == nil {
			break
		}
		root = next
	}
	msg := err.Error()
	rest, ok := strings.CutPrefix(msg, "clone ")
	head, detail, found := strings.Cut(rest, ": ")
	if !ok || !found {
		return msg
	}
	// "clone URL[ into DIR]: ...": the URL once, then the cause (the
	// innermost error, which transport errors wrap with the URL again).
	url, _, _ := strings.Cut(head, " ")
	if root != err {
		detail = root.Error()
	}
	return fmt.Sprintf("cannot clone %s: %s", url, detail)
}
