package memmodel

// The DiT family: diffusers' DiTTransformer2DModel (DiT-XL/2 and its
// smaller siblings) trained on VAE latents, the VAE frozen. Modelled from
// the diffusers source, then checked on the first captures (testdata/dev6,
// TestDiffusionCaptures).
//
// The latents (image/8 per side, 4 channels) are cut into patch×patch
// tokens by a strided convolution, a fixed sin-cos position table is
// added, and each block is adaLN-Zero: the block's own timestep+label
// embedding (diffusers gives every block an AdaLayerNormZero with its own
// CombinedTimestepLabelEmbeddings) projects to six modulation vectors;
// LayerNorm without affine, scale and shift, self-attention (SDPA), gated
// residual; the same around a GELU-tanh MLP of 4·hidden. The output
// (8 channels: noise and variance) is unpatchified and the loss is the
// MSE against the noise in float32. The frozen VAE's weights stay
// resident; its no-grad encoding of the images is modelled with the spec
// key vae_encode (family_vae.go), else the latents are inputs.

func init() {
	register(&Family{
		Unmeasured: "DiT is modelled from the diffusers source and checked on three H200 captures (XL/2 256 px b32 bf16-amp and b64 checkpointed, B/2 b128 fp32): peak allocated within 0.11%, reserved within 1%; pure bf16 and LoRA are not measured for DiT; the frozen VAE's weights are counted, its encoding of the images only with vae_encode (measured on the UNet only)",
		Name:       "dit", Task: "diffusion", Vision: true, Attention: true,
		LoRATargets: []string{"to_q", "to_v"},
		Models: []Arch{
			dit("dit-xl-2", 1152, 28, 16),
			dit("dit-l-2", 1024, 24, 16),
			dit("dit-b-2", 768, 12, 12),
		},
		Aliases: map[string]string{"facebook/dit-xl-2-256": "dit-xl-2", "dit-xl/2": "dit-xl-2", "dit-l/2": "dit-l-2", "dit-b/2": "dit-b-2"},
		Build:   func(b *builder, a *Arch, in Input) { buildDiT(b, a, in) },
	})
}

// vaeParams is the parameter count of Stable Diffusion's AutoencoderKL
// (sd-vae-ft-ema), frozen and resident while a latent model trains.
const vaeParams = 83_653_863

func dit(name string, d, layers, heads int) Arch {
	return Arch{Name: name, Family: "dit", Hidden: d, Layers: layers, Heads: heads, FFN: 4 * d, Patch: 2,
		Classes: 1000, ImageSize: 256}
}

// layerNormNoAffine is nn.LayerNorm(elementwise_affine=False), float32
// under autocast.
func (b *builder) layerNormNoAffine(x Tensor, dim int64) Tensor {
	xc := b.fp32(x)
	rows := b.numel(x) / dim
	y := b.out(b.numel(x), b.dt(xc), xc)
	mean := b.g.newTensor(rows, F32, false)
	rstd := b.g.newTensor(rows, F32, false)
	o := b.op("layer_norm", []Tensor{xc}, []Tensor{y, mean, rstd}, []Tensor{xc, mean, rstd})
	o.flops, o.bwdFlops = 5*float64(b.numel(x)), 8*float64(b.numel(x))
	return y
}

// latents registers the frozen VAE and returns the step's latents: an
// input (cached latents) or, with vae_encode, the VAE's encoding of the
// images (family_vae.go).
func (b *builder) latents(in Input) Tensor {
	if in.VAEEncode {
		return b.vaeEncode(in.Batch, in.Image)
	}
	fr, mod := b.frozen, b.module
	b.frozen, b.module = true, "vae (frozen)"
	b.param(vaeParams)
	b.frozen, b.module = fr, mod
	lat := in.Image / 8
	return b.input(in.Batch*4*lat*lat, b.pdt)
}

// timestepEmbedding is diffusers' Timesteps + TimestepEmbedding (256 →
// d → d, SiLU between) plus, with classes, a label embedding table:
// a few batch-sized rows.
// The float32 sinusoids are cast to dt, the hidden states' dtype
// (CombinedTimestepLabelEmbeddings' hidden_dtype).
func (b *builder) timestepEmbedding(batch, d, classes int64, labels Tensor, dt DType) Tensor {
	f := b.g.newTensor(batch*256, F32, false)
	b.op("timesteps", nil, []Tensor{f}, nil).noBackward = true
	f = b.cast(f, dt)
	e := b.linear(f, 256, d, true, "linear_1")
	e = b.linear(b.silu(e), d, d, true, "linear_2")
	if classes > 0 {
		w := b.param((classes + 1) * d)
		e = b.add(e, b.embedding(labels, w, classes+1, d))
	}
	return e
}

