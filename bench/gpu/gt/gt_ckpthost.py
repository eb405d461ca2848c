"""What torch.utils.checkpoint adds to a step's host time, measured in ONE process so that the host's
speed cancels (one host-bound workload moves up to 1.46x between processes on one lent host:
testdata/dev13). Output: testdata/ckpthost/results.jsonl (see its README.md).

- probe: a pure-Python loop (ns per iteration), at the start and at the end.
- micro: a chain of 64 regions of a trivial function on a 16-element CUDA tensor (the GPU idles, so
  the wall time of the forward and of loss.backward() is the host's), each region 2 or 16 pointwise
  ops, under bf16 autocast, run plain and under checkpoint(use_reentrant=False) (preserve_rng_state
  left on, as Hugging Face, diffusers and gt_work.py's enable_ckpt call it); (ckpt - plain) / 64 is
  what one region adds; the two sizes separate the per-region part from the per-op part.
- model: BERT-base (Hugging Face gradient checkpointing, toggled with gradient_checkpointing_enable/
  disable) and ConvNeXt-T (gt_work.py's wrapper of each CNBlock, toggled by a flag), plain and
  checkpointed steps interleaved in three rounds of six steps (after two warm-ups each), bf16
  autocast, AdamW, at a host-bound shape (batch 1) and at the timed sets' shape; medians of the
  step, of the forward (to the loss) and of loss.backward() (host wall, no sync inside the step).

This is the exact code that ran (session 12, steptime26; it travelled compressed in one command).
usage: python3 gt_ckpthost.py OUT.jsonl
"""
import json,statistics as S,sys,time,torch
from torch.utils.checkpoint import checkpoint as C
M=S.median
O=open(sys.argv[1],"w")
def P(r):
 print(json.dumps({k:v for k,v in r.items() if not k.endswith("steps_s")}),flush=True);O.write(json.dumps(r)+"\n")
def probe():
 t=time.perf_counter();s=0
 for i in range(2000000):s+=i
 return (time.perf_counter()-t)/2e6*1e9
def micro(R=64):
 w=torch.randn(16,device="cuda",requires_grad=True)
 for k in (1,8):
  def f(x):
   for _ in range(k):x=(x*w).sin()
   return x
  res={"plain":[],"ckpt":[]}
  for mode in ("plain","ckpt")*2:
   fw,bw=[],[]
   for it in range(60):
    x=torch.randn(16,device="cuda",requires_grad=True);torch.cuda.synchronize();t0=time.perf_counter()
    with torch.autocast("cuda",dtype=torch.bfloat16):
     h=x
     for _ in range(R):h=C(f,h,use_reentrant=False) if mode=="ckpt" else f(h)
     l=h.float().sum()
    t1=time.perf_counter();l.backward();t2=time.perf_counter();torch.cuda.synchronize()
    if it>=5:fw.append(t1-t0);bw.append(t2-t1)
   res[mode].append((M(fw),M(bw)))
  p=[min(a[i] for a in res["plain"]) for i in (0,1)];c=[min(a[i] for a in res["ckpt"]) for i in (0,1)]
  P({"kind":"micro","regions":R,"ops_per_region":2*k,"plain_fwd_s":p[0],"plain_bwd_s":p[1],"ckpt_fwd_s":c[0],"ckpt_bwd_s":c[1]})
def bert(b,s):
 from transformers import BertConfig as BC,BertForSequenceClassification as B
 with torch.device("cuda"):m=B(BC())
 x=torch.randint(0,30522,(b,s),device="cuda");y=torch.randint(0,2,(b,),device="cuda")
 def tg(on):
  if on:m.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant":False})
  else:m.gradient_checkpointing_disable()
 return m,lambda:m(input_ids=x,labels=y).loss,tg,12
def cnx(b):
 import torchvision
 with torch.device("cuda"):m=torchvision.models.convnext_tiny()
 x=torch.randn(b,3,224,224,device="cuda");y=torch.randint(0,1000,(b,),device="cuda");on=[0];n=0
 for st in m.features:
  if type(st).__name__=="Sequential":
   for k in st:
    if type(k).__name__=="CNBlock":k.forward=(lambda f:(lambda *a:C(f,*a,use_reentrant=False) if on[0] else f(*a)))(k.forward);n+=1
 def tg(v):on[0]=v
 return m,lambda:torch.nn.functional.cross_entropy(m(x),y),tg,n
def rows(name,build):
 m,lf,tg,R=build();m.train();o=torch.optim.AdamW(m.parameters(),lr=1e-4);T={0:[],1:[]};F={0:[],1:[]}
 for r in range(3):
  for on in (0,1):
   tg(on)
   for i in range(8):
    torch.cuda.synchronize();t0=time.perf_counter()
    with torch.autocast("cuda",dtype=torch.bfloat16):l=lf()
    t1=time.perf_counter();l.backward();t2=time.perf_counter();o.step();o.zero_grad(set_to_none=True);torch.cuda.synchronize();t3=time.perf_counter()
    if i>=2:T[on].append(t3-t0);F[on].append((t1-t0,t2-t1))
 r={"kind":"model","name":name,"regions":R}
 for on,k in ((0,"plain"),(1,"ckpt")):r[k+"_step_s"]=M(T[on]);r[k+"_steps_s"]=T[on];r[k+"_fwd_s"]=M(a for a,_ in F[on]);r[k+"_bwd_s"]=M(b for _,b in F[on])
 P(r)
P({"kind":"probe","py_loop_ns_per_iter":probe()})
micro()
rows("bert-base-s16-b1-bf16",lambda:bert(1,16))
rows("bert-base-s512-b32-bf16",lambda:bert(32,512))
rows("convnext-tiny-b1-bf16",lambda:cnx(1))
rows("convnext-tiny-b128-bf16",lambda:cnx(128))
micro()
P({"kind":"probe","py_loop_ns_per_iter":probe()})
