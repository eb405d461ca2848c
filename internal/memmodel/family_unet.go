package memmodel

// The UNet family: diffusers' UNet2DConditionModel as Stable Diffusion
// 1.5 configures it, trained on VAE latents with the CLIP text encoder and
// the VAE frozen. Modelled from the diffusers source, then checked on the
// first captures (testdata/dev6, TestDiffusionCaptures).
//
// Four resolutions of block_out_channels (320, 640, 1280, 1280), two
// ResnetBlock2D per down block (GroupNorm → SiLU → 3×3 conv, plus the
// projected time embedding, twice, with a 1×1 shortcut when the width
// changes), a Transformer2DModel after each resnet of the first three
// (GroupNorm, 1×1 proj_in, LayerNorm → self-attention, LayerNorm →
// cross-attention over the 77 text tokens, LayerNorm → GEGLU
// feed-forward, proj_out, residual), strided-conv downsampling; the mid
// block; up blocks of three resnets on the concatenated skips with
// nearest upsampling (in the map's dtype: diffusers' float32 detour is for
// torch < 2.1); the loss is the
// float32 MSE against the noise. Under autocast GroupNorm runs in float32,
// so the float32 copies of its inputs are what it saves.

func init() {
	register(&Family{
		Unmeasured: "the SD 1.5 UNet is modelled from the diffusers source and checked on six H200 captures (512 px b4 bf16-amp, b8 checkpointed, b8 pure-bf16 LoRA r16 on to_q/to_k/to_v/to_out, b4 LoRA r16 checkpointed, 256 px b16 fp32, and b4 with vae_encode): peak allocated within 1.2%, reserved within 2.6% (vae_encode: -3.6%); the frozen VAE's and CLIP text encoder's weights are counted, the prompts' encoding is not (encoder_hidden_states are an input), and without vae_encode neither is the images' (+2.6 GiB reserved measured at b4 512 px)",
		Name:       "unet", Task: "diffusion", Vision: true,
		LoRATargets: []string{"to_q", "to_k", "to_v", "to_out"},
		Models: []Arch{
			{Name: "sd15-unet", Family: "unet", Widths: []int{320, 640, 1280, 1280}, Blocks: []int{2, 2, 2, 2},
				Heads: 8, Hidden: 768, ImageSize: 512},
		},
		Aliases: map[string]string{
			"runwayml/stable-diffusion-v1-5": "sd15-unet", "stable-diffusion-v1-5/stable-diffusion-v1-5": "sd15-unet",
			"sd15": "sd15-unet", "stable-diffusion-1.5": "sd15-unet", "sd1.5": "sd15-unet",
		},
		Build: func(b *builder, a *Arch, in Input) { buildUNet(b, a, in) },
	})
}

// clipTextParams is CLIP ViT-L/14's text encoder, frozen and resident.
const clipTextParams = 123_060_480

// groupNorm is nn.GroupNorm(32, C) with affine weight and bias (float32
// under autocast).
func (b *builder) groupNorm(x fmap) fmap {
	w, bias := b.param(x.c), b.param(x.c)
	xc := b.fp32(x.t)
	y := b.out(b.numel(x.t), b.dt(xc), xc, w)
	mean := b.g.newTensor(x.n*32, F32, false)
	rstd := b.g.newTensor(x.n*32, F32, false)
	o := b.op("group_norm", []Tensor{xc, w, bias}, []Tensor{y, mean, rstd}, []Tensor{xc, mean, rstd})
	o.flops, o.bwdFlops = 5*float64(b.numel(x.t)), 8*float64(b.numel(x.t))
	x.t = y
	return x
}

// resnet2D is diffusers' ResnetBlock2D with a time embedding.
func (b *builder) resnet2D(x fmap, cout int64, temb Tensor) fmap {
	h := b.conv2d(b.act(b.groupNorm(x), "silu"), cout, 3, 1, 1, 1, true)
	t := b.linear(b.silu(temb), 1280, cout, true, "time_emb_proj")
	h.t = b.add(h.t, t)
	h = b.conv2d(b.act(b.groupNorm(h), "silu"), cout, 3, 1, 1, 1, true)
	sc := x
	if x.c != cout {
		sc = b.conv2d(x, cout, 1, 1, 0, 1, true)
	}
	h.t = b.scale(b.add(sc.t, h.t)) // (input + h) / output_scale_factor
	return h
}

// transformer2D is Transformer2DModel with one BasicTransformerBlock
// (self-attention, cross-attention over text, GEGLU feed-forward). Under
// gradient checkpointing diffusers recomputes only the
// BasicTransformerBlock: it is checkpoint unit ck (see buildUNet), and
// the GroupNorm, proj_in, the reshapes, proj_out and the residual add
// around it run outside any unit (-1), saving what they save.
func (b *builder) transformer2D(x fmap, text Tensor, heads, textLen, textDim int64, ck int) fmap {
	c, n := x.c, x.h*x.w
	res := x.t
	b.block = -1
	y := b.conv2d(b.groupNorm(x), c, 1, 1, 0, 1, true)
	h := b.copy(y.t) // permute to tokens, reshape
	b.block = ck
	attn := func(kv Tensor, kvDim, sk int64) Tensor {
		z := b.layerNorm(h, c, true)
		if kv < 0 {
			kv = z
		}
		q := b.linear(z, c, c, false, "to_q")
		k := b.linear(kv, kvDim, c, false, "to_k")
		v := b.linear(kv, kvDim, c, false, "to_v")
		b.sel = true
		o := b.sdpa(q, k, v, x.n, heads, n, sk, c/heads, false)
		b.sel = false
		return b.linear(o, c, c, true, "to_out")
	}
	h = b.add(attn(-1, c, n), h)
	h = b.add(attn(text, textDim, textLen), h)
	z := b.layerNorm(h, c, true)
	gg := b.linear(z, c, 8*c, true, "ff.proj") // GEGLU: hidden and gate halves
	z = b.mul(b.view(gg, x.n*n*4*c), b.gelu(b.view(gg, x.n*n*4*c)))
	z = b.linear(z, 4*c, c, true, "ff.out")
	h = b.add(z, h)
	b.block = -1
	out := b.copy(h) // back to [n, c, h, w]
	o := b.conv2d(fmap{out, x.n, c, x.h, x.w, false}, c, 1, 1, 0, 1, true)
	o.t = b.add(o.t, res)
	return o
}

