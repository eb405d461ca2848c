package memmodel

// Channels-last CNNs: model.to(memory_format=torch.channels_last) and
// images converted likewise (Spec.ChannelsLast). The maps keep their
// sizes; what changes is which kernels run (cuDNN's NHWC convolutions,
// ATen's channels-last batch norm) and, where a family permutes its maps
// (ConvNeXt's LayerNorm2d), which copies are made.

// channelsLastFamilies are the families whose models plan runs
// channels-last: torchvision's CNNs, whose step times and memory were
// measured both ways (testdata/dev35).
var channelsLastFamilies = map[string]bool{"resnet": true, "efficientnet": true, "convnext": true}

// ChannelsLast reports whether plan can run the model channels-last
// (Spec.ChannelsLast), so that --fit tries both memory formats.
func (a *Arch) ChannelsLast() bool { return channelsLastFamilies[a.Family] }
