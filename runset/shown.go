// What the set gives out, redacted once (--redact).

package runset

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/trajscope/trajscope/redact"
	"github.com/trajscope/trajscope/story"
)

// shown is v as the set gives it out: redacted by red, when set.
func shown[T any](red *redact.Redactor, v T) T {
	if red == nil {
		return v
	}
	return red.Copy(v).(T)
}

// tell tells an analysed run's story, the one way every surface gets one:
// the story is told from the run as it was scored, then it and the
// analysis under it are redacted as one value, so no text a surface draws
// (ids, paths read, agents, reasons, outputs) is left out; the analysis
// then reads the repository's files by the names it shows.
func (s *Set) tell(st *story.Story) *story.Story {
	if s.red == nil {
		return st
	}
	st = shown(s.red, st)
	st.A.ShowAs(s.red)
	return st
}

// Text is t as the set gives text out: redacted with --redact, else as it
// is. For what a command says of the runs beside what the set gives.
func (s *Set) Text(t string) string {
	if s.red == nil || t == "" {
		return t
	}
	return s.red.Text(t)
}

// error is err as the set gives it out; its kind (a *GoldError) is kept.
func (s *Set) error(err error) error {
	if s.red == nil || err == nil {
		return err
	}
	msg := s.red.Text(err.Error())
	var ge *GoldError
	if errors.As(err, &ge) {
		return &GoldError{errors.New(s.red.Text(ge.Err.Error()))}
	}
	if msg == err.Error() {
		return err
	}
	return errors.New(msg)
}

// Redaction says what --redact replaced in what the set gave out ("" when
// it does not redact).
func (s *Set) Redaction() string {
	if s.red == nil {
		return ""
	}
	return s.red.Summary()
}

// Title names what the set was opened on: the one path, or how many.
func (s *Set) Title() string { return s.Text(s.title) }

func title(paths []string) string {
	if len(paths) == 1 {
		return filepath.Clean(paths[0])
	}
	return fmt.Sprintf("%d paths", len(paths))
}
