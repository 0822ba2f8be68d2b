# Sum `ncu --metrics gpu__time_duration.sum` output per kernel: launches, total ms, share.
# Usage: python3 scripts/ncu_sum.py NCU_OUTPUT [--by-grid] [--call NAME LEAD]
# --by-grid also splits by cube shape and by a grid y > 1 (split-K and batched launches),
# with the mean time per launch.
# --call NAME LEAD keeps one call of an op: the launches from LEAD before the first kernel
# whose name contains NAME to LEAD before its second one (or the end).
import re,collections,sys
t=open(sys.argv[1]).read()
by_grid='--by-grid' in sys.argv[2:]
blocks=re.findall(r'\n  (\S+) \(([^)]*)\)x\(([^)]*)\).*?gpu__time_duration.sum\s+(\S+)\s+([\d.,]+)',t,re.S)
if '--call' in sys.argv:
    i=sys.argv.index('--call'); name,lead=sys.argv[i+1],int(sys.argv[i+2])
    hits=[j for j,b in enumerate(blocks) if name in b[0]]
    if hits:
        end=hits[1]-lead if len(hits)>1 else len(blocks)
        blocks=blocks[max(hits[0]-lead,0):end]
    print(f"one call: {len(blocks)} launches")
agg=collections.OrderedDict(); tot=0
for name,grid,blk,unit,val in blocks:
    v=float(val.replace(',',''))*{'ns':1e-3,'us':1,'ms':1e3}.get(unit,1)
    key=name.split('_f_')[0]
    if by_grid:
        g=[int(x) for x in grid.split(',')]
        key+=(' y>1' if g[1]>1 else '')+f' [{blk.replace(" ","")}]'
    a=agg.setdefault(key,[0,0.0]); a[0]+=1; a[1]+=v; tot+=v
w=40 if by_grid else 28
for k,(c,v) in agg.items():
    line=f"{k:<{w}} {c:>5} launches {v/1e3:>9.3f} ms {100*v/tot:>5.1f}%"
    print(line+(f"  {v/c:8.1f} us each" if by_grid else ""))
