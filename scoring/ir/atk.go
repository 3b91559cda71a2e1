package ir

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// AtK holds one value per cut-off in Ks; it reads and writes as a JSON
// object keyed "1", "3", "5", "10".
type AtK [4]float64

// MarshalJSON writes {"1": p1, "3": p3, "5": p5, "10": p10}.
func (a AtK) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, k := range Ks {
		if i > 0 {
			b = append(b, ',')
		}
		b = fmt.Appendf(b, `"%d":`, k)
		v, err := json.Marshal(a[i])
		if err != nil {
			return nil, err
		}
		b = append(b, v...)
	}
	return append(b, '}'), nil
}

// UnmarshalJSON reads what MarshalJSON writes; other cut-offs are an error.
func (a *AtK) UnmarshalJSON(b []byte) error {
	var m map[string]float64
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	*a = AtK{}
	for key, v := range m {
		k, err := strconv.Atoi(key)
		i := indexK(k)
		if err != nil || i < 0 {
			return fmt.Errorf("unexpected cut-off %q (want 1, 3, 5 or 10)", key)
		}
		a[i] = v
	}
	return nil
}

func indexK(k int) int {
	for i, v := range Ks {
		if v == k {
			return i
		}
	}
	return -1
}

// At returns the value at cut-off k (0 for a k not in Ks).
func (a AtK) At(k int) float64 {
	if i := indexK(k); i >= 0 {
		return a[i]
	}
	return 0
}
