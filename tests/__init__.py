"""The test suite: core/, rooms/, server/ mirror the code; bench/, chaos/, e2e/, support/."""
