package source

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/trajscope/trajscope/inputfile"
)

// WorkTree is the git work tree dir lies in: dir or the nearest folder
// above it holding a .git; "" when there is none.
func WorkTree(dir string) string {
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

// maxReflog bounds the reflog read: years of checkouts are a few MB.
const maxReflog = 64 << 20

// HeadAt is the commit the repository at dir had checked out at time t,
// from its HEAD reflog (logs/HEAD: "OLD NEW NAME <EMAIL> SECONDS ZONE\tMSG"
// a line per move): the last move made by then, or the commit the first
// later move left when none was. "" when the reflog does not say (none
// kept, or t before a repository that had no commit).
func HeadAt(dir string, t time.Time) string {
	gitDir, err := findGitDir(dir)
	if err != nil {
		return ""
	}
	f, err := inputfile.OpenRegular(filepath.Join(gitDir, "logs", "HEAD")) // a FIFO there: not waited on
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(io.LimitReader(f, maxReflog))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	at := ""
	for sc.Scan() {
		old, nw, when, ok := reflogLine(sc.Text())
		if !ok {
			continue
		}
		if when.After(t) {
			if at == "" && strings.Trim(old, "0") != "" {
				at = old // HEAD before the first move after t
			}
			break
		}
		at = nw
	}
	return at
}

// reflogLine reads one reflog line.
func reflogLine(line string) (old, nw string, when time.Time, ok bool) {
	head, _, _ := strings.Cut(line, "\t")
	f := strings.Fields(head)
	if len(f) < 4 || len(f[0]) != 40 || len(f[1]) != 40 {
		return "", "", time.Time{}, false
	}
	secs, err := strconv.ParseInt(f[len(f)-2], 10, 64)
	if err != nil {
		return "", "", time.Time{}, false
	}
	return f[0], f[1], time.Unix(secs, 0), true
}

// readSmall reads a small file git keeps (a ref, a .git file, commondir):
// a regular file only, never waited on (a FIFO placed there), at most
// 1 MiB.
func readSmall(path string) ([]byte, error) { return readGitFile(path, 1<<20) }

// readGitFile reads at most limit bytes of a regular file git keeps.
func readGitFile(path string, limit int64) ([]byte, error) {
	f, err := inputfile.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, limit))
}
