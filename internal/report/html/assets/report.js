// vramkit report: draws the embedded data on canvas. No dependencies, no
// network; everything it needs is in the page.
(function () {
  'use strict';
  // Errors are recorded in the body's data-errors attribute as well as the console, so a
  // headless browser test (and a user's bug report) can read them.
  var errors = [];
  function recordError(msg) { errors.push(msg); document.body.setAttribute('data-errors', errors.join(' | ')); }
  window.addEventListener('error', function (e) { recordError(String(e.message || e)); });
  var consoleError = console.error;
  console.error = function () { recordError(Array.prototype.join.call(arguments, ' ')); consoleError.apply(console, arguments); };
  var D = JSON.parse(document.getElementById('vramkit-data').textContent);
  var CSSV = getComputedStyle(document.documentElement);
  function color(name) { return CSSV.getPropertyValue('--' + name).trim(); }

  // ---- helpers -----------------------------------------------------------
  function fmtBytes(n) {
    var neg = n < 0; n = Math.abs(n);
    var u = ['B', 'KiB', 'MiB', 'GiB', 'TiB'], i = 0;
    while (n >= 1024 && i < u.length - 1) { n /= 1024; i++; }
    return (neg ? '-' : '') + (i === 0 ? n.toFixed(0) : n.toFixed(n >= 100 ? 1 : 2)) + ' ' + u[i];
  }
  function fmtTime(us) {
    var a = Math.abs(us);
    if (a >= 1e6) return (us / 1e6).toFixed(a >= 1e7 ? 1 : 2) + ' s';
    if (a >= 1e3) return (us / 1e3).toFixed(1) + ' ms';
    return us.toFixed(0) + ' µs';
  }
  function el(tag, attrs) {
    var e = document.createElement(tag);
    for (var k in attrs || {}) {
      if (k === 'text') e.textContent = attrs[k];
      else if (k === 'cls') e.className = attrs[k];
      else e.setAttribute(k, attrs[k]);
    }
    for (var i = 2; i < arguments.length; i++) {
      var c = arguments[i];
      if (c == null) continue;
      e.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
    }
    return e;
  }
  function shortFile(f) {
    var i = f.lastIndexOf('site-packages/');
    if (i >= 0) return f.slice(i + 14);
    var p = f.split('/');
    return p.length > 2 ? p.slice(-2).join('/') : f;
  }
  function frameStr(i) {
    if (i === -2) return '(smaller stacks)';
    if (i < 0) return 'all live memory';
    var f = D.frames[i];
    return f.f ? f.n + '  ' + shortFile(f.f) + ':' + f.l : f.n;
  }
  function stackStr(k, maxFrames) {
    if (k == null || k < 0) return '(no stack recorded: enable stacks in _record_memory_history)';
    var st = D.stacks[k], out = [];
    var n = Math.min(st.length, maxFrames || st.length);
    for (var i = 0; i < n; i++) out.push(frameStr(st[i]));
    if (n < st.length) out.push('… ' + (st.length - n) + ' more frames');
    return out.join('\n');
  }
  var tipEl = document.getElementById('tip');
  function showTip(ev, nodes) {
    tipEl.textContent = '';
    nodes.forEach(function (n) { tipEl.appendChild(typeof n === 'string' ? el('div', { text: n }) : n); });
    tipEl.hidden = false;
    var x = ev.clientX + 14, y = ev.clientY + 14;
    var r = tipEl.getBoundingClientRect();
    if (x + r.width > window.innerWidth - 8) x = Math.max(8, ev.clientX - r.width - 14);
    if (y + r.height > window.innerHeight - 8) y = Math.max(8, ev.clientY - r.height - 14);
    tipEl.style.left = x + 'px'; tipEl.style.top = y + 'px';
  }
  function hideTip() { tipEl.hidden = true; }
  // sizeCanvas matches a canvas's backing store to its CSS size and the
  // device pixel ratio, and returns a context in CSS pixels.
  function sizeCanvas(cv, h) {
    var dpr = window.devicePixelRatio || 1, w = cv.parentNode.clientWidth || 800;
    cv.style.height = h + 'px';
    cv.width = Math.round(w * dpr); cv.height = Math.round(h * dpr);
    var ctx = cv.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    return { ctx: ctx, w: w, h: h };
  }
  function niceStep(range, n) {
    var raw = range / n, mag = Math.pow(10, Math.floor(Math.log10(raw)));
    var f = raw / mag;
    return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * mag;
  }
  function niceBytesStep(range, n) {
    var raw = range / n, p = 1;
    while (p * 2 <= raw) p *= 2;
    return raw / p > 1.5 ? p * 2 : p;
  }
  function lowerBound(a, v) {
    var lo = 0, hi = a.length;
    while (lo < hi) { var m = (lo + hi) >> 1; if (a[m] < v) lo = m + 1; else hi = m; }
    return lo;
  }
  function panel(title) {
    var p = el('div', { cls: 'panel' });
    if (title) p.appendChild(el('h2', { text: title }));
    return p;
  }
  function legend(items) {
    var l = el('div', { cls: 'legend' });
    items.forEach(function (it) { l.appendChild(el('span', {}, el('i', { style: 'background:' + it[1] }), it[0])); });
    return l;
  }

  // ---- views -------------------------------------------------------------
  var views = [];
  function view(id, title, build) { views.push({ id: id, title: title, build: build, built: false }); }

  if (D.headline) view('overview', 'Overview', function (root) {
    var figs = el('div', { cls: 'figures' });
    (D.headline || []).forEach(function (f) {
      figs.appendChild(el('div', { cls: 'figure' }, el('div', { cls: 'l', text: f.label }), el('div', { cls: 'v', text: f.value }),
        f.note ? el('div', { cls: 'n', text: f.note }) : null));
    });
    root.appendChild(figs);
    (D.notes || []).forEach(function (n) { root.appendChild(el('div', { cls: 'note', text: n })); });
    var a = D.analysis;
    if (a && a.advice && a.advice.length) {
      var q = panel('Advice, biggest estimated saving first'), ol = el('ol', { cls: 'advice' });
      a.advice.forEach(function (v) {
        ol.appendChild(el('li', {}, el('b', { text: v.action }), ' — saves about ' + fmtBytes(v.saving), el('div', { cls: 'muted', text: v.detail })));
      });
      q.appendChild(ol); root.appendChild(q);
    }
    if (D.timeline) {
      var t = panel('Memory over the trace');
      var holder = el('div', { cls: 'plot' }), cv = el('canvas');
      holder.appendChild(cv); t.appendChild(holder);
      t.appendChild(el('div', { cls: 'muted', text: 'Open the Timeline tab to zoom and inspect allocations.' }));
      root.appendChild(t);
      timelinePlot(cv, 180, false);
    }
    if (a && a.text) {
      var r = panel('vramkit analyze');
      r.appendChild(el('pre', { cls: 'stack', style: 'max-height:none', text: a.text }));
      root.appendChild(r);
    }
  });

  if (D.timeline) view('timeline', 'Timeline', function (root) {
    var p = panel('Allocated and reserved memory over time');
    var bar = el('div', { cls: 'toolbar' });
    var reset = el('button', { text: 'Reset zoom' }), peak = el('button', { text: 'Zoom to peak' });
    bar.appendChild(reset); bar.appendChild(peak);
    bar.appendChild(el('span', { text: 'Wheel to zoom, drag to pan, double-click to reset. Hover for the largest allocation at that moment and its stack.' }));
    p.appendChild(bar);
    var items = [['reserved', color('reserved')], ['allocated', color('alloc')]];
    var cats = D.timeline.categories || [];
    if (cats.length) items = [['reserved', color('reserved')]].concat(cats.map(function (c, i) { return [c.name, catColor(i)]; }));
    items.push(['iteration', color('iter')], ['leak', color('leak')], ['OOM', color('oom')]);
    p.appendChild(legend(items));
    var holder = el('div', { cls: 'plot' }), cv = el('canvas');
    holder.appendChild(cv); p.appendChild(holder);
    root.appendChild(p);
    var plot = timelinePlot(cv, 420, true);
    reset.onclick = plot.reset; peak.onclick = plot.zoomPeak;
  });

  function catColor(i) {
    var c = ['#3b6fd8', '#33a02c', '#e8912d', '#8e5cc4', '#d94f7a', '#2fa4a8', '#9a7b4f'];
    return c[i % c.length];
  }

  // timelinePlot draws D.timeline on cv and, when interactive, handles
  // zoom, pan and hover.
  function timelinePlot(cv, height, interactive) {
    var T = D.timeline, n = T.t.length, end = Math.max(T.end, n ? T.t[n - 1] + 1 : 1);
    var x0 = 0, x1 = end, L = 78, R = 14, TOP = 12, B = 26, g;
    var cats = T.categories || [];
    function bucketEnd(i) { return i + 1 < n ? T.t[i + 1] : end; }
    function draw() {
      g = sizeCanvas(cv, height);
      var ctx = g.ctx, W = g.w - L - R, H = g.h - TOP - B;
      ctx.clearRect(0, 0, g.w, g.h);
      var i0 = Math.max(0, lowerBound(T.t, x0) - 1), i1 = Math.min(n, lowerBound(T.t, x1) + 1);
      var cols = Math.max(1, Math.floor(W));
      var rmax = new Float64Array(cols), amax = new Float64Array(cols), amin = new Float64Array(cols).fill(Infinity);
      var cb = new Int32Array(cols).fill(-1), ymax = 1;
      for (var i = i0; i < i1; i++) {
        var a = Math.floor((T.t[i] - x0) / (x1 - x0) * cols), b = Math.floor((bucketEnd(i) - x0) / (x1 - x0) * cols);
        a = Math.max(0, a); b = Math.min(cols - 1, Math.max(a, b));
        for (var c = a; c <= b; c++) {
          if (T.rmax[i] > rmax[c]) rmax[c] = T.rmax[i];
          if (T.amax[i] > amax[c]) amax[c] = T.amax[i];
          if (T.amin[i] < amin[c]) amin[c] = T.amin[i];
          if (cb[c] < 0 || T.amax[i] >= T.amax[cb[c]]) cb[c] = i;
        }
        ymax = Math.max(ymax, T.rmax[i]);
      }
      ymax *= 1.06;
      function Y(v) { return TOP + H - v / ymax * H; }
      // grid and axes
      ctx.font = '11px system-ui, sans-serif'; ctx.fillStyle = color('muted'); ctx.strokeStyle = color('line'); ctx.lineWidth = 1;
      var ys = niceBytesStep(ymax, 5);
      for (var v = 0; v <= ymax; v += ys) {
        var y = Math.round(Y(v)) + 0.5;
        ctx.beginPath(); ctx.moveTo(L, y); ctx.lineTo(L + W, y); ctx.stroke();
        ctx.textAlign = 'right'; ctx.fillText(fmtBytes(v), L - 6, y + 4);
      }
      var xs = niceStep(x1 - x0, Math.max(2, Math.floor(W / 110)));
      ctx.textAlign = 'center';
      for (var tx = Math.ceil(x0 / xs) * xs; tx <= x1; tx += xs) {
        var px = L + (tx - x0) / (x1 - x0) * W;
        ctx.fillText(fmtTime(tx), px, TOP + H + 17);
      }
      // memory columns
      for (c = 0; c < cols; c++) {
        if (cb[c] < 0) continue;
        ctx.fillStyle = color('reserved'); ctx.fillRect(L + c, Y(rmax[c]), 1, Y(0) - Y(rmax[c]));
        if (cats.length) {
          var base = 0;
          for (var k = 0; k < cats.length; k++) {
            var cv2 = cats[k].v[cb[c]] || 0;
            ctx.fillStyle = catColor(k); ctx.fillRect(L + c, Y(base + cv2), 1, Y(base) - Y(base + cv2)); base += cv2;
          }
        } else {
          ctx.fillStyle = color('alloc'); ctx.globalAlpha = 0.55;
          ctx.fillRect(L + c, Y(amax[c]), 1, Y(amin[c]) - Y(amax[c]));
          ctx.globalAlpha = 1; ctx.fillRect(L + c, Y(amin[c]), 1, Y(0) - Y(amin[c]));
        }
      }
      // markers
      (T.markers || []).forEach(function (m) {
        if (m.t < x0 || m.t > x1) return;
        var px = Math.round(L + (m.t - x0) / (x1 - x0) * W) + 0.5;
        ctx.strokeStyle = m.kind === 'oom' ? color('oom') : m.kind === 'leak' ? color('leak') : color('iter');
        ctx.setLineDash(m.kind === 'iteration' ? [3, 3] : []); ctx.lineWidth = m.kind === 'iteration' ? 1 : 2;
        ctx.beginPath(); ctx.moveTo(px, TOP); ctx.lineTo(px, TOP + H); ctx.stroke();
        ctx.setLineDash([]); ctx.lineWidth = 1;
        if (m.kind !== 'iteration') { ctx.fillStyle = ctx.strokeStyle; var right = px > L + W - 40; ctx.textAlign = right ? 'right' : 'left'; ctx.fillText(m.kind.toUpperCase(), right ? px - 4 : px + 3, TOP + 10); }
      });
      ctx.strokeStyle = color('muted'); ctx.strokeRect(L + 0.5, TOP + 0.5, W, H);
      g.W = W; g.H = H; g.cb = cb;
    }
    function reset() { x0 = 0; x1 = end; draw(); }
    function zoomPeak() {
      var best = 0;
      for (var i = 1; i < n; i++) if (T.amax[i] > T.amax[best]) best = i;
      var span = Math.max((x1 - x0) / 20, 50), c = n ? T.t[best] : 0;
      x0 = Math.max(0, c - span / 2); x1 = Math.min(end, x0 + span); draw();
    }
    draw();
    window.addEventListener('resize', draw);
    if (!interactive) return { reset: reset, zoomPeak: zoomPeak };
    var drag = null;
    function timeAt(ev) { var r = cv.getBoundingClientRect(); return x0 + (ev.clientX - r.left - L) / g.W * (x1 - x0); }
    cv.addEventListener('wheel', function (ev) {
      ev.preventDefault();
      var t = timeAt(ev), f = ev.deltaY < 0 ? 0.8 : 1.25;
      var span = Math.min(end, Math.max(20, (x1 - x0) * f));
      x0 = Math.max(0, t - (t - x0) / (x1 - x0) * span); x1 = Math.min(end, x0 + span); x0 = Math.max(0, x1 - span);
      draw();
    }, { passive: false });
    cv.addEventListener('mousedown', function (ev) { drag = { x: ev.clientX, a: x0, b: x1 }; });
    window.addEventListener('mouseup', function () { drag = null; });
    cv.addEventListener('dblclick', reset);
    cv.addEventListener('mouseleave', hideTip);
    cv.addEventListener('mousemove', function (ev) {
      if (drag) {
        var dt = (ev.clientX - drag.x) / g.W * (drag.b - drag.a);
        var span = drag.b - drag.a;
        x0 = Math.min(Math.max(0, drag.a - dt), end - span); x1 = x0 + span; draw(); return;
      }
      var r = cv.getBoundingClientRect(), c = Math.floor(ev.clientX - r.left - L);
      if (c < 0 || c >= g.cb.length || g.cb[c] < 0) { hideTip(); return; }
      var i = g.cb[c], nodes = [el('b', { text: fmtTime(T.t[i]) })];
      nodes.push('allocated ' + fmtBytes(T.amin[i]) + (T.amax[i] !== T.amin[i] ? ' – ' + fmtBytes(T.amax[i]) : ''));
      nodes.push('reserved ' + fmtBytes(T.rmin[i]) + (T.rmax[i] !== T.rmin[i] ? ' – ' + fmtBytes(T.rmax[i]) : ''));
      (T.categories || []).forEach(function (cat) { nodes.push(cat.name + ' ' + fmtBytes(cat.v[i] || 0)); });
      var t = timeAt(ev), tol = (x1 - x0) / g.W * 4;
      (T.markers || []).forEach(function (m) { if (Math.abs(m.t - t) <= tol) nodes.push(el('div', { text: m.label, style: 'color:' + (m.kind === 'oom' ? color('oom') : color('muted')) })); });
      if (T.big[i] >= 0) {
        var a = T.allocs[T.big[i]];
        nodes.push(el('div', { style: 'margin-top:6px' }, el('b', { text: 'largest allocation here: ' + fmtBytes(a.s) }), ' (event ' + a.e + ')'));
        nodes.push(el('div', { cls: 'stack', text: stackStr(a.k, 14) }));
      }
      showTip(ev, nodes);
    });
    return { reset: reset, zoomPeak: zoomPeak };
  }

  if (D.state) view('state', 'Allocator state', function (root) {
    var S = D.state, p = panel('Allocator state at peak reserved memory (' + fmtTime(S.t) + ')');
    var segs = S.segments.slice().sort(function (a, b) { return b.size - a.size || a.addr - b.addr; });
    var frag = S.reserved ? S.inactive / S.reserved : 0;
    p.appendChild(el('p', {}, 'Reserved ' + fmtBytes(S.reserved) + ' in ' + segs.length + ' segments; allocated ' + fmtBytes(S.allocated) +
      '; free inside split segments ' + fmtBytes(S.inactive) + ' (' + (100 * frag).toFixed(1) + '% of reserved — fragmentation that a request larger than any one free block cannot use).'));
    var bar = el('div', { cls: 'toolbar' }), fit = el('button', { text: 'Scale each row to its segment' });
    bar.appendChild(fit); bar.appendChild(el('span', { text: 'One row per segment, largest first. Hover a block for its allocation and stack.' }));
    p.appendChild(bar);
    p.appendChild(legend([['allocated', color('alloc')], ['freed, waiting on a stream', color('pending')], ['free (cached)', color('free')]]));
    var holder = el('div', { cls: 'plot' }), cv = el('canvas');
    holder.appendChild(cv); p.appendChild(holder); root.appendChild(p);
    var perRow = false, rowH = segs.length > 150 ? 4 : segs.length > 60 ? 8 : 16, gap = rowH > 4 ? 2 : 1, LBL = 86, g;
    var maxSize = segs.reduce(function (m, s) { return Math.max(m, s.size); }, 1);
    function draw() {
      g = sizeCanvas(cv, Math.max(40, segs.length * (rowH + gap) + 8));
      var ctx = g.ctx, W = g.w - LBL - 8;
      ctx.font = '11px system-ui, sans-serif';
      segs.forEach(function (s, r) {
        var y = 4 + r * (rowH + gap), sw = perRow ? W : Math.max(3, s.size / maxSize * W);
        if (rowH >= 8) { ctx.fillStyle = color('muted'); ctx.textAlign = 'right'; ctx.fillText(fmtBytes(s.size) + (s.small ? ' s' : ''), LBL - 6, y + rowH - 3); }
        s.blocks.forEach(function (b) {
          var bx = LBL + b[0] / s.size * sw, bw = Math.max(b[1] / s.size * sw, 0.5);
          ctx.fillStyle = b[2] === 1 ? color('alloc') : b[2] === 2 ? color('pending') : color('free');
          ctx.fillRect(bx, y, bw, rowH);
          if (bw > 3 && rowH >= 8) { ctx.fillStyle = '#fff'; ctx.fillRect(bx + bw - 1, y, 1, rowH); }
        });
      });
      g.W = W;
    }
    fit.onclick = function () { perRow = !perRow; fit.textContent = perRow ? 'Scale rows to the largest segment' : 'Scale each row to its segment'; draw(); };
    draw();
    window.addEventListener('resize', draw);
    cv.addEventListener('mouseleave', hideTip);
    cv.addEventListener('mousemove', function (ev) {
      var rc = cv.getBoundingClientRect(), x = ev.clientX - rc.left, y = ev.clientY - rc.top;
      var r = Math.floor((y - 4) / (rowH + gap)), s = segs[r];
      if (!s) { hideTip(); return; }
      var sw = perRow ? g.W : Math.max(3, s.size / maxSize * g.W), off = (x - LBL) / sw * s.size;
      var blk = null;
      s.blocks.forEach(function (b) { if (off >= b[0] && off < b[0] + b[1]) blk = b; });
      var nodes = [el('b', { text: 'segment ' + fmtBytes(s.size) + (s.small ? ' (small pool)' : ' (large pool)') + (s.exp ? ', expandable' : '') }),
        'at 0x' + s.addr.toString(16) + ', ' + s.blocks.length + ' blocks'];
      if (blk) {
        nodes.push(el('div', { style: 'margin-top:6px' }, el('b', { text: ['free block', 'allocated block', 'freed block waiting on a stream'][blk[2]] + ' ' + fmtBytes(blk[1]) }), ' at offset ' + fmtBytes(blk[0])));
        if (blk[3] >= 0) {
          var a = S.allocs[blk[3]];
          nodes.push('requested ' + fmtBytes(a.s) + ' at ' + fmtTime(a.t) + ' (event ' + a.e + ')');
          nodes.push(el('div', { cls: 'stack', text: stackStr(a.k, 14) }));
        }
      }
      showTip(ev, nodes);
    });
  });

  if (D.sites || D.flame) view('sites', 'Allocation sites', function (root) {
    var total = D.flame ? D.flame.v : 0;
    if (D.sites) {
      var p = panel('Top allocation sites ' + ((D.analysis && D.analysis.sites_at) || ''));
      var detail = el('div', { cls: 'stack muted', text: 'Click a row for its frames (the library call that allocated, then your code).' });
      var t = el('table'), hr = el('tr');
      ['#', 'site (where PyTorch allocated)', 'your code', 'category', 'bytes', '', 'tensors'].forEach(function (h, i) { hr.appendChild(el('th', { text: h, cls: i >= 4 && i !== 5 ? 'num' : '' })); });
      t.appendChild(hr);
      var top = D.sites.length ? D.sites[0].b : 1;
      D.sites.forEach(function (s, i) {
        var tr = el('tr', { cls: 'click' });
        tr.appendChild(el('td', { cls: 'num', text: String(i + 1) }));
        tr.appendChild(el('td', { cls: 'mono', text: s.fr.length ? frameStr(s.fr[0]) : (s.label || '') }));
        tr.appendChild(el('td', { cls: 'mono', text: s.fr.length > 1 ? frameStr(s.fr[1]) : '' }));
        tr.appendChild(el('td', { text: (s.cat || '').replace('_', ' ') }));
        tr.appendChild(el('td', { cls: 'num', text: fmtBytes(s.b) + (total ? '  ' + (100 * s.b / total).toFixed(1) + '%' : '') }));
        tr.appendChild(el('td', { style: 'width:140px' }, el('div', { cls: 'bar', style: 'width:' + (100 * s.b / top).toFixed(1) + '%' })));
        tr.appendChild(el('td', { cls: 'num', text: String(s.c) }));
        tr.onclick = function () { detail.className = 'stack'; detail.textContent = s.fr.length ? s.fr.map(frameStr).join('\n') : s.label; };
        t.appendChild(tr);
      });
      p.appendChild(t); p.appendChild(detail); root.appendChild(p);
    }
    if (D.flame) {
      var q = panel('Live memory at peak by stack (icicle: callers above callees)');
      q.appendChild(el('div', { cls: 'toolbar', text: 'Box width is bytes alive at peak allocated memory. Click a box to zoom into it, click the top bar to zoom out.' }));
      var holder = el('div', { cls: 'plot' }), cv = el('canvas');
      holder.appendChild(cv); q.appendChild(holder); root.appendChild(q);
      icicle(cv, D.flame);
    }
  });

  function icicle(cv, rootNode) {
    var RH = 18, focus = rootNode, boxes = [], depth = 0;
    (function walk(n, d) { depth = Math.max(depth, d); (n.c || []).forEach(function (c) { walk(c, d + 1); }); })(rootNode, 0);
    function draw() {
      var g = sizeCanvas(cv, (depth + 1) * RH + 4), ctx = g.ctx, W = g.w;
      boxes = [];
      ctx.font = '11px system-ui, sans-serif'; ctx.textBaseline = 'middle';
      function box(n, x, w, d) {
        if (w < 0.5) return;
        var y = d * RH;
        var hue = n.f < 0 ? 0 : (n.f * 47) % 60;
        ctx.fillStyle = n === focus && d === 0 && focus !== rootNode ? '#c9d3e6' : n.f === -1 ? '#c9d3e6' : n.f === -2 ? '#dcdfe6' : 'hsl(' + (20 + hue) + ',75%,' + (62 + (d % 3) * 5) + '%)';
        ctx.fillRect(x, y, w - 0.5, RH - 1);
        boxes.push({ n: n, x: x, y: y, w: w });
        if (w > 40) {
          ctx.fillStyle = '#1d2430'; ctx.save(); ctx.beginPath(); ctx.rect(x, y, w - 2, RH); ctx.clip();
          var label = n.f === -1 ? 'all live memory at peak: ' + fmtBytes(n.v) : (D.frames[n.f] ? D.frames[n.f].n : frameStr(n.f)) + ' ' + fmtBytes(n.v);
          ctx.fillText(label, x + 4, y + RH / 2); ctx.restore();
        }
        var cx = x;
        (n.c || []).forEach(function (c) { var cw = n.v ? c.v / n.v * w : 0; box(c, cx, cw, d + 1); cx += cw; });
      }
      box(focus, 0, W, 0);
    }
    function hit(ev) {
      var r = cv.getBoundingClientRect(), x = ev.clientX - r.left, y = ev.clientY - r.top;
      for (var i = boxes.length - 1; i >= 0; i--) { var b = boxes[i]; if (x >= b.x && x < b.x + b.w && y >= b.y && y < b.y + RH) return b.n; }
      return null;
    }
    draw();
    window.addEventListener('resize', draw);
    cv.addEventListener('click', function (ev) { var n = hit(ev); focus = !n || n === focus ? rootNode : n; draw(); });
    cv.addEventListener('mouseleave', hideTip);
    cv.addEventListener('mousemove', function (ev) {
      var n = hit(ev);
      if (!n) { hideTip(); return; }
      showTip(ev, [el('div', { cls: 'mono', text: frameStr(n.f) }), fmtBytes(n.v) + ' (' + (100 * n.v / (rootNode.v || 1)).toFixed(2) + '% of live memory at peak)']);
    });
  }

  if (D.tune) view('tune', 'Allocator settings', function (root) {
    var U = D.tune, p = panel('What if: the same program under other PYTORCH_CUDA_ALLOC_CONF settings');
    p.appendChild(el('p', {}, 'Recorded with ', el('code', { text: U.recorded || '(defaults)' }), ', peak reserved ' + fmtBytes(U.recorded_reserved) +
      (U.capacity > 0 ? '; replayed against a ' + fmtBytes(U.capacity) + ' device.' : '; replayed without a capacity limit.')));
    if (U.best) p.appendChild(el('p', {}, 'Best: ', el('code', { text: 'PYTORCH_CUDA_ALLOC_CONF=' + U.best })));
    var t = el('table'), hr = el('tr');
    ['PYTORCH_CUDA_ALLOC_CONF', 'peak reserved', 'vs recorded', 'peak allocated', 'cudaMalloc retries', 'OOM'].forEach(function (h, i) { hr.appendChild(el('th', { text: h, cls: i ? 'num' : '' })); });
    t.appendChild(hr);
    U.rows.forEach(function (r) {
      var tr = el('tr', { cls: (U.best !== undefined && r.conf === U.best && r.ok) ? 'best' : r.ok ? '' : 'bad' });
      var d = U.recorded_reserved ? 100 * (r.reserved - U.recorded_reserved) / U.recorded_reserved : 0;
      tr.appendChild(el('td', { cls: 'mono', text: r.conf || '(defaults)' }));
      tr.appendChild(el('td', { cls: 'num', text: fmtBytes(r.reserved) }));
      tr.appendChild(el('td', { cls: 'num', text: (d >= 0 ? '+' : '') + d.toFixed(1) + '%' }));
      tr.appendChild(el('td', { cls: 'num', text: fmtBytes(r.allocated) }));
      tr.appendChild(el('td', { cls: 'num', text: String(r.retries) }));
      tr.appendChild(el('td', { cls: 'num', text: r.oom >= 0 ? 'at event ' + r.oom : '–' }));
      t.appendChild(tr);
    });
    p.appendChild(t); root.appendChild(p);
  });

  if (D.sweep) view('sweep', 'Sweep', function (root) {
    var S = D.sweep, p = panel(S.title);
    var under = ' (process memory, upper band, under ' + fmtBytes(S.limit) + ')';
    p.appendChild(el('p', { text: !S.largest ? 'No ' + S.xlabel + ' in the range fits under ' + fmtBytes(S.limit) + '.'
      : S.bound ? 'Largest ' + S.xlabel + ' planned: ' + S.largest + under + '; memory does not bound it (' + S.bound + ').'
      : S.at_top ? 'Every ' + S.xlabel + ' in the range fits, up to ' + S.largest + under + '; sweep higher to find the largest.'
      : 'Largest ' + S.xlabel + ' that fits: ' + S.largest + under + '.' }));
    p.appendChild(legend([['process (upper band)', '#8e5cc4'], ['peak reserved', color('reserved')], ['peak allocated', color('alloc')], ['usable GPU memory', color('oom')]]));
    var holder = el('div', { cls: 'plot' }), cv = el('canvas');
    holder.appendChild(cv); p.appendChild(holder); root.appendChild(p);
    sweepPlot(cv, S);
  });

  function sweepPlot(cv, S) {
    var L = 78, R = 20, TOP = 14, B = 34, pts = S.points;
    function draw() {
      var g = sizeCanvas(cv, 380), ctx = g.ctx, W = g.w - L - R, H = g.h - TOP - B;
      var xs = pts.map(function (q) { return q.x; }), lo = Math.min.apply(null, xs), hi = Math.max.apply(null, xs);
      var logx = hi / Math.max(lo, 1) > 8, ymax = S.limit || 1;
      pts.forEach(function (q) { ymax = Math.max(ymax, q.process || 0, q.reserved || 0, q.allocated || 0); });
      ymax *= 1.08;
      function X(v) { return L + (hi === lo ? W / 2 : logx ? Math.log(v / lo) / Math.log(hi / lo) * W : (v - lo) / (hi - lo) * W); }
      function Y(v) { return TOP + H - v / ymax * H; }
      ctx.font = '11px system-ui, sans-serif'; ctx.strokeStyle = color('line'); ctx.fillStyle = color('muted');
      var ys = niceBytesStep(ymax, 5);
      for (var v = 0; v <= ymax; v += ys) {
        var y = Math.round(Y(v)) + 0.5;
        ctx.beginPath(); ctx.moveTo(L, y); ctx.lineTo(L + W, y); ctx.stroke();
        ctx.textAlign = 'right'; ctx.fillText(fmtBytes(v), L - 6, y + 4);
      }
      ctx.textAlign = 'center';
      pts.forEach(function (q) { ctx.fillText(String(q.x), X(q.x), TOP + H + 16); });
      ctx.fillText(S.xlabel, L + W / 2, TOP + H + 30);
      if (S.limit) {
        ctx.strokeStyle = color('oom'); ctx.setLineDash([6, 4]);
        ctx.beginPath(); ctx.moveTo(L, Y(S.limit)); ctx.lineTo(L + W, Y(S.limit)); ctx.stroke(); ctx.setLineDash([]);
        ctx.fillStyle = color('oom'); ctx.textAlign = 'left'; ctx.fillText('limit ' + fmtBytes(S.limit), L + 4, Y(S.limit) - 4);
      }
      [['process', '#8e5cc4'], ['reserved', color('reserved')], ['allocated', color('alloc')]].forEach(function (s) {
        ctx.strokeStyle = s[1]; ctx.lineWidth = 2; ctx.beginPath();
        pts.forEach(function (q, i) { var f = i ? 'lineTo' : 'moveTo'; ctx[f](X(q.x), Y(q[s[0]])); });
        ctx.stroke(); ctx.lineWidth = 1;
        pts.forEach(function (q) { ctx.fillStyle = q.fits ? s[1] : color('oom'); ctx.beginPath(); ctx.arc(X(q.x), Y(q[s[0]]), 3.5, 0, 7); ctx.fill(); });
      });
      ctx.strokeStyle = color('muted'); ctx.strokeRect(L + 0.5, TOP + 0.5, W, H);
    }
    draw();
    window.addEventListener('resize', draw);
  }

  // ---- tabs ----------------------------------------------------------------
  var nav = document.getElementById('tabs'), main = document.getElementById('views');
  views.forEach(function (v) {
    v.link = el('a', { href: '#' + v.id, text: v.title });
    v.sec = el('section', { cls: 'view', id: 'view-' + v.id });
    nav.appendChild(v.link); main.appendChild(v.sec);
  });
  function show() {
    var id = location.hash.slice(1), cur = views[0];
    if (id === 'all') { // every view at once: for printing, and for tests
      views.forEach(function (v) { v.sec.className = 'view on'; if (!v.built) { v.built = true; v.build(v.sec); } });
      return;
    }
    views.forEach(function (v) { if (v.id === id) cur = v; });
    views.forEach(function (v) { v.link.className = v === cur ? 'on' : ''; v.sec.className = v === cur ? 'view on' : 'view'; });
    hideTip();
    if (!cur.built) { cur.built = true; cur.build(cur.sec); }
  }
  window.addEventListener('hashchange', show);
  show();
  document.body.setAttribute('data-ready', '1');
  document.body.setAttribute('data-render-ms', String(Math.round(performance.now())));
})();
