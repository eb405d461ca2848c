package memmodel

// The frozen VAE of the latent diffusion families. Its weights are always
// resident; with the spec key vae_encode the step also encodes the images
// into latents itself, as training scripts that do not cache latents do
// (diffusers' train_text_to_image.py: vae.encode(pixels).latent_dist
// .sample() · scaling_factor under no_grad, outside autocast), and the
// encoder's transient feature maps — four 128-channel maps at full image
// resolution are live at once — stay cached by the allocator for the rest
// of the step. Peak allocated does not move (the encoder's peak is below
// the training step's), peak reserved does: +2.64 GiB for SD 1.5's UNet at
// batch 4, 512 px (dev6-sd15-unet-b4-bf16-vaeenc).
//
// The encoder is AutoencoderKL's as Stable Diffusion configures it
// (sd-vae-ft-ema): conv_in to 128 channels; four DownEncoderBlock2D of
// widths 128, 256, 512, 512 with two ResnetBlock2D each (GroupNorm →
// SiLU → 3×3 conv, twice, a 1×1 shortcut when the width changes) and a
// stride-2 conv after F.pad(0, 1, 0, 1) on the first three; the mid block
// (resnet, one-head self-attention over the 512-channel map, resnet);
// GroupNorm, SiLU, conv_out to 8 channels (mean and log-variance), the
// 1×1 quant_conv and the diagonal Gaussian's sample.

// vaeWidths are the encoder's block_out_channels.
var vaeWidths = []int64{128, 256, 512, 512}

// vaeEncode records the no-grad encoding of a batch of image×image RGB
// images and returns the latents (4 channels, image/8 per side). The
// encoder's parameters are the VAE's; the rest of it (decoder,
// post_quant_conv) is registered as one frozen block.
func (b *builder) vaeEncode(batch, image int64) Tensor {
	first, params := len(b.g.ops), len(b.g.params)
	fr, mod, amp := b.frozen, b.module, b.amp
	// the capture and diffusers' scripts encode before entering autocast
	b.frozen, b.module, b.amp = true, "vae (frozen)", F32
	img := b.input(batch*3*image*image, b.pdt)
	x := b.conv2d(fmap{img, batch, 3, image, image, false}, vaeWidths[0], 3, 1, 1, 1, true)
	for s, w := range vaeWidths {
		for r := 0; r < 2; r++ {
			x = b.vaeResnet(x, w)
		}
		if s < len(vaeWidths)-1 {
			// Downsample2D pads right and bottom by one, then a 3×3
			// stride-2 conv without padding
			p := b.out(x.n*x.c*(x.h+1)*(x.w+1), b.dt(x.t), x.t)
			b.op("constant_pad_nd", []Tensor{x.t}, []Tensor{p}, nil)
			x = b.conv2d(fmap{p, x.n, x.c, x.h + 1, x.w + 1, false}, w, 3, 2, 0, 1, true)
		}
	}
	x = b.vaeResnet(x, x.c)
	x = b.vaeAttention(x)
	x = b.vaeResnet(x, x.c)
	x = b.conv2d(b.act(b.groupNorm(x), "silu"), 8, 3, 1, 1, 1, true)
	x = b.conv2d(x, 8, 1, 1, 0, 1, true) // quant_conv
	// DiagonalGaussianDistribution: mean and log-variance are views of
	// the moments; std = exp(0.5·clamp(logvar)); mean + std·randn; then
	// the scaling factor
	n := b.numel(x.t) / 2
	logvar := b.unary("clamp", b.view(x.t, n), b.dt(x.t), false, false)
	std := b.unary("exp", b.scale(logvar), b.dt(x.t), false, false)
	b.unary("exp", logvar, b.dt(x.t), false, false) // var, kept on the distribution
	noise := b.out(n, b.dt(x.t))
	b.op("randn", nil, []Tensor{noise}, nil)
	lat := b.scale(b.add(b.view(x.t, n), b.mul(std, noise)))
	// torch.no_grad: no op records a backward node or saves anything
	for i := first; i < len(b.g.ops); i++ {
		b.g.ops[i].save, b.g.ops[i].noBackward = nil, true
	}
	var enc int64
	for _, p := range b.g.params[params:] {
		enc += p.numel
	}
	b.param(vaeParams - enc)
	b.frozen, b.module, b.amp = fr, mod, amp
	return lat
}

// vaeResnet is ResnetBlock2D without a time embedding.
func (b *builder) vaeResnet(x fmap, cout int64) fmap {
	h := b.conv2d(b.act(b.groupNorm(x), "silu"), cout, 3, 1, 1, 1, true)
	h = b.conv2d(b.act(b.groupNorm(h), "silu"), cout, 3, 1, 1, 1, true)
	sc := x
	if x.c != cout {
		sc = b.conv2d(x, cout, 1, 1, 0, 1, true)
	}
	h.t = b.scale(b.add(sc.t, h.t)) // (input + h) / output_scale_factor
	b.keep(x.t)                     // input_tensor, a local until forward returns
	return h
}

// vaeAttention is the mid block's Attention (one head as wide as the map,
// group_norm inside, residual_connection) run by AttnProcessor2_0 on the
// map as tokens.
func (b *builder) vaeAttention(x fmap) fmap {
	c, n := x.c, x.h*x.w
	z := b.groupNorm(x).t
	q := b.linear(z, c, c, true, "vae.to_q")
	k := b.linear(z, c, c, true, "vae.to_k")
	v := b.linear(z, c, c, true, "vae.to_v")
	o := b.sdpa(q, k, v, x.n, 1, n, n, c, false)
	o = b.linear(o, c, c, true, "vae.to_out")
	o = b.copy(o) // transpose(-1, -2).reshape back to the map
	o = b.scale(b.add(o, x.t))
	b.keep(x.t)
	return fmap{o, x.n, c, x.h, x.w, false}
}
