"""The Redis Cluster backend (``redis+cluster://``): the same scripts per slot, sharded pub/sub."""
