package ui

import "github.com/vugu/vugu/js"

// FilesPanel lists the user's saved models.
type FilesPanel struct {
	App *App
}

// ItemClass marks the model open in the editor.
func (c *FilesPanel) ItemClass(m ModelInfo) string {
	if m.ID == c.App.Files.Current {
		return "current"
	}
	return ""
}

// Focus puts the keyboard in the rename box when it appears.
func (c *FilesPanel) Focus(el js.Value) {
	el.Call("focus")
	el.Call("select")
}
