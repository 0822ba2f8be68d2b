# Per kernel name (names carry a hash of the comptime config) of `ncu --metrics
# launch__registers_per_thread,gpu__time_duration.sum` output, in order of first launch: launches,
# registers, the median duration of its single-cube launches (grid x = 1) and of all launches.
# Usage: python3 scripts/ncu_regs.py NCU_OUTPUT
import re,sys,statistics
t=open(sys.argv[1]).read()
blocks=re.findall(r'\n  (\S+) \(([^)]*)\)x\(([^)]*)\)(.*?)(?=\n  \S+ \(|\Z)',t,re.S)
order=[];info={}
for name,grid,blk,body in blocks:
    r=re.search(r'launch__registers_per_thread\s+\S+\s+([\d.,]+)',body)
    d=re.search(r'gpu__time_duration.sum\s+(\S+)\s+([\d.,]+)',body)
    if not d: continue
    us=float(d.group(2).replace(',',''))*{'ns':1e-3,'us':1,'ms':1e3}.get(d.group(1),1)
    if name not in info: order.append(name); info[name]={'regs':r.group(1) if r else '?','one':[],'all':[]}
    info[name]['all'].append(us)
    if grid.split(',')[0].strip()=='1': info[name]['one'].append(us)
for n in order:
    i=info[n]
    one=f"{statistics.median(i['one']):8.2f}" if i['one'] else '       -'
    print(f"{n:<45} {len(i['all']):>5} launches  regs {i['regs']:>4}  single-cube us {one}  all us {statistics.median(i['all']):8.2f}")
