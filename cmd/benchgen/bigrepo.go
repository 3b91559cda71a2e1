package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/trajscope/trajscope/testkit/benchgen"
)

// bigRepo writes a bare git repository whose one pack holds a large history:
// every commit edits a few files deep in a wide tree, so each commit adds
// new blobs and a new tree for every directory on each edited path. git
// fast-import builds the pack without the network: each new version is a
// delta of the previous one, in chains 50 deep, so the newest commit's
// objects are the most expensive to read (the worst case); -repack then
// makes them the bases, as git gc would. The result is deterministic for
// given flags.
func bigRepo(args []string) error {
	fl := flag.NewFlagSet("bigrepo", flag.ExitOnError)
	out := fl.String("out", "", "directory of the bare repository to create (must not exist)")
	commits := fl.Int("commits", 30000, "commits")
	files := fl.Int("files", 4000, "files in the tree")
	depth := fl.Int("depth", 6, "directory depth of every file")
	perCommit := fl.Int("edits", 3, "files edited per commit")
	repack := fl.Bool("repack", false, "repack as git gc would (newest versions whole, older ones deltas of them); slower to make")
	_ = fl.Parse(args)
	if *out == "" {
		return fmt.Errorf("bigrepo needs -out")
	}
	if _, err := os.Stat(*out); err == nil {
		return fmt.Errorf("%s already exists", *out)
	}
	if err := exec.Command("git", "init", "-q", "--bare", *out).Run(); err != nil {
		return fmt.Errorf("git init: %w", err)
	}
	cmd := exec.Command("git", "--git-dir", *out, "fast-import", "--quiet", "--depth=50")
	cmd.Stderr = os.Stderr
	w, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("git fast-import: %w", err)
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	werr := writeHistory(bw, *commits, *files, *depth, *perCommit)
	if werr == nil {
		werr = bw.Flush()
	}
	w.Close()
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("git fast-import: %w", err)
	}
	if werr != nil {
		return werr
	}
	if *repack {
		cmd := exec.Command("git", "--git-dir", *out, "repack", "-adfq", "--window=10", "--depth=50")
		cmd.Stderr = os.Stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("git repack: %w", err)
		}
	}
	fmt.Println(filepath.Clean(*out))
	return nil
}

// bigPath is file i's path: depth nested directories, fanning out by 4 at
// each level, so paths share prefixes as real source trees do.
func bigPath(i, depth int) string {
	var parts []string
	n := i
	for d := 0; d < depth; d++ {
		parts = append(parts, fmt.Sprintf("d%d_%d", d, n%4))
		n /= 4
	}
	parts = append(parts, fmt.Sprintf("mod%d.py", i))
	return strings.Join(parts, "/")
}

// writeHistory writes the fast-import stream: a first commit with every
// file, then commits that each rewrite a few lines of perCommit files.
func writeHistory(w io.Writer, commits, files, depth, perCommit int) error {
	content := make([]string, files)
	for i := range content {
		content[i] = benchgen.Python(120+i%200, i)
	}
	blob := func(s string) {
		fmt.Fprintf(w, "data %d\n%s\n", len(s), s)
	}
	when := int64(1700000000)
	for c := 0; c < commits; c++ {
		fmt.Fprintf(w, "commit refs/heads/main\ncommitter Bench <bench@example.com> %d +0000\n", when+int64(c)*60)
		msg := fmt.Sprintf("commit %d", c)
		fmt.Fprintf(w, "data %d\n%s\n", len(msg), msg)
		if c == 0 {
			for i := range content {
				fmt.Fprintf(w, "M 100644 inline %s\n", bigPath(i, depth))
				blob(content[i])
			}
			continue
		}
		for k := 0; k < perCommit; k++ {
			i := int((uint64(c)*2654435761 + uint64(k)*40503) % uint64(files))
			// Change one line in place: the new version is a small delta of
			// the previous one.
			lines := strings.Split(content[i], "\n")
			at := (c*7 + k) % len(lines)
			lines[at] = fmt.Sprintf("# edit %d.%d", c, k)
			content[i] = strings.Join(lines, "\n")
			fmt.Fprintf(w, "M 100644 inline %s\n", bigPath(i, depth))
			blob(content[i])
		}
	}
	_, err := fmt.Fprintf(w, "reset HEAD\nfrom refs/heads/main\n\n")
	return err
}
