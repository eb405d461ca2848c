package memmodel

import (
	"context"
	"errors"
	"fmt"
	"math"
)

// HostCalibration is the host_scale at which the plan's step time of one
// configuration equals the step a user measured of it on their machine
// (plan --measured-step): a training step (CalibrateHost), or a generate
// plan's decode step, one new token for every sequence
// (infer.CalibrateHost). The plan cannot see the user's CPU, and
// the host's speed is the largest error left on host-bound steps
// (docs/steptime.md); one configuration timed on the machine calibrates
// the model's other configurations there.
//
// It is solved on the whole step, not read off measured over planned:
// where the GPU carries part of the step, only the host's share follows
// host_scale, so the ratio of the two steps mis-states it (a step planned
// at 100 ms of which 80 ms is GPU work, measured at 110 ms, is a host 1.5x
// the price, not 1.1x).
type HostCalibration struct {
	Model string `json:"model"`
	GPU   string `json:"gpu"`
	// Step names the step calibrated: "training step" or "decode step".
	Step string `json:"step"`
	// MeasuredStep is the step time given (seconds, one optimizer step
	// with its accumulation).
	MeasuredStep float64 `json:"measured_step_s"`
	// PlannedStep, PlannedHost and PlannedGPU are the plan's step, host
	// issue time and GPU busy time with no host_scale (the median lent
	// host), in seconds.
	PlannedStep float64 `json:"planned_step_s"`
	PlannedHost float64 `json:"planned_host_s"`
	PlannedGPU  float64 `json:"planned_gpu_s"`
	// HostScale is the solution; StepAtScale and HostAtScale the plan's
	// step and host time at it (seconds).
	HostScale   float64 `json:"host_scale"`
	StepAtScale float64 `json:"step_at_scale_s"`
	HostAtScale float64 `json:"host_at_scale_s"`
	// Sensitivity is how much the step moves, relative, for a host 20%
	// slower than the solution: near 0.2 the step is the host's and the
	// factor is well determined; near 0 the GPU carries the step and
	// the factor is loose.
	Sensitivity float64  `json:"sensitivity"`
	Notes       []string `json:"notes,omitempty"`
}

// ErrNotCalibratable is returned when no host_scale in 0.1-10 gives the
// measured step: the GPU's work alone takes longer than it, or even a
// host ten times the median's does not reach it.
var ErrNotCalibratable = errors.New("cannot calibrate the host from this step")

// PricedStep is one plan's step at a host_scale: seconds of the step, of
// the host's issue and of the GPU's work, and what the plan named.
type PricedStep struct {
	Step, Host, GPU float64
	Model, GPUName  string
}

// StepPricer plans one configuration at a host_scale.
type StepPricer func(hostScale float64) (PricedStep, error)

// trainingPricer plans spec's training step at a host_scale.
func trainingPricer(ctx context.Context, spec Spec) StepPricer {
	return func(f float64) (PricedStep, error) {
		if err := ctx.Err(); err != nil {
			return PricedStep{}, err
		}
		s := spec
		s.HostScale = f
		r, err := Estimate(s, DefaultOptions())
		if err != nil {
			return PricedStep{}, err
		}
		if r.StepDetail == nil {
			return PricedStep{}, fmt.Errorf("%w: the plan of %s prices no host time to scale", ErrNotCalibratable, r.Model)
		}
		return PricedStep{r.StepTime, r.StepDetail.HostS, r.StepDetail.GPUS, r.Model, r.GPU}, nil
	}
}

// CalibrateHost solves for the host_scale at which spec's planned
// training step is measured seconds (SolveHostScale).
func CalibrateHost(ctx context.Context, spec Spec, measured float64) (*HostCalibration, error) {
	if spec.HostScale != 0 {
		return nil, ErrHostScaleGiven
	}
	return SolveHostScale(measured, "training step", spec.Compile, trainingPricer(ctx, spec))
}

// ErrHostScaleGiven is the error a calibration of a spec that already
// names a host_scale returns (an ErrSpec).
var ErrHostScaleGiven = fmt.Errorf("%w: host_scale is what a measured step solves for: give one or the other", ErrSpec)

// SolveHostScale solves for the host_scale at which price's step is
// measured seconds; what names the step ("training step", "decode
// step") and compiled says the step runs under torch.compile. The plan's
// step never falls as the host slows, so a bisection on log host_scale
// finds it.
func SolveHostScale(measured float64, what string, compiled bool, step StepPricer) (*HostCalibration, error) {
	if !(measured > 0) || math.IsInf(measured, 0) {
		return nil, fmt.Errorf("%w: the measured step must be a positive number of seconds, got %g", ErrSpec, measured)
	}
	base, err := step(0)
	if err != nil {
		return nil, err
	}
	c := &HostCalibration{Model: base.Model, GPU: base.GPUName, Step: what, MeasuredStep: measured, PlannedStep: base.Step,
		PlannedHost: base.Host, PlannedGPU: base.GPU}
	lo, err := step(minHostScale)
	if err != nil {
		return nil, err
	}
	if measured < lo.Step {
		return c, fmt.Errorf("%w: the measured %.4g s is faster than the plan's %s with a host ten times the median lent one's (%.4g s, of which the GPU's work is %.4g s): the step is the GPU's, or the GPU is faster than the table's %s",
			ErrNotCalibratable, measured, what, lo.Step, c.PlannedGPU, c.GPU)
	}
	hi, err := step(maxHostScale)
	if err != nil {
		return nil, err
	}
	if measured > hi.Step {
		return c, fmt.Errorf("%w: the measured %.4g s is slower than the plan's %s with a host ten times slower than the median lent one's (%.4g s): time steps after the first few, with the data already on the GPU",
			ErrNotCalibratable, measured, what, hi.Step)
	}
	a, b := math.Log(minHostScale), math.Log(maxHostScale)
	for range 40 {
		m := (a + b) / 2
		at, err := step(math.Exp(m))
		if err != nil {
			return nil, err
		}
		if at.Step < measured {
			a = m
		} else {
			b = m
		}
		if math.Abs(at.Step/measured-1) < 5e-4 {
			break
		}
	}
	c.HostScale = math.Round(100*math.Exp((a+b)/2)) / 100
	at, err := step(c.HostScale)
	if err != nil {
		return nil, err
	}
	c.StepAtScale, c.HostAtScale = at.Step, at.Host
	slower, err := step(math.Min(maxHostScale, 1.2*c.HostScale))
	if err != nil {
		return nil, err
	}
	c.Sensitivity = slower.Step/at.Step - 1
	if c.Sensitivity < 0.05 {
		c.Notes = append(c.Notes, fmt.Sprintf("the GPU carries most of this step (a host 20%% slower moves it %.1f%%): the factor is loosely determined; calibrate on a smaller batch, where the host bounds the step", 100*c.Sensitivity))
	}
	if compiled {
		c.Notes = append(c.Notes, "a compiled step's host is Inductor's wrapper, which a host's speed moves less than eager Python: plan eager configurations with a factor from an eager step")
	}
	return c, nil
}
