/* berth report: hover and click details, find by name. No network, no libraries. */
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('berth-data').textContent);
  var B = data.b; // [name, space, origin, of, offset, requested, reserved, alignment, first, last]
  var tip = document.getElementById('tip');
  var details = document.getElementById('details');
  var selected = null;

  function hex(v) { return '0x' + BigInt(v).toString(16).toUpperCase(); }
  function size(v) {
    var n = BigInt(v), units = ['KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'], u = -1, x = Number(n);
    if (n < 1024n) { return n + ' B'; }
    while (x >= 1024 && u < units.length - 1) { x /= 1024; u++; }
    return n + ' B (' + (x === Math.round(x) ? x : x.toFixed(2)) + ' ' + units[u] + ')';
  }
  function fields(i) {
    var b = B[i], sp = data.spaces[b[1]], end = (BigInt(b[4]) + BigInt(b[6])).toString();
    var steps = b[9] - b[8] + 1;
    var f = [
      ['space', b[1] + ' (' + sp.kind + ')'],
      ['origin', b[2] + (b[3] === null ? '' : ' of ' + b[3])],
      ['offset', b[4] + ' (' + hex(b[4]) + ')'],
      ['end', end + ' (' + hex(end) + ')'],
      ['requested', size(b[5])],
      ['reserved', size(b[6])],
      ['alignment', b[7]],
      ['live', 'steps ' + b[8] + '–' + b[9] + ' (' + steps + (steps === 1 ? ' step)' : ' steps)')]
    ];
    if (sp.base !== '0') {
      f.splice(4, 0, ['absolute', hex(BigInt(sp.base) + BigInt(b[4]))]);
    }
    return f;
  }
  function fill(el, i) {
    el.textContent = '';
    var h = document.createElement('h3');
    h.textContent = B[i][0];
    h.setAttribute('data-field', 'name');
    el.appendChild(h);
    var dl = document.createElement('dl');
    fields(i).forEach(function (kv) {
      var dt = document.createElement('dt'), dd = document.createElement('dd');
      dt.textContent = kv[0];
      dd.textContent = kv[1];
      dd.setAttribute('data-field', kv[0]);
      dl.appendChild(dt);
      dl.appendChild(dd);
    });
    el.appendChild(dl);
  }
  function rectOf(i) { return document.querySelector('rect.r[data-i="' + i + '"]'); }
  function select(i) {
    if (selected !== null) { selected.classList.remove('sel'); }
    selected = rectOf(i);
    if (selected) { selected.classList.add('sel'); }
    fill(details, i);
  }
  function isRect(t) { return t && t.classList && t.classList.contains('r') && t.hasAttribute('data-i'); }

  document.addEventListener('mouseover', function (e) {
    if (!isRect(e.target)) { return; }
    var i = +e.target.getAttribute('data-i'), b = B[i];
    tip.textContent = '';
    var name = document.createElement('b');
    name.textContent = b[0];
    tip.appendChild(name);
    tip.appendChild(document.createTextNode(' ' + b[2] + ', offset ' + b[4] + ', reserved ' + b[6]
      + ' B, steps ' + b[8] + '–' + b[9]));
    tip.hidden = false;
  });
  document.addEventListener('mousemove', function (e) {
    if (tip.hidden) { return; }
    var x = e.clientX + 14, y = e.clientY + 14;
    if (x + tip.offsetWidth > window.innerWidth) { x = e.clientX - tip.offsetWidth - 8; }
    if (y + tip.offsetHeight > window.innerHeight) { y = e.clientY - tip.offsetHeight - 8; }
    tip.style.left = x + 'px';
    tip.style.top = y + 'px';
  });
  document.addEventListener('mouseout', function (e) { if (isRect(e.target)) { tip.hidden = true; } });
  document.addEventListener('click', function (e) { if (isRect(e.target)) { select(+e.target.getAttribute('data-i')); } });
  document.addEventListener('keydown', function (e) {
    if (e.key === 'Escape' && selected !== null) { selected.classList.remove('sel'); selected = null; }
  });

  // Zoom: stretch a chart along steps (x) or addresses (y). Coordinates inside the plot scale
  // from its left and top edges; what lies beyond the plot moves with its edge; labels keep
  // their offsets from the line or box they belong to. Always computed from the coordinates
  // as written, so zooming in and out never drifts.
  var ATTRS = ['x', 'y', 'x1', 'y1', 'x2', 'y2', 'width', 'height'];
  function zoomer(svg) {
    var d = svg.dataset, L = +d.plotLeft, T = +d.plotTop, PW = +d.plotWidth, PH = +d.plotHeight;
    var R = L + PW, BOT = T + PH, W = +svg.getAttribute('width'), H = +svg.getAttribute('height');
    var orig = [], fx = 1, fy = 1;
    svg.querySelectorAll('rect, line, text').forEach(function (el) {
      var a = {};
      ATTRS.forEach(function (n) { if (el.hasAttribute(n)) { a[n] = +el.getAttribute(n); } });
      if (el.hasAttribute('data-ay')) { a.ay = +el.getAttribute('data-ay'); }
      orig.push([el, a]);
    });
    function mx(v) { return v < L ? v : v <= R ? L + (v - L) * fx : v + PW * (fx - 1); }
    function my(v) { return v < T ? v : v <= BOT ? T + (v - T) * fy : v + PH * (fy - 1); }
    function apply() {
      orig.forEach(function (p) {
        var el = p[0], a = p[1], name = el.classList.contains('name');
        if ('x' in a) { el.setAttribute('x', name ? mx(a.x - 3) + 3 : mx(a.x)); }
        if ('x1' in a) { el.setAttribute('x1', mx(a.x1)); el.setAttribute('x2', mx(a.x2)); }
        if ('y1' in a) { el.setAttribute('y1', my(a.y1)); el.setAttribute('y2', my(a.y2)); }
        if ('y' in a) {
          el.setAttribute('y', 'ay' in a ? my(a.ay) + (a.y - a.ay) : name ? my(a.y - 11) + 11 : my(a.y));
        }
        if ('width' in a) { el.setAttribute('width', a.x >= L && a.x < R ? a.width * fx : a.width); }
        if ('height' in a) { el.setAttribute('height', a.y >= T - 1.5 && a.y < BOT ? a.height * fy : a.height); }
      });
      var w = W + PW * (fx - 1), h = H + PH * (fy - 1);
      svg.setAttribute('width', w);
      svg.setAttribute('height', h);
      svg.setAttribute('viewBox', '0 0 ' + w + ' ' + h);
    }
    return function (how) {
      if (how === 'reset') { fx = 1; fy = 1; }
      else if (how.charAt(0) === 'x') { fx = Math.min(256, Math.max(1, fx * +how.slice(1))); }
      else { fy = Math.min(256, Math.max(1, fy * +how.slice(1))); }
      apply();
      return fx + ' × ' + fy;
    };
  }
  var zoomers = new Map();
  document.addEventListener('click', function (e) {
    var b = e.target.closest ? e.target.closest('button[data-zoom]') : null;
    if (!b) { return; }
    var section = b.closest('section'), svg = section.querySelector('svg.chart');
    if (!zoomers.has(svg)) { zoomers.set(svg, zoomer(svg)); }
    section.querySelector('.zoom-factor').textContent = zoomers.get(svg)(b.getAttribute('data-zoom'));
  });

  var find = document.getElementById('find'), count = document.getElementById('find-count');
  var rects = null, first = null;
  find.addEventListener('input', function () {
    var q = find.value.trim().toLowerCase(), n = 0;
    rects = rects || Array.prototype.slice.call(document.querySelectorAll('rect.r[data-i]'));
    first = null;
    rects.forEach(function (r) {
      var hit = q !== '' && B[+r.getAttribute('data-i')][0].toLowerCase().indexOf(q) >= 0;
      r.classList.toggle('hit', hit);
      if (hit) { n++; if (first === null) { first = r; } }
    });
    document.querySelectorAll('svg.chart').forEach(function (s) { s.classList.toggle('dim', q !== ''); });
    count.textContent = q === '' ? '' : n + (n === 1 ? ' match' : ' matches') + (n ? ' (Enter shows the first)' : '');
  });
  find.addEventListener('keydown', function (e) {
    if (e.key === 'Enter' && first !== null) {
      select(+first.getAttribute('data-i'));
      first.scrollIntoView({block: 'center', inline: 'center'});
    }
  });
}());
