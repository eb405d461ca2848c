package measured

import "testing"

// TestKernelClass sorts kernel names taken from testdata/profile's
// torch.profiler tables (torch 2.11, H200) into the step-time model's
// classes.
func TestKernelClass(t *testing.T) {
	cases := []struct{ name, want string }{
		{"nvjet_sm90_tst_192x192_64x3_2x1_v_bz_coopB_NNN", "gemm"},
		{"void cutlass::Kernel2<cutlass_75_tensorop_bf16_s1688gemm_bf16_128x128_tn_align1>(cutlass_75_tensorop_bf16_s1688gemm_bf16_128x128_tn_align1::Params)", "gemm"},
		{"sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize128x128x8_stage3_warpsize2x2x1_ffma_aligna4_alignc4_execute_kernel__5x_cublas", "gemm"},
		{"cudnn_generated_fort_native_sdpa_sm90_flash_bprop_wgmma_f16_knob_26_64x64x64_1x4x1_cga1x1x1_kernel0_0", "attention"},
		{"fmha_cutlassB_f32_aligned_64x64_k64_sm80(PyTorchMemEffAttention::AttentionBackwardKernel<cutlass::arch::Sm80, float, true>)", "attention"},
		{"sm90_xmma_fprop_implicit_gemm_bf16bf16_bf16f32_f32_nhwckrsc_nhwc_tilesize128x128x64_warpgroupsize1x1x1_g1_execute_segment_k_off_kernel__5x_cudnn", "conv"},
		{"void at::native::(anonymous namespace)::conv_depthwise2d_grad_weight_kernel<c10::BFloat16, unsigned int>(...)", "conv"},
		{"void implicit_convolve_sgemm<__nv_bfloat16, __nv_bfloat16, 1024, 5, 5, 3, 3, 3, 1, false, false, true>(int, int, int)", "conv"},
		{"void cudnn::engines_precompiled::nchwToNhwcKernel<__nv_bfloat16, __nv_bfloat16, float, false, true, (cudnnKernelDataType_t)0>(...)", "conv"},
		{"dgrad2d_c1_k1_nhwc_specialized", "conv"},
		{"void at::native::batch_norm_backward_kernel<c10::BFloat16, float, float, int>(...)", "norm"},
		// float32 BatchNorm runs cuDNN's (dev6 EfficientNet-B0 fp32 profile)
		{"void cudnn::bn_bw_1C11_kernel_new<float, float, float2, 512, true, 1>(float, float, float, float, cudnnTensorStruct, float const*)", "norm"},
		{"void cudnn::bn_fw_tr_1C11_singleread<float, 512, true, 1, 2, 0>(cudnn::bn_fw_tr_1C11_args<float>)", "norm"},
		{"void cudnn::batchnorm_fwtr_nhwc_semiPersist<__half, float, __half, 512, 16, 5, 4, 1, 0, false, false, true, 2>(cudnn::NhwcBatchNormFwdParams)", "norm"},
		{"void at::native::(anonymous namespace)::GammaBetaBackwardCUDAKernelTemplate<float, float, 32u, 32u, 256u, false, false, false>(long, long)", "norm"},
		{"void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}>(...)", "copy"},
		{"void at::native::vectorized_elementwise_kernel<8, at::native::bfloat16_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda(float)#1}, std::array<char*, 2ul> >(...)", "copy"},
		{"void at::native::(anonymous namespace)::CatArrayBatchedCopy<at::native::(anonymous namespace)::OpaqueType<2u>, unsigned int, 3, 128, 1>(...)", "copy"},
		{"void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous namespace)::TensorListMetadata<4>, ...>(...)", "optimizer"},
		{"void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, std::array<char*, 3ul> >(int, at::native::CUDAFunctor_add<float>)", "pointwise"},
		// cuDNN SDPA's backward helpers belong to the attention call
		{"void cudnn::fusion::convert_dq_to_16bits<true>(void const*, void*, unsigned int)", "attention"},
		{"void cudnn::fusion::compute_dot_do_o_specialized<true, 64>(void const*, void const*, void*, void*, unsigned int)", "attention"},
		// ATen's GroupNorm kernels (dev6 SD 1.5 UNet profile)
		{"void at::native::(anonymous namespace)::RowwiseMomentsCUDAKernel<float>(long, float, float const*, float*, float*)", "norm"},
		{"void at::native::(anonymous namespace)::ComputeInternalGradientsCUDAKernel<float>(long, float const*, float const*)", "norm"},
		{"void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl_nocast<at::native::(anonymous namespace)::GroupNormKernelImplInternal<float>(...)", "norm"},
		{"Optimizer.step#AdamW.step", ""},
		// Inductor's kernels (testdata/dev33): fused ops, whatever their
		// names list, and the range a compiled graph spans on the GPU row
		{"triton_poi_fused__native_batch_norm_legit_functional_convolution_backward_native_batch_norm_backward_silu_silu_backward_115", "norm"},
		{"triton_poi_fused_add_max_pool2d_with_indices_max_pool2d_with_indices_backward_65", "pointwise"},
		{"triton_red_fused__to_copy_add_native_layer_norm_native_layer_norm_backward_12", "norm"},
		{"triton_tem_fused_addmm_3", "gemm"},
		{"## Call CompiledFxGraph fdqufyaqfofaqmkucyh2uyhohdxcs2spfnasptgx7qa3j3xl7opz ##", ""},
		{"Memcpy DtoD (Device -> Device)", ""},
	}
	for _, c := range cases {
		if got := KernelClass(c.name); got != c.want {
			t.Errorf("KernelClass(%.60s…) = %q, want %q", c.name, got, c.want)
		}
	}
}

// TestProfileKernelS: dev33's compiled ResNet-50 b128 profile counts the
// compiled graphs' ranges in its busy time (32.3 ms a step); its kernels
// sum to 20.4 ms, the figure that says the step (23.4 ms) is host-bound.
func TestProfileKernelS(t *testing.T) {
	ps, err := ReadProfiles("../../testdata/dev33/dev33-profile")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if p.Name != "dev33-prof-resnet50-b128-bf16-compile" {
			continue
		}
		if k := p.KernelS(); k < 20.0e-3 || k > 20.8e-3 || p.GPUBusyS < 30e-3 {
			t.Errorf("kernels %.1f ms, busy %.1f ms: want 20.4 and the inflated 32.3", 1e3*k, 1e3*p.GPUBusyS)
		}
		return
	}
	t.Fatal("no compiled ResNet-50 profile in dev33")
}
