// Package browsertest opens exported pages in headless Chromium for the
// export tests: what a page did (every request, dialog, uncaught
// exception and browser log entry, a Content-Security-Policy violation
// among them) is recorded, so a test can check that it stayed quiet.
package browsertest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// Chromium finds a Chromium to test pages in. Without one the browser
// tests skip, except in CI, whose script installs it: there a missing
// browser fails rather than passing unseen.
func Chromium(t testing.TB) string {
	t.Helper()
	for _, name := range []string{"/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("no Chromium: .ci/run installs the chromium package")
	}
	t.Skip("no Chromium installed (apt-get install chromium)")
	return ""
}

// Browser is a page open in headless Chromium, with what it did.
type Browser struct {
	T   testing.TB
	Ctx context.Context
	// URL is the page opened first.
	URL string

	mu         sync.Mutex
	pages      map[string]bool // the pages navigated to, without fragment
	requests   []string
	dialogs    []string
	exceptions []string
	logs       []string
}

// Open opens the page file at path in a new headless Chromium, at its
// address plus fragment ("" or "#step-3"), and waits until ready (a
// JavaScript expression) is true once it has loaded.
func Open(t testing.TB, path, fragment, ready string) *Browser {
	t.Helper()
	exe := Chromium(t)
	alloc, cancel := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(exe), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1400, 900))
	t.Cleanup(cancel)
	ctx, cancel := chromedp.NewContext(alloc)
	t.Cleanup(cancel)
	b := &Browser{T: t, Ctx: ctx, URL: "file://" + path, pages: map[string]bool{}}
	// The first call starts the browser; it must not carry a timeout.
	if _, err := chromedp.Call(ctx, runtime.Enable, cdp.Empty{}); err != nil {
		t.Fatalf("starting Chromium: %v", err)
	}
	if err := chromedp.Listen(ctx, b.record); err != nil {
		t.Fatal(err)
	}
	for _, err := range []error{
		call(ctx, network.Enable, network.EnableParams{}),
		call(ctx, log.Enable, cdp.Empty{}),
		call(ctx, page.Enable, page.EnableParams{}),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	b.Navigate(b.URL+fragment, ready)
	return b
}

// Navigate goes to url and waits until ready is true: Navigate returns
// once the page has loaded, and a page's script renders while it loads.
func (b *Browser) Navigate(url, ready string) {
	b.T.Helper()
	b.mu.Lock()
	b.pages[strings.SplitN(url, "#", 2)[0]] = true
	b.mu.Unlock()
	b.Do(chromedp.Navigate(url))
	if !Eval[bool](b, ready) {
		b.mu.Lock()
		defer b.mu.Unlock()
		b.T.Fatalf("%s did not render (%s): %q %q", url, ready, b.exceptions, b.logs)
	}
}

func call[P any](ctx context.Context, cmd cdp.Command[P, cdp.Empty], p P) error {
	_, err := chromedp.Call(ctx, cmd, p)
	return err
}

// record runs in the tab's message loop: it only notes events. A dialog is
// dismissed from another goroutine, so the page does not block.
func (b *Browser) record(ev any) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch ev := ev.(type) {
	case *network.EventRequestWillBeSent:
		b.requests = append(b.requests, ev.Request.URL)
	case *page.EventJavascriptDialogOpening:
		b.dialogs = append(b.dialogs, ev.Message)
		go chromedp.Call(b.Ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: false})
	case *runtime.EventExceptionThrown:
		b.exceptions = append(b.exceptions, ev.ExceptionDetails.Text+" "+fmt.Sprint(ev.ExceptionDetails.Exception))
	case *log.EventEntryAdded:
		b.logs = append(b.logs, string(ev.Entry.Source)+": "+ev.Entry.Text)
	}
}

// Do runs browser actions, failing the test on an error.
func (b *Browser) Do(actions ...chromedp.Action[chromedp.Void]) {
	b.T.Helper()
	ctx, cancel := context.WithTimeout(b.Ctx, 60*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		b.T.Fatal(err)
	}
}

// Eval evaluates a JavaScript expression in the page.
func Eval[T any](b *Browser, js string) T {
	b.T.Helper()
	ctx, cancel := context.WithTimeout(b.Ctx, 60*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		b.T.Fatalf("%s: %v", js, err)
	}
	return v
}

// Text is the text of the first element sel selects.
func (b *Browser) Text(sel string) string {
	b.T.Helper()
	return Eval[string](b, fmt.Sprintf("document.querySelector(%q).textContent", sel))
}

// Press types keys into the page.
func (b *Browser) Press(keys string) {
	b.T.Helper()
	b.Do(chromedp.KeyEvent(keys))
}

// Quiet checks that the page loaded nothing but the pages it was sent to
// (Open, Navigate, or a link the test followed: Visited), opened no
// dialog, threw nothing and broke no policy.
func (b *Browser) Quiet() {
	b.T.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, u := range b.requests {
		if !b.pages[strings.SplitN(u, "#", 2)[0]] {
			b.T.Errorf("the page requested %s", u)
		}
	}
	if len(b.dialogs) > 0 {
		b.T.Errorf("dialogs opened: %q", b.dialogs)
	}
	if len(b.exceptions) > 0 {
		b.T.Errorf("uncaught exceptions: %q", b.exceptions)
	}
	for _, l := range b.logs {
		if strings.Contains(l, "Content Security Policy") || strings.Contains(l, "Refused") {
			b.T.Errorf("policy violation: %s", l)
		}
	}
}

// Visited allows a page a test reached by following a link: Quiet does
// not count it as a request of the page.
func (b *Browser) Visited(url string) {
	b.mu.Lock()
	b.pages[strings.SplitN(url, "#", 2)[0]] = true
	b.mu.Unlock()
}

// WaitFor waits until a JavaScript expression is true in the page (after
// a navigation the page's own script started), failing the test after a
// minute: a hang guard, not a speed claim.
func (b *Browser) WaitFor(js string) {
	b.T.Helper()
	for start := time.Now(); time.Since(start) < time.Minute; time.Sleep(20 * time.Millisecond) {
		ctx, cancel := context.WithTimeout(b.Ctx, 10*time.Second)
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](js))
		cancel()
		if err == nil && ok {
			return
		}
	}
	b.T.Fatalf("waited a minute for %s", js)
}
