package nvml

import (
	"math"
	"time"
)

// DemoProcess names a process of the demo machine, for a fake process
// table: NVML itself only knows PIDs.
type DemoProcess struct {
	PID     uint32
	User    string
	Command string
}

// DemoProcesses are the processes Demo reports.
func DemoProcesses() []DemoProcess {
	return []DemoProcess{
		{4242, "alice", "python3 train.py --model llama-8b"},
		{4243, "alice", "python3 eval_loop.py"},
		{5151, "bob", "torchrun --nproc-per-node 1 finetune.py"},
	}
}

// Demo is a Lib whose memory moves with time, for `--fake-gpu` demos: GPU 0
// runs a steady training job plus a process that leaks 40 MiB/s, GPU 1 a job
// whose usage oscillates, and GPU 2 has fallen off the bus.
type Demo struct {
	*Fake
	start time.Time
	now   func() time.Time
}

const (
	mib        = 1 << 20
	demoTotal  = 143771 * mib // what NVML reports for an H200
	demoDriver = "570.86.15"
)

// NewDemo returns the demo machine; now is its clock (time.Now in the CLI).
func NewDemo(now func() time.Time) *Demo {
	g := func(uuid string) FakeGPU {
		return FakeGPU{Info: DeviceInfo{UUID: uuid, Name: "NVIDIA H200 (fake)"}}
	}
	lost := g("GPU-fake-0002")
	lost.Err = ErrGPULost
	d := &Demo{Fake: NewFake(demoDriver, g("GPU-fake-0000"), g("GPU-fake-0001"), lost), start: now(), now: now}
	d.advance()
	return d
}

// advance recomputes the fake counters for the current time.
func (d *Demo) advance() {
	t := d.now().Sub(d.start).Seconds()
	const reserved = 520 * mib
	train := uint64(61_440 * mib)
	leak := uint64(2048*mib) + uint64(t*40*mib)
	if leak > 70_000*mib {
		leak = 2048 * mib // the leaky process "restarts"
	}
	wave := uint64(48_000*mib) + uint64((math.Sin(t/5)+1)*4096*mib)
	d.Update(func(gpus []FakeGPU) {
		set := func(g *FakeGPU, util uint32, ps ...Process) {
			used := uint64(0)
			for _, p := range ps {
				used += p.Used
			}
			used += 310 * mib // the driver's per-context overhead not attributed to a process
			g.Memory = Memory{Total: demoTotal, Reserved: reserved, Used: used, Free: demoTotal - reserved - used, ReservedKnown: true}
			g.Util = Utilization{GPU: util, Memory: util / 2}
			g.Procs = ps
		}
		set(&gpus[0], 93, Process{PID: 4242, Used: train, UsedKnown: true}, Process{PID: 4243, Used: leak, UsedKnown: true})
		set(&gpus[1], 71, Process{PID: 5151, Used: wave, UsedKnown: true})
	})
}

// Memory implements Lib, advancing the demo clock first.
func (d *Demo) Memory(i int) (Memory, error) {
	d.advance()
	return d.Fake.Memory(i)
}

// Processes implements Lib, advancing the demo clock first.
func (d *Demo) Processes(i int) ([]Process, error) {
	d.advance()
	return d.Fake.Processes(i)
}