// modulate is x·(1+scale) + shift with per-sample vectors.
func (b *builder) modulate(x, scale, shift Tensor) Tensor {
	return b.add(b.mul(x, b.unary("add_scalar", scale, b.dt(scale), false, false)), shift)
}

func buildDiT(b *builder, a *Arch, in Input) {
	batch, image := in.Batch, in.Image
	d, heads, ff, p := int64(a.Hidden), int64(a.Heads), int64(a.FFN), int64(a.Patch)
	lat := image / 8
	x := b.latents(in)
	b.input(batch*4*lat*lat, b.pdt) // the noise target
	labels := b.input(batch, I64)
	b.input(batch, I64) // timesteps
	b.module = "pos_embed"
	fm := b.conv2d(fmap{x, batch, 4, lat, lat, false}, d, p, p, 0, 1, true)
	tokens := fm.h * fm.w
	pos := b.g.newTensor(tokens*d, F32, false)
	b.op("pos_table", nil, []Tensor{pos}, nil).noBackward = true
	// PatchEmbed returns (latent + pos_embed).to(latent.dtype): the
	// float32 table promotes the sum, cast back to the conv's dtype (bf16
	// under autocast and in pure bf16)
	h := b.cast(b.add(fm.t, pos), b.dt(fm.t))
	var cond Tensor
	for l := 0; l < a.Layers; l++ {
		b.block, b.module = l, "transformer_blocks."+itoa(l)
		e := b.timestepEmbedding(batch, d, int64(a.Classes), labels, b.dt(h))
		if l == 0 {
			cond = e
		}
		mod := b.linear(b.silu(e), d, 6*d, true, "norm1.linear")
		vec := func() Tensor { return b.view(mod, batch*d) }
		in := h
		y1 := b.modulate(b.layerNormNoAffine(h, d), vec(), vec())
		q := b.linear(y1, d, d, true, "to_q")
		k := b.linear(y1, d, d, true, "to_k")
		v := b.linear(y1, d, d, true, "to_v")
		b.sel = true
		att := b.sdpa(q, k, v, batch, heads, tokens, tokens, d/heads, false)
		b.sel = false
		// AttnProcessor2_0 returns to_out's output divided by
		// rescale_output_factor (1.0): a new tensor, and one more in
		// backward
		att = b.mul(vec(), b.scale(b.linear(att, d, d, true, "to_out")))
		h = b.add(h, att)
		n3 := b.layerNormNoAffine(h, d)
		// norm_hidden_states (norm1's modulated output) is a local of
		// BasicTransformerBlock.forward until norm3 rebinds it
		b.keep(y1)
		y3 := b.modulate(n3, vec(), vec())
		// GELU(approximate="tanh") on ff.proj's output, in its dtype
		// (bf16 under autocast, though the modulated input is float32)
		y := b.gelu(b.linear(y3, d, ff, true, "ff.proj"))
		y = b.linear(y, ff, d, true, "ff.out")
		h = b.add(h, b.mul(vec(), y))
		// until forward returns: the block's argument (the transformer's
		// loop rebinds it only then), attn_output (the gated attention)
		// and the MLP's modulated input, all locals
		b.keep(in, att, y3)
	}
	b.block, b.module = -1, "proj_out"
	b.g.blocks = a.Layers
	mod := b.linear(b.silu(cond), d, 2*d, true, "proj_out_1")
	y := b.modulate(b.layerNormNoAffine(h, d), b.view(mod, batch*d), b.view(mod, batch*d))
	out := b.copy(b.linear(y, d, p*p*8, true, "proj_out_2")) // unpatchify
	b.module = "loss"
	b.g.loss = b.mseLoss(out, batch*4*lat*lat)
}

// mseLoss is F.mse_loss(pred.float(), target.float()) over the first n
// elements of pred (the predicted noise).
func (b *builder) mseLoss(pred Tensor, n int64) Tensor {
	p := b.cast(b.view(pred, n), F32)
	loss := b.out(1, F32, p)
	o := b.op("mse_loss", []Tensor{p}, []Tensor{loss}, []Tensor{p})
	o.flops = float64(n)
	return loss
}
