"""Tests of server/fastpath/: the speed machinery and its plain twin."""
