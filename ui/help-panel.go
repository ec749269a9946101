package ui

// HelpPanel shows the lessons and the Murphi quick reference.
type HelpPanel struct {
	App *App
}

// Lessons groups the shipped examples by lesson.
func (c *HelpPanel) Lessons() []LessonGroup { return lessons(c.App.Examples) }

// Reference is the quick reference.
func (c *HelpPanel) Reference() []HelpSection { return QuickReference }

// Teaches is the example's sentence on what it teaches.
func (c *HelpPanel) Teaches(ex Example) string {
	if ex.Teaches != "" {
		return ex.Teaches
	}
	return ex.Description
}

// Open opens an example and goes to the Check tab.
func (c *HelpPanel) Open(file string) {
	c.App.Tab = "check"
	go c.App.openExample(file)
}
