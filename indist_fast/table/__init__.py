"""The score table: the distinct scores in order with the positive and negative
weight at each, the sufficient statistic every metric reads (``score_table``), and the
precision-recall curve read from it (``precision_recall``)."""
