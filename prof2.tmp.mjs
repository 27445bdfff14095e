import { chromium } from '@playwright/test';
import fs from 'node:fs';
import { SourceMapConsumer } from 'source-map-js';
const url = process.argv[2];
const maps = {};
function mapOf(file){ if(!(file in maps)){ const p='/tmp/gb/assets/'+file+'.map'; maps[file]=fs.existsSync(p)?new SourceMapConsumer(JSON.parse(fs.readFileSync(p,'utf8'))):null;} return maps[file]; }
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox','--disable-gpu'] });
const page = await browser.newPage();
const cdp = await page.context().newCDPSession(page);
await cdp.send('Profiler.enable');
await cdp.send('Profiler.setSamplingInterval', { interval: 50 });
await cdp.send('Profiler.start');
await page.goto(url, { waitUntil: 'load' });
await page.waitForTimeout(1500);
const { profile } = await cdp.send('Profiler.stop');
const byId = new Map(profile.nodes.map(n => [n.id, n]));
const parent = new Map(); for (const n of profile.nodes) for (const c of n.children||[]) parent.set(c, n.id);
const counts = new Map();
profile.samples.forEach((id, i) => counts.set(id, (counts.get(id) || 0) + (profile.timeDeltas[i] || 0)));
// inclusive time per source module (count each sample once per module in its stack)
const incl = new Map(), selfm = new Map();
for (const [id, us] of counts) {
  const seen = new Set(); let cur = id; let first = true;
  while (cur !== undefined) { const cf = byId.get(cur).callFrame; const file = cf.url.split('/').pop(); const m = mapOf(file);
    let src = file || cf.functionName;
    if (m && cf.lineNumber >= 0) { const o = m.originalPositionFor({ line: cf.lineNumber + 1, column: cf.columnNumber }); if (o.source) src = o.source.split('node_modules/').pop() + (process.env.FN ? ' '+(o.name||cf.functionName) : ''); }
    if (first) { selfm.set(src, (selfm.get(src)||0)+us); first=false; }
    if (!seen.has(src)) { seen.add(src); incl.set(src, (incl.get(src)||0)+us); }
    cur = parent.get(cur); }
}
const show = (m, n) => [...m].sort((a,b)=>b[1]-a[1]).slice(0,n).map(([k,v])=>`${(v/1000).toFixed(1)}ms ${k}`).join('\n');
console.log('SELF\n'+show(selfm, 35)); console.log('INCL\n'+show(incl, 40));
await browser.close();
