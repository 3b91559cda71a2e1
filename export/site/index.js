(function () {
  'use strict';
  var D = JSON.parse(document.getElementById('data').textContent);
  var body = document.querySelector('#runs tbody');
  var rows = Array.prototype.slice.call(body.querySelectorAll('tr'));
  var filter = document.getElementById('filter');
  var count = document.getElementById('count');
  var S = { col: 0, desc: false, sel: -1, opening: false };

  // The rows shown, in the order shown (sorting moves them).
  function visible() {
    return Array.prototype.slice.call(body.querySelectorAll('tr')).filter(function (tr) { return !tr.hidden; });
  }
  function show() {
    var order = D.order[S.col][S.desc ? 1 : 0];
    order.forEach(function (i) { body.appendChild(rows[i]); });
    var q = filter.value.toLowerCase();
    var n = 0;
    rows.forEach(function (tr) {
      tr.hidden = q !== '' && tr.getAttribute('data-q').indexOf(q) < 0;
      if (!tr.hidden) n++;
    });
    count.textContent = n + ' of ' + rows.length + ' runs';
    document.querySelectorAll('#runs th[data-col]').forEach(function (th) {
      var on = +th.getAttribute('data-col') === S.col;
      th.classList.toggle('sorted', on);
      th.textContent = th.textContent.replace(/ [▲▼]$/, '') + (on ? (S.desc ? ' ▼' : ' ▲') : '');
    });
    select(Math.min(S.sel, visible().length - 1));
  }
  function select(k) {
    var vis = visible();
    rows.forEach(function (tr) { tr.classList.remove('sel'); });
    S.sel = k;
    if (k >= 0 && k < vis.length) {
      vis[k].classList.add('sel');
      vis[k].scrollIntoView({ block: 'nearest' });
    }
  }
  document.querySelectorAll('#runs th[data-col]').forEach(function (th) {
    th.addEventListener('click', function () {
      var c = +th.getAttribute('data-col');
      if (c === S.col) { S.desc = !S.desc; } else { S.col = c; S.desc = D.desc[c]; }
      show();
    });
  });
  filter.addEventListener('input', function () { S.sel = -1; show(); });
  // The "/" that opened the box is not typed into it (some input paths
  // deliver its character after the focus moved).
  filter.addEventListener('keypress', function (e) {
    if (S.opening && e.key === '/') e.preventDefault();
    S.opening = false;
  });
  filter.addEventListener('keydown', function (e) {
    if (e.key === 'Escape' || e.key === 'Enter') { filter.blur(); e.preventDefault(); }
  });
  document.addEventListener('keydown', function (e) {
    if (e.target === filter || e.ctrlKey || e.metaKey || e.altKey) return;
    var vis = visible();
    switch (e.key) {
      case '/': S.opening = true; filter.focus(); break;
      case 'j': case 'ArrowDown': select(Math.min(S.sel + 1, vis.length - 1)); break;
      case 'k': case 'ArrowUp': select(Math.max(S.sel - 1, 0)); break;
      case 'Enter': {
        var a = S.sel >= 0 && vis[S.sel] && vis[S.sel].querySelector('td.inst a');
        if (a) location.href = a.getAttribute('href');
        break;
      }
      default: return;
    }
    e.preventDefault();
  });
  show();
})();
