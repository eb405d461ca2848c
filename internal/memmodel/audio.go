package memmodel

import (
	"fmt"
	"math"
)

// The audio families' input: raw 16 kHz audio, which a convolutional
// feature encoder (Arch.Wav2Vec2's conv layers) turns into the frames the
// transformer sees. A plan gives its length in seconds (spec
// audio_seconds); Input.Samples carries it to the builder and Input.Seq
// the frames.

// AudioRate is the sampling rate, in samples a second, of the audio the
// audio families take (Wav2Vec2's feature extractors resample to it).
const AudioRate = 16000

// DefaultAudioSeconds is the audio length a plan takes when its spec
// gives none.
const DefaultAudioSeconds = 10

// maxAudioSeconds bounds audio_seconds: an hour of audio a sample is far
// past any fine-tuning recipe (they drop utterances past 20-30 s), and
// its frames' attention would not fit a GPU.
const maxAudioSeconds = 3600

// resolveAudio sets c.samples, c.seq (the frames) and c.freezeFE from
// the spec.
func (c *config) resolveAudio() error {
	s := c.spec
	sec := s.AudioSeconds
	if sec == 0 {
		sec = DefaultAudioSeconds
	}
	if !(sec > 0 && sec <= maxAudioSeconds) { // NaN too
		return specErr("audio_seconds", "must be above 0 and at most %d, got %g", maxAudioSeconds, s.AudioSeconds)
	}
	if len(s.Lengths) > 0 {
		return specErr("lengths", "the audio families take audio_seconds, not token lengths")
	}
	c.samples = int64(math.Round(sec * AudioRate))
	c.seq = c.arch.Wav2Vec2.frames(c.samples)
	if min := c.arch.Wav2Vec2.minFrames(); c.seq < min {
		return specErr("audio_seconds", "%g s makes %d frames; %s needs at least %d (its SpecAugment mask spans %d)",
			sec, c.seq, c.arch.Name, min, min)
	}
	c.freezeFE = s.FreezeFeatureEncoder == nil || *s.FreezeFeatureEncoder
	return nil
}

// audioNote says which feature encoder an audio plan assumed, and what
// LayerDrop does to the figures.
func (c *config) audioNote() string {
	if !c.arch.family().Audio {
		return ""
	}
	n := "feature encoder trained (freeze_feature_encoder false): its convolutions' activations over the raw audio are saved for backward"
	if c.freezeFE {
		n = "feature encoder frozen (freeze_feature_encoder, the default of transformers' fine-tuning scripts): its convolutions save nothing for backward; set freeze_feature_encoder false to train it"
	}
	if p := c.arch.Wav2Vec2.LayerDrop; p > 0 {
		n += fmt.Sprintf("; layerdrop %g: training skips each of the %d encoder layers with that probability, and plan holds all of them with their optimizer state (the most a step holds): a measured peak may sit a few %% under the figures and their band (up to 3.3%% on dev95's base runs); layerdrop 0 in config.json makes the plan exact", p, c.arch.Layers)
	}
	return n
}
