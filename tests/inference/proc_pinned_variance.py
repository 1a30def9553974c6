"""pROC 1.18's variance and covariance of AUCs on the sets of ``proc_sets``
(regenerate: ``python tests/proc_sets.py proc_pinned_variance``).

``exact`` prints ``var`` by DeLong and Obuchowski, then ``cov`` of models a and b by
DeLong and Obuchowski; ``bootstrap`` prints ``var`` and ``cov`` from 2000 stratified
replicates (``set.seed(1)``), compared statistically.
"""

from math import inf, nan  # noqa: F401  (R's Inf and NaN in the pinned values)

#: One R template per quantity, run by the live test too.
R_CODE = {
    "exact": """
y <- {y}; a <- {a}; b <- {b}
r1 <- roc(y, a, direction = "<", quiet = TRUE)
r2 <- roc(y, b, direction = "<", quiet = TRUE)
cat(sprintf("%.17g", c(var(r1, method = "delong"), var(r1, method = "obuchowski"),
                       cov(r1, r2, method = "delong"), cov(r1, r2, method = "obuchowski"))))
""",
    "bootstrap": """
y <- {y}; a <- {a}; b <- {b}
r1 <- roc(y, a, direction = "<", quiet = TRUE)
r2 <- roc(y, b, direction = "<", quiet = TRUE)
set.seed(1)
v <- var(r1, method = "bootstrap", boot.n = 2000, progress = "none")
cv <- cov(r1, r2, method = "bootstrap", boot.n = 2000, progress = "none")
cat(sprintf("%.17g", c(v, cv)))
""",
}

PINNED = {'binormal': {'bootstrap': [0.000789806323769929, 0.0004412737321256888],
              'exact': [0.0007949012843705729, 0.001076450380086904, 0.000461821786894324,
                        0.0004754090678149242]},
 'rare': {'bootstrap': [0.0024763577421333593, 0.0012642963935789882],
          'exact': [0.0025372737543115967, 0.0036814794919085643, 0.0012818407342070747,
                    0.001088046133518978]},
 'tied': {'bootstrap': [0.001354160016998327, 0.0004079161767855821],
          'exact': [0.0014078227475037598, 0.0020637753959235005, 0.0003935058625800229,
                    0.00040462323461545044]},
 'tiny': {'bootstrap': [0.01783766092151014, 0.0028508738358376732],
          'exact': [0.019212962962962963, 0.0236932722768248, 0.003935185185185185,
                    0.0038191747446045953]}}
