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
