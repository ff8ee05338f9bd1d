/**
 * The console page: one self-contained HTML document (no CDN, works offline). Plain DOM and SVG;
 * the diagram is laid out in layers from the start state (breadth first), one column per layer.
 * Its requests are relative (`api/feed`), so it works wherever it is mounted. Served with
 * `<body data-mode="live">` it is the read-only live view (no softphone, no scenarios).
 */
export const CONSOLE_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>ringflow dev</title>
<style>
body{font:14px system-ui,sans-serif;margin:0;display:grid;grid-template-columns:300px 1fr 380px;height:100vh}
section{padding:10px;overflow:auto;border-right:1px solid #ddd}
h2{font-size:15px;margin:6px 0}
button{margin:2px;padding:4px 8px}
.pad button{width:40px}
#errors{color:#b00020;white-space:pre-wrap;font-family:monospace}
.call{padding:4px;border:1px solid #ccc;margin:4px 0;cursor:pointer}
.call.sel{border-color:#06c;background:#eef5ff}
svg .state rect{fill:#fff;stroke:#555;rx:6}
svg .state.active rect{fill:#ffd54f;stroke:#e65100;stroke-width:3}
svg .state.visited rect{fill:#e3f2fd}
svg text{font-size:12px}
svg .edge{stroke:#888;fill:none}
svg .edge.path{stroke:#e65100;stroke-width:3}
#timeline div{font-family:monospace;font-size:12px;border-bottom:1px solid #f0f0f0}
.k-request{color:#1565c0}.k-state{color:#e65100;font-weight:bold}.k-end{color:#555}.k-event{color:#2e7d32}
#steps{white-space:pre-wrap;font-family:monospace;font-size:12px;background:#f7f7f7}
.k-vars{color:#6a1b9a}.k-userEvent{color:#00838f}.k-failure{color:#b00020;font-weight:bold}.k-timer{color:#8d6e63}
#saved,#scenario-results{font-size:12px}
#saved pre,#scenario-results pre{white-space:pre-wrap;font-size:11px;background:#f7f7f7;max-height:300px;overflow:auto}
.result.pass{color:#2e7d32}.result.fail{color:#b00020}
.sfile{margin:4px 0;padding:4px;border:1px solid #eee}
#notice{color:#b00020}
body[data-mode=live] .softphone,body[data-mode=live] .scenarios{display:none}
</style></head><body>
<section><div class="softphone"><h2>Softphone</h2>
<label>Flow <select id="flow"></select></label><br>
<label>Caller <input id="from" value="1000" size="8"></label>
<label>Lang <input id="lang" value="en" size="3"></label><br>
<button id="call">Call</button><button id="hangup">Hang up</button><br>
<div class="pad" id="pad"></div>
<button id="talk">Talk</button><button id="silence">Silence</button>
<h2>Far ends</h2><div id="farends"></div></div>
<h2>Calls</h2><div id="calls"></div>
<button id="save" title="Save the selected call as a scenario file beside its flow">Save as test</button><div id="saved"></div>
<div id="notice" role="status"></div>
<div id="errors" role="alert"></div>
</section>
<section><h2>Diagram</h2><svg id="diagram" width="100%" height="300"></svg><h2>State</h2><div id="steps"></div>
<div class="scenarios"><h2>Scenarios</h2><button id="refresh-scenarios">Refresh</button><div id="scenarios"></div><div id="scenario-results"></div></div></section>
<section><h2>Timeline</h2><div id="timeline"></div></section>
<script>
const $=(id)=>document.getElementById(id);
let flows=[],calls=new Map(),selected=null,lines=[];
const live=document.body.dataset.mode==='live';
const post=(path,body)=>fetch('api/'+path,{method:'POST',body:JSON.stringify(body)}).then(r=>r.json()).then(r=>{$('notice').textContent=r.error||'';return r});
const el=(tag,props,...kids)=>{const e=document.createElement(tag);Object.assign(e,props||{});e.append(...kids);return e};
for(const k of '123456789*0#'){const b=document.createElement('button');b.textContent=k;b.onclick=()=>selected&&post('dtmf',{call:selected,digits:k});$('pad').append(b)}
$('call').onclick=async()=>{const r=await post('call',{flow:$('flow').value,from:$('from').value,language:$('lang').value});if(r.id){select(r.id)}};
$('hangup').onclick=()=>selected&&post('hangup',{call:selected});
$('talk').onclick=()=>selected&&post('talk',{call:selected,talking:'true'});
$('silence').onclick=()=>selected&&post('talk',{call:selected,talking:'false'});
if(live)$('save').title='Download the selected call as a scenario file, to keep beside its flow';
$('save').onclick=async()=>{if(!selected)return;$('saved').textContent='saving…';
 const r=live?await fetch('api/calls/'+encodeURIComponent(selected)+'/scenario').then(x=>x.json()).then(x=>{$('notice').textContent=x.error||'';return x}):await post('save',{call:selected});
 if(r.error){$('saved').textContent='';return}
 if(live){const a=el('a',{href:URL.createObjectURL(new Blob([r.yaml],{type:'application/yaml'})),download:r.fileName});document.body.append(a);a.click();a.remove()}
 const ok=r.replay&&r.replay.passed;
 $('saved').replaceChildren(el('div',{className:'result '+(ok?'pass':'fail'),textContent:(live?'Downloaded '+r.fileName:'Saved '+r.file)+' — replay '+(ok?'passed ✓':'FAILED ✗')}),
  ...(ok?[]:[el('pre',{textContent:r.replay?(r.replay.failure.step+'\\n'+r.replay.failure.message):''})]),
  el('details',{},el('summary',{textContent:'scenario'}),el('pre',{className:'yaml',textContent:r.yaml})));loadScenarios()};
async function loadScenarios(){if(live)return;const list=await (await fetch('api/scenarios')).json();const box=$('scenarios');box.innerHTML='';
 for(const f of list){const d=el('div',{className:'sfile'},el('b',{textContent:f.file.split('/').pop()}),' ');
  if(f.problems.length){d.append(el('pre',{textContent:f.problems.join('\\n')}))}
  else{const all=el('button',{textContent:'Run all'});all.onclick=()=>runScenarios(f.file);d.append(all);
   for(const name of f.scenarios){const b=el('button',{textContent:'Run',title:name});b.onclick=()=>runScenarios(f.file,name);d.append(el('div',{},b,' '+name))}}
  box.append(d)}}
async function runScenarios(file,scenario){const out=$('scenario-results');out.textContent='running…';const r=await post('scenarios/run',{file,scenario});
 if(r.error){out.replaceChildren(el('pre',{textContent:r.error}));return}
 const passed=r.results.filter(x=>x.passed).length;
 out.replaceChildren(el('div',{className:'summary',textContent:file.split('/').pop()+': '+passed+' passed, '+(r.results.length-passed)+' failed'}),
  ...r.results.map(x=>el('details',{className:'result '+(x.passed?'pass':'fail')},el('summary',{textContent:(x.passed?'✓ ':'✗ ')+x.scenario}),
   ...(x.failure?[el('pre',{textContent:x.failure.step+'\\n'+x.failure.message})]:[]),
   el('pre',{className:'timeline',textContent:x.timeline.join('\\n')}))))}
$('refresh-scenarios').onclick=loadScenarios;
const farEnds=new Map();
function drawFarEnds(){const box=$('farends');box.innerHTML='';for(const [id,f] of farEnds){const d=el('div',{className:'farend'},(f.name||id)+(f.answered?' (answered) ':' (ringing) '));
 const actions=f.answered?[['Hang up','hangup']]:[['Answer','answer'],['Reject','reject']];
 for(const [label,path] of actions){const b=el('button',{textContent:label});b.onclick=()=>post(path,{call:id});d.append(b)}box.append(d)}}
function call(id){if(farEnds.has(id))return {path:[]};if(!calls.has(id))calls.set(id,{id,flow:$('flow').value,path:[],state:null,ended:null});return calls.get(id)}
function select(id){selected=id;call(id);render()}
function currentFlow(){const c=selected&&calls.get(selected);return flows.find(f=>f.name===(c?c.flow:$('flow').value))||flows[0]}
function render(){
 $('calls').innerHTML='';for(const c of calls.values()){const d=document.createElement('div');d.className='call'+(c.id===selected?' sel':'');d.textContent=c.id+' · '+(c.state||'…')+(c.ended?' · ended':'');d.onclick=()=>select(c.id);$('calls').append(d)}
 $('errors').textContent=flows.filter(f=>f.error).map(f=>f.error).join('\\n');
 drawDiagram();
 const tl=$('timeline');tl.innerHTML='';for(const e of lines)if(!selected||e.call===selected||e.call===''&&false){const d=document.createElement('div');d.className='k-'+e.kind;d.textContent=new Date(e.at).toISOString().slice(11,23)+' '+e.text;tl.append(d)}
}
function drawDiagram(){
 const f=currentFlow();const svg=$('diagram');svg.innerHTML='';if(!f)return;
 const g=f.graph;const rank=new Map([[g.start,0]]);const q=[g.start];
 while(q.length){const s=q.shift();for(const t of g.transitions)if(t.from===s&&!rank.has(t.to)){rank.set(t.to,rank.get(s)+1);q.push(t.to)}}
 let extra=Math.max(0,...rank.values())+1;for(const s of g.states)if(!rank.has(s))rank.set(s,extra);
 const cols=new Map();const pos=new Map();
 for(const s of g.states){const r=rank.get(s);const i=cols.get(r)||0;cols.set(r,i+1);pos.set(s,{x:20+r*170,y:20+i*60})}
 const W=140,H=34;const c=selected&&calls.get(selected);const path=c?c.path:[];
 const ns='http://www.w3.org/2000/svg';const el=(n,a)=>{const e=document.createElementNS(ns,n);for(const k in a)e.setAttribute(k,a[k]);return e};
 for(const t of g.transitions){const a=pos.get(t.from),b=pos.get(t.to);if(!a||!b)continue;
  let taken=false;for(let i=1;i<path.length;i++)if(path[i-1]===t.from&&path[i]===t.to)taken=true;
  const p=el('path',{class:'edge'+(taken?' path':''),d:'M'+(a.x+W)+' '+(a.y+H/2)+' C'+(a.x+W+30)+' '+(a.y+H/2)+' '+(b.x-30)+' '+(b.y+H/2)+' '+b.x+' '+(b.y+H/2)});
  const ti=el('title',{});ti.textContent=t.labels.join(', ');p.append(ti);svg.append(p)}
 let maxX=0,maxY=0;
 for(const s of g.states){const {x,y}=pos.get(s);maxX=Math.max(maxX,x+W+20);maxY=Math.max(maxY,y+H+20);
  const cls='state'+(c&&c.state===s&&!c.ended?' active':'')+(path.includes(s)?' visited':'');
  const gr=el('g',{class:cls,'data-state':s,transform:'translate('+x+','+y+')'});gr.append(el('rect',{width:W,height:H}));
  const tx=el('text',{x:8,y:21});tx.textContent=s;gr.append(tx);gr.onclick=()=>showState(f,s);svg.append(gr)}
 svg.setAttribute('viewBox','0 0 '+Math.max(maxX,300)+' '+Math.max(maxY,200));
}
function showState(f,s){const st=f.states[s]||[];$('steps').textContent='state '+s+'\\n'+st.map(x=>x.at+'  '+JSON.stringify(x.step)).join('\\n')}
async function loadFlows(){flows=await (await fetch('api/flows')).json();const sel=$('flow');const v=sel.value;sel.innerHTML='';for(const f of flows){const o=document.createElement('option');o.textContent=f.name;sel.append(o)}if(v)sel.value=v;render()}
loadFlows().then(()=>{
 loadScenarios();
 const es=new EventSource('api/feed');
 es.onmessage=(m)=>{const msg=JSON.parse(m.data);
  if(msg.type==='flows'){flows=msg.flows}
  else if(msg.type==='call'){const c=call(msg.id);if(msg.flow)c.flow=msg.flow}
  else if(msg.type==='state'){const c=call(msg.call);c.state=msg.state;c.path.push(msg.state)}
  else if(msg.type==='ended'){call(msg.call).ended=msg.outcome}
  else if(msg.type==='timeline'){lines.push(msg.entry)}
  else if(msg.type==='farEnd'){if(msg.gone)farEnds.delete(msg.id);else farEnds.set(msg.id,{name:msg.name,answered:!!msg.answered});drawFarEnds()}
  render()}});
</script></body></html>`;
