/** The HTML report's stylesheet, inlined in the page (no external file, so it opens from an unzipped artifact). */
export const REPORT_STYLE = String.raw`
:root{--equal:#2e9e4f;--tolerated:#c98a00;--divergent:#d64545;--error:#7b2d8e;--line:#d9dde3;--muted:#5b6470;--bg:#f6f7f9;--mark:#ffe08a;--mark-missing:#ffc9c9;--mark-extra:#c9e7ff}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:#1d232b;background:var(--bg)}
header{padding:14px 22px 10px;background:#fff;border-bottom:1px solid var(--line)}
h1{font-size:19px;margin:0 0 4px}
.verdict{display:inline-block;padding:2px 10px;border-radius:12px;color:#fff;font-weight:600;margin-right:8px}
.verdict.equal{background:var(--equal)}.verdict.divergent{background:var(--divergent)}.verdict.error{background:var(--error)}
.meta{color:var(--muted);font-size:13px}
.counts span{margin-right:14px}
.delta{margin-top:8px;padding:8px 12px;border-left:4px solid var(--equal);background:#f3faf5}
.delta.bad{border-color:var(--divergent);background:#fdf3f3}
.delta summary{cursor:pointer;font-weight:600}
nav{display:flex;gap:2px;padding:0 22px;background:#fff;border-bottom:1px solid var(--line);flex-wrap:wrap}
nav button{border:0;background:none;padding:9px 14px;font:inherit;cursor:pointer;border-bottom:3px solid transparent;color:var(--muted)}
nav button.on{color:#1d232b;border-color:#3b6fd8;font-weight:600}
main{padding:14px 22px}
.tab{display:none}.tab.on{display:block}
.filters{display:flex;flex-wrap:wrap;gap:10px;align-items:center;margin-bottom:10px;padding:10px;background:#fff;border:1px solid var(--line);border-radius:6px}
.filters label{font-size:13px;color:var(--muted)}
.chip{display:inline-flex;align-items:center;gap:4px;padding:2px 8px;border:1px solid var(--line);border-radius:12px;background:#fff;cursor:pointer;font-size:13px}
.chip input{margin:0}
select,input[type=search]{font:inherit;font-size:13px;padding:3px 6px;border:1px solid var(--line);border-radius:4px;background:#fff}
input[type=search]{min-width:240px}
table{border-collapse:collapse;width:100%;background:#fff}
th,td{border-bottom:1px solid var(--line);padding:5px 8px;text-align:left;vertical-align:top;font-size:13px;overflow-wrap:anywhere}
th{background:#eef0f3;font-weight:600}
#scenarios>thead th{position:sticky;top:0;z-index:1}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
tr.row{cursor:pointer}tr.row:hover{background:#f0f4fb}tr.row.open{background:#e8effb}
.badge{display:inline-block;min-width:74px;text-align:center;padding:1px 7px;border-radius:10px;color:#fff;font-size:12px;font-weight:600}
.badge.equal{background:var(--equal)}.badge.tolerated{background:var(--tolerated)}.badge.divergent{background:var(--divergent)}.badge.error{background:var(--error)}
.pager{display:flex;gap:8px;align-items:center;margin:10px 0}
.pager button{font:inherit;font-size:13px;padding:3px 10px;border:1px solid var(--line);border-radius:4px;background:#fff;cursor:pointer}
.pager button:disabled{opacity:.4;cursor:default}
td.detail{background:#fbfcfd;padding:10px 14px}
.step{border:1px solid var(--line);border-radius:6px;margin:8px 0;background:#fff}
.step>.sh{padding:6px 10px;background:#f3f5f8;border-bottom:1px solid var(--line);display:flex;gap:10px;align-items:center;flex-wrap:wrap}
.step>.sb{padding:8px 10px}
.xline{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:12px;margin:2px 0}
.cmd{display:flex;gap:6px;align-items:center;margin:6px 0}
.cmd code{flex:1;padding:5px 8px;background:#1d232b;color:#e8edf3;border-radius:4px;font-size:12px;overflow-x:auto;white-space:nowrap}
.cmd button{font:inherit;font-size:12px;padding:3px 8px;border:1px solid var(--line);border-radius:4px;background:#fff;cursor:pointer}
.sbs{display:grid;grid-template-columns:1fr 1fr;gap:10px;margin:8px 0}
.pane{border:1px solid var(--line);border-radius:4px;min-width:0}
.pane h4{margin:0;padding:4px 8px;font-size:12px;background:#eef0f3;border-bottom:1px solid var(--line)}
pre.json{position:relative}
pre.json,pre.raw{margin:0;padding:6px 8px;font:12px/1.4 ui-monospace,"DejaVu Sans Mono",monospace;overflow:auto;max-height:420px;white-space:pre}
pre.raw{white-space:pre-wrap;word-break:break-all}
.ln{display:block}
.ln.hl{background:var(--mark);outline:1px solid #e0b400}
.ln.hl.missing{background:var(--mark-missing);outline-color:#e08a8a}
.ln.hl.extra{background:var(--mark-extra);outline-color:#7fb6e0}
.ln.inner{background:#fff7dc}
.k{color:#8a3ea8}.s{color:#1c7a3a}.num{color:#1f5fbf}.lit{color:#b45309}
table.diffs td code{font-size:12px;word-break:break-all}
.cls-divergence{color:var(--divergent);font-weight:600}.cls-noise,.cls-registered{color:var(--tolerated);font-weight:600}
details.raw{margin:6px 0}details.raw>summary{cursor:pointer;color:#3b6fd8}
.frames td{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:12px}
.note{color:var(--muted);font-size:12px}
.heat{overflow:auto;background:#fff;border:1px solid var(--line);border-radius:6px;padding:8px}
table.md{margin:8px 0}
.empty{padding:20px;color:var(--muted)}
`
