# Top SASS instructions of an `ncu --page source --csv --print-source sass` export by warp-stall
# samples, and the samples summed per opcode. Usage: python3 scripts/ncu_sass_top.py FILE [N]
import csv,sys,collections
rows=list(csv.reader(open(sys.argv[1],errors='replace')))
n=int(sys.argv[2]) if len(sys.argv)>2 else 30
hdr_i=next(i for i,r in enumerate(rows) if any('Warp Stall Sampling (All' in c for c in r))
hdr=rows[hdr_i]
col=next(i for i,c in enumerate(hdr) if 'Warp Stall Sampling (All' in c)
src=next((i for i,c in enumerate(hdr) if c.strip()=='Source'),1)
addr=next((i for i,c in enumerate(hdr) if 'Address' in c),0)
def num(x):
    try: return float(x.replace(',',''))
    except: return 0.0
body=[r for r in rows[hdr_i+1:] if len(r)>col]
tot=sum(num(r[col]) for r in body) or 1
print(f"{len(body)} instructions, {tot:.0f} stall samples")
for r in sorted(body,key=lambda r:-num(r[col]))[:n]:
    print(f"{100*num(r[col])/tot:5.1f}%  {r[addr]:>8}  {r[src][:90]}")
ops=collections.Counter()
cnt=collections.Counter()
for r in body:
    op=r[src].strip().split(' ')[0] if r[src].strip() else '?'
    if op.startswith('@'): op=r[src].strip().split(' ')[1]
    op=op.split('.')[0]
    ops[op]+=num(r[col]); cnt[op]+=1
print("by opcode (samples %, static count):")
for op,v in ops.most_common(15):
    print(f"  {op:<10} {100*v/tot:5.1f}%  {cnt[op]}")
