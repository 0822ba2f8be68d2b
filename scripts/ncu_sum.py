# Sum `ncu --metrics gpu__time_duration.sum` output per kernel: launches, total ms, share.
# Usage: python3 scripts/ncu_sum.py NCU_OUTPUT [--by-grid]
# --by-grid also splits by cube shape and by a grid y > 1 (split-K and batched launches),
# with the mean time per launch.
import re,collections,sys
t=open(sys.argv[1]).read()
by_grid='--by-grid' in sys.argv[2:]
blocks=re.findall(r'\n  (\S+) \(([^)]*)\)x\(([^)]*)\).*?gpu__time_duration.sum\s+(\S+)\s+([\d.,]+)',t,re.S)
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
