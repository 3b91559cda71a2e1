package runlist

import "github.com/trajscope/trajscope/report"

// instanceMin is the room the instance keeps: the agent · model column
// shows only beside it.
const instanceMin = 28

// widths are the columns' widths at the list's width: the instance takes
// what the others leave; 0 hides a column (agent · model on a narrow
// screen, or when no run names one).
func (m *Model) widths() []int {
	ws := make([]int, len(report.ListColumns))
	fixed := 1 // the leading space
	for i, c := range report.ListColumns {
		ws[i] = c.Width
		if i != 1 {
			fixed += c.Width + 1
		}
	}
	fixed++ // the instance's own gap
	anyWho := false
	for i := range m.rows {
		anyWho = anyWho || m.rows[i].Who() != ""
	}
	// An optional column shows when some run fills it and the instance
	// keeps its room.
	for k, recorded := range report.OptionalShown {
		i := len(report.ListColumns) - len(report.OptionalShown) + k
		any := false
		for k := range m.rows {
			any = any || recorded(&m.rows[k])
		}
		if !any || m.w-fixed < instanceMin {
			fixed -= ws[i] + 1
			ws[i] = 0
		}
	}
	// Prediction records name no agent: the column would stay empty.
	if m.w-fixed < instanceMin || !anyWho {
		fixed -= ws[report.ColWho] + 1
		ws[report.ColWho] = 0
	}
	ws[1] = max(m.w-fixed, 8)
	return ws
}
