// Package lineranges is the model of `sutra read` in Go, for the outline tests: real code
// with methods on pointer and value receivers, an interface, grouped constants and types.
package lineranges

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

const (
	MaxRanges = 64
	separator = ","
)

var ErrEmpty = errors.New("no range")

// LineRange is one-based and inclusive.
type LineRange struct {
	First int
	Last  int
}

// Slicer returns the bytes of a range.
type Slicer interface {
	Slice(r LineRange) (string, error)
	LineCount() int
}

type (
	// Index addresses lines by byte offsets.
	Index struct {
		text   string
		starts []int
	}
	Ranges []LineRange
)

// NewIndex splits after each newline; a last line without one still counts.
func NewIndex(text string) *Index {
	starts := []int{0}
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' && i+1 < len(text) {
			starts = append(starts, i+1)
		}
	}
	return &Index{text: text, starts: starts}
}

func (ix *Index) LineCount() int {
	if ix.text == "" {
		return 0
	}
	return len(ix.starts)
}

func (ix *Index) endOf(line int) int {
	if line < len(ix.starts) {
		return ix.starts[line]
	}
	return len(ix.text)
}

func (ix *Index) Slice(r LineRange) (string, error) {
	if r.Last > ix.LineCount() {
		return "", fmt.Errorf("line %d is past the end (%d lines)", r.Last, ix.LineCount())
	}
	return ix.text[ix.starts[r.First-1]:ix.endOf(r.Last)], nil
}

func (r LineRange) String() string {
	return fmt.Sprintf("%d-%d", r.First, r.Last)
}

func (rs Ranges) Lines() int {
	n := 0
	for _, r := range rs {
		n += r.Last - r.First + 1
	}
	return n
}

func parsePart(part string) (LineRange, error) {
	a, b, found := strings.Cut(part, "-")
	if !found {
		b = a
	}
	first, err := strconv.Atoi(strings.TrimSpace(a))
	if err != nil {
		return LineRange{}, fmt.Errorf("%q is not a line number", a)
	}
	last, err := strconv.Atoi(strings.TrimSpace(b))
	if err != nil {
		return LineRange{}, fmt.Errorf("%q is not a line number", b)
	}
	if first < 1 || last < first {
		return LineRange{}, fmt.Errorf("range %d-%d ends before it starts", first, last)
	}
	return LineRange{First: first, Last: last}, nil
}

// Parse reads "A-B[,C-D...]".
func Parse(spec string) (Ranges, error) {
	if spec == "" {
		return nil, ErrEmpty
	}
	var out Ranges
	for _, part := range strings.Split(spec, separator) {
		r, err := parsePart(part)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// Concat joins the slices of every range, in order.
func Concat(s Slicer, rs Ranges) (string, error) {
	var b strings.Builder
	for _, r := range rs {
		text, err := s.Slice(r)
		if err != nil {
			return "", err
		}
		b.WriteString(text)
	}
	return b.String(), nil
}
