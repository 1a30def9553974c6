/* The ROC demo: two normal score distributions, a threshold, and the ROC, B(r) and
   C(r) of the population they define (after Rogozhnikov's interactive ROC demo). */
"use strict";
(function () {
  var init = IF_DATA;
  var names = ["mu_pos", "sd_pos", "mu_neg", "sd_neg", "prevalence"];
  var inputs = {};
  names.forEach(function (n) { inputs[n] = document.getElementById(n); });
  var slider = document.getElementById("threshold");
  var status = document.getElementById("status");
  var W = 290, H = 250;
  var dens = new IFPlot.Chart(document.getElementById("panel-densities"),
    {width: W, height: H, title: "Densities (drag the threshold)", xlabel: "score", ylabel: "density"});
  var roc = new IFPlot.Chart(document.getElementById("panel-roc"),
    {width: W, height: H, title: "ROC", xlabel: "false positive rate", ylabel: "true positive rate"});
  var bch = new IFPlot.Chart(document.getElementById("panel-b"),
    {width: W, height: H, title: "B(r): positive vs labelled row", xlabel: "threshold r", ylabel: "B(r)"});
  var cch = new IFPlot.Chart(document.getElementById("panel-c"),
    {width: W, height: H, title: "C(r): precision", xlabel: "threshold r", ylabel: "C(r)"});
  var model = null, range = [0, 1];

  // The inputs as numbers, or the first bad one's message (nothing is redrawn then).
  function read() {
    var p = {};
    for (var i = 0; i < names.length; i++) {
      var n = names[i], x = Number(inputs[n].value);
      if (inputs[n].value.trim() === "" || !isFinite(x)) return n + " must be a finite number";
      if ((n === "sd_pos" || n === "sd_neg") && !(x > 0)) return n + " must be positive";
      if (n === "prevalence" && !(x > 0 && x < 1)) return "prevalence must be strictly between 0 and 1";
      p[n] = x;
    }
    return p;
  }

  function rebuild() {
    var p = read();
    if (typeof p === "string") { status.textContent = p; status.className = "status bad"; return; }
    status.textContent = ""; status.className = "status";
    model = new IFPop.Model(p.mu_pos, p.sd_pos, p.mu_neg, p.sd_neg, p.prevalence);
    range = [Math.min(p.mu_pos - 4 * p.sd_pos, p.mu_neg - 4 * p.sd_neg),
             Math.max(p.mu_pos + 4 * p.sd_pos, p.mu_neg + 4 * p.sd_neg)];
    var t = Number(slider.value);
    slider.min = range[0]; slider.max = range[1];
    slider.step = (range[1] - range[0]) / 2000;
    if (isFinite(t)) slider.value = Math.min(Math.max(t, range[0]), range[1]);

    var n = 301, xs = [], fp = [], fn = [], tpr = [], fpr = [], bs = [], cs = [], top = 0;
    for (var i = 0; i < n; i++) {
      var x = range[0] + (range[1] - range[0]) * i / (n - 1);
      xs.push(x);
      fp.push(p.prevalence * model.densityPos(x));
      fn.push((1 - p.prevalence) * model.densityNeg(x));
      top = Math.max(top, fp[i], fn[i]);
      bs.push(model.b(x));
      cs.push(model.precision(x));
    }
    // the ROC over the whole real line: a wider grid reaches (0, 0) and (1, 1)
    var lo = range[0] - 4 * Math.max(p.sd_pos, p.sd_neg), hi = range[1] + 4 * Math.max(p.sd_pos, p.sd_neg);
    for (i = 0; i < 601; i++) {
      var r = hi - (hi - lo) * i / 600;
      tpr.push(model.v(r)); fpr.push(model.u(r));
    }
    dens.setLimits(range, [0, top * 1.08]);
    dens.clear("base");
    dens.area(xs, fn, "area neg", "base"); dens.area(xs, fp, "area pos", "base");
    dens.line(xs, fn, "curve neg", "base"); dens.line(xs, fp, "curve pos", "base");
    dens.text(range[0] + 0.03 * (range[1] - range[0]), top, "\u25a0 positives", "note pos", "base");
    dens.text(range[0] + 0.03 * (range[1] - range[0]), top * 0.9, "\u25a0 negatives", "note neg", "base");
    roc.clear("base");
    roc.line([0, 1], [0, 1], "diagonal", "base");
    roc.line(fpr, tpr, "curve", "base");
    roc.text(0.45, 0.12, "AUC = " + model.auc().toFixed(4), "note big", "base");
    bch.setLimits(range, [0, 1]);
    bch.clear("base");
    bch.hband(0.4, 0.6, "band", "base");
    bch.hline(0.5, "half", "base");
    bch.line(xs, bs, "curve", "base");
    cch.setLimits(range, [0, 1]);
    cch.clear("base");
    cch.hline(p.prevalence, "half", "base");
    cch.line(xs, cs, "curve", "base");

    var rb = model.threshold(0.5);
    var crb = isNaN(rb) ? NaN : model.precision(rb);
    if (!isNaN(rb)) {
      bch.vline(rb, "rb", "base");
      cch.vline(rb, "rb", "base");
      cch.point(rb, crb, "dot rbdot", "base");
    }
    IFPlot.metrics(document, {auc: model.auc(), indistinguishability_threshold: rb,
                              precision_at_indistinguishability: crb,
                              b_at_minus_infinity: p.prevalence / 2 + (1 - p.prevalence) * model.auc()});
    move();
  }

  function move() {
    if (!model) return;
    var t = Number(slider.value), pi1 = model.pi1;
    var v = model.v(t), u = model.u(t), b = model.b(t), c = model.precision(t);
    dens.clear(); roc.clear(); bch.clear(); cch.clear();
    dens.vline(t, "threshold-line");
    roc.point(u, v, "dot current");
    bch.vline(t, "threshold-line"); bch.point(t, b, "dot current");
    cch.vline(t, "threshold-line"); cch.point(t, c, "dot current");
    IFPlot.metrics(document, {threshold: t, tpr: v, fpr: u, b: b, precision: c,
                              tp: pi1 * v, fn: pi1 * (1 - v), fp: (1 - pi1) * u,
                              tn: (1 - pi1) * (1 - u)});
  }

  names.forEach(function (n) {
    inputs[n].value = init[n];
    inputs[n].addEventListener("input", rebuild);
  });
  slider.value = init.threshold;
  slider.addEventListener("input", move);
  dens.onDrag(function (x) {
    slider.value = Math.min(Math.max(x, range[0]), range[1]);
    move();
  });
  slider.step = "any"; slider.min = -1e300; slider.max = 1e300; slider.value = init.threshold;
  rebuild();
})();
