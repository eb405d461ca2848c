"""Aligns a snapshot's trace with bench/placediff's list of the memory model's replay and prints the first requests
where the two chose different free blocks (the free block's size and its segment's), or where one made requests the
other did not.

    python3 bench/placediff/align.py TRACE.pickle.gz MODEL_LIST [LIMIT [all]]

The trace is read with pickle: use it on snapshots you captured yourself (it runs the pickle's constructors; vramkit's
own reader does not). Requests of 1 MiB and more; "all" also prints differences in the order of frees. Alignment is
difflib's on the request sizes, so ties between equal free blocks in different segments (which the CUDA driver's
addresses break) show as differences too: read the first real one.
"""
import gzip,pickle,difflib,sys,bisect
snap=pickle.load(gzip.open(sys.argv[1]))
tr=snap['device_traces'][0]
segs=[]; live={}; real=[]
def site(e):
    for f in e.get('frames',[]):
        fn=f.get('filename','')
        if 'module.py' in fn or 'checkpoint.py' in fn: continue
        return "%s:%d"%(fn.split('/')[-1],f.get('line',0))
    return ''
for i,e in enumerate(tr):
    a=e['action']
    if a=='segment_alloc': segs.append((e['addr'],e['size']))
    elif a=='alloc':
        if e['size']>=2**20:
            ad=e['addr']; gap=-1; ss=0
            for sa,sz in segs:
                if sa<=ad<sa+sz:
                    prev=max([x+s for x,s in live.items() if sa<=x<ad]+[sa])
                    nxt=min([x for x in live if ad<x<sa+sz]+[sa+sz])
                    gap=(nxt-prev)/2**20; ss=sz/2**20
            if tr[i-1]['action']=='segment_alloc' and tr[i-1]['addr']<=ad<tr[i-1]['addr']+tr[i-1]['size']: gap=-1
            real.append(("A%.2f"%(e['size']/2**20),i,gap,ss,site(e)))
        live[e['addr']]=e['size']
    elif a=='free_completed':
        s=live.pop(e['addr'],0)
        if s>=2**20: real.append(("F%.2f"%(s/2**20),i,0,0,''))
model=[]
for l in open(sys.argv[2]):
    p=l.split()
    if p[1][0]=='A': model.append((p[1],int(p[0]),float(p[2]),float(p[3]),p[4]))
    else: model.append((p[1],int(p[0]),0,0,''))
sm=difflib.SequenceMatcher(None,[x[0] for x in real],[x[0] for x in model],autojunk=False)
n=0; lim=int(sys.argv[3]) if len(sys.argv)>3 else 20; ALL=len(sys.argv)>4
for op,i1,i2,j1,j2 in sm.get_opcodes():
    if op=='equal':
        for k in range(i2-i1):
            r=real[i1+k]; m=model[j1+k]
            if r[0][0]=="A" and (abs(r[2]-m[2])>0.3 or (r[2]<0)!=(m[2]<0) or r[3]!=m[3]):
                n+=1; print("GAP real",r,"model",m)
                if n>lim: sys.exit()
    elif ALL or any(x[0][0]=='A' for x in real[i1:i2]+model[j1:j2]):
        n+=1
        print(op, [real[i][:2]+(real[i][4],) for i in range(i1,min(i2,i1+4))], '|', [model[j][:2]+(model[j][4],) for j in range(j1,min(j2,j1+4))])
        if n>lim: sys.exit()
