# gt_gemm_graph.py: GPU-only time of the small-GEMM calibration's shapes (gt_calib.py --small-gemm).
# Each torch.mm(out=) is captured `reps` times in one CUDA graph and the replay is timed by CUDA
# events (median of 5 replays), so the host's cost of issuing torch.mm is not in the time: set
# against the eager timings it shows which of them timed the host (testdata/dev16/README.md).
# Session 12 (steptime27) ran it as written below on the lent H200, alone on the GPU, with $OUT set;
# its output is testdata/dev16/dev16-graph-small-gemm.json (a "note" field added afterwards).
import torch,json,os
torch.backends.cuda.matmul.allow_tf32=False
nk=((320,320),(640,640),(1280,1280),(2560,320),(320,1280),(768,768),(3072,768),(768,3072),(1024,1024),(4096,1024),(5120,640),(640,768))
sh=[]
for t in (256,1024,4096,16384,65536):
  for n,k in nk: sh+=[(t,n,k,'fwd'),(n,k,t,'wgrad')]
rows=[]
for name,dt in (('fp32',torch.float32),('bf16',torch.bfloat16)):
  for M,N,K,role in sh:
    a=torch.randn(M,K,device='cuda',dtype=dt);b=torch.randn(K,N,device='cuda',dtype=dt);c=torch.empty(M,N,device='cuda',dtype=dt)
    fl=2*M*N*K;reps=50 if fl<5e9 else 10
    s=torch.cuda.Stream();s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
      for _ in range(3): torch.mm(a,b,out=c)
    torch.cuda.current_stream().wait_stream(s);torch.cuda.synchronize()
    g=torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
      for _ in range(reps): torch.mm(a,b,out=c)
    for _ in range(3): g.replay()
    torch.cuda.synchronize();per=[]
    for _ in range(5):
      e0,e1=torch.cuda.Event(enable_timing=True),torch.cuda.Event(enable_timing=True)
      e0.record();g.replay();e1.record();e1.synchronize();per.append(e0.elapsed_time(e1)/1e3/reps)
    rows.append(dict(dtype=name,M=M,N=N,K=K,role=role,s=sorted(per)[2],reps=reps,tflops=fl/sorted(per)[2]/1e12))
    del g,a,b,c
json.dump(dict(torch=torch.__version__,device=torch.cuda.get_device_name(),method='torch.mm(out=) x reps captured in one CUDA graph, replay timed by CUDA events, median of 5',rows=rows),open(os.environ['OUT']+'/graph.json','w'),indent=0)
print(len(rows))
