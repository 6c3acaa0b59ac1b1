"""Fault tests: real serve processes, private Redis and HAProxy, killed and restarted."""
