/* The evaluation report: curves of every model, and a slider over the exact operating
   points of the chosen one. */
"use strict";
(function () {
  var D = IF_DATA, models = D.models;
  // Okabe and Ito's colour-blind-safe palette (indist_fast.plot draws with the same one)
  // without its bluish green, which marks r_b, its black, which marks the slider's
  // point, and its yellow, too light for a line on white. From the sixth model on the
  // colours come round again dashed.
  var COLORS = ["#0072B2", "#E69F00", "#CC79A7", "#56B4E9", "#D55E00"];
  var DASHES = ["", "7 4", "2 3"];
  var W = 380, H = 260;
  var select = document.getElementById("model"), slider = document.getElementById("threshold");
  var box = document.getElementById("threshold_value"), note = document.getElementById("threshold_note");
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
  // Present only when some model's scores are probabilities (report_page.py decides).
  var calPanel = document.getElementById("panel-calibration");
  var rel = calPanel && new IFPlot.Chart(calPanel,
    {width: W, height: H, title: "Reliability", xlabel: "mean predicted probability",
     ylabel: "share of positives"});

  function color(k) { return COLORS[k % COLORS.length]; }
  function dash(k) { return DASHES[Math.floor(k / COLORS.length) % DASHES.length]; }
  // Model k's line: its colour, dashed after the palette's first round.
  function styled(node, k) {
    if (node && dash(k)) node.style.strokeDasharray = dash(k);
    return node;
  }
  // An r_b dot: r_b's green, ringed in its model's colour.
  function rbDot(chart, x, y, k) {
    var node = chart.point(x, y, "dot rbdot", "base");
    if (node) node.style.stroke = color(k);
  }
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
        i.style.background = dash(k) ? "repeating-linear-gradient(90deg, " + color(k) +
          " 0 5px, transparent 5px 8px)" : color(k);
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
      styled(roc.line([0].concat(p.fpr), [0].concat(p.tpr), "curve", "base", c), k);
      pr.hline(m.base_rate, "half", "base");
      styled(pr.line(p.tpr, p.precision, "curve", "base", c), k);
      styled(bch.line(p.threshold, p.b, "curve", "base", c), k);
      styled(cost.line(m.cost.c, m.cost.loss, "curve", "base", c), k);
    });
    if (rel) drawReliability();
    // the r_b dots over every curve
    models.forEach(function (m, k) {
      if (m.rb_index < 0) return;
      rbDot(bch, m.threshold, m.points.b[m.rb_index], k);
      rbDot(pr, m.points.tpr[m.rb_index], m.precision, k);
    });
    drawModel();
  }

  // Each model's bins: share of positives against mean predicted probability, over the
  // diagonal where the two agree (a model whose scores are not probabilities has none).
  function drawReliability() {
    rel.clear("base");
    rel.line([0, 1], [0, 1], "diagonal", "base");
    models.forEach(function (m, k) {
      var c = m.calibration;
      if (!c) return;
      styled(rel.line(c.prob_pred, c.prob_true, "curve", "base", color(k)), k);
      c.prob_pred.forEach(function (x, i) {
        rel.point(x, c.prob_true[i], "dot calpoint", "base", color(k));
      });
    });
  }

  // The chosen model's histogram, hull and slider range.
  function drawModel() {
    var m = current(), h = m.hist, lo = h.edges.slice(0, -1), hi = h.edges.slice(1);
    var log = logBox.checked;
    hist.setLimits([h.edges[0], h.edges[h.edges.length - 1]], countLimits(h, log), log);
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

  // The histogram's count axis: from 0 (linear), or (log) from half the power of ten at
  // or below the smallest bar, so fractional weights show as well as counts do.
  function countLimits(h, log) {
    var top = 0, low = Infinity;
    h.pos.concat(h.neg).forEach(function (v) {
      if (v > 0) { top = Math.max(top, v); low = Math.min(low, v); }
    });
    if (!(top > 0)) return log ? [0.5, 2] : [0, 1];
    if (!log) return [0, top * 1.05];
    return [Math.pow(10, Math.floor(Math.log10(low))) / 2, top * 2];
  }

  // The point a typed threshold t selects (thresholds fall with the index): the lowest
  // threshold at or above t, so the rows predicted positive are those scoring >= t
  // whenever that point is on the page; above every threshold, the highest (index 0).
  function atOrAbove(th, t) {
    if (!(th[0] >= t)) return 0;
    var lo = 0, hi = th.length - 1;              // th[lo] >= t throughout
    while (lo < hi) {
      var mid = (lo + hi + 1) >> 1;
      if (th[mid] >= t) lo = mid; else hi = mid - 1;
    }
    return lo;
  }

  function typed() {
    var text = box.value.trim(), t = text === "" ? NaN : Number(text);
    if (isNaN(t)) {
      note.textContent = text === "" && !box.validity.badInput ? "" :
        "Type a number: the threshold (rows scoring at or above it are predicted positive).";
      return;
    }
    var m = current(), th = m.points.threshold, n = th.length, j = atOrAbove(th, t);
    slider.value = n - 1 - j;
    move(true);
    var shown = isFinite(th[j]) ? String(th[j]) : IFPlot.format(th[j]);
    if (!(th[0] >= t)) {
      note.textContent = "No score is at or above " + text + ": the slider is at the highest " +
        "threshold, " + shown + ".";
    } else if (th[j] === t) {
      note.textContent = "";
    } else if (n < m.n_points) {
      note.textContent = "The nearest operating point on the page at or above " + text + ": " +
        shown + ".";
    } else {
      note.textContent = "The lowest score at or above " + text + " is " + shown +
        ": the same rows score at or above either.";
    }
  }

  // Slider position p (left: lowest threshold) to the point index (highest first).
  function index() {
    var n = current().points.threshold.length;
    return n - 1 - Math.min(Math.max(Math.round(Number(slider.value)), 0), n - 1);
  }

  // fromBox: the number box moved the slider, so the text being typed stays as it is.
  function move(fromBox) {
    var m = current(), p = m.points, j = index(), k = Number(select.value) || 0;
    if (fromBox !== true) {
      box.value = isFinite(p.threshold[j]) ? String(p.threshold[j]) : "";
      note.textContent = "";
    }
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
  box.addEventListener("input", typed);
  logBox.addEventListener("change", function () { drawModel(); move(); });
  drawStatic();
  var m0 = current();
  slider.value = m0.rb_index >= 0 ? m0.points.threshold.length - 1 - m0.rb_index : 0;
  move();
})();
