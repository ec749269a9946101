package ui

import "github.com/vugu/vugu"

// ShareBox shows the link the Share button made, with a Copy button, the
// choice of link and what happened if it is not the kind asked for.
type ShareBox struct {
	App *App
}

// Label says what the link is.
func (c *ShareBox) Label() string {
	switch {
	case c.App.ShareBox.Busy:
		return "Share:"
	case c.App.ShareBox.Kind == "short":
		return "Short link:"
	}
	return "Share link:"
}

// CopyLabel is the Copy button's text.
func (c *ShareBox) CopyLabel() string {
	if c.App.ShareCopied {
		return "Copied"
	}
	return "Copy"
}

// SelectAll selects the share link when its box gets focus.
func (c *ShareBox) SelectAll(event vugu.DOMEvent) {
	if t := event.JSEventTarget(); t.Truthy() {
		t.Call("select")
	}
}
