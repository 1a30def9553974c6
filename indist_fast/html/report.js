/* The evaluation report: curves of every model, and a slider over the exact operating
   points of the chosen one. */
"use strict";
(function () {
  var D = IF_DATA, models = D.models;
  var COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf",
                "#bcbd22", "#7f7f7f", "#d62728"];
  var W = 380, H = 260;
  var select = document.getElementById("model"), slider = document.getElementById("threshold");
  var logBox = document.getElementById("logcount");
  var hist = new IFPlot.Chart(document.getElementById("panel-hist"),
    {width: W, height: H, title: "Scores by class", xlabel: "score", ylabel: "weight"});
  var roc = new IFPlot.Chart(document.getElementById("panel-roc"),
    {width: W, height: H, title: "ROC", xlabel: "false positive rate", ylabel: "true positive rate"});
  var pr = new IFPlot.Chart(document.getElementById("panel-pr"),
    {width: W, height: H, title: "Precision-recall", xlabel: "recall (tpr)", ylabel: "precision"});
  var bch = new IFPlot.Chart(document.getElementById("panel-b"),
    {width: W, height: H, title: "B(r)", xlabel: "threshold r", ylabel: "B"});
  var cost = new IFPlot.Chart(document.getElementById("panel-cost"),
    {width: W, height: H, title: "Cost curves", xlabel: "cost proportion c", ylabel: "loss Q(c)"});

  function color(k) { return COLORS[k % COLORS.length]; }
  function current() { return models[Number(select.value) || 0]; }

  // The finite range of every model's thresholds (B is drawn against them).
  var tlo = Infinity, thi = -Infinity;
  models.forEach(function (m) {
    m.points.threshold.forEach(function (t) {
      if (isFinite(t)) { tlo = Math.min(tlo, t); thi = Math.max(thi, t); }
    });
  });
  if (!(thi > tlo)) { tlo = isFinite(tlo) ? tlo - 1 : 0; thi = isFinite(thi) ? thi + 1 : 1; }

  function drawStatic() {
    var legend = document.getElementById("legend");
    legend.textContent = "";
    if (models.length > 1) {
      models.forEach(function (m, k) {
        var s = document.createElement("span"), i = document.createElement("i");
        i.style.background = color(k);
        s.appendChild(i);
        s.appendChild(document.createTextNode(m.name + " (AUC " + m.auc.toFixed(4) + ")"));
        legend.appendChild(s);
      });
    }
    roc.clear("base"); pr.clear("base"); bch.clear("base"); cost.clear("base");
    roc.line([0, 1], [0, 1], "diagonal", "base");
    bch.setLimits([tlo, thi], [0, 1]);
    bch.hband(0.4, 0.6, "band", "base");
    bch.hline(0.5, "half", "base");
    var top = 0;
    models.forEach(function (m) { top = Math.max(top, Math.max.apply(null, m.cost.loss)); });
    cost.setLimits([0, 1], [0, Math.max(top, 0.05) * 1.1]);
    models.forEach(function (m, k) {
      var p = m.points, c = color(k);
      roc.line([0].concat(p.fpr), [0].concat(p.tpr), "curve", "base", c);
      pr.hline(m.base_rate, "half", "base");
      pr.line(p.tpr, p.precision, "curve", "base", c);
      bch.line(p.threshold, p.b, "curve", "base", c);
      if (m.rb_index >= 0) {
        bch.point(m.threshold, p.b[m.rb_index], "dot rbdot", "base");
        pr.point(p.tpr[m.rb_index], m.precision, "dot rbdot", "base");
      }
      cost.line(m.cost.c, m.cost.loss, "curve", "base", c);
    });
    drawModel();
  }

  // The chosen model's histogram, hull and slider range.
  function drawModel() {
    var m = current(), h = m.hist, lo = h.edges.slice(0, -1), hi = h.edges.slice(1);
    var top = Math.max(Math.max.apply(null, h.pos), Math.max.apply(null, h.neg), 1);
    var log = logBox.checked;
    hist.setLimits([h.edges[0], h.edges[h.edges.length - 1]], log ? [0.5, top * 2] : [0, top * 1.05], log);
    hist.clear("base");
    hist.bars(lo, hi, h.neg, "bars neg", "base");
    hist.bars(lo, hi, h.pos, "bars pos", "base");
    if (m.rb_index >= 0) hist.vline(m.threshold, "rb", "base");
    roc.clear("overlay");
    var n = m.points.threshold.length;
    slider.min = 0; slider.max = n - 1; slider.step = 1;
    document.getElementById("thinning").textContent = (n < m.n_points ?
      "The slider and the curves use " + n.toLocaleString("en-US") + " of the model's " +
      m.n_points.toLocaleString("en-US") + " operating points, each exact: every ROC-hull corner, " +
      "the points at B levels 0.4, 0.5 (r_b) and 0.6, and points spread evenly between." :
      "The slider moves over all " + n.toLocaleString("en-US") + " operating points (distinct scores).");
  }

  // Slider position p (left: lowest threshold) to the point index (highest first).
  function index() {
    var n = current().points.threshold.length;
    return n - 1 - Math.min(Math.max(Math.round(Number(slider.value)), 0), n - 1);
  }

  function move() {
    var m = current(), p = m.points, j = index(), k = Number(select.value) || 0;
    var values = {threshold: p.threshold[j], b: p.b[j]};
    ["tp", "fp", "tn", "fn", "tpr", "fpr", "tnr", "fnr", "precision", "npv", "accuracy",
     "balanced_accuracy", "f1"].forEach(function (f) { values[f] = p[f][j]; });
    IFPlot.metrics(document.getElementById("current"), values);
    IFPlot.metrics(document.querySelector(".controls"), {threshold: p.threshold[j]});
    [hist, roc, pr, bch, cost].forEach(function (c) { c.clear(); });
    if (isFinite(p.threshold[j])) hist.vline(p.threshold[j], "threshold-line");
    roc.line(m.hull.fpr.concat([1]), m.hull.tpr.concat([1]), "hull");
    roc.point(p.fpr[j], p.tpr[j], "dot current");
    pr.point(p.tpr[j], p.precision[j], "dot current");
    if (isFinite(p.threshold[j])) bch.vline(p.threshold[j], "threshold-line");
    bch.point(p.threshold[j], p.b[j], "dot current");
    var pi1 = m.base_rate, pi0 = 1 - pi1;
    cost.line([0, 1], [2 * pi0 * p.fpr[j], 2 * pi1 * (1 - p.tpr[j])], "threshold-line");
    select.style.borderColor = color(k);
  }

  select.addEventListener("change", function () {
    drawModel();
    var m = current();
    slider.value = m.rb_index >= 0 ? m.points.threshold.length - 1 - m.rb_index : 0;
    move();
  });
  slider.addEventListener("input", move);
  logBox.addEventListener("change", function () { drawModel(); move(); });
  drawStatic();
  var m0 = current();
  slider.value = m0.rb_index >= 0 ? m0.points.threshold.length - 1 - m0.rb_index : 0;
  move();
  document.body.setAttribute("data-ready", "1");
})();
