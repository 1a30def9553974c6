"""Named results and their rendering: the frozen records a call returns (``report``,
``report_table``) and their HTML tables (``html_tables``). Nothing here computes a
metric; the records only hold, check and show what the areas above computed."""
