import re,collections,sys
t=open(sys.argv[1]).read()
blocks=re.findall(r'\n  (\S+) \(([^)]*)\)x\(([^)]*)\).*?gpu__time_duration.sum\s+(\S+)\s+([\d.,]+)',t,re.S)
agg=collections.OrderedDict(); tot=0
for name,grid,blk,unit,val in blocks:
    v=float(val.replace(',',''))*{'ns':1e-3,'us':1,'ms':1e3}.get(unit,1)
    key=name.split('_f_')[0]
    a=agg.setdefault(key,[0,0.0]); a[0]+=1; a[1]+=v; tot+=v
for k,(c,v) in agg.items(): print(f"{k:<28} {c:>5} launches {v/1e3:>9.3f} ms {100*v/tot:>5.1f}%")
