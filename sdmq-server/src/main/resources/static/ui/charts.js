// Draws a topic's last hour from its series (one point a minute, every instance's deliveries merged): lateness
// p50/p99 and deliveries per second, with uPlot. The page names the series' URL in data-series; the request sends
// the sign-in cookie, as every request of the dashboard does.
(function () {
  'use strict';

  function chart(target, title, labels, colors, xs, ys) {
    var series = [{}];
    for (var i = 0; i < labels.length; i++) {
      series.push({label: labels[i], stroke: colors[i], width: 2, spanGaps: false, points: {show: true, size: 4}});
    }
    var width = Math.max(320, Math.min(600, Math.floor((target.parentElement.clientWidth - 48) / 2)));
    target.innerHTML = '';
    return new uPlot({title: title, width: width, height: 220, series: series, scales: {x: {time: true}}},
        [xs].concat(ys), target);
  }

  function column(points, field) {
    return points.map(function (p) { return p[field]; });
  }

  function show(box, s) {
    var points = s.points || [];
    var total = points.reduce(function (sum, p) { return sum + p.deliveries; }, 0);
    box.setAttribute('data-points', String(points.length));
    box.setAttribute('data-deliveries', String(total));
    var xs = points.map(function (p) { return p.at / 1000; });
    chart(box.querySelector('.lateness'), 'lateness (ms)', ['p50', 'p99'], ['#1f5fbf', '#b42318'], xs,
        [column(points, 'latenessP50'), column(points, 'latenessP99')]);
    chart(box.querySelector('.rate'), 'deliveries per second', ['deliveries/s'], ['#067647'], xs,
        [column(points, 'perSecond')]);
    box.setAttribute('data-drawn', 'true');
  }

  function draw(box) {
    var request = new XMLHttpRequest();
    request.open('GET', box.getAttribute('data-series'));
    request.setRequestHeader('Accept', 'application/json');
    request.onload = function () {
      try {
        if (request.status !== 200) {
          throw new Error('the series answered ' + request.status);
        }
        show(box, JSON.parse(request.responseText));
      } catch (e) {
        box.querySelector('.chart-error').textContent = 'charts: ' + e.message;
      }
    };
    request.send();
  }

  var boxes = document.querySelectorAll('[data-series]');
  for (var i = 0; i < boxes.length; i++) {
    draw(boxes[i]);
  }
})();
