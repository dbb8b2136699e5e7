#!/usr/bin/env python3
# Aggregate-only stage diagnostic for a scenario set scored with DEBUG
# (scripts/scenario-check.sh runs it):
# prints, by kind, how many relevant cases failed to show the current
# value, split by whether any belief stated the current value (a recall
# loss) or none did (an extraction loss). Never prints case text.
import json, re, sys
from collections import Counter
setfile, report, log = sys.argv[1:4]
cases = {}
for line in open(setfile):
    line = line.strip()
    if not line: continue
    c = json.loads(line)
    if 'id' in c: cases[c['id']] = c
res = {r['id']: r for r in json.load(open(report))['results']}
text = open(log).read()
beliefs = {}
for m in re.finditer(r'scenarios_test.go:\d+: (\S+) beliefs:\n(.*?)(?=\n\s+scenarios_test.go|\n=== |\Z)', text, re.S):
    beliefs[m.group(1)] = m.group(2)
def has(txt, words):
    return any(re.search(r'(?i)(?:^|[^\w])' + re.escape(w) + r'(?:$|[^\w])', txt) for w in words)
stats = Counter()
for cid, c in cases.items():
    if c.get('expect_nothing'): continue
    r = res.get(cid)
    if not r: continue
    k = c['kind']
    if r['current_found']:
        stats[(k, 'hit')] += 1; continue
    b = beliefs.get(cid, '')
    active = '\n'.join(l for l in b.split('\n') if ' active ' in l)
    if has(active, c['current']):
        stats[(k, 'miss: belief holds value (recall loss)')] += 1
    elif has(b, c['current']):
        stats[(k, 'miss: only non-active belief holds value')] += 1
    else:
        stats[(k, 'miss: no belief holds value (extraction loss)')] += 1
for k in sorted(set(k for k, _ in stats)):
    print(k, {s: n for (kk, s), n in stats.items() if kk == k})
tot = Counter()
for (k, s), n in stats.items(): tot[s] += n
print('ALL', dict(tot))
# where the current value was told, against where the probe was typed
where = Counter()
for cid, c in cases.items():
    if c.get('expect_nothing'): continue
    r = res.get(cid)
    if not r or r['current_found']: continue
    told = set()
    for s in c['sessions']:
        for p in s['prompts']:
            if has(p, c['current']): told.add(s['project'])
    pp = c['probe']['project']
    if pp in told: where['told in the probe\'s project'] += 1
    elif told == {'none'}: where['told outside any repo, probed in a repo'] += 1
    elif pp == 'none': where['told in a repo, probed outside'] += 1
    else: where['told in another repo'] += 1
print('MISSES BY PLACE', dict(where))
# where a stale value was shown unmarked: in a belief line or an episode
# line, whether an active belief still holds it, and whether the current
# value was shown too (counts only)
stale = Counter()
for cid, c in cases.items():
    r = res.get(cid)
    if not r or not r.get('stale_unmarked'): continue
    lines = [l for l in (r.get('context') or '').split('\n') if has(l, c.get('stale', []))]
    kinds = set()
    for l in lines:
        if '[Belief' in l: kinds.add('belief line')
        elif l.startswith('- ['): kinds.add('episode line')
        else: kinds.add('other line')
    b = beliefs.get(cid, '')
    active = '\n'.join(l for l in b.split('\n') if ' active ' in l)
    key = '+'.join(sorted(kinds))
    key += '; stale value in an active belief' if has(active, c.get('stale', [])) else '; no active belief holds it'
    key += '; current shown' if r['current_found'] else '; current not shown'
    stale[key] += 1
print('STALE UNMARKED', dict(stale))
# recall losses by the kind of belief that held the value (a rule, a fact
# of the person, a fact of the project) and by what the context held
# instead: nothing, other beliefs, or only episodes (counts only)
GUIDE = re.compile(r'^(?:always|never|prefer|avoid|use|do not|don\'t|keep|make sure|run|write|add|put|ask|check|no|when|whenever)\b', re.I)
lost = Counter()
for cid, c in cases.items():
    if c.get('expect_nothing'): continue
    r = res.get(cid)
    if not r or r['current_found']: continue
    b = beliefs.get(cid, '')
    holders = [l for l in b.split('\n') if ' active ' in l and has(l, c['current'])]
    if not holders: continue
    st = re.split(r'\s{2,}', holders[0].strip())[-1]
    kind = 'person fact' if st.startswith('User') else 'project fact' if st.startswith('Project') else 'rule' if GUIDE.match(st) else 'other fact'
    ctx = r.get('context') or ''
    shown = 'empty context' if not ctx.strip() else 'other beliefs shown' if '[Belief' in ctx else 'only episodes shown'
    lost[kind + '; ' + shown] += 1
print('RECALL LOSSES BY BELIEF KIND', dict(lost))
