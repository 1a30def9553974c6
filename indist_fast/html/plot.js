/* A small SVG plotting layer shared by the pages: axes with round ticks, lines,
   markers and a redrawable overlay. No libraries: the pages must open from file://
   with no network. */
"use strict";
var IFPlot = (function () {
  var NS = "http://www.w3.org/2000/svg";

  function el(tag, attrs, parent) {
    var node = document.createElementNS(NS, tag);
    for (var k in attrs) { if (attrs[k] !== undefined) node.setAttribute(k, attrs[k]); }
    if (parent) parent.appendChild(node);
    return node;
  }

  // Round tick values (1, 2, 5 times a power of ten) covering [lo, hi].
  function ticks(lo, hi, count) {
    if (!(hi > lo) || !isFinite(lo) || !isFinite(hi)) return [lo];
    var raw = (hi - lo) / Math.max(1, count);
    var mag = Math.pow(10, Math.floor(Math.log10(raw)));
    var step = mag * (raw / mag >= 5 ? 5 : raw / mag >= 2 ? 2 : 1);
    var out = [];
    for (var v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) {
      out.push(Math.abs(v) < step * 1e-9 ? 0 : v);
    }
    return out;
  }

  function tickText(v) {
    var a = Math.abs(v);
    if (a !== 0 && (a >= 1e5 || a < 1e-3)) return v.toExponential(1);
    return String(+v.toPrecision(6));
  }

  function Chart(parent, opts) {
    this.w = opts.width || 360;
    this.h = opts.height || 260;
    this.m = {l: 52, r: 12, t: 24, b: 40};
    this.xlim = opts.xlim || [0, 1];
    this.ylim = opts.ylim || [0, 1];
    this.ylog = !!opts.ylog;
    this.svg = el("svg", {width: this.w, height: this.h, viewBox: "0 0 " + this.w + " " + this.h,
                          "class": "chart", role: "img", "aria-label": opts.title || ""}, parent);
    if (opts.id) this.svg.setAttribute("id", opts.id);
    this.title = opts.title || "";
    this.xlabel = opts.xlabel || "";
    this.ylabel = opts.ylabel || "";
    this.axes = el("g", {}, this.svg);
    // Lines beyond the axes (a cost line, a far threshold) are clipped to the frame.
    Chart.count = (Chart.count || 0) + 1;
    var clip = "ifclip" + Chart.count;
    this.clipRect = el("rect", {}, el("clipPath", {id: clip}, el("defs", {}, this.svg)));
    this.base = el("g", {"clip-path": "url(#" + clip + ")"}, this.svg);
    this.overlay = el("g", {"clip-path": "url(#" + clip + ")"}, this.svg);
    this.drawAxes();
  }

  Chart.prototype.x = function (v) {
    var a = this.xlim[0], b = this.xlim[1];
    return this.m.l + (v - a) / (b - a || 1) * (this.w - this.m.l - this.m.r);
  };
  Chart.prototype.y = function (v) {
    var a = this.ylim[0], b = this.ylim[1];
    if (this.ylog) { v = Math.log10(Math.max(v, a)); a = Math.log10(a); b = Math.log10(b); }
    return this.h - this.m.b - (v - a) / (b - a || 1) * (this.h - this.m.t - this.m.b);
  };
  // Pixel x back to data x (for dragging).
  Chart.prototype.xInv = function (px) {
    var a = this.xlim[0], b = this.xlim[1];
    return a + (px - this.m.l) / (this.w - this.m.l - this.m.r) * (b - a);
  };

  Chart.prototype.setLimits = function (xlim, ylim, ylog) {
    this.xlim = xlim; this.ylim = ylim;
    if (ylog !== undefined) this.ylog = ylog;
    this.drawAxes();
  };

  Chart.prototype.drawAxes = function () {
    var g = this.axes, self = this;
    while (g.firstChild) g.removeChild(g.firstChild);
    var x0 = this.m.l, x1 = this.w - this.m.r, y0 = this.h - this.m.b, y1 = this.m.t;
    var c = this.clipRect;
    c.setAttribute("x", x0 - 5); c.setAttribute("y", y1 - 5);
    c.setAttribute("width", x1 - x0 + 10); c.setAttribute("height", y0 - y1 + 10);
    el("rect", {x: x0, y: y1, width: x1 - x0, height: y0 - y1, "class": "frame"}, g);
    ticks(this.xlim[0], this.xlim[1], 5).forEach(function (v) {
      var px = self.x(v);
      el("line", {x1: px, x2: px, y1: y0, y2: y1, "class": "grid"}, g);
      el("text", {x: px, y: y0 + 14, "class": "tick", "text-anchor": "middle"}, g).textContent = tickText(v);
    });
    var yt;
    if (this.ylog) {
      // powers of ten inside the limits, every second or third one when there are many
      yt = [];
      var p0 = Math.ceil(Math.log10(this.ylim[0])), p1 = Math.floor(Math.log10(this.ylim[1]));
      var every = Math.max(1, Math.ceil((p1 - p0 + 1) / 6));
      for (var p = p0; p <= p1; p += every) yt.push(Math.pow(10, p));
    } else {
      yt = ticks(this.ylim[0], this.ylim[1], 5);
    }
    yt.forEach(function (v) {
      var py = self.y(v);
      el("line", {x1: x0, x2: x1, y1: py, y2: py, "class": "grid"}, g);
      el("text", {x: x0 - 5, y: py + 4, "class": "tick", "text-anchor": "end"}, g).textContent = tickText(v);
    });
    el("text", {x: (x0 + x1) / 2, y: this.h - 6, "class": "label", "text-anchor": "middle"}, g).textContent = this.xlabel;
    el("text", {x: 12, y: (y0 + y1) / 2, "class": "label", "text-anchor": "middle",
                transform: "rotate(-90 12 " + (y0 + y1) / 2 + ")"}, g).textContent = this.ylabel;
    el("text", {x: x0, y: 15, "class": "title"}, g).textContent = this.title;
  };

  // An explicit color as inline style: the stylesheet's class colors would win over
  // presentation attributes.
  function paint(node, stroke, fill) {
    if (stroke) node.style.stroke = stroke;
    if (fill) node.style.fill = fill;
    return node;
  }

  function layer(chart, which) { return which === "base" ? chart.base : chart.overlay; }

  Chart.prototype.clear = function (which) {
    var g = layer(this, which || "overlay");
    while (g.firstChild) g.removeChild(g.firstChild);
  };

  // A polyline through finite points (non-finite ones are skipped, not drawn as 0).
  Chart.prototype.line = function (xs, ys, cls, which, color) {
    var pts = [];
    for (var i = 0; i < xs.length; i++) {
      if (isFinite(xs[i]) && isFinite(ys[i])) {
        pts.push(this.x(xs[i]).toFixed(2) + "," + this.y(ys[i]).toFixed(2));
      }
    }
    return paint(el("polyline", {points: pts.join(" "), "class": cls || "curve"}, layer(this, which)),
                 color, null);
  };
  Chart.prototype.area = function (xs, ys, cls, which, color) {
    var pts = [this.x(xs[0]).toFixed(2) + "," + this.y(this.ylim[0]).toFixed(2)];
    for (var i = 0; i < xs.length; i++) pts.push(this.x(xs[i]).toFixed(2) + "," + this.y(ys[i]).toFixed(2));
    pts.push(this.x(xs[xs.length - 1]).toFixed(2) + "," + this.y(this.ylim[0]).toFixed(2));
    return paint(el("polygon", {points: pts.join(" "), "class": cls || "area"}, layer(this, which)), null, color);
  };
  Chart.prototype.vline = function (x, cls, which) {
    var px = Math.min(Math.max(this.x(x), this.m.l), this.w - this.m.r);
    return el("line", {x1: px, x2: px, y1: this.m.t, y2: this.h - this.m.b, "class": cls || "marker"},
              layer(this, which));
  };
  Chart.prototype.hline = function (y, cls, which) {
    var py = this.y(y);
    return el("line", {x1: this.m.l, x2: this.w - this.m.r, y1: py, y2: py, "class": cls || "marker"},
              layer(this, which));
  };
  Chart.prototype.hband = function (y0, y1, cls, which) {
    var a = this.y(y1), b = this.y(y0);
    return el("rect", {x: this.m.l, y: a, width: this.w - this.m.l - this.m.r, height: b - a,
                       "class": cls || "band"}, layer(this, which));
  };
  Chart.prototype.point = function (x, y, cls, which, color) {
    if (!isFinite(x) || !isFinite(y)) return null;
    return paint(el("circle", {cx: this.x(x), cy: this.y(y), r: 4.5, "class": cls || "dot"},
                    layer(this, which)), null, color);
  };
  Chart.prototype.text = function (x, y, s, cls, which) {
    var t = el("text", {x: this.x(x), y: this.y(y), "class": cls || "note"}, layer(this, which));
    t.textContent = s;
    return t;
  };
  // Vertical bars (a histogram): left edges, right edges, heights.
  Chart.prototype.bars = function (lo, hi, h, cls, which, color) {
    var d = [], base = this.y(this.ylim[0]);
    for (var i = 0; i < h.length; i++) {
      if (!(h[i] > 0)) continue;
      var x0 = this.x(lo[i]), x1 = this.x(hi[i]), y = this.y(h[i]);
      d.push("M" + x0.toFixed(2) + " " + base.toFixed(2) + "V" + y.toFixed(2) + "H" + x1.toFixed(2) +
             "V" + base.toFixed(2));
    }
    return paint(el("path", {d: d.join(""), "class": cls || "bars"}, layer(this, which)), color, color);
  };

  // Drag a threshold along x: calls back with the data x under the pointer.
  Chart.prototype.onDrag = function (callback) {
    var self = this, active = false;
    function at(ev) {
      var box = self.svg.getBoundingClientRect();
      var px = (ev.clientX - box.left) * self.w / box.width;
      callback(self.xInv(px));
    }
    this.svg.addEventListener("pointerdown", function (ev) {
      active = true; self.svg.setPointerCapture(ev.pointerId); at(ev);
    });
    this.svg.addEventListener("pointermove", function (ev) { if (active) at(ev); });
    this.svg.addEventListener("pointerup", function () { active = false; });
    this.svg.style.cursor = "ew-resize";
  };

  // A number as the pages show it: rounded, separators in integers, n/a and infinities.
  function format(value, digits) {
    if (typeof value !== "number") return String(value);
    if (!isFinite(value)) return isNaN(value) ? "n/a" : (value > 0 ? "\u221e" : "\u2212\u221e");
    if (Number.isInteger(value) && Math.abs(value) < 1e15) return value.toLocaleString("en-US");
    var a = Math.abs(value);
    return (a !== 0 && (a >= 1e6 || a < 1e-4)) ? value.toExponential(3)
                                               : String(+value.toFixed(digits === undefined ? 4 : digits));
  }

  // A number shown with its exact value kept in data-value (tests and users read it).
  function setMetric(node, value, digits) {
    node.setAttribute("data-value", String(value));
    node.textContent = format(value, digits);
  }

  function metrics(root, values) {
    var nodes = root.querySelectorAll("[data-metric]");
    for (var i = 0; i < nodes.length; i++) {
      var name = nodes[i].getAttribute("data-metric");
      if (Object.prototype.hasOwnProperty.call(values, name)) setMetric(nodes[i], values[name]);
    }
  }

  return {el: el, Chart: Chart, ticks: ticks, format: format, setMetric: setMetric, metrics: metrics};
})();
