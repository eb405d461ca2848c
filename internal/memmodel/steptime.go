package memmodel

// stepTime fills the step-time estimate (placeholder until calibrated).
func (c *config) stepTime(g *Graph, cfg stepConfig, r *Result) {}
