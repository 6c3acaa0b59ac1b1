"""Browser tests: the real static client in headless Chromium against a live server."""
