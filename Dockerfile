# tictactoe-server: the multiplayer server as a container image.
#
#   docker build -t tictactoe-server .
#   docker run -p 8000:8000 tictactoe-server                      # one process, rooms in memory
#   docker run -p 8000:8000 -e REDIS_URL=redis://redis:6379/0 tictactoe-server   # shared rooms
#
# Every setting is an environment variable (TICTACTOE_<NAME>, REDIS_URL; see
# docs/operations.md) or a flag appended to the command (docker run ... --workers 4).

# -- build: a wheel of the project, so the runtime image holds no build tools ------------
FROM python:3.11-slim AS build
WORKDIR /src
COPY pyproject.toml README.md ./
COPY core ./core
COPY rooms ./rooms
COPY server ./server
COPY bench ./bench
RUN pip wheel --no-cache-dir --wheel-dir /wheels .

# -- runtime ----------------------------------------------------------------------------
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    TICTACTOE_PORT=8000 \
    TICTACTOE_STATIC_DIR=/app/static
# The wheel holds the Python packages; the browser client is served from /app/static.
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir /wheels/*.whl && rm -rf /wheels \
    && useradd --system --uid 10001 --home-dir /app --no-create-home \
       --shell /usr/sbin/nologin tictactoe
COPY static /app/static
WORKDIR /app
USER tictactoe
EXPOSE 8000
# Liveness only (/healthz): a worker whose Redis is down is alive but not ready, and must
# not be restarted for it; the load balancer watches /readyz for that.
HEALTHCHECK --interval=10s --timeout=3s --start-period=15s --retries=3 \
    CMD ["python", "-c", "import os, sys, urllib.request; port = os.environ.get('TICTACTOE_PORT', '8000'); sys.exit(0 if urllib.request.urlopen(f'http://127.0.0.1:{port}/healthz', timeout=2).status == 200 else 1)"]
# docker stop sends SIGTERM: uvicorn's graceful shutdown; open WebSockets are closed with
# 1001 and the clients resume on another replica.
ENTRYPOINT ["tictactoe", "serve", "--host", "0.0.0.0"]
CMD []
