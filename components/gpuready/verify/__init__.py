"""Post-deploy GPU verification: node views, expectations, findings, audits and label plans. Pure: no I/O."""
