# tictactoe-server: the multiplayer server as a container image.
#
#   docker build -t tictactoe-server .
#   docker run -p 8000:8000 tictactoe-server                      # one process, rooms in memory
#   docker run -p 8000:8000 -e REDIS_URL=redis://redis:6379/0 tictactoe-server   # shared rooms
#
# Every setting is an environment variable (TICTACTOE_<NAME>, REDIS_URL; see
# docs/operations.md) or a flag appended to the command (docker run ... --workers 4).
# The build context is what .dockerignore lets through: the packages, the browser client,
# pyproject.toml, setup.py (the solver's C search), constraints.txt (the exact versions
# tested), README.md and LICENSE.
# The installed project carries the browser client (static/ is packaged as
# server/client/), so the runtime image needs nothing but the environment.

# -- build: the project and its dependencies installed into a virtual environment --------
FROM python:3.11-slim AS build
# A C compiler for the solver's compiled search (setup.py), required here: the image never
# falls back to the pure-Python search. The runtime image needs only the built module.
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
ENV TICTACTOE_BUILD_EXTENSION=required
WORKDIR /src
COPY . .
# The environment gets no pip of its own: the base image's pip installs into it, and only
# the environment is copied into the runtime image (no wheels or sources left behind).
RUN python -m venv --without-pip /opt/tictactoe \
    && pip --python /opt/tictactoe/bin/python install --no-cache-dir \
       --root-user-action=ignore --disable-pip-version-check -c constraints.txt .

# -- runtime ----------------------------------------------------------------------------
FROM python:3.11-slim
ENV PATH=/opt/tictactoe/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    TICTACTOE_PORT=8000
RUN useradd --system --uid 10001 --home-dir /app --no-create-home \
    --shell /usr/sbin/nologin tictactoe
COPY --from=build /opt/tictactoe /opt/tictactoe
WORKDIR /app
USER tictactoe
EXPOSE 8000
# Liveness only (/healthz): a worker whose Redis is down is alive but not ready, and must
# not be restarted for it; the load balancer watches /readyz for that. It asks the port in
# TICTACTOE_PORT: set that variable, not --port, to move the server.
HEALTHCHECK --interval=10s --timeout=3s --start-period=15s --retries=3 \
    CMD ["python", "-c", "import os, sys, urllib.request; port = os.environ.get('TICTACTOE_PORT', '8000'); sys.exit(0 if urllib.request.urlopen(f'http://127.0.0.1:{port}/healthz', timeout=2).status == 200 else 1)"]
# docker stop sends SIGTERM: uvicorn shuts down gracefully, closing every open WebSocket
# with 1012 (service restart); the clients reconnect and resume on another replica.
STOPSIGNAL SIGTERM
ENTRYPOINT ["tictactoe", "serve", "--host", "0.0.0.0"]
CMD []
