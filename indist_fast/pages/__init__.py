"""The builders behind ``indist_fast.html``: page assembly (``page``), the ROC demo
(``demo``), the evaluation report (``report``), and the pages' scripts and styles as
package data (inlined into each page when it is built)."""