// upsample2D is nearest ×2 and a 3×3 conv. diffusers casts bf16 inputs
// to float32 around the interpolation only before torch 2.1, so with the
// torch it is measured on (2.11) the map stays in its own dtype.
func (b *builder) upsample2D(x fmap) fmap {
	u := b.unary("upsample_nearest", x.t, b.dt(x.t), false, false)
	b.tt(u).numel *= 4
	return b.conv2d(fmap{u, x.n, x.c, 2 * x.h, 2 * x.w, false}, x.c, 3, 1, 1, 1, true)
}

// cat concatenates two feature maps along channels.
func (b *builder) catMaps(x, y fmap) fmap {
	dt := promote(b.dt(x.t), b.dt(y.t))
	z := b.out(b.numel(x.t)+b.numel(y.t), dt, x.t, y.t)
	b.op("cat", []Tensor{x.t, y.t}, []Tensor{z}, nil)
	return fmap{z, x.n, x.c + y.c, x.h, x.w, false}
}

func buildUNet(b *builder, a *Arch, in Input) {
	batch, image := in.Batch, in.Image
	lat := image / 8
	heads, textLen, textDim := int64(a.Heads), int64(77), int64(a.Hidden)
	x := b.latents(in)
	fr := b.frozen
	b.frozen, b.module = true, "text_encoder (frozen)"
	b.param(clipTextParams)
	b.frozen = fr
	b.input(batch*4*lat*lat, b.pdt) // the noise target
	text := b.input(batch*textLen*textDim, b.pdt)
	b.input(batch, I64) // timesteps
	b.module = "time_embedding"
	f := b.g.newTensor(batch*320, F32, false)
	b.op("timesteps", nil, []Tensor{f}, nil).noBackward = true
	// get_time_embed casts the float32 sinusoids to the sample's dtype:
	// in pure bf16 the time embedding (and every resnet's projection of
	// it) stays bf16 rather than promoting the feature maps to float32
	f = b.cast(f, b.dt(x))
	temb := b.linear(b.silu(b.linear(f, 320, 1280, true, "linear_1")), 1280, 1280, true, "linear_2")
	b.module = "conv_in"
	h := b.conv2d(fmap{x, batch, 4, lat, lat, false}, int64(a.Widths[0]), 3, 1, 1, 1, true)
	skips := []fmap{h}
	stages := len(a.Widths)
	// The checkpoint units are what diffusers' enable_gradient_checkpointing
	// hands to torch.utils.checkpoint (the H200 snapshot of the checkpointed
	// LoRA step, testdata/dev8, allocates inside checkpoint() exactly
	// these): each ResnetBlock2D of the down and up blocks and of the mid
	// block but its first, and each Transformer2DModel's
	// BasicTransformerBlock. The up blocks' skip concatenations, the
	// down- and upsamplers, the mid block's first resnet and the
	// Transformer2DModels' norm/proj_in/proj_out stay outside: they save
	// their tensors in forward as without checkpointing.
	blk := 0
	unit := func() int { blk++; return blk - 1 }
	for s, w := range a.Widths {
		for r := 0; r < a.Blocks[s]; r++ {
			b.module = "down_blocks." + itoa(s)
			b.block = unit()
			h = b.resnet2D(h, int64(w), temb)
			if s < stages-1 {
				h = b.transformer2D(h, text, heads, textLen, textDim, unit())
			}
			skips = append(skips, h)
		}
		if s < stages-1 {
			b.block = -1
			h = b.conv2d(h, int64(w), 3, 2, 1, 1, true)
			skips = append(skips, h)
		}
	}
	b.block, b.module = -1, "mid_block"
	h = b.resnet2D(h, h.c, temb)
	h = b.transformer2D(h, text, heads, textLen, textDim, unit())
	b.block = unit()
	h = b.resnet2D(h, h.c, temb)
	for s := stages - 1; s >= 0; s-- {
		w := int64(a.Widths[s])
		for r := 0; r <= a.Blocks[s]; r++ {
			b.block, b.module = -1, "up_blocks."+itoa(stages-1-s)
			sk := skips[len(skips)-1]
			skips = skips[:len(skips)-1]
			cat := b.catMaps(h, sk)
			b.block = unit()
			h = b.resnet2D(cat, w, temb)
			if s < stages-1 {
				h = b.transformer2D(h, text, heads, textLen, textDim, unit())
			}
		}
		if s > 0 {
			b.block = -1
			h = b.upsample2D(h)
		}
	}
	b.block, b.module = -1, "conv_out"
	b.g.blocks = blk
	h = b.conv2d(b.act(b.groupNorm(h), "silu"), 4, 3, 1, 1, 1, true)
	b.module = "loss"
	b.g.loss = b.mseLoss(h.t, batch*4*lat*lat)
}
