/* The "Over time" panel of the report page: AUC and C(r_b) per period with their bands,
   the drifted periods ringed, the reference shaded; a click on the chart (or the period
   select) shows that period's report in the table beside it. */
"use strict";
(function () {
  var T = IF_DATA.over_time;
  var node = document.getElementById("panel-time");
  if (!T || !node) return;
  var n = T.periods.length, xs = [];
  for (var i = 0; i < n; i++) xs.push(i);
  var COLORS = {auc: "#0072B2", precision: "#E69F00"};
  var lo = Infinity, hi = -Infinity;
  [T.auc, T.precision, T.auc_band && T.auc_band[0], T.auc_band && T.auc_band[1],
   T.precision_band && T.precision_band[0], T.precision_band && T.precision_band[1]]
    .forEach(function (a) {
      (a || []).forEach(function (v) {
        if (v !== null && isFinite(v)) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
      });
    });
  if (!(hi > lo)) { lo = 0; hi = 1; }
  var pad = (hi - lo) * 0.08;
  var chart = new IFPlot.Chart(node, {width: 560, height: 280, id: "time_chart",
    title: "Metrics over time", ylabel: "metric",
    xlabel: "period (" + T.periods[0] + " to " + T.periods[n - 1] + ")"});
  chart.setLimits([-0.5, Math.max(n - 0.5, 0.5)], [lo - pad, hi + pad]);
  var select = document.getElementById("period"), report = document.getElementById("period_report");

  // A band between two series (nulls break it): a polygon over the finite points.
  function band(b, color) {
    if (!b) return;
    var pts = [], back = [];
    for (var i = 0; i < n; i++) {
      if (b[0][i] === null || b[1][i] === null) continue;
      pts.push(chart.x(i).toFixed(2) + "," + chart.y(b[1][i]).toFixed(2));
      back.unshift(chart.x(i).toFixed(2) + "," + chart.y(b[0][i]).toFixed(2));
    }
    var poly = IFPlot.el("polygon", {points: pts.concat(back).join(" "), "class": "timeband"},
                         chart.base);
    poly.style.fill = color;
    poly.style.fillOpacity = 0.18;
    poly.style.stroke = "none";
  }

  function series(values) {
    return values.map(function (v) { return v === null ? NaN : v; });
  }

  T.reference.forEach(function (i) {
    var r = IFPlot.el("rect", {x: chart.x(i - 0.5), y: chart.m.t, width: chart.x(1) - chart.x(0),
                               height: chart.h - chart.m.t - chart.m.b, "class": "reference"},
                      chart.base);
    r.style.fill = "#000";
    r.style.fillOpacity = 0.06;
  });
  band(T.auc_band, COLORS.auc);
  band(T.precision_band, COLORS.precision);
  [["auc", "drift_auc"], ["precision", "drift_precision"]].forEach(function (m) {
    var ys = series(T[m[0]]);
    chart.line(xs, ys, "curve", "base", COLORS[m[0]]);
    for (var i = 0; i < n; i++) {
      chart.point(i, ys[i], "dot timepoint", "base", COLORS[m[0]]);
      if (T[m[1]][i]) {
        var ring = chart.point(i, ys[i], "drift", "base");
        if (ring) {
          ring.setAttribute("r", 8);
          ring.style.fill = "none";
          ring.style.stroke = "#D55E00";
          ring.style.strokeWidth = 2;
        }
      }
    }
  });

  function show(i) {
    i = Math.min(Math.max(i, 0), n - 1);
    select.value = String(i);
    var v = {};
    ["n_rows", "base_rate", "auc", "average_precision", "threshold", "precision", "lift"]
      .forEach(function (f) { v[f] = T[f][i] === null ? NaN : T[f][i]; });
    ["auc", "precision"].forEach(function (f) {
      var b = T[f + "_band"];
      v[f + "_interval"] = b && b[0][i] !== null ?
        "[" + IFPlot.format(b[0][i]) + ", " + IFPlot.format(b[1][i]) + "]" : "n/a";
      var p = T[f + "_p_value"];
      v[f + "_p_value"] = T.reference.indexOf(i) >= 0 ? "reference" :
        (p && p[i] !== null ? p[i] : NaN);
    });
    IFPlot.metrics(report, v);
    chart.clear();
    chart.vline(i, "threshold-line");
  }

  chart.svg.addEventListener("click", function (ev) {
    var box = chart.svg.getBoundingClientRect();
    show(Math.round(chart.xInv((ev.clientX - box.left) * chart.w / box.width)));
  });
  chart.svg.style.cursor = "pointer";
  select.addEventListener("change", function () { show(Number(select.value) || 0); });
  show(n - 1);
})();
