// Draws a topic's last hour from its series (one point a minute, every instance's deliveries merged): lateness
// p50/p99 and deliveries per second, with uPlot. The page names the series' URL in data-series; the fetch sends the
// sign-in cookie, as every request of the dashboard does.
(function () {
  'use strict';

  function chart(target, title, labels, colors, xs, ys) {
    target.replaceChildren();
    var series = [{}];
    for (var i = 0; i < labels.length; i++) {
      series.push({label: labels[i], stroke: colors[i], width: 2, spanGaps: false, points: {show: true, size: 4}});
    }
    var width = Math.max(320, Math.min(600, Math.floor((target.parentElement.clientWidth - 48) / 2)));
    return new uPlot({title: title, width: width, height: 220, series: series, scales: {x: {time: true}}},
        [xs].concat(ys), target);
  }

  function draw(box) {
    fetch(box.getAttribute('data-series'), {credentials: 'same-origin', headers: {'Accept': 'application/json'}})
      .then(function (reply) {
        if (!reply.ok) {
          throw new Error('the series answered ' + reply.status);
        }
        return reply.json();
      })
      .then(function (s) {
        var points = s.points || [];
        var total = points.reduce(function (sum, p) { return sum + p.deliveries; }, 0);
        box.setAttribute('data-points', String(points.length));
        box.setAttribute('data-deliveries', String(total));
        var xs = points.map(function (p) { return p.at / 1000; });
        chart(box.querySelector('.lateness'), 'lateness (ms)', ['p50', 'p99'], ['#1f5fbf', '#b42318'], xs,
            [points.map(function (p) { return p.latenessP50; }), points.map(function (p) { return p.latenessP99; })]);
        chart(box.querySelector('.rate'), 'deliveries per second', ['deliveries/s'], ['#067647'], xs,
            [points.map(function (p) { return p.perSecond; })]);
        box.setAttribute('data-drawn', 'true');
      })
      .catch(function (e) {
        box.querySelector('.chart-error').textContent = 'charts: ' + e.message;
      });
  }

  document.querySelectorAll('[data-series]').forEach(draw);
})();
