/**
 * The HTML report's page script, inlined in the page. Plain browser JavaScript: it unpacks the
 * gzipped payload (DecompressionStream), then renders one page of rows at a time and a scenario's
 * steps only when it is opened, so a 1,000-scenario campaign opens as fast as a small run.
 * Written without backticks or template placeholders: it lives inside a TypeScript template literal.
 */
export const REPORT_SCRIPT = String.raw`
"use strict";
(function () {
  var PAGE = 100;
  var VERDICTS = ["equal", "tolerated", "divergent", "error"];
  var P, E, state = { tab: "scenarios", verdicts: {}, op: "", status: "", profile: "", q: "", page: 0, open: {} };
  var $ = function (id) { return document.getElementById(id); };
  function esc(s) { return String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;"); }
  function short(v, n) { var t = v === undefined ? "—" : JSON.stringify(v); if (t === undefined) t = String(v); return t.length > n ? t.slice(0, n - 1) + "…" : t; }
  function allDiffs(s) { var out = []; s.steps.forEach(function (st) { out.push.apply(out, st.differences); }); out.push.apply(out, s.differences); return out; }

  // ---- the JSON of a normalized exchange, one line per value, each line knowing its path ----
  function keyPath(base, key) {
    if (base === "$.response.headers" || base === "$.request.headers") return base + "[" + JSON.stringify(key) + "]";
    return /^[A-Za-z_]\w*$/.test(key) ? base + "." + key : base + "[" + JSON.stringify(key) + "]";
  }
  function scalar(v) {
    if (typeof v === "string") return '<span class="s">' + esc(JSON.stringify(v)) + "</span>";
    if (typeof v === "number") return '<span class="num">' + v + "</span>";
    return '<span class="lit">' + esc(JSON.stringify(v)) + "</span>";
  }
  function jsonLines(v, path, depth, key, last, marks, out) {
    var cls = marks.exact[path] === "inner-only" ? undefined : marks.exact[path], inner = !cls && (marks.prefix[path] || marks.exact[path] === "inner-only");
    var pad = new Array(depth + 1).join("  ");
    var head = pad + (key !== null ? '<span class="k">' + esc(JSON.stringify(key)) + "</span>: " : "");
    var comma = last ? "" : ",";
    function line(html) { out.push('<span class="ln' + (cls ? " hl " + cls : inner ? " inner" : "") + '" data-path="' + esc(path) + '">' + html + "</span>"); }
    if (Array.isArray(v)) {
      if (v.length === 0) { line(head + "[]" + comma); return; }
      line(head + "[");
      v.forEach(function (x, i) { jsonLines(x, path + "[" + i + "]", depth + 1, null, i === v.length - 1, marks, out); });
      out.push('<span class="ln">' + pad + "]" + comma + "</span>");
    } else if (v !== null && typeof v === "object") {
      var keys = Object.keys(v);
      if (keys.length === 0) { line(head + "{}" + comma); return; }
      line(head + "{");
      keys.forEach(function (k, i) { jsonLines(v[k], keyPath(path, k), depth + 1, k, i === keys.length - 1, marks, out); });
      out.push('<span class="ln">' + pad + "}" + comma + "</span>");
    } else line(head + scalar(v) + comma);
  }
  // the exchange laid out so that its paths are the differ's: $.response.body.<json>, $.response.body.frames[i]
  function viewOf(x, settled) {
    if (!x) return null;
    var v = { request: { method: x.request.method, path: x.request.path, headers: x.request.headers, auth: x.request.auth } };
    if (x.request.body !== undefined) v.request.body = x.request.body;
    if (x.transportError !== undefined) v.transportError = x.transportError;
    if (x.response) {
      var b = x.response.body, body;
      if (b.kind === "json") body = b.value;
      else if (b.kind === "sse") { body = { frames: b.frames, complete: b.complete }; if (b.stoppedBy !== undefined) body.stoppedBy = b.stoppedBy; }
      else if (b.kind === "empty") body = null;
      else body = b.text;
      v.response = { status: x.response.status, headers: x.response.headers, body: body };
    }
    if (settled !== undefined) v.settled = settled;
    return v;
  }
  function parentPath(p) { return p.replace(/(\.[A-Za-z_]\w*|\[[^\]]*\])$/, ""); }
  function marksFor(diffs, side) {
    var m = { exact: {}, prefix: {} };
    diffs.forEach(function (d) {
      var absent = d.expected === undefined ? "extra" : d.actual === undefined ? "missing" : "changed";
      // a value only one side has: the other side marks the object it would be in
      if ((side === "candidate" && absent === "missing") || (side === "reference" && absent === "extra")) { if (!m.exact[parentPath(d.path)]) m.exact[parentPath(d.path)] = "inner-only"; return; }
      m.exact[d.path] = absent;
      for (var p = d.path, q; (q = parentPath(p)) !== p && q !== ""; p = q) m.prefix[q] = true;
    });
    return m;
  }
  function jsonPane(title, view, marks) {
    var out = [];
    if (view === null) out.push('<span class="ln note">no exchange on this side</span>');
    else jsonLines(view, "$", 0, null, true, marks, out);
    return '<div class="pane"><h4>' + esc(title) + '</h4><pre class="json">' + out.join("") + "</pre></div>";
  }

  // ---- the wire form: what was sent and received, SSE frames with their arrival times ----
  function rawSide(title, x) {
    if (!x) return '<div class="pane"><h4>' + esc(title) + '</h4><pre class="raw">no exchange</pre></div>';
    var r = x.request, lines = [r.method + " " + r.path, "auth: " + r.auth];
    Object.keys(r.headers).forEach(function (h) { lines.push(h + ": " + r.headers[h]); });
    if (r.body !== undefined) lines.push("", r.body);
    var html = '<pre class="raw">' + esc(lines.join("\n")) + "</pre>";
    if (x.transportError !== undefined) html += '<pre class="raw">transport error: ' + esc(x.transportError) + "</pre>";
    if (x.response) {
      var res = x.response, head = ["HTTP " + res.status];
      res.headers.forEach(function (h) { head.push(h[0] + ": " + h[1]); });
      html += '<pre class="raw">' + esc(head.join("\n")) + "</pre>";
      var b = res.body;
      if (b.kind === "sse") {
        var frames = b.text.replace(/\r\n?/g, "\n").split("\n\n").filter(function (f) { return f.trim() !== ""; });
        html += '<table class="frames"><thead><tr><th class="n">#</th><th class="n">ms</th><th>frame</th></tr></thead><tbody>' +
          frames.map(function (f, i) { var t = b.frameMs && b.frameMs[i] !== undefined ? "+" + b.frameMs[i] : "—"; return '<tr><td class="n">' + i + '</td><td class="n">' + t + "</td><td><pre class=\"raw\">" + esc(f) + "</pre></td></tr>"; }).join("") +
          "</tbody></table><div class=\"note\">" + (b.complete ? "stream ended" : "read stopped: " + esc(b.stoppedBy || "")) + (b.frameMs ? "" : " · frame times not recorded in this evidence") + "</div>";
      } else if (b.kind !== "empty") html += '<pre class="raw">' + esc(b.text) + "</pre>";
    }
    return '<div class="pane"><h4>' + esc(title) + "</h4>" + html + "</div>";
  }

  function diffTable(diffs) {
    if (diffs.length === 0) return "";
    return '<table class="diffs"><thead><tr><th>class</th><th>kind</th><th>operation</th><th>path</th><th>real gateway (expected)</th><th>emulator (actual)</th><th>why tolerated</th></tr></thead><tbody>' +
      diffs.map(function (d) {
        var why = d.classification === "divergence" ? "—" : esc(d.classification + ": " + (d.reason || ""));
        return '<tr data-diff-path="' + esc(d.path) + '"><td class="cls-' + d.classification + '">' + d.classification + "</td><td>" + esc(d.kind) + "</td><td>" + esc(d.operation) + "</td><td><code>" + esc(d.path) + "</code></td><td><code>" + esc(short(d.expected, 160)) + "</code></td><td><code>" + esc(short(d.actual, 160)) + "</code></td><td>" + why + "</td></tr>";
      }).join("") + "</tbody></table>";
  }

  function exchangeBlock(st, k) {
    var ref = st.reference ? st.reference.exchanges[k] : undefined, cand = st.candidate ? st.candidate.exchanges[k] : undefined;
    var diffs = st.differences.filter(function (d) { return d.exchange === k; });
    var html = '<div class="sbs" data-exchange="' + k + '">' +
      jsonPane("real gateway — expected (normalized)", viewOf(ref, k === 0 && st.reference ? st.reference.settled : undefined), marksFor(diffs, "reference")) +
      jsonPane("emulator — actual (normalized)", viewOf(cand, k === 0 && st.candidate ? st.candidate.settled : undefined), marksFor(diffs, "candidate")) + "</div>";
    if (st.raw) html += '<details class="raw"><summary>raw request and response (wire form)</summary><div class="sbs">' + rawSide("real gateway", st.raw.reference[k]) + rawSide("emulator", st.raw.candidate[k]) + "</div></details>";
    else if (diffs.length > 0) html += '<div class="note">This evidence was written before the wire form (raw request, response and SSE frame times) was kept: the replay command above plays it again.</div>';
    return html;
  }

  function stepHtml(st, pos) {
    var x = (st.reference && st.reference.exchanges) || (st.candidate && st.candidate.exchanges) || [];
    var lines = x.map(function (ex, k) {
      var rs = st.reference && st.reference.exchanges[k] && st.reference.exchanges[k].response, cs = st.candidate && st.candidate.exchanges[k] && st.candidate.exchanges[k].response;
      return '<div class="xline">' + esc(ex.request.method + " " + ex.request.path) + " → " + (rs ? rs.status : "—") + " / " + (cs ? cs.status : "—") + "</div>";
    }).join("");
    // a step without exchanges (a script, a clock move, a release) shows what the scenario said
    var body = (lines || '<div class="xline">' + esc(short(st.step, 300)) + "</div>") + diffTable(st.differences);
    var count = Math.max(st.reference ? st.reference.exchanges.length : 0, st.candidate ? st.candidate.exchanges.length : 0);
    if (st.differences.length > 0) {
      var ks = {}; st.differences.forEach(function (d) { ks[d.exchange < 0 ? 0 : d.exchange] = true; });
      Object.keys(ks).forEach(function (k) { if (Number(k) < count) body += exchangeBlock(st, Number(k)); });
    } else if (count > 0) body += '<button class="show" data-pos="' + pos + '" data-step="' + st.index + '">show exchanges side by side</button><div class="more"></div>';
    var errs = [st.reference && st.reference.error, st.candidate && st.candidate.error].filter(Boolean);
    if (errs.length) body += '<div class="note">step error: ' + esc(errs.join(" / ")) + "</div>";
    return '<div class="step" data-step="' + st.index + '"><div class="sh"><span class="badge ' + st.verdict + '">' + st.verdict + "</span><strong>step " + st.index + "</strong><span>" + esc(st.kind) + "</span>" + (st.note ? '<span class="note">' + esc(st.note) + "</span>" : "") + '</div><div class="sb">' + body + "</div></div>";
  }

  function detailHtml(i) {
    var s = E.scenarios[i], x = P.scenarios[i], h = [];
    h.push('<div class="meta">' + (s.file ? "file: <code>" + esc(s.file) + "</code> · " : "") + (s.origin ? "origin: <code>" + esc(JSON.stringify(s.origin)) + "</code> · " : "") + "profile: " + esc(x.profile) + " · operations: " + esc(x.operations.join(", ")) + "</div>");
    h.push('<div class="cmd"><code class="replay">' + esc(x.replay) + '</code><button class="copy">copy</button></div>');
    if (s.error) h.push('<div class="step"><div class="sh"><span class="badge error">error</span></div><div class="sb"><pre class="raw">' + esc(s.error) + "</pre></div></div>");
    if (s.differences.length) h.push("<h4>Across steps (time relations)</h4>" + diffTable(s.differences));
    s.steps.forEach(function (st) { h.push(stepHtml(st, i)); });
    return h.join("");
  }

  // ---- the scenario table: filters, one page of rows, drill-down ----
  function matches(i) {
    var s = E.scenarios[i], x = P.scenarios[i];
    if (!state.verdicts[s.verdict]) return false;
    if (state.op && x.operations.indexOf(state.op) < 0) return false;
    if (state.status && x.statuses.indexOf(Number(state.status)) < 0) return false;
    if (state.profile && x.profile !== state.profile) return false;
    if (state.q) {
      var q = state.q.toLowerCase();
      var hay = x.hay || (x.hay = [s.name, s.file || "", s.error || "", x.operations.join(" "), allDiffs(s).map(function (d) { return d.path + " " + d.kind + " " + (d.reason || ""); }).join(" ")].join(" ").toLowerCase());
      if (hay.indexOf(q) < 0) return false;
    }
    return true;
  }
  function rowHtml(i) {
    var s = E.scenarios[i], ds = allDiffs(s), dv = ds.filter(function (d) { return d.classification === "divergence"; }).length;
    return '<tr class="row' + (state.open[i] ? " open" : "") + '" data-i="' + i + '"><td><span class="badge ' + s.verdict + '">' + s.verdict + '</span></td><td class="n">' + (s.position !== undefined ? s.position : i) + "</td><td>" + esc(s.name) + "</td><td>" + esc(P.scenarios[i].profile) + '</td><td class="n">' + s.steps.length + '</td><td class="n">' + dv + '</td><td class="n">' + (ds.length - dv) + '</td><td class="n">' + s.durationMs.reference + '</td><td class="n">' + s.durationMs.candidate + "</td></tr>" +
      (state.open[i] ? '<tr class="detail-row" data-i="' + i + '"><td class="detail" colspan="9">' + detailHtml(i) + "</td></tr>" : "");
  }
  function renderRows() {
    var hits = [];
    for (var i = 0; i < E.scenarios.length; i++) if (matches(i)) hits.push(i);
    var pages = Math.max(1, Math.ceil(hits.length / PAGE));
    if (state.page >= pages) state.page = pages - 1;
    var shown = hits.slice(state.page * PAGE, state.page * PAGE + PAGE);
    $("rows").innerHTML = shown.length ? shown.map(rowHtml).join("") : '<tr><td colspan="9" class="empty">No scenario matches these filters.</td></tr>';
    // each side's JSON opens at its first highlighted path, not at the request above it
    Array.prototype.forEach.call($("rows").querySelectorAll("pre.json"), function (pre) { var hl = pre.querySelector(".ln.hl"); if (hl) pre.scrollTop = Math.max(0, hl.offsetTop - 60); });
    $("found").textContent = hits.length + " of " + E.scenarios.length + " scenarios";
    $("pageinfo").textContent = "page " + (state.page + 1) + " of " + pages;
    $("prev").disabled = state.page === 0; $("next").disabled = state.page >= pages - 1;
    saveHash();
  }

  function options(values, label) { return '<option value="">' + label + "</option>" + values.map(function (v) { return '<option value="' + esc(v) + '">' + esc(v) + "</option>"; }).join(""); }
  function uniq(list) { var m = {}; list.forEach(function (v) { m[v] = true; }); return Object.keys(m); }

  function renderFilters() {
    var counts = {}; E.scenarios.forEach(function (s) { counts[s.verdict] = (counts[s.verdict] || 0) + 1; });
    $("verdicts").innerHTML = VERDICTS.map(function (v) { return '<label class="chip"><input type="checkbox" data-verdict="' + v + '"' + (state.verdicts[v] ? " checked" : "") + '><span class="badge ' + v + '">' + v + "</span> " + (counts[v] || 0) + "</label>"; }).join("");
    var ops = uniq([].concat.apply([], P.scenarios.map(function (x) { return x.operations; }))).sort();
    var sts = uniq([].concat.apply([], P.scenarios.map(function (x) { return x.statuses; }))).map(Number).sort(function (a, b) { return a - b; }).map(String);
    var prs = uniq(P.scenarios.map(function (x) { return x.profile; })).sort();
    $("op").innerHTML = options(ops, "any operation"); $("op").value = state.op;
    $("status").innerHTML = options(sts, "any status"); $("status").value = state.status;
    $("profile").innerHTML = options(prs, "any profile"); $("profile").value = state.profile;
    $("q").value = state.q;
  }

  // ---- header, tabs and the tables of the other tabs ----
  function table(head, rows) { return "<table><thead><tr>" + head.map(function (h) { return "<th>" + h + "</th>"; }).join("") + "</tr></thead><tbody>" + (rows.length ? rows.join("") : '<tr><td class="empty" colspan="' + head.length + '">None.</td></tr>') + "</tbody></table>"; }
  function td(v) { return "<td>" + v + "</td>"; }
  function renderHeader() {
    var s = E.summary, p = E.provenance, v = P.verdict;
    var h = '<h1><span class="verdict ' + v.level + '" id="verdict">' + esc(v.text) + "</span>hermetic comparison — Hermes " + esc(p.pin) + "</h1>";
    h += '<div class="meta">reference: ' + esc(p.reference.description) + " · candidate: " + esc(p.candidate.description) + " · emulator " + esc(p.emulatorCommit.slice(0, 12)) + (p.emulatorDirty ? " (uncommitted changes)" : "") + " · " + esc(p.finishedAt) + "</div>";
    h += '<div class="counts">' + [s.scenarios + " scenarios", s.equal + " equal", s.tolerated + " tolerated", s.divergent + " divergent", s.errors + " errors", s.steps + " steps", s.exchanges + " exchanges", "differences: " + s.differences.divergence + " divergences, " + s.differences.registered + " registered, " + s.differences.noise + " noise"].map(function (t) { return "<span>" + esc(t) + "</span>"; }).join("") +
      (s.wallSeconds !== undefined ? "<span>" + s.wallSeconds + " s wall clock on " + (p.workers || 1) + " worker(s)" + (p.mergedFrom ? ", " + p.mergedFrom.length + " shards" : "") + "</span>" : "") + "</div>";
    if (P.delta) {
      var d = P.delta;
      h += '<details class="delta' + (d.newDivergences > 0 ? " bad" : "") + '" id="delta"><summary>against base ' + esc(d.base.commit.slice(0, 12)) + " (" + d.base.scenarios + " scenarios, " + d.base.divergent + " divergent): " + d.newDivergences + " new divergence(s), " + d.fixedDivergences + " fixed</summary>" + d.html + "</details>";
    }
    $("head").innerHTML = h;
  }
  function renderTabs() {
    // a register entry's answer conditions (the same words as REPORT.md's table)
    function whenText(when) {
      if (!when) return "";
      var side = function (name, c) { return c ? [name + " " + [c.statusLine ? "<code>" + esc(c.statusLine) + "</code>" : "", c.status ? esc(c.status.join("/")) : ""].filter(Boolean).join(" ")] : []; };
      var parts = side("reference", when.reference).concat(side("candidate", when.candidate));
      return parts.length ? " when " + parts.join(", ") : "";
    }
    var tabs = [["scenarios", "Scenarios"], ["coverage", "Coverage"], ["noise", "Learned noise (" + E.noise.observations.length + ")"], ["register", "Divergence register (" + E.register.length + ")"], ["rules", "Normalization rules"], ["provenance", "Provenance"]];
    P.sections.forEach(function (s) { tabs.push(["section-" + s.id, s.title]); });
    $("tabs").innerHTML = tabs.map(function (t) { return '<button data-tab="' + t[0] + '">' + esc(t[1]) + "</button>"; }).join("");
    var extra = P.sections.map(function (s) { return '<section class="tab" id="tab-section-' + esc(s.id) + '">' + s.html + "</section>"; }).join("");
    $("extra").innerHTML = extra;
    $("tab-coverage").innerHTML = '<p class="note">Per operation and HTTP status: verified against the real gateway, emulator only, real gateway only, or never answered.</p><div class="heat">' + P.heatmap + "</div>";
    $("tab-noise").innerHTML = '<p class="note">Method: ' + esc(E.noise.method) + "</p>" + table(["scenario", "step", "signature", "run 1", "run 2"], E.noise.observations.map(function (o) { return "<tr>" + td(esc(o.scenario)) + td(o.step) + td("<code>" + esc(o.signature) + "</code>") + td("<code>" + esc(short(o.example.expected, 120)) + "</code>") + td("<code>" + esc(short(o.example.actual, 120)) + "</code>") + "</tr>"; }));
    $("tab-register").innerHTML = table(["id", "operation", "kind", "path", "category", "hits", "reason"], E.register.map(function (r) { return "<tr>" + td(esc(r.id)) + td(esc(r.operation)) + td(esc(r.kind || "*")) + td("<code>" + esc(r.path) + "</code>" + whenText(r.when)) + td(esc(r.category)) + td(r.hits) + td(esc(r.reason)) + "</tr>"; }));
    $("tab-rules").innerHTML = '<p class="note">Clock: ' + (E.normalization.clock === "pinned" ? "pinned on both sides, timestamps compared exactly" : "running, timestamps compared as relations") + "</p>" + table(["rule", "action", "fired (reference / candidate)", "applies to", "reason"], E.normalization.rules.map(function (r) { return "<tr>" + td(esc(r.id)) + td(esc(r.action)) + td(r.fired.reference + " / " + r.fired.candidate) + td("<code>" + esc(r.applies) + "</code>") + td(esc(r.reason)) + "</tr>"; }));
    var p = E.provenance, rows = [["pin", p.pin], ["launcher", p.launcher || "—"], ["runs", p.runs], ["seed", p.seed === undefined ? "—" : p.seed], ["workers", p.workers || 1], ["emulator commit", p.emulatorCommit + (p.emulatorDirty ? " (uncommitted changes)" : "")], ["node", p.node], ["command", p.command], ["time", p.startedAt + " → " + p.finishedAt]];
    if (p.installed) rows.push(["installed", Object.keys(p.installed).map(function (k) { return k + " " + p.installed[k]; }).join(", ")]);
    (p.mergedFrom || []).forEach(function (m) { rows.push(["shard " + m.shard.index + "/" + m.shard.count, m.command + " · " + m.startedAt + " → " + m.finishedAt + " · " + m.wallSeconds + " s"]); });
    $("tab-provenance").innerHTML = table(["", ""], rows.map(function (r) { return "<tr>" + td("<strong>" + esc(r[0]) + "</strong>") + td("<code>" + esc(r[1]) + "</code>") + "</tr>"; }));
  }
  function showTab(name) {
    state.tab = name;
    Array.prototype.forEach.call(document.querySelectorAll("nav button"), function (b) { b.classList.toggle("on", b.getAttribute("data-tab") === name); });
    Array.prototype.forEach.call(document.querySelectorAll(".tab"), function (t) { t.classList.toggle("on", t.id === "tab-" + name); });
    saveHash();
  }

  // ---- state in the address: a link opens the same view ----
  function saveHash() {
    var parts = ["tab=" + encodeURIComponent(state.tab)];
    var vs = VERDICTS.filter(function (v) { return state.verdicts[v]; });
    if (vs.length !== VERDICTS.length) parts.push("v=" + vs.join(","));
    ["op", "status", "profile", "q"].forEach(function (k) { if (state[k]) parts.push(k + "=" + encodeURIComponent(state[k])); });
    if (state.page) parts.push("page=" + (state.page + 1));
    var open = Object.keys(state.open).filter(function (k) { return state.open[k]; });
    if (open.length) parts.push("open=" + open.map(function (i) { return E.scenarios[i].position !== undefined ? E.scenarios[i].position : i; }).join(","));
    history.replaceState(null, "", "#" + parts.join("&"));
  }
  function loadHash() {
    VERDICTS.forEach(function (v) { state.verdicts[v] = true; });
    location.hash.replace(/^#/, "").split("&").forEach(function (kv) {
      var i = kv.indexOf("="); if (i < 0) return;
      var k = kv.slice(0, i), v = decodeURIComponent(kv.slice(i + 1));
      if (k === "tab") state.tab = v;
      else if (k === "v") { VERDICTS.forEach(function (x) { state.verdicts[x] = false; }); v.split(",").forEach(function (x) { state.verdicts[x] = true; }); }
      else if (k === "page") state.page = Math.max(0, Number(v) - 1 || 0);
      else if (k === "open") v.split(",").forEach(function (p) { E.scenarios.forEach(function (s, j) { if (String(s.position !== undefined ? s.position : j) === p) state.open[j] = true; }); });
      else if (k === "op" || k === "status" || k === "profile" || k === "q") state[k] = v;
    });
    // an opened scenario is shown on its page
    var first = Object.keys(state.open)[0];
    if (first !== undefined && !/page=/.test(location.hash)) {
      var hits = []; for (var j = 0; j < E.scenarios.length; j++) if (matches(j)) hits.push(j);
      var at = hits.indexOf(Number(first)); if (at >= 0) state.page = Math.floor(at / PAGE);
    }
  }

  function wire() {
    $("tabs").addEventListener("click", function (ev) { var t = ev.target.closest("button"); if (t) showTab(t.getAttribute("data-tab")); });
    $("verdicts").addEventListener("change", function (ev) { var v = ev.target.getAttribute("data-verdict"); if (v) { state.verdicts[v] = ev.target.checked; state.page = 0; renderRows(); } });
    ["op", "status", "profile"].forEach(function (k) { $(k).addEventListener("change", function () { state[k] = $(k).value; state.page = 0; renderRows(); }); });
    var timer; $("q").addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(function () { state.q = $("q").value.trim(); state.page = 0; renderRows(); }, 150); });
    $("prev").addEventListener("click", function () { state.page--; renderRows(); window.scrollTo(0, 0); });
    $("next").addEventListener("click", function () { state.page++; renderRows(); window.scrollTo(0, 0); });
    $("rows").addEventListener("click", function (ev) {
      var copy = ev.target.closest("button.copy");
      if (copy) { var text = copy.parentNode.querySelector("code").textContent; if (navigator.clipboard) navigator.clipboard.writeText(text).then(function () { copy.textContent = "copied"; }, function () { copy.textContent = "select and copy"; }); return; }
      var show = ev.target.closest("button.show");
      if (show) {
        var st = E.scenarios[Number(show.getAttribute("data-pos"))].steps[Number(show.getAttribute("data-step"))], n = Math.max(st.reference ? st.reference.exchanges.length : 0, st.candidate ? st.candidate.exchanges.length : 0), h = "";
        for (var k = 0; k < n; k++) h += exchangeBlock(st, k);
        show.nextElementSibling.innerHTML = h; show.remove(); return;
      }
      var row = ev.target.closest("tr.row");
      if (row) { var i = Number(row.getAttribute("data-i")); state.open[i] = !state.open[i]; renderRows(); }
    });
  }

  function start(payload) {
    P = payload; E = payload.evidence;
    if (window.performance && performance.mark) performance.mark("report-parsed");
    E.scenarios.forEach(function (s) { s.steps.forEach(function (st) { if (st.same) st.candidate = st.reference; }); });
    loadHash(); renderHeader(); renderTabs(); renderFilters(); wire();
    // the tab is shown first: an opened scenario's panes need layout to scroll to their first highlight
    showTab(state.tab); renderRows();
    document.body.setAttribute("data-ready", "1");
    if (window.performance && performance.mark) performance.mark("report-rendered");
  }
  function fail(message) { $("head").innerHTML = '<h1><span class="verdict error">the report could not be shown</span></h1><p>' + esc(message) + "</p>"; }
  try {
    var b64 = $("payload").textContent.trim(), bin = atob(b64), bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    if (typeof DecompressionStream === "undefined") { fail("This browser has no DecompressionStream (Chrome 80+, Firefox 113+, Safari 16.4+ have it)."); return; }
    new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"))).text().then(function (t) { start(JSON.parse(t)); }, function (e) { fail(String(e)); });
  } catch (e) { fail(String(e)); }
})();
`
