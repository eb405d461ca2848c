package nvml

import (
	"errors"
	"testing"
	"time"
)

func TestCheckProcesses(t *testing.T) {
	const total = 80 << 30
	tests := []struct {
		name    string
		in      []Process
		want    []Process
		wantErr error
	}{
		{"ok", []Process{{PID: 10, Used: 1 << 30, UsedKnown: true}}, []Process{{PID: 10, Used: 1 << 30, UsedKnown: true}}, nil},
		{"not available becomes unknown", []Process{{PID: 10, Used: ^uint64(0), UsedKnown: true}}, []Process{{PID: 10}}, nil},
		{"zero pid is scrambled", []Process{{PID: 10, Used: 1, UsedKnown: true}, {PID: 0, Used: 1 << 30, UsedKnown: true}}, nil, ErrScrambled},
		{"size beyond device is scrambled", []Process{{PID: 10, Used: total + 1, UsedKnown: true}}, nil, ErrScrambled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := CheckProcesses(tt.in, total)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("[%d] = %+v, want %+v", i, got[i], tt.want[i])
				}
			}
		})
	}
}

// On CI machines there is no driver: Init must fail with a sentinel and a
// message that says what to do, never crash.
func TestOpenWithoutDriver(t *testing.T) {
	lib := Open()
	err := lib.Init()
	if err == nil {
		lib.Shutdown()
		t.Skip("an NVIDIA driver is present; nothing to check")
	}
	if !errors.Is(err, ErrNoDriver) && !errors.Is(err, ErrNoCgo) {
		t.Fatalf("Init error %v is neither ErrNoDriver nor ErrNoCgo", err)
	}
	if err := lib.Shutdown(); err != nil {
		t.Errorf("Shutdown after failed Init: %v", err)
	}
}

func TestFakeDeviceError(t *testing.T) {
	f := NewFake("1.0", FakeGPU{Info: DeviceInfo{UUID: "a"}}, FakeGPU{Err: ErrGPULost})
	if _, err := f.Memory(0); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Memory(1); !errors.Is(err, ErrGPULost) {
		t.Fatalf("Memory(1) = %v, want ErrGPULost", err)
	}
	if _, err := f.Memory(2); err == nil {
		t.Fatal("Memory(2) on a two-GPU fake succeeded")
	}
}

func TestDemoMoves(t *testing.T) {
	now := time.Unix(1000, 0)
	d := NewDemo(func() time.Time { return now })
	p0, _ := d.Processes(0)
	now = now.Add(10 * time.Second)
	p1, _ := d.Processes(0)
	if got := p1[1].Used - p0[1].Used; got != 400*mib {
		t.Errorf("leaky process grew %d bytes in 10 s, want %d", got, 400*mib)
	}
	if _, err := d.Memory(2); !errors.Is(err, ErrGPULost) {
		t.Errorf("demo GPU 2: %v, want ErrGPULost", err)
	}
}
