"""The reader's side of the built site, measured: Lighthouse scores (``make audit``).

Lighthouse itself is pinned in ``package.json`` / ``package-lock.json`` of this folder and
installed with ``npm ci`` into ``audit/node_modules``. The axe checks run in the browser test
(``tests/test_browser.py``); the Chromium both use is described in :mod:`audit.chromium`.
"""
