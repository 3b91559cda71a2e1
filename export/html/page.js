// trajscope's exported page: steps through the run held in #data. Every
// string from the run is put into the page with textContent, never as markup.
(function () {
  'use strict';
  var D = JSON.parse(document.getElementById('data').textContent);
  var NEVER = 2147483647;
  var $ = function (id) { return document.getElementById(id); };
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function fix2(v) { return (Math.round(v * 100) / 100).toFixed(2); }

  var S = { cur: D.start, lens: D.lens, query: '', pin: null, file: -1, cursor: 0, sel: -1, timer: 0, force: false, opening: false };
  var root = document.documentElement;

  // Timeline rows, built once.
  var numW = String(D.n).length;
  var rows = D.actions.map(function (a, i) {
    var li = el('li', 'row');
    var mark = el('span', 'mark', ' ');
    li.appendChild(mark);
    li.appendChild(el('span', 'num', String(i + 1).padStart(numW)));
    li.appendChild(el('span', 'glyph cat-' + a.cat, a.glyph));
    li.appendChild(el('span', 'cmd' + (a.agent ? ' sub' : ''), a.row));
    if (a.agent) li.title = a.agent;
    var suf = el('span', 'suf');
    li.appendChild(suf);
    li.addEventListener('click', function () { stop(); go(i); });
    return { li: li, mark: mark, suf: suf };
  });
  // Listed as the explorer lists them: each sub-agent's actions under the
  // call that started it; stepping still goes by time.
  (D.order || rows.map(function (r, i) { return i; })).forEach(function (i) { $('tl').appendChild(rows[i].li); });
  var hay = D.actions.map(function (a) {
    return ((a.cmd || '') + '\n' + (a.obs || '') + '\n' + (a.thought || '')).toLowerCase();
  });
  function matches(i) { return S.query !== '' && hay[i].indexOf(S.query) >= 0; }

  // Per-file line tables, built when the file is first shown.
  var tables = {};
  function table(k) {
    if (tables[k]) return tables[k];
    var f = D.files[k], n = f.lines;
    var t = { gold: new Uint8Array(n + 2), fin: [new Uint8Array(n + 2), new Uint8Array(n + 2)], first: [], lines: null };
    f.gold.forEach(function (iv) { for (var l = Math.max(iv[0], 1); l <= Math.min(iv[1], n); l++) t.gold[l] = 1; });
    // Each lens's final context, as its figures count it.
    [0, 1].forEach(function (L) {
      f.final[L].forEach(function (iv) { for (var l = Math.max(iv[0], 1); l <= Math.min(iv[1], n); l++) t.fin[L][l] = 1; });
    });
    for (var L = 0; L < 2; L++) {
      var first = new Int32Array(n + 2).fill(NEVER);
      f.first[L].forEach(function (r) { for (var l = r[0]; l <= r[1] && l <= n; l++) first[l] = r[2]; });
      t.first.push(first);
    }
    var node = $('f' + k);
    t.lines = node ? node.querySelectorAll('.line') : [];
    tables[k] = t;
    return t;
  }

  // The file and line the source shows: a pinned one, else the place the
  // current action (or the last one about a file) is about.
  function target() {
    if (S.pin) return { file: S.pin.file, line: S.pin.line, scroll: S.pin.scroll };
    var focus = D.l[S.lens].focus;
    for (var i = S.cur; i >= 0; i--) {
      var f = focus[i];
      if (f[0] < 0) continue;
      return { file: f[0], line: Math.max(f[1], 1), scroll: i === S.cur || f[0] !== S.file || S.force };
    }
    if (S.file >= 0) return { file: S.file, line: S.cursor, scroll: false };
    return { file: D.files.length ? 0 : -1, line: 1, scroll: true };
  }

  function renderSource() {
    var t = target();
    var changed = t.file !== S.file;
    if (changed && S.file >= 0 && $('f' + S.file)) $('f' + S.file).hidden = true;
    S.file = t.file;
    if (t.scroll || changed) S.cursor = t.line;
    var note = $('src-note');
    if (t.file < 0) {
      $('src-file').textContent = 'no file';
      note.textContent = D.noRepo ? 'No source: no repository (pass --repo DIR or --cache DIR).' : 'No file yet: this step read nothing.';
      note.hidden = false;
      return;
    }
    var f = D.files[t.file];
    $('src-file').textContent = f.path + ':' + S.cursor + (S.pin ? '  (pinned; F follows)' : '');
    var node = $('f' + t.file);
    if (!node) {
      note.textContent = f.large
        ? f.path + ' is ' + (f.large / 1048576).toFixed(0) + ' MB, larger than a page carries (16 MB a file): see it with trajscope view'
        : f.path + ' is not in the repository' + (D.noRepo ? ' (no repository: pass --repo DIR or --cache DIR)' : '');
      note.hidden = false;
      return;
    }
    note.hidden = true;
    node.hidden = false;
    var tb = table(t.file), L = S.lens, cur = S.cur, first = tb.first[L];
    var now = new Uint8Array(f.lines + 2);
    D.l[L].now[cur].forEach(function (r) {
      if (r[0] !== t.file) return;
      for (var l = r[1]; l <= r[2] && l <= f.lines; l++) now[l] = 1;
    });
    for (var l = 1; l <= tb.lines.length; l++) {
      var c = 'line', fr = l <= f.lines ? first[l] : NEVER;
      if (now[l]) c += ' r-now now';
      else if (fr < cur) c += ' r-bef';
      if (tb.gold[l]) c += fr <= cur ? ' g-found' : fr === NEVER ? ' g-miss' : ' g-pend';
      if (tb.fin[S.lens][l]) c += ' fin';
      if (l === S.cursor) c += ' cursor';
      var e = tb.lines[l - 1];
      if (e.className !== c) e.className = c;
    }
    if ((t.scroll || changed) && tb.lines.length) {
      var line = tb.lines[Math.min(S.cursor, tb.lines.length) - 1];
      var body = $('files');
      body.scrollTop = Math.max(0, line.offsetTop - body.clientHeight / 4);
      body.scrollLeft = 0;
    }
    if (S.pin) S.pin.scroll = false;
    S.force = false;
  }

  function renderTimeline() {
    var ld = D.l[S.lens];
    rows.forEach(function (r, i) {
      var m = matches(i);
      r.li.className = 'row' + (i === S.cur ? ' cur' : '') + (m ? ' match' : '');
      r.mark.textContent = m ? '*' : ' ';
      r.suf.textContent = '';
      if (ld.newGold[i] > 0) r.suf.appendChild(el('span', 'newgold', '+' + ld.newGold[i]));
      if (ld.pure[i]) r.suf.appendChild(el('span', 'reread', (ld.newGold[i] > 0 ? ' ' : '') + '↺'));
      if (D.actions[i].failed) r.suf.appendChild(el('span', 'failed', (r.suf.textContent ? ' ' : '') + '✗'));
    });
    $('tl-detail').textContent = (S.cur + 1) + '/' + D.n;
    var row = rows[S.cur].li, body = $('tl');
    if (row.offsetTop < body.scrollTop + row.offsetHeight * 2 ||
        row.offsetTop > body.scrollTop + body.clientHeight - row.offsetHeight * 3) {
      body.scrollTop = row.offsetTop - body.clientHeight / 3;
    }
  }

  function renderObservation() {
    var a = D.actions[S.cur];
    var detail = 'step ' + (S.cur + 1) + ' · ' + a.cat;
    if (a.tool && a.tool !== 'bash') detail += ' · ' + a.tool;
    if (a.agent) detail += ' · ' + a.agent;
    var fail = $('obs-failed');
    fail.hidden = !a.failed;
    fail.textContent = !a.failed ? '' : '✗ command ' + (a.notRun ? '' : 'failed: ') + a.failed +
      (a.counted[S.lens] ? '\n' + a.counted[S.lens] : '');
    $('obs-detail').textContent = detail + ' · ' + a.lines + ' lines' + (a.spend ? ' · ' + a.spend : '');
    $('obs-thought').textContent = a.thought || '';
    $('obs-cmd').textContent = a.cmd ? '$ ' + a.cmd : '';
    $('obs-cmd').hidden = !a.cmd;
    $('obs-out').textContent = a.obs || '';
    var more = $('obs-more');
    more.hidden = !a.cut;
    more.textContent = a.cut ? '… ' + a.cut + ' more lines not shown' : '';
  }

  // The gold panel: one row per span under its file's heading.
  var goldRows = [];
  (function () {
    var list = $('goldlist');
    if (!D.gold.length) list.appendChild(el('div', 'note', D.empty));
    D.gold.forEach(function (g, k) {
      if (k === 0 || D.gold[k - 1].file !== g.file) {
        var h = el('div', 'gfile', '◆ ' + D.files[g.file].path);
        h.addEventListener('click', function () { stop(); pin(g.file, g.fileLevel ? 1 : Math.max(g.start, 1)); render(); });
        list.appendChild(h);
      }
      var row = el('div', 'grow');
      var parts = { glyph: el('span', 'glyph'), lines: el('span', 'lines', g.fileLevel ? 'file' : g.start + '-' + g.end),
        frac: el('span', 'frac'), at: el('span', 'at'), arrow: el('span', 'arrow', '→'), diag: el('span', 'diag') };
      Object.keys(parts).forEach(function (p) { row.appendChild(parts[p]); });
      row.addEventListener('click', function () { stop(); closest(k); });
      list.appendChild(row);
      goldRows.push({ row: row, p: parts });
    });
  })();
  function readBy(g, L, i) {
    if (g.fileLevel) return g.foundAt[L] >= 0 && g.foundAt[L] <= i ? 1 : 0;
    var n = 0;
    (g.readBy[L] || []).forEach(function (r) { if (r[0] <= i) n = r[1]; });
    return n;
  }
  var diagClass = { found: 'g-found', read_then_dropped: 'g-pend' };
  function renderGold() {
    var L = S.lens, found = 0, fw = 1, lw = 4;
    D.gold.forEach(function (g) {
      if (!g.fileLevel) {
        lw = Math.max(lw, (g.start + '-' + g.end).length);
        fw = Math.max(fw, 2 * String(g.lines).length + 1);
      }
    });
    D.gold.forEach(function (g, k) {
      var r = goldRows[k].p, read = readBy(g, L, S.cur);
      var at = g.foundAt[L] >= 0 && g.foundAt[L] <= S.cur;
      if (at) found++;
      var glyph = read > 0 ? ['●', 'g-found'] : g.foundAt[L] >= 0 ? ['○', 'g-pend'] : ['✗', 'g-miss'];
      r.glyph.textContent = glyph[0];
      r.glyph.className = 'glyph ' + glyph[1];
      r.lines.textContent = r.lines.textContent.padEnd(lw);
      r.frac.textContent = (g.fileLevel ? '-' : read + '/' + g.lines).padStart(fw);
      // As the explorer: "never" once no step is left to read it.
      r.at.textContent = (at ? '@' + (g.foundAt[L] + 1) : S.cur === D.n - 1 ? 'never' : 'not yet').padEnd(7);
      r.at.className = 'at' + (at ? ' found' : '');
      r.diag.textContent = g.label[L] + (g.closest[L] >= 0 ? ' @' + (g.closest[L] + 1) : '');
      r.diag.className = 'diag ' + (diagClass[g.cat[L]] || 'g-miss');
      goldRows[k].row.className = 'grow' + (k === S.sel ? ' sel' : '');
    });
    $('gold-detail').textContent = found + '/' + D.gold.length + ' spans read';
    $('gold-desc').textContent = S.sel >= 0 ? D.gold[S.sel].desc[L] + (D.gold[S.sel].foundBy[L] ? ' (' + D.gold[S.sel].foundBy[L] + ')' : '') :
      'Click a span to go to the step that came closest to it.';
    renderAgents();
  }

  // Each agent's figures under the lens, as the summary lists them.
  function renderAgents() {
    var box = $('agents'), ags = D.agents[S.lens];
    box.hidden = !ags.length;
    if (!ags.length) return;
    box.textContent = '';
    box.appendChild(el('div', 'ahead', 'agents (' + D.lenses[S.lens] + ' lens): actions, lines read (re-read), gold spans first read'));
    ags.forEach(function (g) {
      var row = el('div', 'arow');
      row.appendChild(el('span', 'aname', '  '.repeat(g.depth) + g.label + (g.started >= 0 ? ', started @' + (g.started + 1) : '')));
      row.appendChild(el('span', 'anum', String(g.actions)));
      row.appendChild(el('span', 'anum', g.read + ' (' + g.reread + ')'));
      row.appendChild(el('span', 'anum', String(g.gold)));
      box.appendChild(row);
      if (g.recorded) box.appendChild(el('div', 'note', '  '.repeat(g.depth + 1) + g.recorded));
    });
  }

  function chartX(i) {
    return D.n <= 1 ? D.chart[0] : i * D.chart[0] / (D.n - 1);
  }
  function chartY(v) { return D.chart[2] + (1 - v) * (D.chart[1] - 2 * D.chart[2]); }
  function renderCoverage() {
    var L = S.lens, ld = D.l[L], cur = S.cur;
    D.grans.forEach(function (name, g) {
      var curve = ld.curve[g], pts = [];
      var fig = $('chart-' + name);
      if (ld.missing[g]) {
        // No curve to draw: say why, as the explorer does.
        fig.querySelector('.past').setAttribute('points', '');
        $('cov-' + name).textContent = D.mark[g];
        $('fin-' + name).textContent = ld.missing[g];
        return;
      }
      for (var i = 0; i <= cur; i++) {
        if (i > 0) pts.push(chartX(i).toFixed(1) + ',' + chartY(curve[i - 1]).toFixed(1));
        pts.push(chartX(i).toFixed(1) + ',' + chartY(curve[i]).toFixed(1));
      }
      fig.querySelector('.past').setAttribute('points', pts.join(' '));
      var c = fig.querySelector('.cursor');
      c.setAttribute('x1', chartX(cur).toFixed(1));
      c.setAttribute('x2', chartX(cur).toFixed(1));
      $('cov-' + name).textContent = fix2(curve[cur]);
      $('fin-' + name).textContent = 'final ' + fix2(ld.final[g][0]) + ' p ' + fix2(ld.final[g][1]);
    });
    var sc = document.querySelector('#chart-spend .cursor');
    if (sc) {
      var sx = ((cur + 0.5) * D.chart[0] / D.n).toFixed(1);
      sc.setAttribute('x1', sx);
      sc.setAttribute('x2', sx);
      $('spend-now').textContent = D.actions[cur].spend || '-';
    }
    $('cov-detail').textContent = D.lenses[L] + ' lens · cumulative up to step ' + (cur + 1);
    var rr = ld.cumRead[cur] ? fix2(ld.cumReread[cur] / ld.cumRead[cur]) : '-';
    var info = ['re-read ' + ld.cumReread[cur] + '/' + ld.cumRead[cur] + ' lines (' + rr + ')',
      D.lenses[L] + ' steps ' + ld.stepsDone[cur] + '/' + ld.numSteps];
    if (ld.error) info.push('not scored: ' + ld.error + (ld.reason ? ' (' + ld.reason + ')' : ''));
    else if (cur === D.n - 1) info.push(ld.editloc ? 'EditLoc (this run) recall ' + fix2(ld.editloc[0]) + ' precision ' + fix2(ld.editloc[1]) : 'EditLoc: no patch');
    else info.push('EditLoc: at the last step');
    info.push('AUC line ' + (ld.missing[3] ? D.mark[3] : fix2(ld.auc[3])) + ' · redundancy line ' + fix2(ld.red[3]));
    if (ld.standIn) info.push(ld.standIn);
    $('cov-info').textContent = info.join(' · ');
  }

  function renderHeader() {
    var ld = D.l[S.lens];
    $('h-step').textContent = (S.cur + 1) + '/' + D.n;
    $('h-lens').textContent = D.lenses[S.lens] + ' (' + ld.stepsDone[S.cur] + '/' + ld.numSteps + ' steps)';
    $('h-play').hidden = !S.timer;
    $('h-play').textContent = S.timer ? '▶ 1s/step' : '';
  }

  function render() {
    toHash();
    root.classList.toggle('lens0', S.lens === 0);
    root.classList.toggle('lens1', S.lens === 1);
    renderHeader();
    renderTimeline();
    renderSource();
    renderObservation();
    renderGold();
    renderCoverage();
  }

  function status(s) { $('status').textContent = s; }
  function go(i) {
    i = Math.max(0, Math.min(i, D.n - 1));
    if (i === S.cur) return;
    S.cur = i;
    $('obs').querySelector('.body').scrollTop = 0;
    render();
  }
  // Deep links: #step-N opens at action N, #gold-K at gold span K (its
  // closest step); the address follows the step, so it can be shared.
  function fromHash() {
    var m = /^#step-(\d+)$/.exec(location.hash);
    if (m) { S.cur = Math.max(0, Math.min(parseInt(m[1], 10) - 1, D.n - 1)); return true; }
    m = /^#gold-(\d+)$/.exec(location.hash);
    if (m && parseInt(m[1], 10) >= 1 && parseInt(m[1], 10) <= D.gold.length) { closest(parseInt(m[1], 10) - 1); return true; }
    return false;
  }
  function toHash() {
    if (history.replaceState) history.replaceState(null, '', '#step-' + (S.cur + 1));
  }
  window.addEventListener('hashchange', function () { if (fromHash()) render(); });
  function pin(file, line) { S.pin = { file: file, line: line, scroll: true }; }
  function closest(k) {
    var g = D.gold[k], L = S.lens, i = g.closest[L];
    var where = D.files[g.file].path + (g.fileLevel ? '' : ':' + g.start + '-' + g.end);
    S.sel = k;
    pin(g.file, Math.max(g.start, 1));
    if (i >= 0) {
      S.cur = i;
      status('step ' + (i + 1) + ' came closest to ' + where);
    } else {
      status('no step came near ' + where);
    }
    render();
  }
  function match(dir) {
    if (!S.query) { status('no search: / to search'); return; }
    for (var k = 1; k <= D.n; k++) {
      var i = ((S.cur + dir * k) % D.n + D.n) % D.n;
      if (matches(i)) { S.cur = i; render(); matchStatus(); return; }
    }
    status('no match for "' + S.query + '"');
  }
  function matchStatus() {
    var n = 0, at = 0;
    for (var i = 0; i < D.n; i++) if (matches(i)) { n++; if (i === S.cur) at = n; }
    status('match ' + at + '/' + n + ' for "' + S.query + '"');
  }
  function stop() {
    if (S.timer) { clearInterval(S.timer); S.timer = 0; renderHeader(); }
  }
  function play() {
    if (S.timer) { stop(); status('paused'); return; }
    if (S.cur >= D.n - 1) go(0);
    S.timer = setInterval(function () {
      if (S.cur >= D.n - 1) { stop(); status('autoplay reached the last step'); return; }
      go(S.cur + 1);
    }, 1000);
    renderHeader();
  }
  function nextGold(dir) {
    if (!D.gold.length) return;
    var k = S.sel < 0 ? (dir > 0 ? 0 : D.gold.length - 1) : (S.sel + dir + D.gold.length) % D.gold.length;
    S.sel = k;
    var g = D.gold[k];
    pin(g.file, Math.max(g.start, 1));
    render();
  }

  var box = $('search-box'), input = $('search');
  // The "/" that opens the box must not be typed into it: its keydown is
  // cancelled, but a key press sent on its own (as automation does) would
  // still arrive.
  input.addEventListener('keypress', function (e) {
    if (S.opening && e.key === '/') e.preventDefault();
    S.opening = false;
  });
  input.addEventListener('keydown', function (e) {
    S.opening = false;
    if (e.key === 'Enter') {
      S.query = input.value.toLowerCase();
      box.hidden = true;
      input.blur();
      if (S.query && matches(S.cur)) { render(); matchStatus(); } else if (S.query) { render(); match(1); } else render();
      e.preventDefault();
    } else if (e.key === 'Escape') {
      box.hidden = true;
      input.blur();
      e.preventDefault();
    }
    e.stopPropagation();
  });

  document.addEventListener('keydown', function (e) {
    if (e.target === input || e.ctrlKey || e.metaKey || e.altKey) return;
    var handled = true;
    switch (e.key) {
      case 'l': case 'ArrowRight': case 'j': case 'ArrowDown': stop(); status(''); go(S.cur + 1); break;
      case 'h': case 'ArrowLeft': case 'k': case 'ArrowUp': stop(); status(''); go(S.cur - 1); break;
      case 'g': case 'Home': case '0': stop(); go(0); break;
      case 'G': case 'End': case '$': stop(); go(D.n - 1); break;
      case '/': box.hidden = false; input.value = ''; S.opening = true; input.focus(); break;
      case 'n': match(1); break;
      case 'N': match(-1); break;
      case ']': nextGold(1); break;
      case '[': nextGold(-1); break;
      case 'v': case 'L': S.lens = 1 - S.lens; status('lens: ' + D.lenses[S.lens]); render(); break;
      case 'F': S.pin = null; S.force = true; status('source follows the steps'); render(); break;
      case 't': { const t = document.getElementById('task'); t.open = !t.open; break; }
      case ' ': play(); break;
      case 'Escape':
        if (S.query) { S.query = ''; status(''); render(); }
        break;
      default: handled = false;
    }
    if (handled) e.preventDefault();
  });

  fromHash();
  render();
})();
