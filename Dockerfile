# Tabula in a small image: dependencies built in one stage, copied into a slim runtime that runs as a
# non-root user.  Data (the SQLite file and the picture cache) lives in /data, a volume.
#   docker build -t tabula .
#   docker run -d --env-file .env -v tabula-data:/data -p 127.0.0.1:8080:8080 tabula
FROM python:3.11-slim AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /src
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY cogs ./cogs
COPY rules ./rules
COPY render ./render
RUN python -m venv /opt/tabula \
 && /opt/tabula/bin/pip install ".[postgres]" \
 && find /opt/tabula -name "__pycache__" -prune -exec rm -rf {} + \
 && rm -rf /opt/tabula/lib/python3.11/site-packages/pip /opt/tabula/lib/python3.11/site-packages/setuptools

FROM python:3.11-slim
ENV PATH=/opt/tabula/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    MALLOC_ARENA_MAX=2 \
    DATABASE_URL=sqlite+aiosqlite:////data/tabula.db \
    PICTURE_CACHE_DIR=/data/pictures \
    HEALTH_PORT=8080 \
    HEALTH_HOST=0.0.0.0
RUN useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin tabula \
 && mkdir /data && chown tabula:tabula /data
COPY --from=build /opt/tabula /opt/tabula
USER tabula
WORKDIR /data
VOLUME ["/data"]
EXPOSE 8080
# /livez: this process alone (/healthz also fails while another shard of a sharded deployment has no process)
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["python", "-c", "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8080/livez', timeout=4).status != 200)"]
# SIGTERM (docker stop) closes the bot cleanly; it exits well within docker's 10 seconds.
STOPSIGNAL SIGTERM
ENTRYPOINT ["python", "-m", "bot"]
