/* Binormal population formulas, as indist_fast.metrics.resolving_power.Binormal defines them
   (Sumpter's indistinguishability paper, corrected forms):
     v(r) = P(positive score >= r), u(r) = P(negative score >= r)
     C(r) = pi1 v / (pi1 v + pi0 u)
     B(r) = [pi1 v^2 / 2 + pi0 * int_r^inf f_N(t) v(t) dt] / (pi1 v + pi0 u)
     AUC  = Phi((mu_pos - mu_neg) / sqrt(sd_pos^2 + sd_neg^2))
   Accurate to about 1e-13: W. J. Cody's rational approximations of erfc and an
   adaptive Gauss-Kronrod rule for the integral. */
"use strict";
var IFPop = (function () {
  var A = [3.16112374387056560e00, 1.13864154151050156e02, 3.77485237685302021e02,
           3.20937758913846947e03, 1.85777706184603153e-1];
  var B = [2.36012909523441209e01, 2.44024637934444173e02, 1.28261652607737228e03,
           2.84423683343917062e03];
  var C = [5.64188496988670089e-1, 8.88314979438837594e00, 6.61191906371416295e01,
           2.98635138197400131e02, 8.81952221241769090e02, 1.71204761263407058e03,
           2.05107837782607147e03, 1.23033935479799725e03, 2.15311535474403846e-8];
  var D = [1.57449261107098347e01, 1.17693950891312499e02, 5.37181101862009858e02,
           1.62138957456669019e03, 3.29079923573345963e03, 4.36261909014324716e03,
           3.43936767414372164e03, 1.23033935480374942e03];
  var P = [3.05326634961232344e-1, 3.60344899949804439e-1, 1.25781726111229246e-1,
           1.60837851487422766e-2, 6.58749161529837803e-4, 1.63153871373020978e-2];
  var Q = [2.56852019228982242e00, 1.87295284992346725e00, 5.27905102951428412e-1,
           6.05183413124413191e-2, 2.33520497626869185e-3];

  // Cody (1969), "Rational Chebyshev approximations for the error function".
  function erfc(x) {
    if (isNaN(x)) return NaN;
    var y = Math.abs(x), r, i, xn, xd, ysq;
    if (y <= 0.46875) {
      ysq = y > 1.11e-16 ? y * y : 0;
      xn = A[4] * ysq; xd = ysq;
      for (i = 0; i < 3; i++) { xn = (xn + A[i]) * ysq; xd = (xd + B[i]) * ysq; }
      return 1 - x * (xn + A[3]) / (xd + B[3]);
    }
    if (y <= 4) {
      xn = C[8] * y; xd = y;
      for (i = 0; i < 7; i++) { xn = (xn + C[i]) * y; xd = (xd + D[i]) * y; }
      r = (xn + C[7]) / (xd + D[7]);
    } else if (y >= 26.543) {
      r = 0;
    } else {
      ysq = 1 / (y * y);
      xn = P[5] * ysq; xd = ysq;
      for (i = 0; i < 4; i++) { xn = (xn + P[i]) * ysq; xd = (xd + Q[i]) * ysq; }
      r = ysq * (xn + P[4]) / (xd + Q[4]);
      r = (0.56418958354775628695 - r) / y;
    }
    // exp(-y^2) in two factors: y^2 rounded first loses digits for large y
    ysq = Math.trunc(y * 16) / 16;
    r = Math.exp(-ysq * ysq) * Math.exp(-(y - ysq) * (y + ysq)) * r;
    return x < 0 ? 2 - r : r;
  }

  function sf(z) { return 0.5 * erfc(z / Math.SQRT2); }
  function cdf(z) { return 0.5 * erfc(-z / Math.SQRT2); }
  function pdf(z) { return Math.exp(-0.5 * z * z) / Math.sqrt(2 * Math.PI); }

  // Gauss-Kronrod 7/15 nodes and weights.
  var XK = [0.991455371120812639, 0.949107912342758525, 0.864864423359769073,
            0.741531185599394440, 0.586087235467691130, 0.405845151377397167,
            0.207784955007898468, 0.0];
  var WK = [0.022935322010529225, 0.063092092629978553, 0.104790010322250184,
            0.140653259715525919, 0.169004726639267903, 0.190350578064785410,
            0.204432940075298892, 0.209482141084727828];
  var WG = [0.129484966168869693, 0.279705391489276668, 0.381830050505118945,
            0.417959183673469388];

  function gk15(f, a, b) {
    var c = (a + b) / 2, h = (b - a) / 2, fc = f(c);
    var k = fc * WK[7], g = fc * WG[3];
    for (var j = 0; j < 7; j++) {
      var s = f(c - h * XK[j]) + f(c + h * XK[j]);
      k += WK[j] * s;
      if (j % 2 === 1) g += WG[(j - 1) / 2] * s;
    }
    return [k * h, Math.abs((k - g) * h)];
  }

  function adaptive(f, a, b, tol, depth) {
    var r = gk15(f, a, b);
    if (r[1] <= tol || depth > 40 || b - a < 1e-12) return r[0];
    var m = (a + b) / 2;
    return adaptive(f, a, m, tol / 2, depth + 1) + adaptive(f, m, b, tol / 2, depth + 1);
  }

  var TAIL = 12;   // standard deviations beyond which a normal density is below 1e-31

  function Model(muPos, sdPos, muNeg, sdNeg, prevalence) {
    this.muPos = muPos; this.sdPos = sdPos; this.muNeg = muNeg; this.sdNeg = sdNeg;
    this.pi1 = prevalence;
  }
  Model.prototype.v = function (r) { return sf((r - this.muPos) / this.sdPos); };
  Model.prototype.u = function (r) { return sf((r - this.muNeg) / this.sdNeg); };
  Model.prototype.densityPos = function (r) { return pdf((r - this.muPos) / this.sdPos) / this.sdPos; };
  Model.prototype.densityNeg = function (r) { return pdf((r - this.muNeg) / this.sdNeg) / this.sdNeg; };
  Model.prototype.auc = function () {
    return cdf((this.muPos - this.muNeg) / Math.sqrt(this.sdPos * this.sdPos + this.sdNeg * this.sdNeg));
  };
  Model.prototype.precision = function (r) {
    var v = this.v(r), den = this.pi1 * v + (1 - this.pi1) * this.u(r);
    return den > 0 ? this.pi1 * v / den : NaN;
  };
  // int_r^inf f_N(t) v(t) dt over the negatives' standard scale, split where the
  // positives' survival function turns, so a narrow positive class is not stepped over.
  Model.prototype.negTerm = function (r) {
    var self = this, z0 = Math.max((r - this.muNeg) / this.sdNeg, -TAIL);
    if (!(z0 < TAIL)) return 0;
    var f = function (z) { return pdf(z) * self.v(self.muNeg + self.sdNeg * z); };
    var zc = (this.muPos - this.muNeg) / this.sdNeg, w = this.sdPos / this.sdNeg;
    var cuts = [z0, TAIL];
    [zc - 6 * w, zc - w, zc, zc + w, zc + 6 * w, 0].forEach(function (c) {
      if (c > z0 && c < TAIL) cuts.push(c);
    });
    cuts.sort(function (a, b) { return a - b; });
    var total = 0;
    for (var i = 0; i + 1 < cuts.length; i++) {
      if (cuts[i + 1] > cuts[i]) total += adaptive(f, cuts[i], cuts[i + 1], 1e-15, 0);
    }
    return total;
  };
  Model.prototype.b = function (r) {
    var v = this.v(r), den = this.pi1 * v + (1 - this.pi1) * this.u(r);
    if (!(den > 0)) return NaN;
    return (this.pi1 * v * v / 2 + (1 - this.pi1) * this.negTerm(r)) / den;
  };
  // The root of B(r) = level (B falls from pi1/2 + pi0 A to 0 as r grows); NaN when
  // B never reaches the level.
  Model.prototype.threshold = function (level) {
    if (level === undefined) level = 0.5;
    var lo = Math.min(this.muNeg - TAIL * this.sdNeg, this.muPos - TAIL * this.sdPos);
    var hi = Math.max(this.muNeg + TAIL * this.sdNeg, this.muPos + TAIL * this.sdPos);
    if (!(this.b(lo) >= level)) return NaN;
    for (var i = 0; i < 200 && hi - lo > 1e-13 * Math.max(1, Math.abs(lo)); i++) {
      var mid = (lo + hi) / 2, bm = this.b(mid);
      if (bm >= level) lo = mid; else hi = mid;
    }
    return (lo + hi) / 2;
  };

  return {erfc: erfc, sf: sf, cdf: cdf, pdf: pdf, Model: Model, integrate: adaptive};
})();
