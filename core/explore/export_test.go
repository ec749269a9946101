package explore

// SetOutboxRooms makes the outboxes of parallel searches hold at most k
// states' successors (0: as planned) and returns what restores the plan.
func SetOutboxRooms(k int) (restore func()) {
	old := outboxRooms
	outboxRooms = k
	return func() { outboxRooms = old }
}
