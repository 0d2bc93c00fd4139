"""Reports: run-set parameters, the one-pass runner, notebook execution, pages and views."""
