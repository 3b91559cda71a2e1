package pane

import tea "charm.land/bubbletea/v2"

// Messages a pane sends the root.
type (
	// GotoMsg asks the root to make action I current.
	GotoMsg struct{ I int }
	// StatusMsg puts a one-line message in the footer.
	StatusMsg string
	// JumpMsg asks the root to make action I current (none when I < 0),
	// then show a file at a line and put Status in the footer. It is one
	// message, not a sequence of three, so that the step cannot re-aim the
	// source pane after the file is shown.
	JumpMsg struct {
		I      int
		File   string
		Line   int
		Status string
	}
	// RevealMsg asks the root to focus Pane if the layout hides it.
	RevealMsg struct{ Pane Pane }
	// FocusMsg asks the root to focus Pane, bringing it into view.
	FocusMsg struct{ Pane Pane }
	// EditMsg asks the root to open a file at a line in the user's editor.
	EditMsg struct {
		File string
		Line int
	}
)

// Messages the root broadcasts to every pane.
type (
	// StepMsg: the current action changed.
	StepMsg struct{}
	// LensMsg: the lens changed.
	LensMsg struct{}
	// ShowMsg: show a file at a line (the source pane).
	ShowMsg struct {
		File string
		Line int
	}
)

// Goto returns a command that moves to action i.
func Goto(i int) tea.Cmd { return send(GotoMsg{i}) }

// Status returns a command that puts s in the footer.
func Status(s string) tea.Cmd { return send(StatusMsg(s)) }

// Jump returns a command that sends a JumpMsg.
func Jump(i int, file string, line int, status string) tea.Cmd {
	return send(JumpMsg{i, file, line, status})
}

// Reveal returns a command that brings p into view.
func Reveal(p Pane) tea.Cmd { return send(RevealMsg{p}) }

// Focus returns a command that focuses p.
func Focus(p Pane) tea.Cmd { return send(FocusMsg{p}) }

// Edit returns a command that opens a file in the editor.
func Edit(file string, line int) tea.Cmd { return send(EditMsg{file, line}) }

func send(msg tea.Msg) tea.Cmd { return func() tea.Msg { return msg } }
