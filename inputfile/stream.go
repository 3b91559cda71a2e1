package inputfile

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/klauspost/compress/zstd"

	"github.com/trajscope/trajscope/model"
)

// Stdin is the name that means standard input where a command streams its
// input (score --pred -).
const Stdin = "-"

// stdin is what Stdin reads: the process's, or what UseStdin gave.
var stdin io.Reader = os.Stdin

// UseStdin makes Stdin read r (a command's own input stream) until the
// returned function restores the previous one.
func UseStdin(r io.Reader) (restore func()) {
	prev := stdin
	stdin = r
	return func() { stdin = prev }
}

// Streamed inputs (a JSONL of predictions, read a line at a time) have no
// bound on their total size: each line is bounded instead (MaxLineBytes),
// so a file of any length costs one line's memory, and a line that never
// ends costs the bound.

// MaxLineBytes is the most of one line a stream hands on: a record is
// bounded as a whole file read at once is.
const MaxLineBytes = model.MaxFileBytes

// maxLine is MaxLineBytes; a test lowers it.
var maxLine = MaxLineBytes

// Compressed reports a name Stream decompresses as it reads: .gz or .zst.
func Compressed(path string) bool {
	return strings.HasSuffix(path, ".gz") || strings.HasSuffix(path, ".zst")
}

// Uncompressed is the name without the extension Stream decompresses
// ("runs.jsonl.gz" → "runs.jsonl").
func Uncompressed(path string) string {
	return strings.TrimSuffix(strings.TrimSuffix(path, ".gz"), ".zst")
}

// Stream opens path for one pass from its start to its end, with no bound
// on its size: "-" is standard input (readable once); gzip and zstd data
// (by the name's .gz or .zst, or by their first bytes) are decompressed as
// they are read; anything else is the file as it is (a FIFO, an object
// store mounted as files).
func Stream(path string) (io.ReadCloser, error) {
	var f io.ReadCloser
	if b, ok := mounted(path); ok {
		f = io.NopCloser(strings.NewReader(string(b)))
	} else if path == Stdin {
		f = io.NopCloser(stdin)
	} else {
		if _, err := stat(path); err != nil {
			return nil, err
		}
		o, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		f = o
	}
	// A stream says what it is in its first bytes, whatever its name
	// (zcat forgotten in a pipe: `--pred -` of gzip data).
	br := bufio.NewReaderSize(f, 1<<16)
	magic, _ := br.Peek(4)
	gz := strings.HasSuffix(path, ".gz") || bytes.HasPrefix(magic, []byte{0x1f, 0x8b})
	zst := strings.HasSuffix(path, ".zst") || bytes.Equal(magic, []byte{0x28, 0xb5, 0x2f, 0xfd})
	switch {
	case gz:
		z, err := gzip.NewReader(br)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("%s: not gzip data: %w", path, err)
		}
		return closers{z, f}, nil
	case zst:
		// One decoder goroutine and a bounded window: a crafted frame
		// cannot ask for gigabytes.
		z, err := zstd.NewReader(br, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true),
			zstd.WithDecoderMaxMemory(256<<20), zstd.WithDecoderMaxWindow(64<<20))
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("%s: not zstd data: %w", path, err)
		}
		return closers{zstdReader{z}, f}, nil
	}
	return closers{io.NopCloser(br), f}, nil
}

// closers reads from its first and closes both.
type closers [2]io.ReadCloser

func (c closers) Read(p []byte) (int, error) { return c[0].Read(p) }
func (c closers) Close() error               { return errors.Join(c[0].Close(), c[1].Close()) }

type zstdReader struct{ *zstd.Decoder }

func (z zstdReader) Close() error { z.Decoder.Close(); return nil }

// ErrLineTooLong is behind the error of a line past MaxLineBytes.
var ErrLineTooLong = errors.New("line too long")

// EachLine reads path as a stream (Stream) and calls fn with each line,
// numbered from 1, without its newline. Only lines numbered in [from, to)
// are handed on (to ≤ 0: to the end); the others are passed over without
// being kept, so a shard of a file costs its own lines. A line past
// MaxLineBytes is handed on as an error wrapping ErrLineTooLong (its bytes
// skipped, never held) and reading goes on. fn's error stops the reading.
func EachLine(path string, from, to int, fn func(n int, line []byte, err error) error) error {
	f, err := Stream(path)
	if err != nil {
		return err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<16)
	var long []byte
	for n := 1; to <= 0 || n < to; n++ {
		keep := n >= from
		long = long[:0]
		over := false
		var err error
		var part []byte
		for {
			part, err = r.ReadSlice('\n')
			if !keep || over {
				if err != bufio.ErrBufferFull {
					break
				}
				continue
			}
			if len(long)+len(part) > maxLine {
				over = true
			} else {
				long = append(long, part...)
			}
			if err != bufio.ErrBufferFull {
				break
			}
		}
		if err != nil && err != io.EOF {
			return fmt.Errorf("%s: %w", path, err)
		}
		end := err == io.EOF
		if end && len(long) == 0 && !over {
			return nil // nothing after the last newline
		}
		if keep {
			var ferr error
			if over {
				ferr = fn(n, nil, fmt.Errorf("%s: line %d: %w (more than %d MiB)", path, n, ErrLineTooLong, maxLine>>20))
			} else {
				ferr = fn(n, trimNewline(long), nil)
			}
			if ferr != nil {
				return ferr
			}
		}
		if end {
			return nil
		}
	}
	return nil
}

func trimNewline(b []byte) []byte {
	if len(b) > 0 && b[len(b)-1] == '\n' {
		return b[:len(b)-1]
	}
	return b
}

// CountLines counts the lines of path read as a stream: the lines ending
// in a newline, and a last one without. No line is kept, so it costs a
// buffer whatever the file; a shard's slice is computed from it.
func CountLines(path string) (int, error) {
	f, err := Stream(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	buf := make([]byte, 1<<16)
	n, last := 0, byte('\n')
	for {
		k, err := f.Read(buf)
		n += bytes.Count(buf[:k], []byte{'\n'})
		if k > 0 {
			last = buf[k-1]
		}
		if err == io.EOF {
			if last != '\n' {
				n++
			}
			return n, nil
		}
		if err != nil {
			return 0, fmt.Errorf("%s: %w", path, err)
		}
	}
}
